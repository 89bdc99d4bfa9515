"""The shots of a replay as they were executed: the state before and after, the world to animate,
the caption (who flicked what, what happened) and the score table after each shot.

A shot at the ``table`` noise level is re-simulated with its recorded execution error
(:meth:`jamsumo_sim.replay.ReplayShot.preview`), so what is drawn is what the match saw.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

from jamsumo_sim.replay import Replay
from jamsumo_sim.rules import scoring
from jamsumo_sim.rules.seats import colour
from jamsumo_sim.ui.shot_story import describe


@dataclass(frozen=True)
class ScoreRow:
    """One player's line of the score table (after a shot)."""

    seat: int
    name: str  # Red, Blue, …
    agent: str  # the recorded seat spec: planner:hard, random, human
    colour_name: str
    total: str  # the running total, with what the round in play adds in brackets


@dataclass(frozen=True)
class ShotScene:
    """One recorded flick, ready to animate: ``world()`` gives a fresh copy to step."""

    number: int
    count: int  # shots in the replay
    round: int
    mode: str  # the round's mode: jam or sumo
    seat: int
    die: str
    title: str  # "Shot 3 of 12 · Round 1 (Sumo) · Blue (random) flicks blue4"
    story: str  # "blue4 knocked red2 off the board"
    log: tuple[str, ...]  # the rules' lines for this shot
    scores_before: tuple[ScoreRow, ...]
    scores_after: tuple[ScoreRow, ...]
    score_head: str  # "points (highest wins)"
    shot_time: float  # s: the rules' cap on a shot's simulated time
    dt: float  # s: the physics step
    _start: Any  # the executed flick's world before its first step (never stepped itself)

    def world(self) -> Any:
        return self._start.copy()

    @property
    def verdict(self) -> str:
        """What the rules made of the shot (the log without its "X flicks/places …" lines)."""
        moves = (" flicks ", " places ")
        return "; ".join(line for line in self.log if not any(m in line for m in moves))


def score_rows(state: Any, seats: list[str]) -> tuple[ScoreRow, ...]:
    totals = state.totals()
    current = state.current_scores()
    mode = state.game.mode
    return tuple(
        ScoreRow(
            s,
            state.seat_name(s),
            seats[s],
            colour(s),
            scoring.live_score_text(mode, state.mode, totals[s], current[s], state.is_terminal()),
        )
        for s in range(len(seats))
    )


def _story(world: Any, die: str, shot_time: float) -> str:
    """What the shot did, from a run of its own copy (the animation steps another copy)."""
    probe = world.copy()
    start = len(probe.events)
    probe.run_until_rest(shot_time)
    return describe(die, probe.events[start:])


def iter_scenes(replay: Replay, wanted: int | None = None) -> Iterator[ShotScene]:
    """Every shot of ``replay`` (or only shot ``wanted``), in order."""
    count = len(replay.shots)
    seats = replay.seats
    for shot in replay.iter_shots():
        if wanted is not None and shot.number != wanted:
            continue
        before = shot.state
        after = before.clone()
        after.apply_action(shot.action)
        if shot.execution is not None:
            after.apply_action(shot.execution)
        die = str(shot.action.get("die"))
        start = shot.preview()
        shot_time = float(before.shot_time)
        lines = before.log_for(None)
        log = tuple(after.log_for(None)[len(lines) :])
        name = before.seat_name(shot.seat)
        title = (
            f"Shot {shot.number} of {count} · Round {before.round} ({before.mode.capitalize()}) · "
            f"{name} ({seats[shot.seat]}) flicks {die}"
        )
        yield ShotScene(
            number=shot.number,
            count=count,
            round=before.round,
            mode=before.mode,
            seat=shot.seat,
            die=die,
            title=title,
            story=_story(start, die, shot_time),
            log=log,
            scores_before=score_rows(before, seats),
            scores_after=score_rows(after, seats),
            score_head=scoring.score_words(before.game.mode).headline,
            shot_time=shot_time,
            dt=float(before.physics.dt),
            _start=start,
        )
        if wanted is not None:
            return
