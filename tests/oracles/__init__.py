"""Test-only oracles: slow, obviously correct versions of the solvers, to check them against."""
