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
from jamsumo_sim.ui.shot_story import FATES, describe

STORY_EVENTS = ("collision", *FATES)  # the events a shot's story is told from
TIME_SLACK = 1e-9  # s: an event at a frame's own time is shown in that frame


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
    story: str  # "blue4 knocked red2 off the board": the whole shot's story (at rest)
    timeline: tuple[tuple[float, str], ...]  # (s after the flick, the story so far) at each change
    log: tuple[str, ...]  # the rules' lines for this shot
    scores_before: tuple[ScoreRow, ...]
    scores_after: tuple[ScoreRow, ...]
    score_words: scoring.ScoreWords  # how the game's total is named (the table's head)
    shot_time: float  # s: the rules' cap on a shot's simulated time
    dt: float  # s: the physics step
    _start: Any  # the executed flick's world before its first step (never stepped itself)

    def world(self) -> Any:
        return self._start.copy()

    @property
    def score_head(self) -> str:
        """The table's head: "total points (highest wins)"."""
        return self.score_words.headline

    def story_at(self, t: float) -> str:
        """What has happened ``t`` simulated seconds after the flick ("" before anything has)."""
        told = ""
        for when, text in self.timeline:
            if when > t + TIME_SLACK:
                break
            told = text
        return told

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


def _story(world: Any, die: str, shot_time: float) -> tuple[str, tuple[tuple[float, str], ...]]:
    """What the shot did, and when each part of it happened, from a run of its own copy (the
    animation steps another copy): a caption must not tell an outcome before it is seen."""
    probe = world.copy()
    t0 = float(getattr(probe, "time", 0.0))
    start = len(probe.events)
    probe.run_until_rest(shot_time)
    events = list(probe.events[start:])
    timeline: list[tuple[float, str]] = []
    told = describe(die, [])  # "red2 hit nothing": only true once the shot is over
    for k, e in enumerate(events):
        if e.type not in STORY_EVENTS:
            continue
        text = describe(die, events[: k + 1])
        if text != told:
            when = max(0.0, float(e.t) - t0)
            if timeline and timeline[-1][0] == when:  # events of one step: one change
                timeline.pop()
            timeline.append((when, text))
            told = text
    return describe(die, events), tuple(timeline)


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
        story, timeline = _story(start, die, shot_time)
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
            story=story,
            timeline=timeline,
            log=log,
            scores_before=score_rows(before, seats),
            scores_after=score_rows(after, seats),
            score_words=scoring.score_words(before.game.mode),
            shot_time=shot_time,
            dt=float(before.physics.step),
            _start=start,
        )
        if wanted is not None:
            return
