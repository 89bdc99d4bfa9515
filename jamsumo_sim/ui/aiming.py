"""Aiming with the mouse: press on a die (or take one from the tray), drag back, release to flick.

The gesture becomes :class:`FlickParams` (ui/gesture.py); the App's ``try_flick`` hands it to the
session.  While aiming, :class:`AimCheck` asks the rules whether the flick would be refused and
:func:`preview` fetches the collision preview, both cached so a still mouse costs nothing.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from jamsumo_sim.ui.gesture import DieSpot, FlickParams, flick_from_drag, pick_die
from jamsumo_sim.ui.input_router import pan_drag
from jamsumo_sim.ui.session import Placement
from jamsumo_sim.ui.shot_preview import Preview, predict
from jamsumo_sim.ui.tray import pick_from_tray, zone_at


@dataclass
class Aim:
    die: DieSpot
    press: tuple[float, float]
    current: tuple[float, float]
    placement: Placement | None = None


def flick_params(app: Any, aim: Aim) -> FlickParams | None:
    p = app.session.params
    return flick_from_drag(
        aim.die,
        aim.press,
        aim.current,
        app.height,
        app.gesture,
        p.max_launch_speed,
        p.die_mass,
        physics=p,  # the pull sets the finger's speed; off-centre pushes launch slower
    )


def press(app: Any, pos: tuple[int, int]) -> None:
    """Left button down: start aiming at a die, or pick a die out of the tray."""
    if app.resume_offer is not None:
        return
    if app.table_shown():
        app._dismiss_table()
        return
    seat = app.human_to_move()
    if seat is None:
        return
    x, y = app.view().to_world(*pos)
    size = app.session.params.die_size
    slack = app.gesture.grab_slack
    if app.placement is not None:
        p = app.placement
        spot = DieSpot(p.die, p.x, p.y, p.angle, size)
        if pick_die([spot], x, y, slack) is not None:
            _start_aim(app, Aim(spot, (x, y), (x, y), p))
            return
    hit = pick_die(app.spots(app.session.flickable(seat)), x, y, slack)
    if hit is not None:
        spot = next(s for s in app.spots([hit]))
        _start_aim(app, Aim(spot, (x, y), (x, y)))
        return
    from_tray = pick_from_tray(app.hand_slots(seat), x, y, size, slack)
    if from_tray is not None:
        app.placement = None
        app.drag_hand = from_tray
        app.drag_pos = (x, y)


def _start_aim(app: Any, aim: Aim) -> None:
    """A new aim: the refusal of the previous flick no longer applies, so it leaves the panel."""
    app.aim = aim
    if app.message.startswith("Not allowed"):
        app.message = ""


def motion(app: Any, pos: tuple[int, int]) -> None:
    pan_drag(app, pos)
    app.mouse_world = app.view().to_world(*pos)
    if app.aim is not None:
        app.aim.current = app.mouse_world
    if app.drag_hand is not None:
        app.drag_pos = app.mouse_world


def release(app: Any, pos: tuple[int, int]) -> None:
    """Left button up: drop a die from the tray on a JAM zone, or flick the aimed die."""
    x, y = app.view().to_world(*pos)
    seat = app.session.to_move()
    if app.drag_hand is not None:
        die, app.drag_hand, app.drag_pos = app.drag_hand, None, None
        zone = zone_at(app.session.board, x, y)
        if zone is None:
            app.message = "Drop the die on a JAM zone to bring it into play."
            return
        # square to the player's view: the die's faces line up with the board's sides
        app.placement = Placement(die, zone, x, y, 0.0)
        app.message = "Now drag back from the die and release to flick it."
        return
    if app.aim is None or seat is None:
        return
    aim, app.aim = app.aim, None
    aim.current = (x, y)
    params = flick_params(app, aim)
    if params is None:
        app.message = "Drag back from the die, then release: the push goes the other way."
        return
    app.try_flick(seat, params, aim.placement)


def try_pass(app: Any) -> None:
    """P: pass, which the rules allow only when no fair flick is possible."""
    seat = app.human_to_move()
    if seat is None:
        return
    action = app.session.pass_action(seat)
    if action is None:
        app.message = "Not allowed: you may pass only when no fair flick is possible."
        return
    app.aim = None
    app.placement = None
    app.message = ""
    app.start_shot(seat, action)


def cancel(app: Any) -> None:
    """Esc / right button: drop the aim, the die being dragged, or the placed die (in that order)."""
    if app.aim is not None:
        app.aim = None
    elif app.drag_hand is not None:
        app.drag_hand = app.drag_pos = None
    elif app.placement is not None:
        app.placement = None
        app.message = "The die went back to your hand."


class AimCheck:
    """Why the flick being aimed would be refused (asked of the rules while aiming, cached)."""

    def __init__(self) -> None:
        self._key: Any = None
        self._reason: str | None = None

    def problem(self, app: Any, params: FlickParams | None) -> str | None:
        seat = app.session.to_move()
        if params is None or app.aim is None or seat is None:
            return None
        key = (params, app.aim.placement)
        if key != self._key:
            action = app.session.make_action(seat, params, app.aim.placement)
            self._key = key
            self._reason = app.session.why_illegal(seat, action)
        return self._reason


def preview(app: Any, params: FlickParams | None) -> Preview | None:
    """The collision preview of the aimed flick (recomputed when the aim changes)."""
    seat = app.session.to_move()
    if not app.preview_on or params is None or app.aim is None or seat is None:
        return None
    placement = app.aim.placement

    def compute() -> Preview | None:
        action = app.session.make_action(seat, params, placement)
        return predict(app.session, seat, action, params.die)

    return app.previews.get((params, placement), compute)
