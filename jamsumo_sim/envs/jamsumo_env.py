"""PettingZoo AEC environment of JamSumo (Jam, Sumo or both), over the turn loop's match state.

Chance (set-up rolls, the hand's execution error) is drawn from the match seed as ``jamsumo
match --seed`` draws it, so ``reset(seed=s)`` starts that match. The action layout and the
refusal rule are in :mod:`jamsumo_sim.envs.spaces_jamsumo`. Rewards come at the end: a winner 1,
k tied winners 1/k, the others 0 (``infos[agent]["returns"]``: the game's own totals). A refused
move (a choice the mask closes, or a flick that is not fair) is re-asked (same seat, nothing
moved) with reward ``REFUSAL_PENALTY``; it still counts as a step, and ``max_cycles`` (by default
the game's own bound on moves) truncates, so every policy's episode ends.

``obs["action_mask"]`` (also under its older name ``choice_mask``) masks the choice; the action
space's ``sample(mask)`` takes that array (the flick is sampled freely), so PettingZoo's
``api_test``, ``render_test`` and ``performance_benchmark`` drive the env as a classic game. A
bare integer action is that choice with ``DEFAULT_FLICK``.
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np

from jamsumo_sim.envs import spaces_jamsumo as L
from jamsumo_sim.envs.aec import (
    agent_name,
    end_episode,
    finish_step,
    match_seed,
    render_text,
    start_episode,
)
from jamsumo_sim.envs.deps import require
from jamsumo_sim.errors import UserError
from jamsumo_sim.rules.flick_actions import PASS, flick_action
from jamsumo_sim.rules.seats import die_ids, from_view
from jamsumo_sim.turnloop import Action, State, get_game
from jamsumo_sim.turnloop.driver import seeded_outcome

pettingzoo = require("pettingzoo")
spaces = require("gymnasium.spaces")

MODES = ("jam", "sumo", "jamsumo")


class FlickSpace(spaces.Dict):  # type: ignore[misc,name-defined]
    """``{"choice", "flick"}``, whose ``sample`` also takes the choice mask alone (an array)."""

    def sample(self, mask: Any = None, probability: Any = None) -> dict[str, Any]:
        if isinstance(mask, np.ndarray):
            mask = {"choice": mask.astype(np.int8), "flick": None}
        if probability is None:  # (gymnasium 1.0's Dict.sample has no ``probability``)
            return super().sample(mask=mask)  # type: ignore[no-any-return]
        return super().sample(mask=mask, probability=probability)  # type: ignore[no-any-return]


class JamSumoEnv(pettingzoo.AECEnv):  # type: ignore[misc,name-defined]
    metadata: dict[str, Any] = {
        "render_modes": ["human", "ansi", "rgb_array"],
        "name": "jamsumo_v0",
        "is_parallelizable": False,
        "render_fps": 2,
    }

    def __init__(
        self,
        mode: str = "jamsumo",
        players: int = 2,
        render_mode: str | None = None,
        max_cycles: int | None = None,
        **params: Any,
    ) -> None:
        super().__init__()
        if mode not in MODES:
            raise UserError(f"jamsumo_v0: mode must be one of {', '.join(MODES)}, not {mode!r}")
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise UserError(
                f"jamsumo_v0: render_mode {render_mode!r} is not one of human, ansi, rgb_array"
            )
        self.game = get_game(mode)
        self.params = self.game.validate_params({**params, "players": players})
        self.render_mode = render_mode
        self.max_cycles = max_cycles if max_cycles is not None else self._bound()
        self.state_: Any = None
        self._rng = np.random.default_rng()
        self._moves = 0
        probe = self.game.new_initial_state(self.params, seed=0)
        self.zones = [z.name for z in probe.board.platforms] if mode != "sumo" else []
        self.n_choices = L.DICE_PER_SEAT + len(self.zones) + L.SETUP_SLOTS + 1
        self.possible_agents = [agent_name(s) for s in range(players)]
        n_dice = L.DICE_PER_SEAT * players
        width = n_dice * L.DIE_FEATURES + L.EXTRA_FEATURES
        obs = spaces.Box(-L.POSITION_BOUND * 2, L.POSITION_BOUND * 2, (width,), np.float32)
        mask = spaces.Box(0, 1, (self.n_choices,), np.int8)
        self.observation_spaces = {
            a: spaces.Dict({"observation": obs, "action_mask": mask, "choice_mask": mask})
            for a in self.possible_agents
        }
        flick = spaces.Box(L.FLICK_LOW, L.FLICK_HIGH, dtype=np.float32)
        self.action_spaces = {
            a: FlickSpace({"choice": spaces.Discrete(self.n_choices), "flick": flick})
            for a in self.possible_agents
        }

    def _bound(self) -> int:
        """Moves per agent before truncation: the game's own bound on a match's moves."""
        return int(self.game.max_game_length(self.params))

    def observation_space(self, agent: str) -> Any:
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> Any:
        return self.action_spaces[agent]

    @property
    def match(self) -> Any:
        if self.state_ is None:
            raise UserError("jamsumo_v0: call reset() before using the environment")
        return self.state_

    # -- the match ------------------------------------------------------------------------------
    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        self._rng, seed = match_seed(self._rng, seed)
        self.state_ = self.game.new_initial_state(self.params, seed=seed)
        start_episode(self)
        self._moves = 0
        self._advance()

    def _advance(self) -> None:
        state: State = self.match
        while state.is_chance_node():
            state.apply_action(seeded_outcome(state))
        if state.is_terminal():
            end_episode(self, state)
            return
        self.agent_selection = agent_name(state.current_player())
        self._publish_mask()

    def _publish_mask(self) -> None:
        """``infos[agent]["action_mask"]``: the mask in the form ``action_space.sample`` takes (the
        discrete part masked, the flick free), for the seat to move."""
        agent = self.agent_selection
        self.infos[agent]["action_mask"] = {"choice": self.action_mask(agent), "flick": None}

    # -- actions --------------------------------------------------------------------------------
    def _menu(self, seat: int) -> list[Action]:
        state = self.match
        if state.is_terminal() or state.current_player() != seat:
            return []
        return state.legal_actions(seat)

    def action_mask(self, agent: str) -> np.ndarray:
        seat = self.possible_agents.index(agent)
        mask = np.zeros(self.n_choices, dtype=np.int8)
        menu = self._menu(seat)
        if not menu:
            return mask
        if menu == [PASS]:
            mask[-1] = 1
            return mask
        dice = die_ids(seat)
        setups = [a for a in menu if a.get("corner") is not None]
        if len(setups) > L.SETUP_SLOTS:
            raise UserError(f"jamsumo_v0: {len(setups)} set-ups exceed SETUP_SLOTS {L.SETUP_SLOTS}")
        base = L.DICE_PER_SEAT + len(self.zones)
        mask[base : base + len(setups)] = 1
        for action in menu:
            if action.get("corner") is not None or action == PASS:
                continue
            place = action.get("place")
            if place is None:
                mask[dice.index(action["die"])] = 1
            else:
                mask[L.DICE_PER_SEAT + self.zones.index(place)] = 1
        return mask

    def available(self, agent: str, move: Any) -> bool:
        """Whether the mask opens ``move``'s choice now."""
        choice = int(split_move(move)[0])
        return 0 <= choice < self.n_choices and bool(self.action_mask(agent)[choice])

    def to_action(self, agent: str, move: Any) -> Action:
        """The turn-loop action of ``move`` ({"choice", "flick"}, a (choice, flick) pair, or a
        bare choice with ``DEFAULT_FLICK``)."""
        seat = self.possible_agents.index(agent)
        choice, flick = split_move(move)
        choice = int(choice)
        if not self.available(agent, move):
            raise UserError(f"jamsumo_v0: choice {choice} is not available to {agent} now")
        if choice == self.n_choices - 1:
            return PASS
        base = L.DICE_PER_SEAT + len(self.zones)
        if choice >= base:
            setups = [a for a in self._menu(seat) if a.get("corner") is not None]
            return setups[choice - base]
        direction, speed, offset, height = (
            float(x) for x in np.clip(flick, L.FLICK_LOW, L.FLICK_HIGH)
        )
        n = len(self.possible_agents)
        _, _, world_dir = from_view(seat, n, 0.0, 0.0, direction)
        if choice < L.DICE_PER_SEAT:
            die = die_ids(seat)[choice]
            return flick_action(die, world_dir, None, offset, height, finger_speed=speed)
        zone = self.match.board.platform(self.zones[choice - L.DICE_PER_SEAT])
        die = self.match.in_hand(seat)[0]
        return flick_action(
            die,
            world_dir,
            None,
            offset,
            height,
            place=zone.name,
            px=zone.x,
            py=zone.y,
            finger_speed=speed,
        )

    def step(self, action: Any) -> None:
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        state = self.match
        seat = self.possible_agents.index(agent)
        self._cumulative_rewards[agent] = 0.0
        self._moves += 1
        self._clear_rewards()
        if self.available(agent, action):
            move = self.to_action(agent, action)
            reason = None if move in self._menu(seat) else self._refusal(seat, move)
        else:
            reason = "choice not available"
        if reason is not None:  # not a fair flick: re-asked, nothing moves
            self.rewards[agent] = L.REFUSAL_PENALTY
            self.infos[agent] = {"refused": reason}
            self._publish_mask()
        else:
            self.infos[agent] = {}
            self.step_turnloop(move)
        finish_step(self, state)

    def step_turnloop(self, move: Action) -> None:
        """Apply a turn-loop move of the seat to move, then chance up to the next decision."""
        self.match.apply_action(move)
        self._advance()

    def _refusal(self, seat: int, move: Action) -> str | None:
        state = self.match
        if state.is_legal(seat, move):
            return None
        return state.why_illegal(seat, move)

    # -- observations ---------------------------------------------------------------------------
    def observe(self, agent: str) -> dict[str, np.ndarray]:
        seat = self.possible_agents.index(agent)
        state = self.match
        rows = state.dice_table(seat)
        feats = np.zeros((len(rows), L.DIE_FEATURES), dtype=np.float32)
        for i, row in enumerate(rows):
            where = row["where"]
            feats[i, 0] = "x" in row
            feats[i, 1] = where == "hand"
            feats[i, 2] = "x" not in row and where != "hand"
            if "x" in row:
                feats[i, 3] = np.clip(row["x"], -L.POSITION_BOUND, L.POSITION_BOUND)
                feats[i, 4] = np.clip(row["y"], -L.POSITION_BOUND, L.POSITION_BOUND)
                feats[i, 5] = math.cos(row["angle"])
                feats[i, 6] = math.sin(row["angle"])
                feats[i, 7] = row["face"] / 6.0
            feats[i, 8] = row["owner"] == seat
        totals = state.totals()
        extra = np.array(
            [
                state.turns.round / max(len(state.round_modes), 1),
                len(state.round_modes) / 10.0,
                float(totals[seat]) / 100.0,
                float(state.current_player() == seat),
            ],
            dtype=np.float32,
        )
        mask = self.action_mask(agent)
        return {
            "observation": np.concatenate([feats.ravel(), extra]).astype(np.float32),
            "action_mask": mask,
            "choice_mask": mask.copy(),
        }

    # -- display ----------------------------------------------------------------------------------
    def render(self) -> Any:
        if self.render_mode is None:
            return None
        if self.render_mode == "rgb_array":
            from jamsumo_sim.envs.picture import board_picture

            return board_picture(self.match)
        return render_text(self)

    def close(self) -> None:
        pass


def split_move(move: Any) -> tuple[Any, Any]:
    """(choice, flick) of an action: a dict, a pair, or a bare choice (``DEFAULT_FLICK``)."""
    if isinstance(move, dict):
        return move["choice"], move["flick"]
    if isinstance(move, (tuple, list)) or (isinstance(move, np.ndarray) and move.ndim):
        return move[0], move[1]
    return move, L.DEFAULT_FLICK
