"""The PettingZoo AEC pieces shared by the JamSumo and card-game environments: agent names, the
match seed of a reset, a fresh episode, the end of a step and of the match, and the text render.

Needs no optional dependency (the environments import pettingzoo, this does not)."""

from __future__ import annotations

from typing import Any

import numpy as np

from jamsumo_sim.limits import MAX_SEED
from jamsumo_sim.turnloop import State


def agent_name(seat: int) -> str:
    return f"player_{seat}"


def win_shares(state: State) -> list[float]:
    """1/k for each of k winners, 0 for the rest: the rewards and OpenSpiel's utilities."""
    winners = state.winners()
    return [1.0 / len(winners) if s in winners else 0.0 for s in range(state.num_players)]


def match_seed(rng: np.random.Generator, seed: int | None) -> tuple[np.random.Generator, int]:
    """``reset(seed=s)``: a generator seeded with s and match s; ``reset()``: the same generator
    and its next match seed. Returns (the generator to keep, the match seed)."""
    if seed is not None:
        return np.random.default_rng(seed), int(seed)
    return rng, int(rng.integers(0, MAX_SEED, dtype=np.uint64, endpoint=True))


def start_episode(env: Any) -> None:
    """Every possible agent in play, no reward yet, nothing ended."""
    env.agents = list(env.possible_agents)
    env.rewards = dict.fromkeys(env.agents, 0.0)
    env._cumulative_rewards = dict.fromkeys(env.agents, 0.0)
    env.terminations = dict.fromkeys(env.agents, False)
    env.truncations = dict.fromkeys(env.agents, False)
    env.infos = {a: {} for a in env.agents}


def end_episode(env: Any, state: State) -> None:
    """The match is over: every agent terminated with its win share and the game's own return."""
    shares = win_shares(state)
    returns = state.returns()
    for seat, agent in enumerate(env.possible_agents):
        env.rewards[agent] = shares[seat]
        env.terminations[agent] = True
        env.infos[agent] = {"returns": float(returns[seat])}


def finish_step(env: Any, state: State) -> None:
    """After a move: once ``max_cycles`` moves per agent are played every agent is truncated
    (unless the match just ended), the rewards are collected and a human sees the table."""
    cycles_up = env.max_cycles is not None and env._moves >= env.max_cycles * env.num_agents
    if cycles_up and not state.is_terminal():
        env.truncations = dict.fromkeys(env.agents, True)
    env._accumulate_rewards()
    if env.render_mode == "human":
        env.render()


def render_text(env: Any) -> str | None:
    """The table as a spectator sees it, as text: printed (``human``) or returned (``ansi``)."""
    text = env.game.render(env.match.observation(None), None)
    if env.render_mode == "human":
        print(text)
        return None
    return text
