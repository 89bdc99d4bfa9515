"""Video tracking speed: frames per second of `jamsumo track`'s per-frame work on synthetic clips.

Run: ``python benchmarks/bench_track.py [--shots 6] [--repeat 3] [--keep DIR]``.

Two clips are rendered once by the test suite's synthetic camera (``tests/video/synth.py``: 960x720,
tilted 18-20 degrees, lens distortion, motion blur, noise, a lighting gradient), stored as MJPG AVI
and decoded back (as ``jamsumo track`` reads a video):

* *tripod*: a still camera, 60 frames/s, one red die shot ``--shots`` times (as the end-to-end
  test films);
* *hand-held*: the camera wanders by 3 mm, 120 frames/s (markers decoded in every frame).

Reported per clip: frames/s of ``track()`` (markers, pose, dice, pips; decoding excluded), best of
``--repeat`` runs, in CPU (process) time, the headline because the machine may be busy, and wall
time; and frames/s of decoding the AVI alone.  The clips are the same for any version of
``jamsumo_sim`` on the path, so two versions compare on equal frames (run each in turn,
alternating).
"""

from __future__ import annotations

import argparse
import sys
import tempfile
import time
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[1]


def _clip(folder: Path, name: str, shots: int, fps: float, jitter: float) -> tuple[Path, object]:
    sys.path.insert(0, str(ROOT))  # tests/video/synth.py
    from jamsumo_sim.calibration.model import with_fitted
    from jamsumo_sim.physics.board import load_board
    from jamsumo_sim.physics.params import PhysicsParams
    from tests.video.synth import Camera, Renderer, random_shots, write_video

    board = load_board("standard")
    params = with_fitted(PhysicsParams.from_board(board), ["mu_board"], [0.30])
    rng = np.random.default_rng(2026)
    camera = Camera(tilt_deg=18.0, azimuth_deg=60.0)
    path = folder / f"{name}.avi"
    if not path.exists():
        renderer = Renderer(board, camera, rng, params.die_size)
        chosen = random_shots(board, params, rng, shots)
        write_video(path, renderer, board, params, chosen, fps, rest_frames=4, jitter_m=jitter)
    return path, camera.intrinsics()


def _decode(path: Path) -> tuple[list[np.ndarray], float]:
    import cv2

    t0 = time.process_time()
    cap = cv2.VideoCapture(str(path))
    frames = []
    while True:
        ok, img = cap.read()
        if not ok:
            break
        frames.append(img)
    cap.release()
    return frames, len(frames) / max(time.process_time() - t0, 1e-9)


def _track(frames, fps, cam) -> tuple[float, float]:
    from jamsumo_sim.physics.board import load_board
    from jamsumo_sim.video.colours import load_colours
    from jamsumo_sim.video.markers import MarkerDetector
    from jamsumo_sim.video.track import track

    board = load_board("standard")
    c0, w0 = time.process_time(), time.perf_counter()
    track(iter(frames), fps, MarkerDetector(board.markers), cam, [load_colours()["red"]], 0.016)
    return len(frames) / (time.process_time() - c0), len(frames) / (time.perf_counter() - w0)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--shots", type=int, default=6)
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--keep", type=Path, help="folder for the rendered clips (reused when present)")
    args = ap.parse_args()
    folder = args.keep or Path(tempfile.mkdtemp(prefix="bench-track-"))
    folder.mkdir(parents=True, exist_ok=True)
    import jamsumo_sim

    print(f"jamsumo_sim from {Path(jamsumo_sim.__file__).parent}")
    for name, fps, jitter in (("tripod", 60.0, 0.0), ("hand-held", 120.0, 0.003)):
        path, cam = _clip(folder, name, args.shots, fps, jitter)
        frames, decode_fps = _decode(path)
        runs = [_track(frames, fps, cam) for _ in range(args.repeat)]
        cpu, wall = max(r[0] for r in runs), max(r[1] for r in runs)
        print(f"{name:10} {len(frames):4} frames {frames[0].shape[1]}x{frames[0].shape[0]} at "
              f"{fps:g} fps: track {cpu:6.1f} frames/s CPU ({wall:6.1f} wall), "
              f"decoding alone {decode_fps:6.1f} frames/s")  # fmt: skip


if __name__ == "__main__":
    main()
