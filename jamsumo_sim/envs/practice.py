"""``jamsumo/JamSumoPractice-v0``: a single-agent Gymnasium practice of Jam.

You are seat 0 of a one-round, two-player Jam match; seat 1 is the turn loop's ``random`` bot,
playing between your flicks (the table has someone to knock your dice about). Each of your flicks
costs ``FLICK_COST``; each of your dice that drops into the hole pays 1: sink your dice in the
fewest flicks. The episode ends with the round (terminated) or after ``max_flicks`` steps of
yours, refused ones included (truncated: a policy that only picks refused moves still ends). Actions and observations are those of ``jamsumo_v0`` (see
:mod:`jamsumo_sim.envs.spaces_jamsumo`); a choice that is not available, or a flick that is not
fair, is refused: nothing moves and the reward is ``REFUSAL_PENALTY`` (so unmasked sampling, as
``check_env`` does, is safe).
"""

from __future__ import annotations

from typing import Any

import numpy as np

from jamsumo_sim.envs import spaces_jamsumo as L
from jamsumo_sim.envs.deps import require
from jamsumo_sim.errors import UserError

gymnasium = require("gymnasium")

FLICK_COST = -0.05
MAX_FLICKS = 60  # of the agent's, per episode
ENV_ID = "jamsumo/JamSumoPractice-v0"


class JamSumoPractice(gymnasium.Env):  # type: ignore[misc,name-defined]
    metadata = {"render_modes": ["ansi", "rgb_array"], "render_fps": 2}

    def __init__(self, render_mode: str | None = None, max_flicks: int = MAX_FLICKS) -> None:
        from jamsumo_sim.envs.jamsumo_env import JamSumoEnv

        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise UserError(f"{ENV_ID}: render_mode {render_mode!r} is not one of ansi, rgb_array")
        self.render_mode = render_mode
        self.max_flicks = max_flicks
        self.multi = JamSumoEnv(mode="jam", players=2, rounds=1, render_mode=render_mode)
        self.agent = self.multi.possible_agents[0]
        self.observation_space = self.multi.observation_space(self.agent)
        self.action_space = self.multi.action_space(self.agent)
        self._flicks = 0

    def _holed(self) -> int:
        from jamsumo_sim.rules.scoring import HOLED

        state = self.multi.match
        return sum(1 for d, o in state.owner.items() if o == 0 and state.where.get(d) == HOLED)

    def _opponent_moves(self) -> None:
        from jamsumo_sim.turnloop import RandomAgent, seat_view

        env = self.multi
        state = env.match
        bot = RandomAgent(1, env.game)
        while not state.is_terminal() and env.agent_selection != self.agent:
            env.step_turnloop(bot.act(seat_view(state, 1)))

    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[dict[str, np.ndarray], dict[str, Any]]:
        super().reset(seed=seed)
        match_seed = int(self.np_random.integers(0, 2**63)) if seed is None else int(seed)
        self.multi.reset(seed=match_seed)
        self._opponent_moves()
        self._flicks = 0
        return self.multi.observe(self.agent), {"holed": self._holed()}

    def step(self, action: Any) -> tuple[dict[str, np.ndarray], float, bool, bool, dict[str, Any]]:
        env = self.multi
        state = env.match
        mask = env.action_mask(self.agent)
        from jamsumo_sim.envs.jamsumo_env import split_move

        choice = int(split_move(action)[0])
        before = self._holed()
        reason = None if 0 <= choice < len(mask) and mask[choice] else "choice not available"
        if reason is None:
            move = env.to_action(self.agent, action)
            reason = None if state.is_legal(0, move) else state.why_illegal(0, move)
        self._flicks += 1
        if reason is not None:
            obs = env.observe(self.agent)
            truncated = self._flicks >= self.max_flicks
            return obs, L.REFUSAL_PENALTY, False, truncated, {"refused": reason, "holed": before}
        env.step_turnloop(move)
        self._opponent_moves()
        holed = self._holed()
        reward = FLICK_COST + (holed - before)
        terminated = state.is_terminal()
        truncated = not terminated and self._flicks >= self.max_flicks
        return env.observe(self.agent), float(reward), terminated, truncated, {"holed": holed}

    def render(self) -> Any:
        return self.multi.render() if self.render_mode is not None else None


def register() -> None:
    """Register ``jamsumo/JamSumoPractice-v0`` with Gymnasium (once)."""
    if ENV_ID not in gymnasium.registry:
        gymnasium.register(id=ENV_ID, entry_point="jamsumo_sim.envs.practice:JamSumoPractice")


register()
