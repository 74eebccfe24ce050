"""Exact numbers as the API shows them, and chance nodes as (outcome, Fraction) lists."""
from __future__ import annotations

from collections.abc import Hashable, Iterable
from fractions import Fraction
from typing import TypeVar

T = TypeVar("T", bound=Hashable)

Distribution = list[tuple[T, Fraction]]


def exact(value: Fraction | int) -> dict:
    """{"exact": "n/d", "approx": float}: the API's form of a probability or a rational value."""
    f = value if type(value) is Fraction else Fraction(value)
    n, d = f.numerator, f.denominator
    return {"exact": str(n) if d == 1 else f"{n}/{d}", "approx": round(n / d, 6)}  # n / d is float(f)


def parse_fraction(text: str | int | float) -> Fraction:
    """Read "2", "1/3", "0.5" or a number; raise ValueError on anything else (incl. zero denominators)."""
    if isinstance(text, bool):
        raise ValueError("a number is expected, not true/false")
    try:
        return Fraction(str(text)) if isinstance(text, float) else Fraction(text)
    except (ValueError, ZeroDivisionError, OverflowError, TypeError) as e:
        # inf, nan, "1/0", "abc", None: all mean the same thing to a player
        raise ValueError(f"{text!r} is not a number or a fraction like 1/3") from e


def merge(outcomes: Iterable[tuple[T, Fraction]]) -> Distribution:
    """Sum the probabilities of equal outcomes, keeping first-seen order."""
    total: dict[T, Fraction] = {}
    for outcome, p in outcomes:
        total[outcome] = total.get(outcome, Fraction(0)) + p
    return list(total.items())


def uniform(items: Iterable[T]) -> Distribution:
    items = list(items)
    return merge((x, Fraction(1, len(items))) for x in items)
