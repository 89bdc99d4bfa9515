"""Bounds on command-line values shared by every command (seeds, counts), with one-line errors."""

from __future__ import annotations

import argparse
import datetime
import math
from collections.abc import Callable
from typing import Any

from jamsumo_sim.errors import UserError

# A match seed feeds numpy's SeedSequence as one 64-bit word: larger seeds would be silently folded.
MAX_SEED = 2**64 - 1


# Whole numbers beyond 2**53 lose digits as floats (and float() of a huge int overflows).
MAX_EXACT_INT = 2**53


def as_finite(value: Any) -> float | None:
    """``value`` as a float if it is a finite number from a JSON/TOML file, else None: bools are not
    numbers, and ints beyond 2**53 are refused before any float arithmetic can overflow on them."""
    if isinstance(value, bool) or not isinstance(value, int | float):
        return None
    if isinstance(value, int) and abs(value) > MAX_EXACT_INT:
        return None
    v = float(value)
    return v if math.isfinite(v) else None


def shown(value: Any, width: int = 30) -> str:
    """A value from a file or the command line as an error line shows it: text quoted, a TOML
    date or time in its ISO form (not Python's repr), a list or table by its kind; cut to ``width``."""
    if isinstance(value, datetime.date | datetime.time):
        return value.isoformat()[:width]
    if isinstance(value, list | tuple):
        return f"a list of {len(value)}"
    if isinstance(value, dict):
        return "a table"
    return repr(value)[:width] if isinstance(value, str) else str(value)[:width]


def check_seed(value: Any, where: str = "--seed") -> int:
    """``value`` as a seed in 0 .. 2**64-1; a one-line UserError otherwise (bools are not seeds)."""
    if isinstance(value, bool) or not isinstance(value, int):
        raise UserError(f"{where} must be a whole number from 0 to 2**64-1, not {shown(value)}")
    if not 0 <= value <= MAX_SEED:
        raise UserError(f"{where} must be from 0 to 2**64-1, not {shown(value)}")
    return value


def seed_arg(text: str) -> int:
    """argparse ``type=`` for --seed: the same bound as :func:`check_seed` (argparse's usage error)."""
    try:
        value = int(text.strip(), 10) if len(text) <= 30 else None
    except ValueError:
        value = None
    try:
        if value is None:
            raise UserError(f"must be a whole number from 0 to 2**64-1, not {text[:30]!r}")
        return check_seed(value, "the seed")
    except UserError as exc:
        raise argparse.ArgumentTypeError(str(exc)) from None


def check_count(value: Any, where: str, low: int, high: int) -> int:
    """An integer count in ``low .. high`` (e.g. --rounds, --frames); a one-line UserError otherwise."""
    if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
        raise UserError(f"{where} must be a whole number from {low} to {high}, not {shown(value)}")
    return value


def count_arg(low: int, high: int) -> Callable[[str], int]:
    """An argparse ``type=`` for a whole number in ``low .. high`` (e.g. --frames)."""

    def parse(text: str) -> int:
        try:
            return check_count(int(text) if len(text) <= 30 else None, "N", low, high)
        except (ValueError, UserError):
            raise argparse.ArgumentTypeError(
                f"must be a whole number from {low} to {high}, not {text[:30]!r}"
            ) from None

    return parse
