"""One export run: the scenes of the wanted shots, then the file of the asked kind (checked first)."""

from __future__ import annotations

from pathlib import Path

from jamsumo_sim.export import budget
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

    first = replay.initial_state()
    params, board = first.physics, first.board
    if suffix in (".mp4", ".gif"):  # too many frames is refused before anything is simulated
        ask = budget.Ask(out, suffix, fps, speed, hold, float(params.step), float(first.shot_time))
        shots = 1 if shot is not None else len(replay.shots)
        budget.check_fewest(ask, shots)
    theme = load_theme()
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
    if suffix == ".png":
        from jamsumo_sim.export import encode, render
        from jamsumo_sim.export.scene import SceneRenderer

        scene = next(iter(iter_scenes(replay, shot)))
        renderer = SceneRenderer(board, params.die_size, size, theme)
        encode.write_png(out, render.still_picture(scene, renderer))
        return f"wrote {out}: shot {scene.number}, {size[0]}x{size[1]}"
    # each shot's frames, counted before any is drawn; stops (refusing) once past the limit
    scenes, counts = budget.count_frames(ask, iter_scenes(replay, shot), shots)
    from jamsumo_sim.export import encode, render
    from jamsumo_sim.export.scene import SceneRenderer

    renderer = SceneRenderer(board, params.die_size, size, theme)
    plan = render.VideoPlan(fps, speed, trails, ask.hold_frames, counts)
    frames = render.video_frames(scenes, renderer, plan, progress)
    write = encode.write_gif if suffix == ".gif" else encode.write_mp4
    written = write(out, frames, fps)
    seconds = written / fps
    return f"wrote {out}: {len(scenes)} shot(s), {written} frames at {fps} fps ({seconds:.2f} s)"
