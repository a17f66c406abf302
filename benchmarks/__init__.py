"""Benchmarks: throughput against PettingZoo classic, search speed, training throughput, and the
trace that fingerprints seeded games. Repository-only (not installed); run from the checkout."""
