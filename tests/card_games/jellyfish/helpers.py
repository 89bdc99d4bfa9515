"""Build Jelly Fish positions for scenario tests (cards always come out of the pile: none invented)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from card_games.jellyfish import GAME
from card_games.jellyfish.state import TURN_STEPS, JellyfishState
from jamsumo_sim.turnloop import CHANCE, Action

# Scenario tests use the 10 x 2 x 4 split: the rules do not depend on the split, and its ten
# characters give every scenario enough different ones (the standard split has four).
VARIANT = "10x2x4"
DECK = GAME.decks[VARIANT]
# kinds by position, so tests never depend on the assumed names (kind = character.colour)
CHARS = [c.key for c in DECK.characters]
COLOURS = list(DECK.colours)


def kind(char: int, colour: int = 0) -> str:
    return f"{CHARS[char]}.{COLOURS[colour]}"


A, A2, B, C, D, E = kind(0), kind(0, 1), kind(1), kind(2), kind(3), kind(4)


def take(state: JellyfishState, k: str) -> str:
    """Remove the first card of kind ``k`` from the unknown pile and return it."""
    card = next(c for c in state.pile if DECK.kind_of[c] == k)
    state.pile.remove(card)
    return card


def build(
    players: int,
    tables: Mapping[int, Mapping[str, Any]],
    active: int = 0,
    step: str = "draw",
    seed: int = 0,
) -> JellyfishState:
    """A position: ``tables[seat] = {"partial": {kind: n}, "covers": {kind: cover_kind}, "sets": [kind]}``.

    Seat ``active`` is about to do ``step`` (the rest of its turn follows).
    """
    state = GAME.new_initial_state({"players": players, "variant": VARIANT}, seed=seed)
    state.tasks = []
    size = state.set_size
    for seat, spec in tables.items():
        for k, n in spec.get("partial", {}).items():
            state.groups[seat][k] = [take(state, k) for _ in range(n)]
        for k, cover_kind in spec.get("covers", {}).items():
            state.covers[seat][k] = {"card": take(state, cover_kind), "public": False}
        for k in spec.get("sets", []):
            state.completed[seat][k] = [take(state, k) for _ in range(size)]
    state.turn_count = 1
    state.turns.skip_to(active)
    state.tasks = [{"kind": s} for s in TURN_STEPS[TURN_STEPS.index(step) :]]
    state._settle()
    return state


def draw(state: JellyfishState, k: str) -> str:
    """Resolve the chance node with a card of kind ``k``; return the card."""
    assert state.current_player() == CHANCE
    card = next(c for c in state.pile if DECK.kind_of[c] == k)
    state.apply_action(GAME.outcome[card])
    return card


def act(state: JellyfishState, name: str) -> None:
    """Play the legal move called ``name``."""
    legal = {a.name: a for a in state.legal_actions()}
    assert name in legal, f"{name!r} not in {sorted(legal)}"
    state.apply_action(legal[name])


def names(state: JellyfishState) -> list[str]:
    return [a.name for a in state.legal_actions()]


def label(k: str) -> str:
    return DECK.label(k)


def action(state: JellyfishState, name: str) -> Action:
    return next(a for a in state.legal_actions() if a.name == name)
