"""The four card games as OpenSpiel Python games (``python_<game>``), over the shared turn loop.

What the registration states, and why it is true:

- dynamics SEQUENTIAL: a simultaneous node (JumbleJack's pointing) is asked seat by seat, each
  seat's choice hidden from the others until all have chosen (imperfect information keeps it
  simultaneous in effect);
- chance EXPLICIT_STOCHASTIC: every chance node lists its outcomes with probabilities. A die or a
  draw is one node; a shuffle (far too many orders to list) is dealt as a run of chance nodes,
  each drawing the next item uniformly from those left (an outcome per distinct item, weighted by
  its copies), which gives every order the probability of a uniform shuffle; the whole order is
  then applied to the turn loop as its one shuffle outcome;
- information IMPERFECT_INFORMATION (hands, decks, tasks are hidden);
- utility CONSTANT_SUM, sum 1: a winner gets 1 (k tied winners 1/k each), everyone else 0;
- reward model TERMINAL (nothing is paid before the end).

Actions are the fixed catalog indices of :mod:`card_games.envs.catalog`, shared with the
PettingZoo environments. The information state is the seat's view with its whole log and its own
moves (perfect recall); the observation is the view without them.

Tensors: the observation tensor is the seat's numeric view of :mod:`card_games.envs.features`
(the PettingZoo ``observation`` vector, shape ``(features.size(game),)``); the information-state
tensor is that vector followed by how many times the seat made each catalog move (its own pending
simultaneous choice included), shape ``(features.size(game) + len(catalog),)``. That count is a
summary of the seat's own history, not a full record of its order (the strings have the order).
Both are built from the seat's own view only, so they never hold hidden information.

``clone()`` is OpenSpiel's own (a deep copy: history and move number kept; the turn-loop state
is copied by its fast ``clone``). ``resample_from_infostate`` deals what the seat cannot see
afresh (see :meth:`CardSpielState.resample_for`), so OpenSpiel's ``ISMCTSBot`` runs on every game.
"""

from __future__ import annotations

import json
from collections import Counter
from typing import Any

import numpy as np

from card_games.envs import features
from card_games.envs.card_env import win_shares
from card_games.envs.catalog import Catalog, catalog
from jamsumo_sim.envs.deps import require
from jamsumo_sim.turnloop import Action, Game, Shuffle, State, get_game
from jamsumo_sim.turnloop.driver import seeded_outcome

pyspiel = require("pyspiel", "the OpenSpiel card games")

PREFIX = "python_"
# Most outcomes of one chance node (a card of the biggest pile, the next item of a shuffle): a
# bound over every game's card data, checked at each node.
MAX_CHANCE_OUTCOMES = 512


def short_name(game: str) -> str:
    return PREFIX + game


def game_type(game: str) -> Any:
    g = get_game(game)
    return pyspiel.GameType(
        short_name=short_name(game),
        long_name=f"Python {g.title}",
        dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
        chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
        information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
        utility=pyspiel.GameType.Utility.CONSTANT_SUM,
        reward_model=pyspiel.GameType.RewardModel.TERMINAL,
        max_num_players=g.max_players,
        min_num_players=g.min_players,
        provides_information_state_string=True,
        provides_information_state_tensor=True,
        provides_observation_string=True,
        provides_observation_tensor=True,
        parameter_specification={"players": g.min_players, "variant": g.variants[0]},
    )


class CardSpielGame(pyspiel.Game):  # type: ignore[misc,name-defined]
    """One card game with fixed players and variant (OpenSpiel game parameters)."""

    game_name = ""  # set by the registered subclass

    def __init__(self, params: dict[str, Any] | None = None) -> None:
        turnloop = get_game(self.game_name)
        spec = game_type(self.game_name)
        merged = {**spec.parameter_specification, **(params or {})}
        match_params = turnloop.validate_params(
            {"players": int(merged["players"]), "variant": str(merged["variant"])}
        )
        actions = catalog(self.game_name)
        n = int(match_params["players"])
        info = pyspiel.GameInfo(
            num_distinct_actions=len(actions),
            max_chance_outcomes=MAX_CHANCE_OUTCOMES,
            num_players=n,
            min_utility=0.0,
            max_utility=1.0,
            utility_sum=1.0,
            # the turn loop's bound counts a joint move once (asked seat by seat: n moves) and a
            # shuffle once (dealt item by item: one node per card shuffled)
            max_game_length=turnloop.max_game_length(match_params)
            * max(n, cards_shuffled(turnloop, match_params)),
        )
        super().__init__(spec, info, merged)

    # Read from the class and the game parameters, never stored on the object: OpenSpiel may hand
    # states a fresh Python wrapper of this game (one made in C++, without our attributes).
    @property
    def turnloop(self) -> Game:
        return get_game(self.game_name)

    @property
    def catalog(self) -> Catalog:
        return catalog(self.game_name)

    @property
    def match_params(self) -> dict[str, Any]:
        params = self.get_parameters()
        return self.turnloop.validate_params(
            {"players": int(params["players"]), "variant": str(params["variant"])}
        )

    def new_initial_state(self) -> CardSpielState:
        return CardSpielState(self)

    def make_py_observer(self, iig_obs_type: Any = None, params: Any = None) -> CardObserver:
        recall = iig_obs_type is not None and iig_obs_type.perfect_recall
        return CardObserver(self.game_name, perfect_recall=recall)


def cards_shuffled(game: Game, params: dict[str, Any]) -> int:
    """Items shuffled while a match is set up (every card of the game: a later reshuffle only
    re-uses some of them), so the longest shuffle a match can deal item by item."""
    state = game.new_initial_state(params, seed=0)
    total = 0
    while state.is_chance_node():
        chance = state.chance_outcomes()
        if isinstance(chance, Shuffle):
            total += len(chance.items)
        state.apply_action(seeded_outcome(state))
    return min(max(total, 1), MAX_CHANCE_OUTCOMES)


class _Box:
    """Holds the turn-loop state: OpenSpiel clones a Python state by deep-copying its attributes,
    and the games' own ``clone`` is many times faster than a generic deep copy."""

    __slots__ = ("state",)

    def __init__(self, state: State) -> None:
        self.state = state

    def __deepcopy__(self, memo: dict[int, Any]) -> _Box:
        return _Box(self.state.clone())


class CardSpielState(pyspiel.State):  # type: ignore[misc,name-defined]
    def __init__(self, game: CardSpielGame, inner: State | None = None) -> None:
        super().__init__(game)
        self._box = _Box(inner or game.turnloop.new_initial_state(game.match_params))
        self.pending: dict[int, Action] = {}  # moves chosen so far at a simultaneous node
        self.drawn: list[str] = []  # the shuffle being dealt, item by item

    @property
    def inner(self) -> State:
        return self._box.state

    @property
    def spiel_game(self) -> CardSpielGame:
        return self.get_game()  # type: ignore[no-any-return]

    # -- the turn loop underneath ------------------------------------------------------------------
    def _chance_table(self) -> list[tuple[Any, float]]:
        """This chance node's outcomes: turn-loop actions, or the next item of a shuffle."""
        chance = self.inner.chance_outcomes()
        listed = chance.outcomes()
        if listed is not None:
            table: list[tuple[Any, float]] = list(listed)
        elif isinstance(chance, Shuffle):
            left = Counter(chance.items)
            left.subtract(self.drawn)
            total = sum(left.values())
            table = [(item, k / total) for item, k in left.items() if k > 0]
        else:  # pragma: no cover - every game's chance is listed or a Shuffle
            raise TypeError(f"{type(chance).__name__}: chance outcomes cannot be listed")
        if len(table) > MAX_CHANCE_OUTCOMES:
            raise ValueError(f"{len(table)} chance outcomes exceed {MAX_CHANCE_OUTCOMES}")
        return table

    def chance_outcomes(self) -> list[tuple[int, float]]:
        return [(i, p) for i, (_, p) in enumerate(self._chance_table())]

    def _apply_chance(self, index: int) -> None:
        outcome = self._chance_table()[index][0]
        if isinstance(outcome, Action):
            self.inner.apply_action(outcome)
            return
        chance = self.inner.chance_outcomes()
        assert isinstance(chance, Shuffle)
        self.drawn.append(outcome)
        if len(self.drawn) == (len(chance.items) if chance.take is None else chance.take):
            order, self.drawn = tuple(self.drawn), []
            self.inner.apply_action(Action(chance.label, (("order", order),)))

    def _to_move(self) -> list[int]:
        if self.inner.is_simultaneous_node():
            return [s for s in self.inner.simultaneous_seats() if s not in self.pending]
        return [self.inner.current_player()]

    def _moves_of(self, seat: int) -> dict[int, Action]:
        return {self.spiel_game.catalog.action_index(a): a for a in self.inner.legal_actions(seat)}

    # -- pyspiel.State ---------------------------------------------------------------------------
    def current_player(self) -> int:
        if self.inner.is_terminal():
            return pyspiel.PlayerId.TERMINAL
        if self.inner.is_chance_node():
            return pyspiel.PlayerId.CHANCE
        return self._to_move()[0]

    def _legal_actions(self, player: int) -> list[int]:
        return sorted(self._moves_of(player))

    def _apply_action(self, action: int) -> None:
        if self.inner.is_chance_node():
            self._apply_chance(int(action))
            return
        seat = self.current_player()
        move = self._moves_of(seat)[int(action)]
        if self.inner.is_simultaneous_node():
            self.pending[seat] = move
            if self._to_move():
                return
            joint, self.pending = self.pending, {}
            self.inner.apply_actions(joint)
        else:
            self.inner.apply_action(move)

    def _action_to_string(self, player: int, action: int) -> str:
        if player == pyspiel.PlayerId.CHANCE:
            outcome = self._chance_table()[int(action)][0]
            return f"chance: {outcome.name if isinstance(outcome, Action) else outcome}"
        return self.spiel_game.catalog.names[int(action)]

    def is_terminal(self) -> bool:
        return self.inner.is_terminal()

    def returns(self) -> list[float]:
        if not self.inner.is_terminal():
            return [0.0] * self.inner.num_players
        return win_shares(self.inner)

    def __str__(self) -> str:
        return json.dumps(self.inner.full_state(), sort_keys=True, default=str)

    def resample_from_infostate(self, player_id: int, probability_sampler: Any) -> CardSpielState:
        """OpenSpiel's hook (``ISMCTSBot``): a state with ``player_id``'s information state, the
        rest dealt at random from a generator seeded by the sampler. Its history starts afresh
        (the real chance outcomes would tell what the seat cannot know)."""
        seed = int(float(probability_sampler()) * 2**53)
        return self.resample_for(int(player_id), np.random.default_rng(seed))

    def resample_for(self, seat: int, rng: np.random.Generator) -> CardSpielState:
        """A state ``seat`` cannot tell from this one: what it cannot see re-dealt at random
        (the game's ``perturb_hidden``), and other seats' pending simultaneous choices forgotten
        and re-drawn. (Future chance is drawn by the search itself, never from the match seed.)"""
        inner = self.inner.perturb_hidden(seat, rng) or self.inner.clone()
        out = CardSpielState(self.spiel_game, inner)
        for other, move in self.pending.items():
            if other == seat:
                out.pending[other] = move
            else:  # another seat's hidden choice: any of its legal moves
                legal = inner.legal_actions(other)
                out.pending[other] = legal[int(rng.integers(len(legal)))]
        return out


class CardObserver:
    """Observation and information-state tensors and strings of one seat (see the module doc)."""

    def __init__(self, game: str, perfect_recall: bool) -> None:
        self.game = game
        self.perfect_recall = perfect_recall
        self.width = features.size(game)
        moves = len(catalog(game)) if perfect_recall else 0
        self.tensor = np.zeros(self.width + moves, np.float32)
        self.dict: dict[str, Any] = {"observation": self.tensor[: self.width]}
        if perfect_recall:
            self.dict["my_moves"] = self.tensor[self.width :]

    def set_from(self, state: CardSpielState, player: int) -> None:
        view = state.inner.observation(player)
        self.tensor[: self.width] = features.encode(self.game, view, player)
        if self.perfect_recall:
            counts = self.dict["my_moves"]
            counts[:] = 0.0
            index = catalog(self.game).index
            for name in own_moves(state, player):
                counts[index[name]] += 1.0

    def string_from(self, state: CardSpielState, player: int) -> str:
        view = state.inner.observation(player)
        if not self.perfect_recall:
            view.pop("log", None)
            return json.dumps(view, sort_keys=True, separators=(",", ":"), default=str)
        view["my_moves"] = own_moves(state, player)
        return json.dumps(view, sort_keys=True, separators=(",", ":"), default=str)


def own_moves(state: CardSpielState, player: int) -> list[str]:
    """The names of the moves ``player`` made, in order (a pending simultaneous choice last)."""
    own = [
        e["action"]["name"] if "action" in e else e["joint"].get(str(player), {}).get("name")
        for e in state.inner.history
        if e.get("seat") == player or str(player) in e.get("joint", {})
    ]
    chosen = state.pending.get(player)
    return own + ([chosen.name] if chosen is not None else [])


def register(game: str) -> type[CardSpielGame]:
    cls = type(f"{game.title().replace('_', '')}SpielGame", (CardSpielGame,), {"game_name": game})
    pyspiel.register_game(game_type(game), cls)
    return cls
