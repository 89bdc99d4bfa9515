"""Tournaments: many matches of one turn-loop game between a bot line-up, seats rotated, on the
same engine as the sweeps (this process or Dask).

Match ``m`` seats line-up entry ``(s + m) mod n`` at seat ``s`` (every entry plays every seat equally
often over ``n`` matches) with the seed ``SeedSequence(seed, spawn_key=(m,))``; results are put in
match order before anything is summed, so the table, the ratings and the plot are identical for any
worker count.  Per entry: win rate (a shared win counts 1/k) with a 95 % Wilson interval, and an
openskill Plackett-Luce rating (matches rated in match order; ranks from the seats' returns) when
openskill (the sweep extra) is installed: without it, win rates only.
"""

from __future__ import annotations

import json
import math
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from ..errors import UserError
from ..turnloop import get_game, play
from .bounds import EXTRA_HINT

Z95 = 1.959963984540054  # two-sided 95 % normal quantile
# Matches a task at least: one, because a JamSumo match takes 1-5 s (a task's scheduling cost is
# ~3 ms) and guided sizes (run.guided_sizes) keep the tasks few: 24 for 100 matches on 2 workers
# (~3 % of a 100-match card-game tournament at ~25 ms a match, whose cluster start costs more).
MIN_TASK_MATCHES = 1


@dataclass(frozen=True)
class TournamentSpec:
    game: str  # turn-loop registry name
    lineup: tuple[str, ...]  # bot specs, "kind" or "kind:level", one a seat
    matches: int
    seed: int
    params: Mapping[str, Any]  # the game's full params (JSON-able)

    def to_json(self) -> dict[str, Any]:
        return {
            "version": 1,
            "game": self.game,
            "lineup": list(self.lineup),
            "matches": self.matches,
            "seed": self.seed,
            "params": dict(self.params),
        }

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> TournamentSpec:
        return cls(
            data["game"], tuple(data["lineup"]), data["matches"], data["seed"], data["params"]
        )

    def labels(self) -> list[str]:
        """Names of the line-up entries (a bot twice in the line-up gets #1, #2)."""
        out = []
        for i, name in enumerate(self.lineup):
            same = [j for j, other in enumerate(self.lineup) if other == name]
            out.append(name if len(same) == 1 else f"{name}#{same.index(i) + 1}")
        return out


def make_agent(game: Any, seat: int, spec: str) -> Any:
    """An agent from ``kind`` or ``kind:level`` (the game's bots; a card game also seats
    ``ismcts``, OpenSpiel's IS-MCTS, as ``card-games play`` does)."""
    bots = game.bots()
    if not game.perfect_information:  # the card games: imported late (card_games needs us)
        from card_games.envs.catalog import CARD_GAME_NAMES

        if game.name in CARD_GAME_NAMES:
            from card_games.ismcts import with_ismcts

            bots = with_ismcts(bots)
    kind, _, level = spec.partition(":")
    if kind not in bots:
        raise UserError(
            f"unknown bot {spec[:30]!r} for {game.title} (choose from {', '.join(sorted(bots))})"
        )
    try:
        return bots[kind](seat, game, level=level) if level else bots[kind](seat, game)
    except TypeError:
        raise UserError(f"bot {spec[:30]!r}: {kind} has no levels") from None


def check(spec: TournamentSpec) -> None:
    """Refuse a bad line-up before any match is played (one line)."""
    game = get_game(spec.game)
    n = len(spec.lineup)
    if not game.min_players <= n <= game.max_players:
        raise UserError(
            f"{game.title} takes {game.min_players}-{game.max_players} players; the line-up has {n}"
        )
    for seat, name in enumerate(spec.lineup):
        make_agent(game, seat, name)


def match_seed(seed: int, match: int) -> int:
    return int(np.random.SeedSequence(seed, spawn_key=(match,)).generate_state(1, np.uint64)[0])


def seating(n: int, match: int) -> list[int]:
    """Line-up entry at each seat in match ``match`` (rotated by one seat a match)."""
    return [(s + match) % n for s in range(n)]


def play_matches(
    text: str, start: int, stop: int, fingerprint: str | None = None
) -> list[dict[str, Any]]:
    """Matches ``start`` .. ``stop - 1`` of the tournament (JSON text); refused on a worker whose
    code differs from the client's (``fingerprint``: run.code_fingerprint)."""
    from .run import check_code

    check_code(fingerprint)
    spec = TournamentSpec.from_json(json.loads(text))
    game = get_game(spec.game)
    n = len(spec.lineup)
    out = []
    for m in range(start, stop):
        entries = seating(n, m)
        agents = [make_agent(game, seat, spec.lineup[e]) for seat, e in enumerate(entries)]
        result = play(game, agents, match_seed(spec.seed, m), dict(spec.params))
        out.append(
            {
                "match": m,
                "seats": entries,
                "returns": [float(r) for r in result.returns],
                "winners": [entries[s] for s in result.winners],
                "finished": result.finished,
            }
        )
    return out


def chunks(matches: int, workers: int) -> list[tuple[int, int]]:
    """(start, stop) match ranges in the order to submit them: big first, single matches last, so
    a match that runs long near the end does not leave the other workers idle for a whole chunk.
    (Match costs vary at random, not with the match number: consecutive matches are as even a
    sample as any.)"""
    from .run import guided_sizes

    out: list[tuple[int, int]] = []
    for size in guided_sizes(matches, workers, MIN_TASK_MATCHES):
        start = out[-1][1] if out else 0
        out.append((start, start + size))
    return out


def wilson(wins: float, n: int) -> tuple[float, float]:
    """95 % Wilson score interval of a win rate, within [0, 1] exactly: no wins give 0 and all
    wins 1 (the formula's rounding leaves ~1e-17 there, above a rate of 0 / below one of 1)."""
    if n == 0:
        return (0.0, 1.0)
    p = min(1.0, max(0.0, wins / n))
    z2 = Z95 * Z95
    centre = (p + z2 / (2 * n)) / (1 + z2 / n)
    half = Z95 * math.sqrt(p * (1 - p) / n + z2 / (4 * n * n)) / (1 + z2 / n)
    lo = 0.0 if p == 0.0 else min(p, max(0.0, centre - half))
    hi = 1.0 if p == 1.0 else max(p, min(1.0, centre + half))
    return (lo, hi)


def have_ratings() -> bool:
    """Whether openskill (the sweep extra) is installed: without it a tournament gives win rates
    only, and says so before the first match."""
    try:
        from openskill.models import PlackettLuce  # noqa: F401
    except ImportError:
        return False
    return True


def summarise(spec: TournamentSpec, records: Sequence[Mapping[str, Any]]) -> dict[str, Any]:
    """Win rates with 95 % intervals and openskill ratings, from the records in match order;
    without openskill (:func:`have_ratings`) the ratings are None."""
    records = sorted(records, key=lambda r: r["match"])
    labels = spec.labels()
    n = len(labels)
    model: Any = None
    ratings: list[Any] = [None] * n
    if have_ratings():
        from openskill.models import PlackettLuce

        model = PlackettLuce()
        ratings = [model.rating(name=label) for label in labels]
    wins = [0.0] * n
    games = [0] * n
    for rec in records:
        if not rec["finished"]:
            continue
        seats = rec["seats"]
        for e in seats:
            games[e] += 1
        for e in rec["winners"]:
            wins[e] += 1.0 / len(rec["winners"])
        if model is None:
            continue
        teams = [[ratings[e]] for e in seats]
        ranks = [-r for r in rec["returns"]]  # higher return, better rank (ties share a rank)
        rated = model.rate(teams, ranks=ranks)
        for e, team in zip(seats, rated, strict=True):
            ratings[e] = team[0]
    rows = []
    for i, label in enumerate(labels):
        lo, hi = wilson(wins[i], games[i])
        rating = ratings[i]
        rows.append(
            {
                "bot": label,
                "games": games[i],
                "wins": wins[i],
                "win_rate": wins[i] / games[i] if games[i] else 0.0,
                "ci95": [lo, hi],
                "mu": None if rating is None else rating.mu,
                "sigma": None if rating is None else rating.sigma,
                "rating": None if rating is None else rating.ordinal(),  # mu - 3 sigma
            }
        )
    unfinished = sum(1 for r in records if not r["finished"])
    return {"version": 1, "game": spec.game, "matches": spec.matches, "unfinished": unfinished,
            "seed": spec.seed, "bots": rows}  # fmt: skip


def run_tournament(
    spec: TournamentSpec,
    client: Any = None,
    progress: Callable[[int], None] | None = None,
) -> list[dict[str, Any]]:
    """Every match's record in match order: here, or on a Dask ``client``."""
    text = json.dumps(spec.to_json(), sort_keys=True)
    records: list[dict[str, Any]] = []
    if client is None:
        for m in range(spec.matches):  # one at a time: the bar (and its estimate) moves each match
            records.extend(play_matches(text, m, m + 1))
            if progress is not None:
                progress(1)
    else:
        from dask.distributed import as_completed

        from .dask_runner import worker_count
        from .run import code_fingerprint

        code = code_fingerprint()
        futures = {
            client.submit(play_matches, text, a, b, code, pure=False): (a, b)
            for a, b in chunks(spec.matches, worker_count(client))
        }
        for fut in as_completed(futures):
            a, b = futures[fut]
            records.extend(fut.result())
            if progress is not None:
                progress(b - a)
    return sorted(records, key=lambda r: r["match"])


def table(summary: Mapping[str, Any]) -> str:
    """The summary as a plain text table."""
    lines = [f"{'bot':<20} {'games':>6} {'win rate':>9} {'95% CI':>15} {'rating':>8} {'mu':>7}"]
    for r in summary["bots"]:
        lo, hi = r["ci95"]
        rated = r["rating"] is not None
        rating = f"{r['rating']:>8.2f} {r['mu']:>7.2f}" if rated else f"{'-':>8} {'-':>7}"
        lines.append(
            f"{r['bot'][:20]:<20} {r['games']:>6} {r['win_rate']:>9.3f} "
            f"{f'{lo:.3f}-{hi:.3f}':>15} {rating}"
        )
    if not all(r["rating"] is not None for r in summary["bots"]):
        lines.append(f"(no ratings: they need openskill; {EXTRA_HINT})")
    return "\n".join(lines)


def plot(summary: Mapping[str, Any]) -> bytes:
    """Win rates with their 95 % intervals and ratings, as a PNG."""
    import io

    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    rows = summary["bots"]
    names = [r["bot"] for r in rows]
    rates = np.array([r["win_rate"] for r in rows])
    # error bars may not be negative: an interval is never inside its rate (wilson), but a
    # summary read back from a file might be off by rounding
    lo = np.clip(rates - np.array([r["ci95"][0] for r in rows]), 0.0, None)
    hi = np.clip(np.array([r["ci95"][1] for r in rows]) - rates, 0.0, None)
    fig, (a1, a2) = plt.subplots(1, 2, figsize=(9, 4), dpi=100)
    a1.bar(names, rates, yerr=[lo, hi], capsize=6, color="tab:blue")
    a1.set_ylim(0, 1)
    a1.set_ylabel("win rate (95 % CI)")
    if all(r["rating"] is not None for r in rows):
        a2.bar(names, [r["rating"] for r in rows], color="tab:orange")
        a2.set_ylabel("openskill rating (mu - 3 sigma)")
    else:
        a2.text(0.5, 0.5, "no ratings:\nopenskill not installed", ha="center", va="center")
        a2.set_axis_off()
    fig.suptitle(f"{summary['game']}: {summary['matches']} matches, seats rotated")
    for ax in (a1, a2):
        ax.tick_params(axis="x", rotation=20)
    fig.tight_layout()
    buf = io.BytesIO()
    fig.savefig(buf, format="png")
    plt.close(fig)
    return buf.getvalue()
