"""A tournament says how long it will take (issue 31): one stderr line once the first match is
done, a terminal or not (the bar only on a terminal), nothing with --json; and `jamsumo
tournament`'s default is small enough to finish in about a minute."""

from __future__ import annotations

import argparse
import io

import pytest

from card_games.cli import build_parser as cards_parser
from jamsumo_sim.cli import build_parser, main
from jamsumo_sim.sweep import tournament_cli
from jamsumo_sim.sweep.progress import Estimate, estimate_line


class Bar:
    """tqdm's two methods the estimate uses, recorded."""

    def __init__(self) -> None:
        self.n = 0
        self.lines = io.StringIO()

    def update(self, n: int) -> None:
        self.n += n

    def write(self, text: str, file=None) -> None:  # noqa: ANN001 - as tqdm.write
        self.lines.write(text + "\n")


def clock(*times: float):  # noqa: ANN201
    values = iter(times)
    return lambda: next(values)


def test_one_line_after_the_first_match_from_its_time() -> None:
    bar = Bar()
    est = Estimate(bar, 30, "matches", "jamsumo", quiet=False, clock=clock(10.0, 12.0))
    est.update(1)
    est.update(1)  # said once
    assert bar.n == 2
    assert bar.lines.getvalue() == "jamsumo: 30 matches, about 60 s in all (the first took 2 s)\n"


def test_parallel_workers_divide_the_time() -> None:
    bar = Bar()
    est = Estimate(bar, 100, "matches", "card-games", False, workers=2, clock=clock(0.0, 40.0))
    est.update(10)  # 10 matches on one of two workers in 40 s
    assert bar.lines.getvalue() == (
        "card-games: 100 matches, about 3 min in all (the first 10 took 40 s)\n"
    )


def test_nothing_with_json_or_when_the_first_part_is_all() -> None:
    quiet = Bar()
    Estimate(quiet, 30, "matches", "jamsumo", quiet=True, clock=clock(0.0, 1.0)).update(1)
    whole = Bar()
    Estimate(whole, 1, "matches", "jamsumo", quiet=False, clock=clock(0.0, 1.0)).update(1)
    assert quiet.lines.getvalue() == whole.lines.getvalue() == ""


@pytest.mark.parametrize(
    "seconds,said", [(0.4, "1 s"), (59.6, "60 s"), (95, "2 min"), (4000, "67 min"), (9000, "2.5 h")]
)
def test_durations(seconds: float, said: str) -> None:
    assert f"about {said} in all" in estimate_line("x", 2, "matches", seconds, 0.01)


def _defaults(parser: argparse.ArgumentParser, argv: list[str]) -> argparse.Namespace:
    return parser.parse_args(argv)


def test_default_match_counts() -> None:
    assert _defaults(build_parser(), ["tournament"]).matches == tournament_cli.JAMSUMO_MATCHES
    assert tournament_cli.JAMSUMO_MATCHES <= 40  # ~1.7 CPU s a match here: about a minute
    assert _defaults(cards_parser(), ["tournament", "the-jam"]).matches == 100


def test_a_jamsumo_tournament_says_its_time_on_stderr(capsys: pytest.CaptureFixture[str]) -> None:
    argv = ["tournament", "--mode", "jam", "--rounds", "1", "--max-turns", "2"]
    assert main([*argv, "--matches", "2", "--seed", "3"]) == 0
    captured = capsys.readouterr()
    assert "win rate" in captured.out
    lines = captured.err.splitlines()
    assert len(lines) == 1 and lines[0].startswith("jamsumo: 2 matches, about "), lines
