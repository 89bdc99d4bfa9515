"""Fresh match seeds: drawn from the operating system when no ``--seed`` is given, and said.

A fixed default seed made every game the same game, and let any seat of a hosted card game
rebuild the hidden cards from it. A fresh seed is still stated (on stderr, and in ``--json``
output and the saved record by the caller) so the game can be replayed with ``--seed``.
"""

from __future__ import annotations

import secrets
import sys

from jamsumo_sim.limits import MAX_SEED

SEED_HELP = "0 to 2**64-1 (default: a fresh random seed, stated on stderr)"


def fresh_seed() -> int:
    """A seed in 0 .. 2**64-1 from the operating system's randomness (not a global RNG)."""
    return secrets.randbits(MAX_SEED.bit_length())


def seed_line(program: str, seed: int, what: str = "game") -> str:
    """The line that states a drawn seed and how to play the same ``what`` again."""
    return f"{program}: seed {seed} (replay this {what} with --seed {seed})"


def chosen_seed(given: int | None, program: str, what: str = "game") -> int:
    """``given`` (``--seed``) as it is, else a fresh seed stated in one line on stderr.

    Call it once the arguments are checked and just before the game starts, so a bad argument's
    error stays the only line printed.
    """
    if given is not None:
        return given
    seed = fresh_seed()
    print(seed_line(program, seed, what), file=sys.stderr, flush=True)
    return seed
