"""What a browser seat is sent (``host --web``): it keeps no copy of the match and cannot simulate,
so the host sends it the board once (in the page), the match's public view after every move, and
each shot's poses sampled from a copy of the shot (``MatchState.preview``: deterministic, so the
poses end where the rules' own run of the shot rests).

Positions are sent in tenths of a millimetre and angles in milliradians (whole numbers: a shot of
24 dice at 60 Hz is ~30 kB a second); a shot message larger than ``max_shot_bytes`` is sampled at
half the rate until it fits.
"""

from __future__ import annotations

import json
import math
from typing import Any

from jamsumo_sim.export.page_data import THEME_COLOURS
from jamsumo_sim.export.shots import score_rows
from jamsumo_sim.net.limits import NetLimits
from jamsumo_sim.rules import scoring
from jamsumo_sim.rules.seats import COLOURS, colour
from jamsumo_sim.turnloop.actions import Action

POSITION_UNIT = 1e-4  # m: 0.1 mm, far below a pixel on any screen
ANGLE_UNIT = 1e-3  # rad
LOG_LINES = 30  # log lines in a fresh view (later views carry only the new lines)


def _mm(value: float) -> int:
    return round(value / POSITION_UNIT)


def _mrad(value: float) -> int:
    return round(math.remainder(value, 2 * math.pi) / ANGLE_UNIT)


def scene(state: Any, seats: list[str], password: bool, limits: NetLimits) -> dict[str, Any]:
    """The fixed part of the match, inlined in the page: the board, the look, the gesture."""
    from jamsumo_sim.ui.draw_dice import PIPS
    from jamsumo_sim.ui.theme import load_theme

    theme = load_theme()
    board = state.board
    physics = state.physics
    g = theme.gesture
    return {
        "title": f"{state.game.title} over the network",
        "game": state.game.name,
        "players": state.num_players,
        "seats": list(seats),
        "names": [state.seat_name(s) for s in range(state.num_players)],
        "seat_colours": [colour(s) for s in range(state.num_players)],
        "password": password,
        "units": {"position": POSITION_UNIT, "angle": ANGLE_UNIT},
        "die_size": physics.die_size,
        "board": {
            "side": board.side,
            "hole_radius": board.hole_radius,
            "dish_radius": board.dish_radius,
            "platforms": [[p.name, p.x, p.y, p.width, p.depth] for p in board.platforms],
            "sumo": [[a.name, a.x, a.y, a.width, a.depth] for a in board.sumo_areas],
        },
        "colours": {name: list(theme.dice_colour(name)) for name in COLOURS},
        "pips": {str(k): [list(p) for p in v] for k, v in PIPS.items()},
        "theme": {name: list(theme.colour(name)) for name in THEME_COLOURS},
        # the window's drag (ui/gesture.py): the same pull gives the same power
        "gesture": {
            "pull_full": g.pull_full,
            "pull_min": g.pull_min,
            "power_curve": g.power_curve,
            "height_default": g.height_default,
            "height_step": g.height_step,
            "grab_slack": g.grab_slack,
        },
        "physics": {
            "max_launch_speed": physics.max_launch_speed,
            "finger_restitution": physics.finger_restitution,
            "die_mass": physics.die_mass,
        },
        "shot_rate_hz": limits.shot_rate_hz,
    }


def public_view(state: Any, seats: list[str], log: list[str]) -> dict[str, Any]:
    """The match as everyone may see it after a move: dice, hands, turn, scores, new log lines."""
    dice = []
    if state.world is not None:
        for s in state.world.states():
            if s.status == "on_board":
                dice.append([s.id, _mm(s.x), _mm(s.y), _mrad(s.angle), int(s.face)])
    player = state.current_player()
    mode = state.mode
    return {
        "at": len(state.history),
        "mode": mode,
        "round": state.round,
        "rounds": len(state.round_modes),
        "to_move": player if player >= 0 else None,
        "setting_up": state.setting_up(),
        "dice": dice,
        "hands": [state.in_hand(s) if mode == "jam" else [] for s in range(state.num_players)],
        "scores": [
            {
                "seat": r.seat,
                "name": r.name,
                "agent": r.agent,
                "colour": r.colour_name,
                "total": r.total,
            }
            for r in score_rows(state, seats)
        ],
        "score_head": scoring.score_words(state.game.mode).headline,
        "log": log,
        "over": state.is_terminal(),
        "setups": setups(state),
    }


def setups(state: Any) -> list[dict[str, Any]]:
    """The Sumo opening: for the seat setting up, one arrangement per free corner (the first legal
    of the window's suggestions), as the action to send and the dice to show."""
    from jamsumo_sim.rules import setup

    seat = state.setting_up()
    if seat is None:
        return []
    out = []
    size = state.physics.die_size
    for area in state.board.sumo_areas:
        if area.name in state.corners:
            continue
        targets = state.setup_targets(seat, area.name)
        for name, poses in setup.suggest_layouts(state.board, size, area, targets):
            rel = setup.to_seat_relative(area, seat, state.num_players, poses)
            action = setup.setup_action(seat, area.name, rel)
            if state.is_legal(seat, action):
                dice = [[_mm(p.x), _mm(p.y), _mrad(p.angle)] for p in poses]
                out.append(
                    {"corner": area.name, "layout": name, "action": action.to_json(), "dice": dice}
                )
                break
    return out


def shot_of(state: Any, action: Action, execution: Action | None) -> Any | None:
    """The world of the shot ``action`` (with the hand's ``execution`` error) before its first step,
    or None when it moves nothing now (a pass, a set-up, a flick waiting for its execution)."""
    if not getattr(state, "noise", None) or (execution is None and not state.noise.exact):
        return None
    try:
        return state.preview(action, execution)
    except ValueError:  # a pass or a set-up: nothing to animate
        return None


def _pose(world: Any, ids: list[str]) -> list[int]:
    out: list[int] = []
    states = {s.id: s for s in world.states()}
    for i in ids:
        s = states.get(i)
        if s is None or s.status != "on_board":
            out += [0, 0, 0, 0, 0]
        else:
            out += [_mm(s.x), _mm(s.y), _mrad(s.angle), int(s.face), 1]
    return out


def shot_frames(
    state: Any, world: Any, seat: int, die: str, limits: NetLimits
) -> dict[str, Any] | None:
    """The shot's poses, every ``1 / shot_rate_hz`` s of simulated time and at rest, as one message's
    fields (``ids``, ``dt``, ``frames``: per frame x, y, angle, face, on board for each die)."""
    dt = float(world.params.step)
    budget = math.ceil(state.shot_time / dt - 1e-9)
    ids = sorted(s.id for s in world.states())
    steps = 0
    samples = [_pose(world, ids)]
    per = max(1, round(1.0 / (limits.shot_rate_hz * dt)))
    while steps < budget:
        world.step()
        steps += 1
        if world.at_rest():
            break
        if steps % per == 0:
            samples.append(_pose(world, ids))
    world.run_until_rest(0.0)  # settled exactly as the rules' own run settles
    last = _pose(world, ids)
    stride = 1
    while True:
        frames = samples[::stride] + [last]
        fields = {"seat": seat, "die": die, "ids": ids, "dt": per * stride * dt, "frames": frames}
        fields["duration"] = steps * dt
        if (
            len(json.dumps(fields, separators=(",", ":"))) <= limits.max_shot_bytes
            or len(frames) <= 2
        ):
            return fields
        stride *= 2
