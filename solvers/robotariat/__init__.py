"""Solvers for robotariat."""
