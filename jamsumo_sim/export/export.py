"""One export run: the scenes of the wanted shots, then the file of the asked kind (checked first)."""

from __future__ import annotations

from pathlib import Path

from jamsumo_sim.errors import UserError
from jamsumo_sim.export import options as opt
from jamsumo_sim.export.shots import iter_scenes
from jamsumo_sim.replay import Replay


def _title(replay: Replay) -> str:
    game = replay.game
    seats = ", ".join(replay.seats)
    return f"{game.title}: {len(replay.seats)} players ({seats}), seed {replay.seed}"


def _finished(replay: Replay) -> str:
    result = replay.data.get("result")
    if not replay.data["finished"] or not result:
        return "The recording ends here (the match was not finished)."
    from jamsumo_sim.rules.seats import colour

    winners = " and ".join(colour(s).capitalize() for s in result["winner"])
    return f"Match over — winner: {winners or 'nobody'}."


def export(
    replay: Replay,
    out: Path,
    suffix: str,
    shot: int | None,
    size: tuple[int, int],
    fps: int,
    speed: float,
    trails: float,
    hold: float,
    progress: bool = True,
    start_shot: int = 1,
    version: str = "",
) -> str:
    """Write ``out``; returns the line to print (what was written)."""
    from jamsumo_sim.ui.theme import load_theme

    theme = load_theme()
    params = replay.initial_state().physics
    board = replay.initial_state().board
    if suffix == ".html":
        from jamsumo_sim import fileio
        from jamsumo_sim.export.page import build_page
        from jamsumo_sim.export.page_data import page_data

        scenes = list(iter_scenes(replay))
        data = page_data(_title(replay), scenes, board, params.die_size, theme, _finished(replay))
        fileio.write_atomic(out, build_page(data, start_shot, version), "page")
        return (
            f"wrote {out}: {len(scenes)} shots, trajectories at {data['shots'][0]['rate']:.1f} Hz"
        )
    from jamsumo_sim.export import encode, render
    from jamsumo_sim.export.scene import SceneRenderer

    scenes = list(iter_scenes(replay, shot))
    renderer = SceneRenderer(board, params.die_size, size, theme)
    if suffix == ".png":
        encode.write_png(out, render.still_picture(scenes[0], renderer))
        return f"wrote {out}: shot {scenes[0].number}, {size[0]}x{size[1]}"
    plan = render.plan_video(scenes, fps, speed, trails, hold)
    limit = opt.MAX_GIF_FRAMES if suffix == ".gif" else opt.MAX_VIDEO_FRAMES
    if plan.total > limit:
        raise UserError(
            f"--out {out}: {plan.total} frames is more than a {suffix[1:].upper()} may have here "
            f"({limit}); lower --fps or --hold, raise --speed, or export fewer shots"
        )
    frames = render.video_frames(scenes, renderer, plan, progress)
    write = encode.write_gif if suffix == ".gif" else encode.write_mp4
    written = write(out, frames, fps)
    seconds = written / fps
    return f"wrote {out}: {len(scenes)} shot(s), {written} frames at {fps} fps ({seconds:.2f} s)"
