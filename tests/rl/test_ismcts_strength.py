"""The ``ismcts`` seat plays better than chance: a cheap, seeded check within a CPU budget. (Its
strength against ``smart`` per simulations is measured by benchmarks/bench_ismcts.py, docs/ai.md.)"""

from __future__ import annotations

import json
import math
import subprocess
import sys
from pathlib import Path

import pytest

pytest.importorskip("pyspiel")

from tests.child_limits import cpu_limited, ended, hang_guard  # noqa: E402

ROOT = Path(__file__).resolve().parents[2]
GAMES = 16  # seeds 0..15, seats rotated
SIMULATIONS = 8
# the 16 games took 22 s of CPU (2-core machine): room for a slower one, not for a runaway search
CPU_BUDGET_S = 60.0

PLAY = """
import json, sys
from card_games.ismcts import ISMCTSAgent
from jamsumo_sim.turnloop import RandomAgent, get_game, play

games, sims = int(sys.argv[1]), int(sys.argv[2])
game = get_game("jumble_jam")
shares = []
for seed in range(games):
    seat = seed % 2
    agents = [
        ISMCTSAgent(s, game, simulations=sims) if s == seat else RandomAgent(s, game)
        for s in range(2)
    ]
    result = play(game, agents, seed=seed, params={"players": 2})
    shares.append(1 / len(result.winners) if seat in result.winners else 0.0)
print(json.dumps(shares))
"""


def test_ismcts_beats_random_at_a_small_budget() -> None:
    out = subprocess.run(
        [sys.executable, "-c", PLAY, str(GAMES), str(SIMULATIONS)],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=hang_guard(CPU_BUDGET_S),
        preexec_fn=cpu_limited(CPU_BUDGET_S),
    )
    assert out.returncode == 0, f"{ended(out.returncode)}: {out.stderr[-2000:]}"
    shares = json.loads(out.stdout)
    wins = sum(1 for share in shares if share == 1.0)  # a shared win counts as no win here
    # one-sided binomial test against a coin (the fair share of two seats)
    p = sum(math.comb(GAMES, k) for k in range(wins, GAMES + 1)) / 2**GAMES
    assert p < 0.01, (wins, shares)
