"""A trained baseline for a card game through OpenSpiel, in numpy only (no torch, no jax).

Monte-Carlo linear Q-learning: Q(s, a) = w[a] . x(s), with x the seat's observation tensor
(``card_games.envs.features``), fitted to the game's final win share of every move the learner
made, while it plays epsilon-greedy against a uniformly random opponent, seats alternating.
Then it is evaluated greedily against random for ``--eval`` games on fresh seeds, and a one-sided
binomial test against the random-vs-random rate gives p.

    python examples/rl/train_linear_baseline.py --game jellyfish --games 3000 --eval 1000

prints the learning curve (win share per block of training games) and the evaluation.
"""

from __future__ import annotations

import argparse
import math
import time

import numpy as np


def binomial_p(wins: int, n: int, p0: float) -> float:
    """One-sided p-value of ``wins`` or more successes in ``n`` at rate ``p0`` (normal approx.)."""
    z = (wins - n * p0 - 0.5) / math.sqrt(n * p0 * (1 - p0))
    return 0.5 * math.erfc(z / math.sqrt(2))


class LinearQ:
    def __init__(self, actions: int, width: int, lr: float) -> None:
        self.w = np.zeros((actions, width + 1), np.float32)  # a bias column per action
        self.lr = lr

    def features(self, obs: list[float]) -> np.ndarray:
        x = np.asarray(obs, np.float32)
        return np.append(x / (1.0 + np.abs(x)), 1.0)  # squashed counts: steady step sizes

    def act(self, x: np.ndarray, legal: list[int], eps: float, rng: np.random.Generator) -> int:
        if rng.random() < eps:
            return int(rng.choice(legal))
        q = self.w[legal] @ x
        return int(legal[int(np.argmax(q))])

    def update(self, trace: list[tuple[np.ndarray, int]], ret: float) -> None:
        for x, a in trace:
            err = ret - float(self.w[a] @ x)
            self.w[a] += self.lr * err * x / float(x @ x)


def play(game, policy, learner_seat: int, rng: np.random.Generator):
    """One game; ``policy(x, legal)`` moves for the learner, random for the others. Returns the
    learner's win share and its (features, action) trace."""
    state = game.new_initial_state()
    trace = []
    while not state.is_terminal():
        if state.is_chance_node():
            outcomes, probs = zip(*state.chance_outcomes(), strict=True)
            state.apply_action(int(rng.choice(outcomes, p=probs)))
            continue
        seat = state.current_player()
        legal = state.legal_actions()
        if seat == learner_seat and policy is not None:
            x = policy.features(state.observation_tensor(seat))
            a = policy.choose(x, legal)
            trace.append((x, a))
        else:
            a = int(rng.choice(legal))
        state.apply_action(a)
    return state.returns()[learner_seat], trace


def main() -> None:
    import pyspiel

    import card_games.openspiel  # noqa: F401 - registers the games

    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--game", default="jellyfish")
    ap.add_argument("--players", type=int, default=2)
    ap.add_argument("--games", type=int, default=3000, help="training games")
    ap.add_argument("--eval", type=int, default=1000, help="evaluation games per policy")
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--lr", type=float, default=0.05)
    ap.add_argument("--block", type=int, default=250, help="training games per curve point")
    args = ap.parse_args()

    game = pyspiel.load_game(f"python_{args.game}", {"players": args.players})
    rng = np.random.default_rng(args.seed)
    q = LinearQ(game.num_distinct_actions(), game.observation_tensor_size(), args.lr)
    start = time.process_time()

    class Greedy:
        eps = 0.2

        def features(self, obs):
            return q.features(obs)

        def choose(self, x, legal):
            return q.act(x, legal, self.eps, rng)

    learner = Greedy()
    block = []
    for g in range(args.games):
        learner.eps = max(0.05, 0.3 * (1 - g / args.games))
        ret, trace = play(game, learner, g % args.players, rng)
        q.update(trace, ret)
        block.append(ret)
        if len(block) == args.block:
            print(f"games {g + 1:6d}  win share in training {np.mean(block):.3f}", flush=True)
            block = []
    trained = time.process_time() - start

    learner.eps = 0.0
    eval_rng = np.random.default_rng(args.seed + 10_000)
    wins = [play(game, learner, k % args.players, eval_rng)[0] for k in range(args.eval)]
    base_rng = np.random.default_rng(args.seed + 20_000)
    base = [play(game, None, k % args.players, base_rng)[0] for k in range(args.eval)]
    rate, p0 = float(np.mean(wins)), float(np.mean(base))
    p = binomial_p(int(round(sum(wins))), args.eval, 1.0 / args.players)
    print(
        f"{args.game} {args.players}p: trained {args.games} games in {trained:.1f} s CPU; "
        f"greedy vs random {rate:.3f} over {args.eval} games (random vs random {p0:.3f}); "
        f"p = {p:.2g} against 1/{args.players}"
    )


if __name__ == "__main__":
    main()
