"""Build Jumble Jam positions for scenario tests by scripting moves and chance outcomes."""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence

from card_games.jumble_jam import GAME, JumbleJamGame
from card_games.jumble_jam.state import JumbleJamState
from jamsumo_sim.turnloop import Action


def new_state(
    players: int = 2, variant: str = "standard", seed: int = 0, game: JumbleJamGame = GAME
) -> JumbleJamState:
    return game.new_initial_state({"players": players, "variant": variant}, seed=seed)


def deck_for(state: JumbleJamState, cells: Mapping[str, str]) -> list[str]:
    """The deck top that puts ``cells`` (slot name → card id) into the first layout."""
    fill = state.grid.fill_order()
    index = {name: i for i, name in enumerate(state.grid.slot_names)}
    by_slot = {index[name]: cid for name, cid in cells.items()}
    return [by_slot[s] for s in fill if s in by_slot]


def shuffle(
    state: JumbleJamState, deck_top: Sequence[str] = (), orders_top: Sequence[str] = ()
) -> None:
    """Apply the opening shuffles with the given cards on top (the rest in catalog order)."""
    cat = state.cat
    rest = [c for c in (*cat.pastry_ids, *cat.kitty_ids[: state.num_players]) if c not in deck_top]
    state.apply_action(Action.make("shuffle the pastry deck", order=[*deck_top, *rest]))
    others = [o for o in cat.order_ids if o not in orders_top]
    state.apply_action(Action.make("shuffle the orders deck", order=[*orders_top, *others]))


def roll(state: JumbleJamState, face: str) -> None:
    state.apply_action(Action.make(f"die shows {face}", face=face))


def names(state: JumbleJamState) -> list[str]:
    return [a.name for a in state.legal_actions()]


def play(state: JumbleJamState, name: str) -> None:
    """Play the legal move called ``name`` (fails if it is not legal)."""
    matches = [a for a in state.legal_actions() if a.name == name]
    assert matches, f"{name!r} is not legal; legal: {names(state)}"
    state.apply_action(matches[0])


def play_prefix(state: JumbleJamState, prefix: str) -> None:
    matches = [a for a in state.legal_actions() if a.name.startswith(prefix)]
    assert len(matches) == 1, f"{prefix!r} matches {[a.name for a in matches]} of {names(state)}"
    state.apply_action(matches[0])


def give(state: JumbleJamState, seat: int, cards: Sequence[str]) -> None:
    """Move cards from wherever they are (deck, discard, layout, other hands) into a hand."""
    for cid in cards:
        for zone in (state.deck, state.discard, *state.hands):
            if cid in zone:
                zone.remove(cid)
                break
        else:
            slot = state.layout.index(cid)
            state.layout[slot] = None
        state.hands[seat].append(cid)
    state.hands[seat].sort()
    state.invalidate()


def all_cards(state: JumbleJamState) -> Counter[str]:
    """Every pastry and Kitty card in every zone (a card in two zones counts twice)."""
    zones: Counter[str] = Counter(state.deck) + Counter(state.discard)
    zones.update(c for c in state.layout if c is not None)
    for hand in state.hands:
        zones.update(hand)
    if state.building is not None:
        zones.update(c for c, _ in state.building["cards"])
    return zones


def all_orders(state: JumbleJamState) -> Counter[str]:
    zones = Counter(state.order_deck) + Counter(state.display)
    for done in state.completed:
        zones.update(c["order"] for c in done)
    return zones


def to_orders_phase(state: JumbleJamState) -> None:
    """Place every jar on the first free edge so the round reaches *getting orders ready*.

    Each seat first gets a Kitty card, so nobody is passed automatically (a seat with nothing
    to do passes by itself) and the test can set the hands it wants.
    """
    for seat in range(state.num_players):
        kitty = f"kitty-{seat + 1}"
        if kitty not in state.hands[seat]:
            give(state, seat, [kitty])
    while state.phase_name() == "get to work":
        state.apply_action(state.legal_actions()[0])
    while state.phase_name() == "hand limit":
        state.apply_action(state.legal_actions()[0])


def set_hand(state: JumbleJamState, seat: int, cards: Sequence[str]) -> None:
    """Make ``seat``'s hand exactly ``cards`` (its old cards go to the discard pile)."""
    keep = [c for c in state.hands[seat] if c in cards]
    state.discard.extend(c for c in state.hands[seat] if c not in cards)
    state.hands[seat] = keep
    give(state, seat, [c for c in cards if c not in keep])
