"""Throughput benchmarks, tournaments between bots with honest statistics, and reports."""
