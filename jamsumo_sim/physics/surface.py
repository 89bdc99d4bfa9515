"""The playing surface: the dish (bowl) height field and the board's tilt, as in-plane forces.

Dish profile (radius r about the hole's centre; R_h the hole's radius, R_d ``dish_radius``, d
``dish_depth``): a cubic in r^2,

    h(r) = -d u^3,   u = (R_d^2 - r^2) / (R_d^2 - R_h^2)   for r <= R_d,   h = 0 beyond,

so h(R_h) = -d (the depth at the hole's rim, as before) and slope and curvature are continuous
everywhere and zero where the bowl meets the flat (no kink, no jump in the v^2 normal force, which
a leapfrog step would integrate only to first order).  Concave inside R_d / sqrt(5), convex outside;
on the standard board the curvature is at most 0.36 1/m (at the hole) and -0.29 1/m (convex, at
r = 0.77 R_d): a die would leave the convex rim only above 5.8 m/s, beyond the launch cap.  Steepest
slope 0.0234 (1.3 degrees) at R_d / sqrt(5).

With s = r^2: grad h = 2 h_s (x, y) with 2 h_s = 6 d u^2 / D (D = R_d^2 - R_h^2), and the Hessian
H = 2 h_s I + 4 h_ss r r^T with 4 h_ss = -24 d u / D^2.

Forces, with G the total gradient (dish plus the tripod's constant tilt plane): a die feels the
along-slope gravity -g G / sqrt(1 + |G|^2) (expressed in the horizontal plane of the 2D model) and
presses with

    N = m (g + v.H.v) / sqrt(1 + |G|^2)        (never below zero)

where v.H.v is the curvature of the die's path times v^2 (physics.md s8.7: the centripetal part of
the normal force; exact for a point mass held on the surface, friction being tangential).
"""

from __future__ import annotations

import math

import numpy as np

from .board import BoardSpec
from .tripod import plane_gradient


class Surface:
    """Height field, gradient, curvature and in-plane surface acceleration of one board."""

    def __init__(self, board: BoardSpec, gravity: float) -> None:
        self.g = gravity
        rh, rd = board.hole_radius, board.dish_radius
        self.depth = board.dish_depth
        self.r_hole = rh
        self.r_dish = rd
        span = rd * rd - rh * rh
        self.inv_span = 1.0 / span  # u = (R_d^2 - r^2) * inv_span
        self.c_slope = 6 * board.dish_depth / span  # h'/r = c_slope u^2
        self.c_radial = 24 * board.dish_depth / span**2  # radial Hessian part: -c_radial u (r.v)^2
        self.tilt = np.array(plane_gradient(board.legs))
        self._tilt_c = complex(self.tilt[0], self.tilt[1])

    @property
    def dished(self) -> bool:
        return self.c_slope != 0.0

    def _u(self, r2):
        return (self.r_dish**2 - np.minimum(r2, self.r_dish**2)) * self.inv_span

    def height(self, x, y):
        """Dish height h(x, y) (m, <= 0) relative to the flat part of the board (tilt not included)."""
        r2 = np.asarray(x, dtype=float) ** 2 + np.asarray(y, dtype=float) ** 2
        return -self.depth * self._u(r2) ** 3

    def step_up(self, top: float, x: float, y: float) -> float:
        """Height (m) of a level ``top`` (a platform's top, given above the flat) over the local
        surface at (x, y): the step a die standing there meets (physics.md s8.7)."""
        return top - float(self.height(x, y))

    def rim_step(self, x: float, y: float, vx: float, vy: float, r_hole: float) -> float:
        """How far (m) the hole's far rim lies above its near rim on the line through (x, y) along
        (vx, vy) (the dish is level around the rim, so only the tilt plane counts); 0 if the line
        misses the hole or does not move."""
        v = math.hypot(vx, vy)
        if v == 0:
            return 0.0
        ux, uy = vx / v, vy / v
        along = x * ux + y * uy
        gap2 = r_hole * r_hole - (x * x + y * y - along * along)  # half chord squared
        if gap2 <= 0:
            return 0.0
        half = math.sqrt(gap2)
        # far rim at t = -along + half, near rim at t = -along - half along (ux, uy)
        return float(self.tilt[0] * 2 * half * ux + self.tilt[1] * 2 * half * uy)

    def gradient(self, pos: np.ndarray, on_dish: np.ndarray | None = None) -> np.ndarray:
        """Total surface gradient (n, 2) at positions (n, 2); ``on_dish`` False rows (platform tops) get
        the tilt only."""
        g = np.empty_like(pos)
        g[:] = self.tilt
        if self.dished:
            s = self.c_slope * self._u(pos[:, 0] ** 2 + pos[:, 1] ** 2) ** 2
            if on_dish is not None:
                s = s * on_dish
            g += s[:, None] * pos
        return g

    def curvature_term(self, pos: np.ndarray, vel: np.ndarray, on_dish=None) -> np.ndarray:
        """v.H.v (m/s^2) at positions (n, 2) for horizontal velocities (n,) complex: the dish's
        curvature along the path times v^2 (0 off the dish and on platform tops)."""
        x, y = pos[:, 0], pos[:, 1]
        v2 = vel.real**2 + vel.imag**2
        if not self.dished:
            return np.zeros_like(v2)
        u = self._u(x * x + y * y)
        rv = x * vel.real + y * vel.imag
        term = self.c_slope * u * u * v2 - self.c_radial * u * rv * rv
        return term if on_dish is None else term * on_dish

    def accel_and_normal(self, pos: np.ndarray, mass: float, on_dish=None, vel=None):
        """In-plane acceleration (n,) complex ax + i ay and normal force (n,) of dice at ``pos`` (n, 2)
        moving at ``vel`` (n,) complex (None: at rest).  The dish's law holds right up to the hole's
        centre (a die whose centre is over the hole is normally falling)."""
        g = self.gradient(pos, on_dish)
        gc = g[:, 0] + 1j * g[:, 1]
        inv = 1.0 / np.sqrt(1.0 + g[:, 0] ** 2 + g[:, 1] ** 2)
        press = np.full(pos.shape[0], self.g)
        if vel is not None:
            press = np.maximum(press + self.curvature_term(pos, vel, on_dish), 0.0)
        return -self.g * inv * gc, mass * press * inv

    def max_slope(self) -> float:
        """An upper bound of |grad h + tilt| anywhere on the board (the dish steepest at
        R_d / sqrt(5), or at the hole's rim if that lies outside)."""
        r = max(self.r_dish / math.sqrt(5.0), self.r_hole)
        u = float(self._u(r * r))
        return self.c_slope * u * u * r + float(np.hypot(*self.tilt))

    def curvature_range(self) -> tuple[float, float]:
        """(most convex, most concave) curvature (1/m) of the dish in any direction."""
        if not self.dished:
            return 0.0, 0.0
        r = np.linspace(self.r_hole, self.r_dish, 2001)
        u = self._u(r * r)
        tangential = self.c_slope * u * u
        radial = tangential - self.c_radial * u * r * r
        return float(radial.min()), float(max(tangential.max(), radial.max()))

    @property
    def trivially_flat(self) -> bool:
        return not self.dished and not self.tilt.any()
