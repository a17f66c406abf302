"""Research tools and experiments behind claims in ``benchmarks/RESULTS.md`` (see README.md here).

Repository-only: not installed with the package.
"""
