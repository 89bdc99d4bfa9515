"""Cut a tracking into shots (a die leaves its rest pose ... comes to rest again) and turn them into the
calibrator's rows: rest poses and trajectories for one moving die, collisions for two."""

from __future__ import annotations

import math
from dataclasses import dataclass, field

import numpy as np

from ..physics.board import BoardSpec
from ..physics.params import PhysicsParams
from .track import Tracking

QUARTER = math.pi / 2
START_TOL = 0.0015  # m: a die this far from its rest pose has been flicked
REST_TOL = 0.0003  # m: a die whose last REST_SECONDS of positions lie this close is at rest
REST_SECONDS = 0.03
MAX_GAP_SECONDS = 0.1  # a moving die unseen for longer has left the frame (or a hand covers it)
LAUNCH_FRAMES = 12  # frames fitted for a launch's velocity (parabola); spin: the first half
MAX_SHOT_SECONDS = 20.0  # the calibrator's limit of a tracked shot


@dataclass
class Segment:
    """One die's movement: frames [start, stop) moving, its rest pose before (anchor) and after."""

    colour: str
    start: int
    stop: int
    before: tuple[float, float, float]
    after: tuple[float, float, float]
    frames: list[int]


@dataclass
class Shot:
    label: str
    kind: str  # "single" or "collision"
    segments: list[Segment]
    warnings: list[str] = field(default_factory=list)
    quality: dict = field(default_factory=dict)


def _wrap(a: float) -> float:
    return a % QUARTER


def segments(tr: Tracking, colour: str, warnings: list[str]) -> list[Segment]:
    P = tr.dice[colour].array()
    seen = np.all(np.isfinite(P), axis=1)
    pose_ok = tr.has_pose()
    w = max(3, round(REST_SECONDS * tr.fps))
    max_gap = max(2, round(MAX_GAP_SECONDS * tr.fps))
    out: list[Segment] = []
    anchor: np.ndarray | None = None
    moving: list[int] | None = None
    gap = 0
    for i in range(len(P)):
        t = i / tr.fps
        if not seen[i]:
            if moving is not None:
                gap += 1
                if gap > max_gap:
                    why = "the markers were not found" if not pose_ok[i] else "it left the frame?"
                    warnings.append(
                        f"{colour} die: not seen for {gap} frames from t = {t - gap / tr.fps:.2f} s "
                        f"while moving ({why}); shot dropped"
                    )
                    moving, anchor = None, None
            else:
                anchor = None  # picked up: its next rest pose starts afresh
            continue
        gap = 0
        if moving is None:
            if anchor is None:
                anchor = P[i].copy()
            elif math.hypot(*(P[i, :2] - anchor[:2])) > START_TOL:
                moving = [i]
            continue
        moving.append(i)
        tail = [k for k in moving[-w:]]
        if len(moving) > w and all(seen[k] for k in tail):
            last = P[tail, :2]
            if np.max(np.linalg.norm(last - last[-1], axis=1)) < REST_TOL:
                rest = np.median(P[tail], axis=0)
                out.append(
                    Segment(colour, moving[0], moving[-1] + 1, tuple(anchor), tuple(rest), moving)
                )
                anchor, moving = rest, None
    if moving is not None:
        warnings.append(
            f"{colour} die: the video ends while it moves (from t = {moving[0] / tr.fps:.2f} s); "
            f"shot dropped"
        )
    return out


def cut_shots(tr: Tracking, warnings: list[str]) -> list[Shot]:
    segs = [s for c in tr.dice for s in segments(tr, c, warnings)]
    segs.sort(key=lambda s: s.start)
    groups: list[list[Segment]] = []
    for s in segs:
        if groups and s.start < max(g.stop for g in groups[-1]):
            groups[-1].append(s)
        else:
            groups.append([s])
    shots = []
    for k, g in enumerate(groups):
        label = f"s{k + 1:03d}"
        if len(g) > 2:
            warnings.append(
                f"shot {label} at t = {g[0].start / tr.fps:.2f} s: {len(g)} dice moved; only "
                f"one-die shots and two-die collisions are written"
            )
            continue
        shots.append(Shot(label, "single" if len(g) == 1 else "collision", g))
    return shots


def launch_state(tr: Tracking, seg: Segment, until: int | None = None) -> np.ndarray:
    """x, y, angle, vx, vy, omega at the first moving frame, from a fit over the next frames."""
    frames = [k for k in seg.frames if until is None or k < until][:LAUNCH_FRAMES]
    if len(frames) < 2:
        frames = seg.frames[:2]
    P = tr.dice[seg.colour].array()[frames]
    t = (np.array(frames) - frames[0]) / tr.fps
    deg = 2 if len(frames) >= 4 else 1  # friction decelerates uniformly: a parabola
    fx = np.polyfit(t, P[:, 0], deg)
    fy = np.polyfit(t, P[:, 1], deg)
    half = max(2, len(frames) // 2)  # the spin decays unevenly: a line over the first frames only
    ang = np.unwrap(P[:half, 2], period=QUARTER)
    fa = np.polyfit(t[:half], ang, 1)
    return np.array(
        [fx[-1], fy[-1], _wrap(fa[-1]), fx[-2], fy[-2], fa[-2]],
    )


def rows(
    tr: Tracking, shots: list[Shot], board: BoardSpec, params: PhysicsParams, warnings: list[str]
) -> dict[str, list[list]]:
    """The calibrator's rows: {"rest": [...], "trajectory": [...], "collision": [...]}."""
    out: dict[str, list[list]] = {"rest": [], "trajectory": [], "collision": []}
    max_spin = 3 * params.max_launch_speed / params.die_size
    for shot in shots:
        first = shot.segments[0]
        later = shot.segments[1] if shot.kind == "collision" else None
        L = launch_state(tr, first, later.start if later else None)
        problem = _check(tr, shot, L, board, params, max_spin)
        if problem:
            shot.warnings.append(problem)
            warnings.append(f"shot {shot.label}: {problem}; shot dropped")
            continue
        x1, y1, a1 = first.after
        if later is None:
            out["rest"].append([shot.label, *map(float, L), x1, y1, _wrap(a1)])
            P = tr.dice[first.colour].array()
            t0 = first.frames[0]
            for k in first.frames:
                if np.all(np.isfinite(P[k])):
                    out["trajectory"].append(
                        [shot.label, (k - t0) / tr.fps, P[k, 0], P[k, 1], _wrap(P[k, 2])]
                    )
        else:
            tx0, ty0, ta0 = later.before
            tx1, ty1, ta1 = later.after
            out["collision"].append(
                [shot.label, *map(float, L), tx0, ty0, _wrap(ta0), x1, y1, _wrap(a1),
                 tx1, ty1, _wrap(ta1)]
            )  # fmt: skip
    return out


def _check(tr, shot: Shot, L, board: BoardSpec, params: PhysicsParams, max_spin) -> str:
    """Why the calibrator would refuse this shot ('' if it would not)."""
    if math.hypot(L[3], L[4]) > params.max_launch_speed:
        return f"launch speed {math.hypot(L[3], L[4]):.2f} m/s is above the board's cap"
    if abs(L[5]) > max_spin:
        return f"spin {L[5]:.0f} rad/s is above a fair flick's"
    for seg in shot.segments:
        P = tr.dice[seg.colour].array()[seg.frames]
        P = P[np.all(np.isfinite(P), axis=1)]
        if len(P) < 3:
            return "fewer than 3 tracked frames"
        if (seg.stop - seg.start) / tr.fps > MAX_SHOT_SECONDS:
            return f"it lasts more than {MAX_SHOT_SECONDS:g} s"
        if not all(board.on_board(x, y) for x, y in P[:, :2]):
            return f"the {seg.colour} die was tracked off the board"
        for x, y, _ in (seg.before, seg.after):
            if board.in_hole(x, y) or not board.on_board(x, y):
                return f"the {seg.colour} die starts or rests off the board or over the hole"
    return ""
