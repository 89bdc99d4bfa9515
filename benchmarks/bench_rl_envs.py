"""Steps per second of the AI environments, and the vector-env recipe for JamSumo's practice env.

    python benchmarks/bench_rl_envs.py [--steps 200] [--envs 2]

Measures (random masked actions): each card game's PettingZoo env, ``jamsumo_v0`` in Jam, and
``jamsumo/JamSumoPractice-v0`` alone and in Gymnasium's ``AsyncVectorEnv`` (one process per
copy: physics is CPU-bound, so copies scale with free cores, not beyond). Single-env figures are
per CPU second of this process; the vector figure is per wall second (its work runs in children).

The recipe::

    import gymnasium, jamsumo_sim.envs.practice as practice
    envs = gymnasium.vector.AsyncVectorEnv(
        [lambda: gymnasium.make(practice.ENV_ID) for _ in range(4)]
    )
    obs, info = envs.reset(seed=0)   # obs["action_mask"] has one row per copy
"""

from __future__ import annotations

import argparse
import time

import numpy as np


def card_rate(game: str, steps: int) -> float:
    import importlib

    env = importlib.import_module(f"card_games.envs.{game}_v0").env()
    env.reset(seed=0)
    rng = np.random.default_rng(0)
    start, done = time.process_time(), 0
    while done < steps:
        for _agent in env.agent_iter():
            obs, _, term, trunc, _ = env.last()
            env.step(None if term or trunc else int(rng.choice(np.flatnonzero(obs["action_mask"]))))
            done += 1
            if done >= steps:
                break
        env.reset()
    return steps / (time.process_time() - start)


def jamsumo_rate(steps: int) -> float:
    from jamsumo_sim.envs import jamsumo_v0

    env = jamsumo_v0.env(mode="jam", players=2, rounds=1)
    env.reset(seed=0)
    start, done = time.process_time(), 0
    while done < steps:
        for agent in env.agent_iter():
            obs, _, term, trunc, _ = env.last()
            env.step(None if term or trunc else env.action_space(agent).sample(obs["action_mask"]))
            done += 1
            if done >= steps:
                break
        env.reset()
    return steps / (time.process_time() - start)


def practice_rates(steps: int, copies: int) -> tuple[float, float]:
    import gymnasium

    import jamsumo_sim.envs.practice as practice

    env = gymnasium.make(practice.ENV_ID)
    env.reset(seed=0)
    start = time.process_time()
    for _ in range(steps):
        obs, *_, term, trunc, _ = env.step(env.action_space.sample())
        if term or trunc:
            env.reset()
    single = steps / (time.process_time() - start)
    envs = gymnasium.vector.AsyncVectorEnv(
        [lambda: gymnasium.make(practice.ENV_ID) for _ in range(copies)]
    )
    envs.reset(seed=0)
    start = time.perf_counter()
    for _ in range(steps // copies):
        envs.step(envs.action_space.sample())
    vector = (steps // copies) * copies / (time.perf_counter() - start)
    envs.close()
    return single, vector


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--steps", type=int, default=200)
    ap.add_argument("--envs", type=int, default=2)
    args = ap.parse_args()
    for game in ("jellyfish", "jumble_jam", "jumblejack", "the_jam"):
        print(f"{game}_v0: {card_rate(game, args.steps * 5):.0f} steps per CPU s")
    print(f"jamsumo_v0 (jam): {jamsumo_rate(args.steps):.1f} steps per CPU s")
    single, vector = practice_rates(args.steps, args.envs)
    print(
        f"JamSumoPractice-v0: {single:.1f} steps per CPU s alone; "
        f"AsyncVectorEnv x{args.envs}: {vector:.1f} steps per wall s"
    )


if __name__ == "__main__":
    main()
