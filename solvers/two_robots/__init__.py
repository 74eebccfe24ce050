"""Solvers for two robots."""
