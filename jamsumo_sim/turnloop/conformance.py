"""The conformance kit: checks every game on the turn loop must pass.

Use it from a game's tests::

    from jamsumo_sim.turnloop.conformance import check_game
    def test_conformance():
        check_game(GAME, players=[2, 3, 4, 5], variants=["standard"], seeds=range(20))

It plays random games and checks at every step (or every ``check_every``-th step, for games
whose moves are expensive): legal actions are non-empty, unique and stable; clone and JSON round
trips are equal; hidden information of other seats does not show in an observation; replaying
the history reproduces the state; the same seed gives the same game; every game ends within
``Game.max_game_length``; every recorded chance outcome is the one the driver's documented
derivation from the seed gives, and different seeds give different chance outcomes.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from collections.abc import Iterable, Sequence
from typing import Any

from jamsumo_sim.turnloop.actions import CHANCE, SIMULTANEOUS, Action
from jamsumo_sim.turnloop.agents import Agent, RandomAgent, SeatView
from jamsumo_sim.turnloop.driver import play, step
from jamsumo_sim.turnloop.keys import CHANCE_STREAM, rng_for
from jamsumo_sim.turnloop.serialize import ChanceMismatch, state_from_json
from jamsumo_sim.turnloop.state import Game, State


class ConformanceError(AssertionError):
    pass


def _fail(game: Game, params: dict[str, Any], seed: int, state: State, message: str) -> None:
    raise ConformanceError(
        f"{game.name} players={params.get('players')} variant={params.get('variant')} "
        f"seed={seed} after {len(state.history)} moves: {message}"
    )


def _canonical(state: State) -> str:
    return json.dumps(state.full_state(), sort_keys=True)


def check_node(game: Game, params: dict[str, Any], seed: int, state: State) -> None:
    """All per-node checks on one state."""
    player = state.current_player()
    if player == CHANCE:
        chance = state.chance_outcomes()
        outcome = chance.sample(rng_for(seed, 99, len(state.history)))
        if not chance.is_possible(outcome):
            _fail(game, params, seed, state, "a sampled chance outcome is not possible")
    else:
        seats = state.simultaneous_seats() if player == SIMULTANEOUS else [player]
        if not seats:
            _fail(game, params, seed, state, "a simultaneous node with no participants")
        for seat in seats:
            first = state.legal_actions(seat)
            second = state.legal_actions(seat)
            if not first:
                _fail(game, params, seed, state, f"seat {seat} has no legal actions")
            if first != second:
                _fail(game, params, seed, state, f"seat {seat}'s legal actions are not stable")
            names = [a.name for a in first]
            if len(set(names)) != len(names):
                _fail(game, params, seed, state, f"seat {seat} has duplicate action names")
            if len(set(first)) != len(first):
                _fail(game, params, seed, state, f"seat {seat} has duplicate actions")
    # clone and JSON round trips
    canonical = _canonical(state)
    clone = state.clone()
    if _canonical(clone) != canonical or clone.current_player() != player:
        _fail(game, params, seed, state, "clone differs from the state")
    restored = state_from_json(json.loads(json.dumps(state.to_json())))
    if _canonical(restored) != canonical:
        _fail(game, params, seed, state, "JSON round trip differs from the state")
    if restored.current_player() != player:
        _fail(game, params, seed, state, "JSON round trip changed whose turn it is")
    for seat in range(state.num_players):
        if restored.observation(seat) != state.observation(seat):
            _fail(game, params, seed, state, f"JSON round trip changed seat {seat}'s observation")
    # hidden information: changing what a seat cannot see must not change its observation
    for seat in range(state.num_players):
        other = state.perturb_hidden(seat, rng_for(seed, 98, len(state.history), seat))
        if other is not None and other.observation(seat) != state.observation(seat):
            _fail(game, params, seed, state, f"seat {seat}'s observation shows hidden information")


def documented_outcome(state: State) -> Any:
    """The chance outcome at ``state`` as the driver documents it, computed here independently of
    the driver's own helpers (so a driver that drifts from its documentation is caught)."""
    rng = rng_for(state.seed, CHANCE_STREAM, len(state.history))
    return state.chance_outcomes().sample(rng)


def random_playout(
    game: Game,
    params: dict[str, Any],
    seed: int,
    check_every: int = 1,
) -> State:
    """Play one random game with every check; return the final state."""
    params = game.validate_params(params)
    state = game.new_initial_state(params, seed=seed)
    agents = [RandomAgent(s, game) for s in range(state.num_players)]
    bound = game.max_game_length(params)
    index = 0
    while not state.is_terminal():
        if index % check_every == 0:
            check_node(game, params, seed, state)
        expected = documented_outcome(state).to_json() if state.is_chance_node() else None
        step(state, agents)
        if expected is not None and state.history[-1]["chance"] != expected:
            _fail(
                game, params, seed, state,
                f"the chance outcome {str(state.history[-1]['chance'])[:60]} is not the "
                f"documented derivation from the seed ({str(expected)[:60]})",
            )  # fmt: skip
        index += 1
        if len(state.history) > bound:
            _fail(game, params, seed, state, f"no end within the stated bound of {bound} moves")
    check_node_terminal(game, params, seed, state)
    return state


class FirstMoveAgent(Agent):
    """Always plays the first legal action: its choices depend on nothing but the position, so two
    games differ only where the chance outcomes (the seed) make them differ."""

    kind = "first"

    def act(self, view: SeatView) -> Action:
        return view.legal_actions[0]


def first_chance_outcomes(game: Game, params: dict[str, Any], seed: int, count: int) -> list[Any]:
    """The first ``count`` chance outcomes of a game with ``seed`` in which every seat plays its
    first legal action (fewer if the game ends first)."""
    state = game.new_initial_state(params, seed=seed)
    agents = [FirstMoveAgent(s, game) for s in range(state.num_players)]
    outcomes: list[Any] = []
    bound = game.max_game_length(params)
    while len(outcomes) < count and not state.is_terminal() and len(state.history) < bound:
        step(state, agents)
        entry = state.history[-1]
        if "chance" in entry:
            outcomes.append(entry["chance"])
    return outcomes


def check_seed_matters(
    game: Game, params: dict[str, Any], seeds: Iterable[int] = range(20), count: int = 2
) -> None:
    """Over ``seeds`` the first ``count`` chance outcomes are not all equal: the seed is used.

    Every seat plays its first legal move, so only the seed can make the games differ; stopping
    after a few outcomes keeps this cheap for games whose moves are expensive (JamSumo's first
    outcomes are the dice rolls for the order of play, before any flick).
    """
    params = game.validate_params(params)
    seen = {json.dumps(first_chance_outcomes(game, params, s, count)) for s in seeds}
    if len(seen) < 2:
        raise ConformanceError(
            f"{game.name} players={params.get('players')} variant={params.get('variant')}: "
            "every seed gave the same chance outcomes (the seed is ignored)"
        )


def check_node_terminal(game: Game, params: dict[str, Any], seed: int, state: State) -> None:
    returns = state.returns()
    if len(returns) != state.num_players:
        _fail(game, params, seed, state, "returns() must give one value per seat")
    if state.legal_actions(0) != []:
        _fail(game, params, seed, state, "a terminal state has legal actions")
    try:  # the record check ``replay --verify`` runs: same outcomes from the seed, same end
        restored = state_from_json(json.loads(json.dumps(state.to_json())), check_chance=True)
    except ChanceMismatch as exc:
        _fail(game, params, seed, state, str(exc))
    if _canonical(restored) != _canonical(state) or restored.returns() != returns:
        _fail(game, params, seed, state, "replaying the history does not reproduce the final state")


def history_digest(game_name: str, params: dict[str, Any], seed: int) -> str:
    """Play a random-agent game and return a digest of its history (for the hash-seed check)."""
    from jamsumo_sim.turnloop.registry import get_game

    game = get_game(game_name)
    agents = [RandomAgent(s, game) for s in range(params["players"])]
    result = play(game, agents, seed=seed, params=params)
    return json.dumps(result.state.history, sort_keys=True)


def check_same_seed_same_game(
    game_name: str,
    params: dict[str, Any],
    seed: int,
    setup: str = "",
    hash_seeds: Sequence[str] = ("1", "2"),
) -> None:
    """The same seed gives the same game, also in fresh interpreters with other hash seeds.

    ``setup`` is Python run first in the subprocess (e.g. importing a test fixture game).
    """
    code = (
        f"{setup}\nfrom jamsumo_sim.turnloop.conformance import history_digest\n"
        f"import hashlib\nprint(hashlib.sha256(history_digest({game_name!r}, {params!r}, {seed}).encode()).hexdigest())"
    )
    digests = set()
    for hash_seed in hash_seeds:
        env = dict(os.environ, PYTHONHASHSEED=hash_seed)
        out = subprocess.run(
            [sys.executable, "-c", code], env=env, capture_output=True, text=True, check=False
        )
        if out.returncode != 0:
            raise ConformanceError(f"{game_name}: subprocess failed: {out.stderr.strip()[-400:]}")
        digests.add(out.stdout.strip())
    if len(digests) != 1:
        raise ConformanceError(
            f"{game_name}: the same seed gave different games under PYTHONHASHSEED"
        )


def check_game(
    game: Game,
    players: Iterable[int],
    variants: Iterable[str] | None = None,
    seeds: Iterable[int] = range(10),
    check_every: int = 1,
    hashseed_check: bool = True,
    setup: str = "",
) -> int:
    """Run the whole kit; return the number of games played."""
    played = 0
    variant_list = list(variants) if variants is not None else list(game.variants)
    for variant in variant_list:
        for n in players:
            params = game.validate_params({"players": n, "variant": variant})
            for seed in seeds:
                final = random_playout(game, params, seed, check_every=check_every)
                again = random_playout(game, params, seed, check_every=10**9)
                if again.history != final.history:
                    _fail(game, params, seed, final, "the same seed gave a different game")
                played += 1
    first = game.validate_params({"players": min(players), "variant": variant_list[0]})
    check_seed_matters(game, first)
    if hashseed_check:
        n = min(players) if not isinstance(players, range) else players.start
        check_same_seed_same_game(
            game.name, game.validate_params({"players": n, "variant": variant_list[0]}), 7, setup
        )
    return played
