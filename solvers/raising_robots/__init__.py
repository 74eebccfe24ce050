"""Solvers for raising robots."""
