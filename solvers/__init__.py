"""Pure solvers: no Flask here, plain dataclasses and Fractions in and out."""
