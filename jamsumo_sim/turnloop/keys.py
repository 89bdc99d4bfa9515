"""The keys of a match's random streams, derived from its one seed: each chance node and each
agent decision gets its own generator, keyed by its position in the history, so a resumed match
continues exactly.  Part of the record format (``replay --verify`` re-derives every outcome)."""

from __future__ import annotations

from functools import lru_cache
from typing import TYPE_CHECKING

import numpy as np

from jamsumo_sim.errors import UserError
from jamsumo_sim.limits import MAX_SEED

if TYPE_CHECKING:
    from jamsumo_sim.turnloop.state import State

# Streams of the match generator.
# The derivation of every chance outcome is part of the record format (verify re-derives it):
#   outcome = state.chance_outcomes().sample(rng_for(seed, CHANCE_STREAM, len(state.history)))
CHANCE_STREAM = 0
_AGENT_STREAM = 1


_MASK64 = (1 << 64) - 1


def _splitmix64(x: int) -> int:
    """One round of SplitMix64: a fast, well-mixed, platform-independent integer hash."""
    x = (x + 0x9E3779B97F4A7C15) & _MASK64
    x = ((x ^ (x >> 30)) * 0xBF58476D1CE4E5B9) & _MASK64
    x = ((x ^ (x >> 27)) * 0x94D049BB133111EB) & _MASK64
    return x ^ (x >> 31)


def mix_key(seed: int, *keys: int) -> int:
    """A 64-bit key for (seed, keys...): the same numbers give the same key on every machine."""
    if not 0 <= seed <= MAX_SEED:  # larger seeds would fold onto smaller ones
        raise UserError(f"a seed must be a whole number from 0 to 2**64-1, not {str(seed)[:30]}")
    h = _splitmix64(seed & _MASK64)
    for key in keys:
        h = _splitmix64(h ^ (key & _MASK64))
    return h


def rng_for(seed: int, *keys: int) -> np.random.Generator:
    """The generator for one use within a match (same seed and keys → same numbers)."""
    return np.random.Generator(np.random.PCG64(mix_key(seed, *keys)))


@lru_cache(maxsize=256)
def _agent_prefix(seed: int, seat: int) -> int:
    return mix_key(seed, _AGENT_STREAM, seat)


def agent_key(state: State, seat: int) -> int:
    """The 64-bit key of the current decision of ``seat`` (what ``agent_rng`` is seeded from).

    Equal to ``mix_key(seed, _AGENT_STREAM, seat, len(history))``; the prefix is cached because
    the random agent asks for a key on every move.
    """
    return _splitmix64(_agent_prefix(state.seed, seat) ^ len(state.history))


def agent_rng(state: State, seat: int) -> np.random.Generator:
    return np.random.Generator(np.random.PCG64(agent_key(state, seat)))
