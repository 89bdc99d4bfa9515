"""What is drawn over the dice: the aim (arrow, power, spread, collision preview), the bot's aim,
rings round dice a refusal names, the hovered die's id and the strike-height gauge."""

from __future__ import annotations

from typing import Any

import pygame

from jamsumo_sim.physics.flick import Flick
from jamsumo_sim.rules.scoring import HAND_FACE
from jamsumo_sim.ui import aim_spread
from jamsumo_sim.ui.animator import Pose
from jamsumo_sim.ui.board_clip import board_clip, clipped
from jamsumo_sim.ui.bot_aim import AimShown, draw_bot_aim
from jamsumo_sim.ui.die_marks import draw_label, draw_rings, named_dice
from jamsumo_sim.ui.draw_dice import DieLook, draw_dice
from jamsumo_sim.ui.draw_overlay import draw_aim as draw_aim_arrow
from jamsumo_sim.ui.gesture import DieSpot, FlickParams, pick_die
from jamsumo_sim.ui.height_gauge import draw_height_gauge
from jamsumo_sim.ui.shot_preview import Preview, draw_preview
from jamsumo_sim.ui.view import View

GAUGE_SIZE = 34  # px: the side view of the die with the finger's height
GAUGE_FROM_BOTTOM = 70  # px above the board area's bottom edge


def draw_aiming(app: Any, view: View, params: FlickParams | None, preview: Preview | None) -> None:
    """The collision preview, then the aim arrow with its power and the execution spread."""
    theme = app.theme
    size = app.session.params.die_size
    board = board_clip(app, view)
    words: list[pygame.Rect] = []
    if preview is not None:
        words = draw_preview(
            app.screen,
            view,
            preview,
            size,
            theme.colour("aim"),
            theme.colour("warning"),
            board,
            good_colour=theme.colour("good"),
            tag_colour=theme.colour("tag"),
        )
    aim = app.aim
    if aim is None:
        return
    p = app.session.params
    heading = None
    if params is not None:
        heading = AimShown(
            params.die,
            params.direction,
            params.speed,
            Flick(
                params.die,
                params.direction,
                params.impulse if params.finger_speed is None else None,
                params.offset,
                params.height,
                params.finger_speed,
            ),
        ).heading(aim.die.angle, aim.die.x, aim.die.y, p)
    draw_aim_arrow(
        app.screen,
        view,
        theme,
        aim.die,
        aim.press,
        aim.current,
        params,
        slide_decel=p.mu_board * p.gravity,
        board_half=app.session.board.side / 2,
        refused=bool(app.aim_problem),
        slide_hint=preview is None,
        heading=heading,
        avoid=words,
    )
    seat = app.session.to_move()
    if params is None or seat is None or app.aim_problem or not app.preview_on:
        return
    if aim_spread.session_level(app.session) is None:
        return  # exact play: the preview is the whole answer
    placement = aim.placement

    def compute() -> list[aim_spread.RestPoint]:
        action = app.session.make_action(seat, params, placement)
        return aim_spread.sample_rests(app.session, action, params.die, app.spread_samples)

    points = app.spreads.get((params, placement), compute)
    with clipped(app.screen, board):  # dice that left the board are crossed at its edge
        aim_spread.draw(app.screen, view, theme, points, size)


def draw_bot_marks(app: Any, view: View, bot: Any, poses: list[Pose]) -> None:
    """A bot's aim before it shoots, for a die on the board or one it places from hand (shown
    on its JAM zone first): the arrow along where the die will leave, the power and the speed."""
    shown = bot.shown
    size = app.session.params.die_size
    params = app.session.params
    on_board = {p.id: p for p in poses if p.fade == 0}
    if shown.place is not None and shown.die not in on_board:
        x, y, angle = shown.place
        colour = app.theme.dice_colour(app.session.seat_colour_name(bot.seat))
        ghost = DieLook(shown.die, x, y, angle, HAND_FACE, colour, highlight=True)
        draw_dice(app.screen, view, [ghost], size)
    elif shown.die in on_board:
        pose = on_board[shown.die]
        x, y, angle = pose.x, pose.y, pose.angle
    else:
        return
    progress = bot.elapsed / bot.duration if bot.duration > 0 else 1.0
    heading = shown.heading(angle, x, y, params)
    colour = app.theme.colour("aim")
    top = params.max_launch_speed
    draw_bot_aim(app.screen, view, shown, x, y, size, top, colour, progress, heading)


def draw_marks(app: Any, view: View, poses: list[Pose], seat: int | None) -> None:
    """The bot's aim, rings round dice a refusal names, the hovered die's id, the height."""
    size = app.session.params.die_size
    at = {p.id: (p.x, p.y) for p in poses if p.fade == 0}
    bot = app.bot_aim
    if bot is not None and bot.shown is not None:
        draw_bot_marks(app, view, bot, poses)
    problem = app.aim_problem or (app.message if app.message.startswith("Not allowed") else "")
    named = named_dice(problem, at) if problem else []
    draw_rings(app.screen, view, [at[d] for d in named], size, app.theme.colour("warning"))
    if app.mouse_world is not None and app.aim is None:
        spots = [DieSpot(d, x, y, 0.0, size) for d, (x, y) in at.items()]
        hover = pick_die(spots, *app.mouse_world, 0.0)
        if hover is not None:
            x, y = at[hover]
            draw_label(
                app.screen,
                view,
                hover,
                x,
                y,
                size,
                app.theme.colour("text"),
                app.theme.colour("tag"),
            )
    if seat is not None and app.setup_mode.seat is None:  # no flick in a set-up: no height
        colour = app.theme.dice_colour(app.session.seat_colour_name(seat))
        rect = app.layout().board_rect
        corner = (8, rect[1] + rect[3] - GAUGE_FROM_BOTTOM)
        draw_height_gauge(app.screen, corner, GAUGE_SIZE, app.height, colour, app.keep_height)
