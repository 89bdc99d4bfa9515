"""One PettingZoo AEC environment class serving the four card games.

Seats are agents ``player_0`` … ``player_{n-1}``. Chance nodes (shuffles, deals, die rolls) are
resolved inside the environment from the match seed exactly as ``card-games play --seed`` does,
so ``reset(seed=s)`` starts the same match. A simultaneous node (JumbleJack's pointing) is asked
seat by seat; a seat never sees the choices already made, and the moves apply together once every
seat has chosen. The observation is ``{"observation": float32 vector, "action_mask": int8}``, the
vector laid out field by field in :mod:`card_games.envs.features` (``describe(game)``); the same
view as JSON text is ``observe_text(agent)``. Only the selected agent (``agent_selection``) gets
a non-zero mask; every other agent's is all zeros, at the pointing too (a seat still to point is
not due until it is selected, one that has pointed is due no more).
Rewards come at the end only: a winner gets 1 (a shared win 1/k), the others 0;
``infos[agent]["returns"]`` then holds the game's own scores.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from card_games.envs import features
from card_games.envs.catalog import Catalog, catalog
from card_games.envs.encoding import text
from jamsumo_sim.envs.aec import (
    agent_name,
    end_episode,
    finish_step,
    match_seed,
    render_text,
    start_episode,
    win_shares,  # noqa: F401 (card_games.ismcts and card_games.openspiel import it from here)
)
from jamsumo_sim.envs.deps import require
from jamsumo_sim.errors import UserError
from jamsumo_sim.turnloop import Action, State, get_game
from jamsumo_sim.turnloop.driver import seeded_outcome

pettingzoo = require("pettingzoo")
spaces = require("gymnasium.spaces")
agent_selector = require("pettingzoo.utils").AgentSelector


class CardGameEnv(pettingzoo.AECEnv):  # type: ignore[misc,name-defined]
    metadata: dict[str, Any] = {"render_modes": ["human", "ansi"], "is_parallelizable": False}

    def __init__(
        self,
        game: str,
        players: int | None = None,
        variant: str | None = None,
        render_mode: str | None = None,
        max_cycles: int | None = None,
    ) -> None:
        super().__init__()
        self.game = get_game(game)
        self.metadata = {**self.metadata, "name": f"{game}_v0"}
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise UserError(f"{game}_v0: render_mode {render_mode!r} is not one of human, ansi")
        self.render_mode = render_mode
        params: dict[str, Any] = {"players": players or self.game.min_players}
        if variant is not None:
            params["variant"] = variant
        self.params = self.game.validate_params(params)
        self.catalog: Catalog = catalog(game)
        n = int(self.params["players"])
        self.possible_agents = [agent_name(s) for s in range(n)]
        self.max_cycles = max_cycles
        mask = spaces.Box(0, 1, shape=(len(self.catalog),), dtype=np.int8)
        obs = spaces.Box(0.0, features.HIGH, shape=(features.size(game),), dtype=np.float32)
        self.observation_spaces = {
            a: spaces.Dict({"observation": obs, "action_mask": mask}) for a in self.possible_agents
        }
        self.action_spaces = {a: spaces.Discrete(len(self.catalog)) for a in self.possible_agents}
        self.state_: State | None = None
        self._rng = np.random.default_rng()
        self._pending: dict[int, Action] = {}  # moves chosen so far at a simultaneous node
        self._moves = 0

    def observation_space(self, agent: str) -> Any:
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> Any:
        return self.action_spaces[agent]

    # -- the match ------------------------------------------------------------------------------
    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        self._rng, seed = match_seed(self._rng, seed)
        self.state_ = self.game.new_initial_state(self.params, seed=seed)
        start_episode(self)
        self._pending = {}
        self._moves = 0
        self._advance()

    @property
    def match(self) -> State:
        if self.state_ is None:
            raise UserError(f"{self.metadata['name']}: call reset() before using the environment")
        return self.state_

    def seat_of(self, agent: str) -> int:
        return self.possible_agents.index(agent)

    def _to_move(self) -> list[int]:
        """The seats that still have to choose at the current decision."""
        state = self.match
        if state.is_simultaneous_node():
            return [s for s in state.simultaneous_seats() if s not in self._pending]
        return [state.current_player()]

    def _advance(self) -> None:
        """Play chance outcomes from the match seed up to the next decision, then select its seat."""
        state = self.match
        while state.is_chance_node():
            state.apply_action(seeded_outcome(state))
        if state.is_terminal():
            end_episode(self, state)
            return
        self.agent_selection = agent_name(self._to_move()[0])

    def legal_actions(self, agent: str) -> list[Action]:
        state = self.match
        if state.is_terminal() or agent != self.agent_selection:
            return []
        return state.legal_actions(self.seat_of(agent))

    def action_mask(self, agent: str) -> np.ndarray:
        mask = np.zeros(len(self.catalog), dtype=np.int8)
        for action in self.legal_actions(agent):
            mask[self.catalog.action_index(action)] = 1
        return mask

    def action_of(self, agent: str, index: int) -> Action:
        """The legal move with fixed index ``index`` for ``agent`` now (a UserError if none)."""
        name = self.catalog.names[int(index)] if 0 <= int(index) < len(self.catalog) else None
        for action in self.legal_actions(agent):
            if action.name == name:
                return action
        raise UserError(
            f"{self.metadata['name']}: action {int(index)} ({name!r}) is not legal for {agent} now"
        )

    def observe(self, agent: str) -> dict[str, np.ndarray]:
        seat = self.seat_of(agent)
        return {
            "observation": features.encode(self.game.name, self.match.observation(seat), seat),
            "action_mask": self.action_mask(agent),
        }

    def observe_text(self, agent: str) -> str:
        """The same view as JSON text (for people, logs and text-based agents)."""
        return text(self.match.observation(self.seat_of(agent)))

    def step(self, action: Any) -> None:
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        move = self.action_of(agent, int(action))
        state = self.match
        self._cumulative_rewards[agent] = 0.0
        seat = self.seat_of(agent)
        if state.is_simultaneous_node():
            self._pending[seat] = move
            if self._to_move():  # others still to choose: nothing happens yet
                self.agent_selection = agent_name(self._to_move()[0])
                return
            joint, self._pending = self._pending, {}
            state.apply_actions(joint)
        else:
            state.apply_action(move)
        self._moves += 1
        self._advance()
        finish_step(self, state)

    # -- display ----------------------------------------------------------------------------------
    def render(self) -> str | None:
        if self.render_mode is None:
            return None
        return render_text(self)

    def close(self) -> None:
        pass


def make_env(game: str, **kwargs: Any) -> Any:
    """The environment wrapped as PettingZoo's classic games are (order and bounds enforced)."""
    wrappers = require("pettingzoo.utils.wrappers")
    env = CardGameEnv(game, **kwargs)
    env = wrappers.AssertOutOfBoundsWrapper(env)
    return wrappers.OrderEnforcingWrapper(env)
