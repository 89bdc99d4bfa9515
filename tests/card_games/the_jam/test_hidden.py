"""Hidden information: hands, task cards, the deck and (travel) recipe piles stay secret."""

from __future__ import annotations

import json

import pytest

from card_games.the_jam import GAME
from card_games.the_jam.cards import SPECIAL
from card_games.the_jam.moves import NO_TRADE, tables
from jamsumo_sim.turnloop import RandomAgent, step
from tests.card_games.the_jam.helpers import TradingAgent

GAME_TABLES = tables(GAME.cards)


def _positions(players: int, variant: str, seed: int, every: int = 3):
    params = GAME.validate_params({"players": players, "variant": variant})
    state = GAME.new_initial_state(params, seed=seed)
    # every other seat opens trades whenever it may, so trades (and travel blind swaps) in
    # progress are among the positions checked
    agents = [(TradingAgent if s % 2 == 0 else RandomAgent)(s, GAME) for s in range(players)]
    index = 0
    while not state.is_terminal():
        step(state, agents)
        index += 1
        if index % every == 0 and not state.is_terminal():
            yield state


def _visible_labels(obs: dict) -> set[str]:
    cards = GAME.cards.cards
    ids = list(obs["basket"]) + list(obs["hand"] or [])
    for made in obs["made"]:
        for r in made:
            ids += [r["card"], *r["under"]]
    labels = {cards[c].label for c in ids if c in cards}  # not a face-down ingredient's fruit
    text = " ".join(obs["log"])
    return labels | {lab for lab in (c.label for c in cards.values()) if lab in text}


@pytest.mark.parametrize(("players", "variant"), [(2, "standard"), (3, "travel"), (4, "standard")])
def test_observation_and_render_show_no_hidden_cards(players: int, variant: str) -> None:
    checked = trading = 0
    for state in _positions(players, variant, seed=5):
        trading += state.trade is not None
        for seat in range(players):
            obs = state.observation(seat)
            blob = json.dumps(obs)
            secret = [c for s in range(players) if s != seat for c in state.hands[s]] + list(
                state.deck
            )
            if variant == "travel":
                secret += [r["card"] for s in range(players) if s != seat for r in state.pile(s)]
                secret = [c for c in secret if c not in (state.auction or {}).get("building", [])]
                if state.auction:
                    secret = [
                        c for c in secret if all(c not in v for v in state.auction["bids"].values())
                    ]
            for cid in secret:
                assert cid not in blob, f"seat {seat} sees {cid}"
            others_tasks = [
                t for s in range(players) if s != seat for v in state.tasks[s].values() for t in v
            ]
            assert not set(others_tasks) & set(obs["tasks"])
            assert obs["deck"] == len(state.deck) and "deck_order" not in obs
            # the log tail is exactly the tail of what this seat may read
            assert obs["log"] == state.log_for(seat)[-len(obs["log"]) :]
            text = GAME.render(obs, seat)
            visible = _visible_labels(obs)
            for cid in (c for s in range(players) if s != seat for c in state.hands[s]):
                label = GAME.cards.cards[cid].label
                if label not in visible:
                    assert label not in text, f"seat {seat}'s view shows {label}"
            checked += 1
    assert checked > 20 and trading > 0


def test_spectator_sees_no_hand_or_tasks() -> None:
    for state in _positions(2, "standard", seed=2, every=40):
        obs = state.observation(None)
        assert obs["hand"] is None and obs["tasks"] is None
        blob = json.dumps(obs)
        for c in [c for h in state.hands for c in h]:
            assert c not in blob


def test_perturbation_changes_hidden_state_only() -> None:
    import numpy as np

    for state in _positions(3, "standard", seed=1, every=30):
        other = state.perturb_hidden(0, np.random.default_rng(3))
        assert other is not None
        assert other.observation(0) == state.observation(0)
        assert other.full_state() != state.full_state()


def test_final_observation_reveals_tasks_and_breakdown() -> None:
    from jamsumo_sim.turnloop import play

    result = play(
        GAME,
        [RandomAgent(s, GAME) for s in range(2)],
        seed=3,
        params={"players": 2, "variant": "travel"},
    )
    final = result.state.observation(0)["final"]
    assert len(final["tasks"][1]) == 6
    assert [b["total"] for b in final["breakdown"]] == result.returns


@pytest.mark.parametrize("variant", GAME.variants)
def test_a_seat_out_of_turn_can_check_no_move(variant: str) -> None:
    """Checking a move for a seat that is not to move says nothing about what the mover holds."""
    puts = [GAME_TABLES.puts[cid] for cid, c in GAME.cards.cards.items() if c.kind != SPECIAL]
    checked = 0
    for state in _positions(3, variant, seed=7, every=2):
        mover = state.current_player()
        if mover < 0:
            continue
        probes = [*state.legal_actions(), *puts, NO_TRADE]
        for seat in range(3):
            if seat != mover:
                assert not any(state.is_legal(seat, a) for a in probes)
                assert state.parse_action(seat, "no trade") is None
                checked += 1
    assert checked > 40


@pytest.mark.parametrize(("players", "variant"), [(2, "standard"), (4, "travel")])
def test_an_ingredient_from_hand_shows_others_its_fruit_only(players: int, variant: str) -> None:
    # "the ingredient card is placed face down": the player's own card played under a recipe
    # taken from the basket; the others see its fruit half, never its recipe half
    cards = GAME.cards.cards
    params = GAME.validate_params({"players": players, "variant": variant})
    found = 0
    for seed in range(4):
        state = GAME.new_initial_state(params, seed=seed)
        agents = [RandomAgent(s, GAME) for s in range(players)]
        while not state.is_terminal():
            before = len(state.log)
            step(state, agents)
            entry = state.history[-1]
            args = entry.get("action", {}).get("args", {})
            if args.get("play") != "jam" or args.get("source") != "basket":
                continue
            found += 1
            mover, iid = entry["seat"], args["ingredient"]
            secret, fruit = cards[iid].label, cards[iid].bottom
            for seat in [None, *(s for s in range(players) if s != mover)]:
                # lines only for this seat (its own draws) may name another copy of the card
                shown = [e.text for e in state.log[before:] if e.visible_to(seat)]
                shared = [e.text for e in state.log[before:] if e.visible_to(seat) and e.to is None]
                assert any(f"face-down {fruit} ingredient" in line for line in shown), shown
                assert not any(secret in line for line in shared), f"{seat}: {shared}"
                obs = state.observation(seat)
                assert iid not in json.dumps(obs), f"seat {seat} sees {iid}"
                mine = next(r for r in obs["made"][mover] if r["card"] == args["recipe"])
                assert mine["under"] == [f"face-down:{fruit}"]
                assert f"face-down card ({fruit} ingredient)" in GAME.render(obs, seat)
            own = [e.text for e in state.log[before:] if e.visible_to(mover)]
            assert any(secret in line for line in own), own
    assert found > 3
