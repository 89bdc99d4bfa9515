"""Synthetic phone videos of simulated shots: perspective camera (tilted), lens distortion, motion blur,
noise, a lighting gradient and the printed markers.  Truth comes from the physics engine."""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from pathlib import Path

import cv2
import numpy as np

from jamsumo_sim.calibration.world_sim import WorldSimulator
from jamsumo_sim.physics.board import BoardSpec
from jamsumo_sim.physics.params import PhysicsParams
from jamsumo_sim.video.camera import Intrinsics, Pose, pinhole
from jamsumo_sim.video.markers import dictionary

TEXTURE_RES = 0.0005  # m per texture pixel: the standard markers' edges fall on pixel edges
TEXTURE_HALF = 0.32  # m: the texture covers the table +- this
WOOD = (120, 170, 205)  # BGR light lacquered wood
TABLE = (95, 95, 100)
DIE_BGR = {
    "red": (40, 40, 215),
    "blue": (200, 90, 30),
    "green": (60, 170, 40),
    "yellow": (30, 210, 235),
}
PIPS = {
    1: [(0, 0)],
    2: [(-1, -1), (1, 1)],
    3: [(-1, -1), (0, 0), (1, 1)],
    4: [(-1, -1), (1, 1), (-1, 1), (1, -1)],
    5: [(-1, -1), (1, 1), (-1, 1), (1, -1), (0, 0)],
    6: [(-1, -1), (1, 1), (-1, 1), (1, -1), (-1, 0), (1, 0)],
}
PIP_OFFSET, PIP_RADIUS = 0.0045, 0.0014


@dataclass
class Camera:
    width: int = 960
    height: int = 720
    focal: float = 700.0
    dist: tuple[float, ...] = (-0.06, 0.02, 0.0, 0.0, 0.0)
    tilt_deg: float = 20.0
    azimuth_deg: float = 30.0
    distance: float = 0.72

    def intrinsics(self) -> Intrinsics:
        return pinhole(self.width, self.height, self.focal, self.dist, "synthetic truth")

    def pose(self, jitter: np.ndarray | None = None) -> Pose:
        t, a = math.radians(self.tilt_deg), math.radians(self.azimuth_deg)
        look = np.zeros(3) if jitter is None else np.array([jitter[0], jitter[1], 0.0])
        c = look + self.distance * np.array(
            [math.sin(t) * math.cos(a), math.sin(t) * math.sin(a), math.cos(t)]
        )
        z = look - c
        z /= np.linalg.norm(z)
        x = np.cross(z, [0.0, 1.0, 0.0]) if abs(z[1]) < 0.9 else np.cross(z, [1.0, 0.0, 0.0])
        x /= np.linalg.norm(x)
        y = np.cross(z, x)
        R = np.stack([x, y, z])
        return Pose(R, -R @ c, 0.0)


def texture(board: BoardSpec, markers: bool = True) -> np.ndarray:
    n = int(round(2 * TEXTURE_HALF / TEXTURE_RES))
    img = np.full((n, n, 3), TABLE, np.uint8)

    def px(x, y):
        return int(round((x + TEXTURE_HALF) / TEXTURE_RES)), int(
            round((TEXTURE_HALF - y) / TEXTURE_RES)
        )

    h = board.half
    cv2.rectangle(img, px(-h, h), px(h, -h), WOOD, -1)
    cv2.circle(img, px(0, 0), int(board.hole_radius / TEXTURE_RES), (20, 20, 20), -1)
    for m in board.markers if markers else ():
        side = int(round(m.size / TEXTURE_RES))
        border = int(round(0.006 / TEXTURE_RES))
        x0, y0 = px(m.x - m.size / 2, m.y + m.size / 2)
        cv2.rectangle(
            img,
            (x0 - border, y0 - border),
            (x0 + side + border, y0 + side + border),
            (255, 255, 255),
            -1,
        )
        mk = cv2.aruco.generateImageMarker(dictionary(), m.id, side)
        img[y0 : y0 + side, x0 : x0 + side] = mk[..., None]
    return img


@dataclass
class Shot:
    colour: str
    launch: np.ndarray  # x, y, angle, vx, vy, omega
    face: int
    times: np.ndarray = field(default_factory=lambda: np.zeros(0))  # frame times after launch
    poses: np.ndarray = field(default_factory=lambda: np.zeros((0, 3)))


class Renderer:
    def __init__(
        self,
        board: BoardSpec,
        camera: Camera,
        rng: np.random.Generator,
        die_size: float,
        noise: float = 3.0,
        blur_samples: int = 4,
        exposure: float = 0.5,
    ):
        self.board, self.cam, self.rng, self.a = board, camera, rng, die_size
        self.noise, self.blur, self.exposure = noise, blur_samples, exposure
        self.tex = texture(board)
        self.tex_plain = texture(board, markers=False)  # markers covered (a hand, a shadow)
        self.markers = True
        w, h = camera.width, camera.height
        K = camera.intrinsics().K
        grid = (
            np.stack(np.meshgrid(np.arange(w), np.arange(h)), axis=-1)
            .reshape(-1, 1, 2)
            .astype(np.float64)
        )
        norm = cv2.undistortPoints(grid, K, np.array(camera.dist)).reshape(h, w, 2)
        self.norm = norm
        ideal = norm * camera.focal + (w / 2, h / 2)
        self.ideal_map = (ideal[..., 0].astype(np.float32), ideal[..., 1].astype(np.float32))
        yy, xx = np.mgrid[0:h, 0:w]
        self.gain = (0.8 + 0.35 * xx / w + 0.1 * yy / h)[..., None]  # lighting gradient
        self._base_key = None

    def base(self, pose: Pose) -> np.ndarray:
        key = (pose.R.tobytes(), pose.t.tobytes(), self.markers)
        if key != self._base_key:
            h, w = self.cam.height, self.cam.width
            rays = np.concatenate([self.norm, np.ones((h, w, 1))], axis=-1) @ pose.R
            c = pose.centre
            lam = -c[2] / rays[..., 2]
            bx = c[0] + lam * rays[..., 0]
            by = c[1] + lam * rays[..., 1]
            mx = ((bx + TEXTURE_HALF) / TEXTURE_RES - 0.5).astype(np.float32)
            my = ((TEXTURE_HALF - by) / TEXTURE_RES - 0.5).astype(np.float32)
            tex = self.tex if self.markers else self.tex_plain
            self._base = cv2.remap(tex, mx, my, cv2.INTER_LINEAR, borderValue=TABLE).astype(
                np.float32
            )
            self._base_key = key
        return self._base

    def _project_ideal(self, pts: np.ndarray, pose: Pose) -> np.ndarray:
        cam = pts @ pose.R.T + pose.t
        return cam[:, :2] / cam[:, 2:3] * self.cam.focal + (self.cam.width / 2, self.cam.height / 2)

    def _draw_die(self, img, alpha, pose: Pose, colour: str, x, y, th, face, off):
        a = self.a
        c, s = math.cos(th), math.sin(th)
        sq = np.array([[1, 1], [-1, 1], [-1, -1], [1, -1]]) * a / 2
        xy = sq @ np.array([[c, s], [-s, c]]) + (x, y)
        top = np.c_[xy, np.full(4, a)]
        bot = np.c_[xy, np.zeros(4)]
        cen = pose.centre
        base_col = np.array(DIE_BGR[colour], float)
        faces = []
        for k in range(4):  # side faces facing the camera
            p = [bot[k], bot[(k + 1) % 4], top[(k + 1) % 4], top[k]]
            mid = np.mean(p, axis=0)
            normal = np.array([mid[0] - x, mid[1] - y, 0.0])
            if np.dot(normal, cen - mid) > 0:
                faces.append((p, 0.55 + 0.15 * k / 3))
        faces.append(([*top], 1.0))
        sh, shift = 16, 4
        for p, shade in faces:
            q = np.round((self._project_ideal(np.array(p), pose) - off) * sh).astype(np.int32)
            cv2.fillConvexPoly(img, q, tuple((base_col * shade).tolist()), cv2.LINE_AA, shift)
            cv2.fillConvexPoly(alpha, q, 255, cv2.LINE_AA, shift)
        ang = np.linspace(0, 2 * math.pi, 16, endpoint=False)
        for u, v in PIPS[face]:
            px = x + PIP_OFFSET * (c * u - s * v)
            py = y + PIP_OFFSET * (s * u + c * v)
            circ = np.c_[
                px + PIP_RADIUS * np.cos(ang), py + PIP_RADIUS * np.sin(ang), np.full(16, a)
            ]
            q = np.round((self._project_ideal(circ, pose) - off) * sh).astype(np.int32)
            cv2.fillConvexPoly(img, q, (235, 235, 235), cv2.LINE_AA, shift)

    def frame(
        self, pose: Pose, dice: list[list[tuple[str, float, float, float, int]]]
    ) -> np.ndarray:
        """One frame; ``dice`` holds, per blur sample, the dice (colour, x, y, angle, face) to draw.

        The dice are drawn in the undistorted image only inside their bounding box, which is then
        distorted (remap) and laid over the background: a frame costs little more than its noise."""
        h, w = self.cam.height, self.cam.width
        base = self.base(pose)
        out = self._noisy_base()
        corners = [
            (x + dx, y + dy, z)
            for sample in dice for _, x, y, _, _ in sample
            for dx in (-self.a, self.a) for dy in (-self.a, self.a) for z in (0.0, self.a)
        ]  # fmt: skip
        if not corners:
            return out
        cam = self.cam.intrinsics()
        rvec, _ = cv2.Rodrigues(pose.R)
        img_pts, _ = cv2.projectPoints(np.array(corners), rvec, pose.t, cam.K, cam.dist)
        img_pts = img_pts.reshape(-1, 2)
        x0, y0 = np.clip(np.floor(img_pts.min(axis=0)).astype(int) - 4, 0, None)
        x1, y1 = np.minimum(np.ceil(img_pts.max(axis=0)).astype(int) + 5, (w, h))
        if x1 <= x0 or y1 <= y0:
            return out
        mx, my = self.ideal_map[0][y0:y1, x0:x1], self.ideal_map[1][y0:y1, x0:x1]
        ix0, iy0 = int(np.floor(mx.min())) - 2, int(np.floor(my.min())) - 2
        cw, ch = int(np.ceil(mx.max())) + 3 - ix0, int(np.ceil(my.max())) + 3 - iy0
        acc = np.zeros((ch, cw, 3), np.float32)
        acc_a = np.zeros((ch, cw), np.float32)
        off = np.array([ix0, iy0], float)
        for sample in dice:
            img = np.zeros((ch, cw, 3), np.uint8)  # uint8: OpenCV antialiases only 8-bit images
            alpha = np.zeros((ch, cw), np.uint8)
            for colour, x, y, th, face in sample:
                self._draw_die(img, alpha, pose, colour, x, y, th, face, off)
            acc += img
            acc_a += alpha / np.float32(255)
        n = max(1, len(dice))
        over = cv2.remap(acc / n, mx - ix0, my - iy0, cv2.INTER_LINEAR)
        al = cv2.remap(acc_a / n, mx - ix0, my - iy0, cv2.INTER_LINEAR)[..., None]
        roi = (base[y0:y1, x0:x1] * (1 - al) + over) * self.gain[y0:y1, x0:x1]
        roi += self.rng.normal(0, self.noise, roi.shape)
        out[y0:y1, x0:x1] = np.clip(roi, 0, 255).astype(np.uint8)
        return out

    def _noisy_base(self) -> np.ndarray:
        """The lit background with noise.  A still camera draws from a few ready noisy copies; a moving
        one adds one of a few noise fields to its new background."""
        if getattr(self, "_noise", None) is None:
            shape = (self.cam.height, self.cam.width, 3)
            self._noise = [
                self.rng.normal(0, self.noise, shape).astype(np.float32) for _ in range(3)
            ]
        if getattr(self, "_lit_key", None) is not self._base_key:
            self._lit = self._base * self.gain.astype(np.float32)
            self._lit_key, self._bank, self._uses = self._base_key, None, 0
        self._uses += 1
        pick = int(self.rng.integers(len(self._noise)))
        if self._bank is None and self._uses >= 3:  # the camera is still: keep the noisy copies
            self._bank = [np.clip(self._lit + n, 0, 255).astype(np.uint8) for n in self._noise]
        if self._bank is not None:
            return self._bank[pick].copy()
        return np.clip(self._lit + self._noise[pick], 0, 255).astype(np.uint8)


def simulate(
    board: BoardSpec,
    params: PhysicsParams,
    shots: list[Shot],
    fps: float,
    blur: int,
    exposure: float,
) -> None:
    """Fill each shot's frame times and its poses at every blur sample (times start at the first frame
    after the launch, the launch falling at a random fraction of a frame before it)."""
    sim = WorldSimulator(board)
    L = np.array([s.launch for s in shots])
    speed = np.hypot(L[:, 3], L[:, 4])
    times = []
    for s, v in zip(shots, speed, strict=True):
        n = int(v / (params.mu_board * params.gravity) * fps * 1.3) + 8
        s.times = (np.arange(n) + 0.5) / fps  # mid-exposure times
        offsets = (np.arange(blur) + 0.5) / blur - 0.5
        times.append(np.clip((s.times[:, None] + offsets * exposure / fps).ravel(), 0, None))
    tracks = sim.track(params, L, times)
    for s, tr in zip(shots, tracks, strict=True):
        s.poses = tr.reshape(len(s.times), blur, 3)


def render(
    renderer: Renderer,
    board: BoardSpec,
    params: PhysicsParams,
    shots: list[Shot],
    fps: float,
    rest_frames: int = 6,
    jitter_m: float = 0.0,
    hide_markers: range = range(0),
    leave_frame: frozenset[int] = frozenset(),
):
    """Yield (frame, truth) for the shots one after another; between shots the die is lifted out of
    view for two frames.  truth = {colour: (x, y, angle, face)} of the dice in view.  ``hide_markers``:
    frames whose markers are covered; ``leave_frame``: shots whose die vanishes while it moves."""
    simulate(board, params, shots, fps, renderer.blur, renderer.exposure)
    cam = renderer.cam
    k = 0
    rest_of: dict[str, tuple] = {}

    def draw(samples):
        nonlocal k
        jit = None if not jitter_m else jitter_m * np.array([math.sin(k / 25), math.cos(k / 31)])
        renderer.markers = k not in hide_markers
        k += 1
        return renderer.frame(cam.pose(jit), samples)

    for n_shot, s in enumerate(shots):
        others = [(c, *p) for c, p in rest_of.items() if c != s.colour]
        still = {c: p for c, p in rest_of.items() if c != s.colour}
        for _ in range(2):  # the hand places the die: out of view
            yield draw([others]), dict(still)
        x0, y0, a0 = s.launch[:3]
        for _ in range(rest_frames):
            yield (
                draw([[(s.colour, x0, y0, a0, s.face), *others]]),
                {**still, s.colour: (x0, y0, a0, s.face)},
            )
        for i in range(len(s.times)):
            if n_shot in leave_frame and i >= len(s.times) // 3:
                yield draw([others]), dict(still)
                continue
            samples = [[(s.colour, *s.poses[i, b], s.face), *others] for b in range(renderer.blur)]
            mid = s.poses[i, renderer.blur // 2] if renderer.blur % 2 else s.poses[i].mean(axis=0)
            yield draw(samples), {**still, s.colour: (*mid, s.face)}
        fx, fy, fa = s.poses[-1, -1]
        rest_of[s.colour] = (fx, fy, fa, s.face)
        for _ in range(rest_frames):
            yield draw([[(c, *p) for c, p in rest_of.items()]]), dict(rest_of)


def write_video(path: Path, renderer: Renderer, *args, **kwargs) -> list[dict]:
    """Write render()'s frames to an MJPG AVI (or PNG files when ``path`` has no suffix); the truths."""
    cam = renderer.cam
    truth = []
    if path.suffix == "":
        path.mkdir(parents=True, exist_ok=True)
        for k, (img, info) in enumerate(render(renderer, *args, **kwargs)):
            cv2.imwrite(str(path / f"f{k:05d}.png"), img)
            truth.append(info)
        return truth
    fps = args[3] if len(args) > 3 else kwargs["fps"]
    writer = cv2.VideoWriter(
        str(path), cv2.VideoWriter_fourcc(*"MJPG"), fps, (cam.width, cam.height)
    )
    try:
        for img, info in render(renderer, *args, **kwargs):
            writer.write(img)
            truth.append(info)
    finally:
        writer.release()
    return truth


def random_shots(
    board: BoardSpec,
    params: PhysicsParams,
    rng: np.random.Generator,
    n: int,
    colours: tuple[str, ...] = ("red",),
) -> list[Shot]:
    """``n`` single-die shots that start and stay on the board, clear of the hole (checked by simulating)."""
    sim = WorldSimulator(board)
    out: list[Shot] = []
    while len(out) < n:
        m = 2 * (n - len(out))
        r = rng.uniform(0.10, 0.16, m)
        phi = rng.uniform(0, 2 * math.pi, m)
        heading = phi + math.pi / 2 * rng.choice([-1, 1], m) + rng.uniform(-0.5, 0.5, m)
        v = rng.uniform(0.45, 0.85, m)
        L = np.stack(
            [
                r * np.cos(phi),
                r * np.sin(phi),
                rng.uniform(0, math.pi / 2, m),
                v * np.cos(heading),
                v * np.sin(heading),
                rng.uniform(-25, 25, m),
            ],
            axis=1,
        )
        R = sim.rest(params, L)
        for launch, rest in zip(L, R, strict=True):
            x, y = rest[:2]
            if (
                abs(x) < board.half - 0.03
                and abs(y) < board.half - 0.03
                and math.hypot(x, y) > 0.05
            ):
                c = colours[len(out) % len(colours)]
                out.append(Shot(c, launch, int(rng.integers(1, 7))))
            if len(out) == n:
                break
    return out
