"""`jamsumo markers` and `jamsumo track`: print the tracking markers; turn a phone video of the board into
the calibrator's CSV files (rest poses, trajectories, collisions) with a quality figure per shot."""

from __future__ import annotations

import argparse
import json
import re
import sys
import time
from pathlib import Path

from ..errors import UserError
from ..fileio import check_output_path, same_file

MAX_DICE = 8
PREVIEW_SUFFIXES = (".mp4", ".avi")
ESTIMATE_FRAMES = 120  # frames read first to estimate the focal length when no --camera is given
PATTERN_MAX = 30  # inner corners per side of a checkerboard
OUT_FILES = {
    "rest": "rest_poses.csv",
    "trajectory": "trajectories.csv",
    "collision": "collisions.csv",
}


def register(subparsers: argparse._SubParsersAction) -> None:
    m = subparsers.add_parser(
        "markers",
        help="print the board's video-tracking markers (PDF, true scale)",
        description="Write the board's ArUco markers ([[markers]] of the board file) as an A4 PDF at "
        "true scale, with a white border and a 100 mm check line.",
    )
    m.add_argument("--board", default="standard", help="board name or TOML file")
    m.add_argument("--out", required=True, metavar="MARKERS.pdf")
    m.set_defaults(func=run_markers)

    t = subparsers.add_parser(
        "track",
        help="calibration CSVs from a phone video of the board",
        description="Track dice in a video of the board filmed from above (markers on the table, see "
        "`jamsumo markers`) and write rest_poses.csv, trajectories.csv, collisions.csv for "
        "`jamsumo calibrate`, plus a quality figure per shot (calibration/README.md, 'Film your board').",
    )
    t.add_argument(
        "video", metavar="VIDEO", help="video file (MP4, AVI, ...) or a folder of frames"
    )
    t.add_argument("--board", default="standard", help="board name or TOML file (with [[markers]])")
    t.add_argument("--dice", metavar="COLOURS", help="dice colours to track, e.g. red,blue")
    t.add_argument(
        "--colours", metavar="FILE.toml", help="HSV ranges of the dice (default: packaged)"
    )
    t.add_argument(
        "--out", metavar="DIR", help="output folder (or camera JSON with --calibrate-camera)"
    )
    t.add_argument("--preview", metavar="ANNOTATED.mp4", help="write the video with what was found")
    t.add_argument("--json", action="store_true", help="print the summary as JSON")
    t.add_argument("--fps", type=float, help="frame rate (needed for a folder of frames; overrides "
                   "the video's, e.g. for slow motion saved at 30 frames/s)")  # fmt: skip
    t.add_argument("--camera", metavar="CAMERA.json", help="intrinsics from --calibrate-camera")
    t.add_argument("--calibrate-camera", action="store_true",
                   help="VIDEO films a checkerboard: write the camera's intrinsics to --out")  # fmt: skip
    t.add_argument("--checkerboard", default="9x6", metavar="COLSxROWS",
                   help="inner corners of the checkerboard (default 9x6)")  # fmt: skip
    t.add_argument("--pick", metavar="X,Y[@FRAME]",
                   help="print an HSV range for the colour at pixel X,Y of a frame, and stop")  # fmt: skip
    t.set_defaults(func=run_track)


def run_markers(args: argparse.Namespace) -> int:
    from .cvload import cv2

    cv2("'jamsumo markers'")  # the video extra, or one line naming it, before anything else
    from ..physics.board import load_board
    from .printout import write_markers_pdf

    out = check_output_path(args.out, "--out", suffixes=(".pdf",))
    board = load_board(args.board)
    write_markers_pdf(board, out)
    print(f"wrote {out}: print at 100 % and check the 100 mm line")
    return 0


def _pattern(text: str) -> tuple[int, int]:
    m = re.fullmatch(r"(\d{1,3})x(\d{1,3})", text.strip())
    if not m or not all(2 <= int(v) <= PATTERN_MAX for v in m.groups()):
        raise UserError(
            f"--checkerboard must be COLSxROWS inner corners, 2 to {PATTERN_MAX}, got {text[:20]!r}"
        )
    return int(m[1]), int(m[2])


def _pick(text: str) -> tuple[int, int, int]:
    m = re.fullmatch(r"\s*(\d{1,5})\s*,\s*(\d{1,5})\s*(?:@\s*(\d{1,6}))?\s*", text)
    if not m:
        raise UserError(
            f"--pick must be X,Y or X,Y@FRAME (pixels, frame number), got {text[:20]!r}"
        )
    return int(m[1]), int(m[2]), int(m[3] or 0)


def run_track(args: argparse.Namespace) -> int:
    from .cvload import cv2

    cv2("'jamsumo track'")  # the video extra, or one line naming it, before anything else
    from .source import open_source

    if args.pick is not None:
        x, y, k = _pick(args.pick)
        src = open_source(args.video, args.fps or 30.0)
        from .colours import pick_colour

        for i, frame in enumerate(src.read()):
            if i == k:
                print(pick_colour(frame, x, y), end="")
                return 0
        raise UserError(f"--pick: the video has no frame {k}")
    if args.out is None:
        raise UserError(
            "--out is required (a folder for the CSVs, or camera JSON with --calibrate-camera)"
        )
    if args.calibrate_camera:
        return _calibrate_camera(args)
    return _track(args)


def _calibrate_camera(args: argparse.Namespace) -> int:
    from ..fileio import write_json
    from .camera import calibrate_checkerboard
    from .source import open_source

    pattern = _pattern(args.checkerboard)
    out = check_output_path(args.out, "--out", [args.video], (".json",))
    src = open_source(args.video, args.fps or 30.0)
    cam = calibrate_checkerboard(src.read(), pattern)
    write_json(out, cam.to_json(), "camera file")
    print(f"wrote {out}: focal length {cam.focal:.1f} px ({cam.source})")
    return 0


def _track(args: argparse.Namespace) -> int:
    from ..physics.board import load_board
    from ..physics.params import PhysicsParams
    from .colours import load_colours

    started = time.perf_counter()
    out_dir = Path(args.out)
    if out_dir.exists() and not out_dir.is_dir():
        raise UserError(f"--out {out_dir} is a file; give a folder")
    for name in (*OUT_FILES.values(), "track.json"):
        check_output_path(out_dir / name, "--out", [args.video])
    if args.preview is not None:
        check_output_path(args.preview, "--preview", [args.video], PREVIEW_SUFFIXES)
    if not args.dice:
        raise UserError(
            "--dice is required: the colours of the dice to track, e.g. --dice red,blue"
        )
    names = [n.strip() for n in args.dice.split(",")]
    if any(not n for n in names) or len(set(names)) != len(names) or len(names) > MAX_DICE:
        raise UserError(
            f"--dice must name 1 to {MAX_DICE} different colours, got {args.dice[:40]!r}"
        )
    colours = load_colours(args.colours)
    for n in names:
        if n not in colours:
            raise UserError(
                f"--dice: no colour {n[:20]!r} (known: {', '.join(colours)}; add it with --colours)"
            )
    board = load_board(args.board)
    params = PhysicsParams.from_board(board)
    from .markers import MarkerDetector, board_markers
    from .source import open_source

    detector = MarkerDetector(board_markers(board))
    src = open_source(args.video, args.fps)
    cam, camera_note = _intrinsics(args, src, detector)
    report = _run(args, src, detector, cam, [colours[n] for n in names], board, params, out_dir)
    report["camera"] = {"note": camera_note, **cam.to_json()}
    report["seconds"] = round(time.perf_counter() - started, 2)
    from ..fileio import write_json

    write_json(out_dir / "track.json", report, "track summary")
    for w in report["warnings"]:
        print(f"jamsumo track: warning: {w}", file=sys.stderr)
    if args.json:
        print(json.dumps(report))
    else:
        print(camera_note)
        print(f"{report['frames']} frames at {src.fps:g} fps; markers found in "
              f"{report['frames_with_pose']}; {len(report['shots'])} shots written to {out_dir}:")  # fmt: skip
        for kind, f in report["files"].items():
            print(f"  {f}: {report['rows'][kind]} rows")
        print(f"  quality_<shot>.png per shot, track.json (summary); {report['seconds']} s")
    return 0


def _intrinsics(args, src, detector):
    from .camera import estimate_from_markers, load_camera

    if args.camera is not None:
        if same_file(args.camera, args.video):
            raise UserError("--camera is the video itself")
        cam = load_camera(args.camera, src.width, src.height)
        return cam, f"camera: {cam.source} (focal length {cam.focal:.0f} px)"
    dets = []
    for k, frame in enumerate(src.read()):
        if k >= ESTIMATE_FRAMES:
            break
        if k % 4 == 0:
            d = detector.detect(frame)
            if len(d.ids) >= 2:
                dets.append(d)
    if not dets:
        raise UserError(
            f"video {src.path}: none of the board's markers found in the first {ESTIMATE_FRAMES} frames "
            f"(print them with `jamsumo markers`, lay them as the board file says, keep them in view)"
        )
    return estimate_from_markers(dets, src.width, src.height)


def _run(args, src, detector, cam, colours, board, params, out_dir: Path) -> dict:
    from .. import fileio
    from ..calibration.data import write_csv
    from . import quality
    from .preview import Preview
    from .shots import cut_shots, rows
    from .track import track

    preview = (
        Preview(Path(args.preview), src.fps, src.width, src.height, cam, params.die_size)
        if args.preview
        else None
    )
    try:
        tr = track(src.read(), src.fps, detector, cam, colours, params.die_size,
                   preview.add if preview else None)  # fmt: skip
    finally:
        if preview is not None:
            preview.close()
    if tr.frames == 0:
        raise UserError(f"video {src.path}: no frames could be read")
    with_pose = int(tr.has_pose().sum())
    if with_pose == 0:
        raise UserError(f"video {src.path}: the board's markers were not found in any frame")
    warnings: list[str] = []
    if with_pose < tr.frames:
        warnings.append(
            f"markers not found in {tr.frames - with_pose} of {tr.frames} frames (no poses there)"
        )
    shots = cut_shots(tr, warnings)
    table = rows(tr, shots, board, params, warnings)
    written = {}
    fileio_note = f"Tracked by `jamsumo track` from {src.path.name} at {src.fps:g} frames/s"
    for kind, data in table.items():
        if data:
            written[kind] = str(write_csv(out_dir / OUT_FILES[kind], kind, data, fileio_note))
        else:
            (out_dir / OUT_FILES[kind]).unlink(
                missing_ok=True
            )  # an old run's file would be re-fitted
    kept = {r[0] for rows_ in table.values() for r in rows_}
    shot_reports = []
    figures = quality.Figures(board)
    for shot in shots:
        q = quality.measure(tr, shot)
        q["written"] = shot.label in kept
        if q["written"]:
            q["figure"] = str(figures.draw(tr, shot, out_dir / f"quality_{shot.label}.png"))
        shot_reports.append(q)
    if not kept:
        raise UserError(
            f"video {src.path}: no complete shot found ({len(warnings)} warnings; a shot is a die at rest, "
            f"flicked, and at rest again, in view throughout){_first(warnings)}"
        )
    del fileio
    return {
        "version": 1,
        "video": str(src.path),
        "frames": tr.frames,
        "frames_with_pose": with_pose,
        "fps": src.fps,
        "shots": shot_reports,
        "files": written,
        "rows": {k: len(v) for k, v in table.items()},
        "warnings": warnings,
    }


def _first(warnings: list[str]) -> str:
    return f": {warnings[0]}" if warnings else ""
