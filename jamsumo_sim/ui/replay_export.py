"""E and Shift+E in the replay viewer: the shot on screen as a video, the whole match as a web page.

The files are those of ``jamsumo export`` (``jamsumo_sim/export``, docs/export.md): E writes the
shot as MP4 (H.264), or as a GIF where no H.264 encoder is at hand; Shift+E writes the match as one
self-contained HTML page opening at the shot on screen.  They go next to the replay file, under a
name that never replaces a file (``match-shot3.mp4``, then ``match-shot3-2.mp4``, …), checked with
:func:`jamsumo_sim.fileio.check_output_path` before any rendering.  The work runs on its own thread
(rendering a video takes seconds); the viewer shows its progress and then one line: the file's
name, or what went wrong.
"""

from __future__ import annotations

import itertools
import threading
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from jamsumo_sim.errors import UserError
from jamsumo_sim.fileio import check_output_path

MAX_NAME_TRIES = 1000  # match-shot3-2.mp4 … -999: beyond that the folder is full of them


def free_name(folder: Path, stem: str, suffix: str) -> Path:
    """``folder/stem+suffix``, or ``stem-2``, ``stem-3``, … : the first that does not exist."""
    for k in range(1, MAX_NAME_TRIES + 1):
        path = folder / (f"{stem}{suffix}" if k == 1 else f"{stem}-{k}{suffix}")
        if not path.exists():
            return path
    raise UserError(f"{folder}: {MAX_NAME_TRIES} exports of {stem} already; move some away")


@dataclass
class ExportJob:
    """One export; ``done``/``total`` is the progress (frames of a video; 0/0 while a page is built)."""

    what: str  # "shot 3" or "the match"
    out: Path
    size: tuple[int, int]  # px of a video
    done: int = 0
    total: int = 0
    result: list[Any] = field(default_factory=list)  # [message] or [exception] when finished
    thread: threading.Thread | None = None

    def finished(self) -> bool:
        return bool(self.result) and (self.thread is None or not self.thread.is_alive())

    def progress(self) -> str:
        if self.total:
            return f"exporting {self.what}: {100 * self.done // self.total} %"
        return f"exporting {self.what}…"

    def status(self) -> str:
        """The panel's line while running: the file's name and the share of frames written."""
        if self.total:
            return f"Exporting {self.what} to {self.out.name}: {100 * self.done // self.total} %"
        return f"Exporting {self.what} to {self.out.name}…"

    def outcome(self) -> str:
        """The one line for the panel once finished."""
        value = self.result[0]
        if isinstance(value, UserError):
            return f"Export failed: {value}"
        if isinstance(value, BaseException):
            return f"Export failed: {type(value).__name__}: {str(value)[:100]}"
        return f"Exported {self.what} to {self.out.name}"


def _settings() -> dict[str, Any]:
    """The CLI's defaults (docs/export.md), the trails as the window draws them; the size is the
    job's."""
    from jamsumo_sim.export import options as opt
    from jamsumo_sim.ui.theme import load_theme

    trails = float(load_theme().section("shot_fx").get("trail_time", 0.35))
    return {"speed": 1.0, "trails": trails, "hold": opt.DEFAULT_HOLD}


def video_suffix() -> str:
    """``.mp4`` where an H.264 encoder is at hand, else ``.gif``."""
    from jamsumo_sim.export.encode import check_mp4

    try:
        check_mp4()
    except UserError:
        return ".gif"
    return ".mp4"


def _video(job: ExportJob, replay_path: Path, shot: int) -> str:
    """Shot ``shot`` (1-based) as a video, as ``jamsumo export --shot`` renders it, counting frames."""
    from jamsumo_sim.export import encode, render
    from jamsumo_sim.export import options as opt
    from jamsumo_sim.export.scene import SceneRenderer
    from jamsumo_sim.export.shots import iter_scenes
    from jamsumo_sim.replay import load_replay
    from jamsumo_sim.ui.theme import load_theme

    s = _settings()
    suffix = job.out.suffix
    fps = opt.DEFAULT_FPS[suffix]
    replay = load_replay(replay_path)
    # the replay stops at the wanted shot: the later ones need not be simulated first
    scenes = list(itertools.islice(iter_scenes(replay, shot), 1))
    first = replay.initial_state()
    renderer = SceneRenderer(first.board, first.physics.die_size, job.size, load_theme())
    plan = render.plan_video(scenes, fps, s["speed"], s["trails"], s["hold"])
    limit = opt.MAX_GIF_FRAMES if suffix == ".gif" else opt.MAX_VIDEO_FRAMES
    if plan.total > limit:
        raise UserError(f"{job.out.name}: {plan.total} frames is more than a {suffix} may have")
    job.total = plan.total

    def counted():
        for frame in render.video_frames(scenes, renderer, plan, progress=False):
            job.done += 1
            yield frame

    write = encode.write_gif if suffix == ".gif" else encode.write_mp4
    written = write(job.out, counted(), fps)
    return f"{job.out}: {written} frames at {fps} fps"


def _page(job: ExportJob, replay_path: Path, shot: int) -> str:
    """The whole match as a page opening at ``shot`` (``jamsumo export --out x.html``)."""
    from jamsumo_sim import __version__
    from jamsumo_sim.export import export
    from jamsumo_sim.replay import load_replay

    s = _settings()
    replay = load_replay(replay_path)
    return export.export(
        replay, job.out, ".html", None, job.size, 30, s["speed"], s["trails"], s["hold"],
        progress=False, start_shot=shot, version=__version__,
    )  # fmt: skip


def _run(job: ExportJob, work: Any, replay_path: Path, shot: int) -> None:
    try:
        job.result.append(work(job, replay_path, shot))
    except BaseException as exc:  # noqa: BLE001 - shown on the window's thread as one line
        job.result.append(exc)


def start(
    replay_path: str | Path,
    shot: int,
    match: bool,
    threaded: bool = True,
    size: tuple[int, int] | None = None,
) -> ExportJob:
    """Export shot ``shot`` (1-based) as a video (``size`` px, default the CLI's), or the match
    (``match=True``) as a page.

    The output name is chosen and checked here (a one-line UserError before any work)."""
    source = Path(replay_path)
    suffix = ".html" if match else video_suffix()
    stem = source.stem if match else f"{source.stem}-shot{shot}"
    out = free_name(source.parent, stem, suffix)
    out = check_output_path(out, "export", inputs=[source], suffixes=(suffix,))
    from jamsumo_sim.export.options import DEFAULT_SIZE

    job = ExportJob("the match" if match else f"shot {shot}", out, size or DEFAULT_SIZE)
    work = _page if match else _video
    if threaded:
        job.thread = threading.Thread(
            target=_run, args=(job, work, source, shot), daemon=True, name="replay-export"
        )
        job.thread.start()
    else:
        _run(job, work, source, shot)
    return job
