"""The playing surface: the dish (bowl) height field and the board's tilt, as in-plane forces.

Dish profile: a paraboloid of revolution about the hole's centre,

    h(r) = -dish_depth * (R_d^2 - r^2) / (R_d^2 - R_h^2)   for R_h <= r <= R_d,   h = 0 beyond R_d,

so the bowl is ``dish_depth`` deep at the hole's rim (r = R_h) and meets the flat at r = R_d
(``dish_radius``); its slope grows linearly with r, 2 d r / (R_d^2 - R_h^2) (smooth bottom, steepest at
the dish's rim).  The tripod's leg heights add a constant plane gradient.  With total gradient G, a die
feels the along-slope gravity g G / sqrt(1 + |G|^2) (pointing downhill, expressed in the horizontal
plane of the 2D model) and presses with N = m g / sqrt(1 + |G|^2).
"""

from __future__ import annotations

import numpy as np

from .board import BoardSpec
from .tripod import plane_gradient


class Surface:
    """Height field and in-plane surface acceleration of one board."""

    def __init__(self, board: BoardSpec, gravity: float) -> None:
        self.g = gravity
        rh, rd = board.hole_radius, board.dish_radius
        self.depth = board.dish_depth
        self.r_hole = rh
        self.r_dish = rd
        self.k = 2 * board.dish_depth / (rd * rd - rh * rh) if board.dish_depth > 0 else 0.0
        self.tilt = np.array(plane_gradient(board.legs))
        self._tilt_c = complex(self.tilt[0], self.tilt[1])

    def height(self, x, y):
        """Dish height h(x, y) (m, <= 0) relative to the flat part of the board (tilt not included)."""
        r2 = np.asarray(x) ** 2 + np.asarray(y) ** 2
        if self.k == 0:
            return np.zeros_like(r2, dtype=float)
        rd2 = self.r_dish**2
        rh2 = self.r_hole**2
        h = -self.depth * (rd2 - np.clip(r2, rh2, rd2)) / (rd2 - rh2)
        return h

    def gradient(self, pos: np.ndarray, on_dish: np.ndarray | None = None) -> np.ndarray:
        """Total surface gradient (n, 2) at positions (n, 2); ``on_dish`` False rows (platform tops) get
        the tilt only."""
        g = np.empty_like(pos)
        g[:] = self.tilt
        if self.k:
            r2 = pos[:, 0] ** 2 + pos[:, 1] ** 2
            inside = (r2 <= self.r_dish**2) & (r2 >= self.r_hole**2)
            if on_dish is not None:
                inside &= on_dish
            g[inside] += self.k * pos[inside]
        return g

    def accel_and_normal(self, pos: np.ndarray, mass: float, on_dish=None):
        """In-plane acceleration (n,) complex ax + i ay and normal force (n,) of dice at ``pos`` (n, 2).

        The dish's linear slope law is used right up to the hole's centre (a die whose centre is over
        the hole is normally falling, and the slope there is under 0.2 degrees).
        """
        # The ufuncs are called directly (fewer Python-level dispatches) on the same operands in the
        # same order as the expressions in the comments, so every bit is theirs.
        mul, add = np.multiply, np.add
        if self.k:
            x, y = pos[:, 0], pos[:, 1]
            kk = np.where(np.less_equal(add(mul(x, x), mul(y, y)), self.r_dish**2), self.k, 0.0)
            if on_dish is not None:
                kk = mul(kk, on_dish)
            gc = add(mul(kk, add(x, mul(1j, y))), self._tilt_c)  # kk * (x + 1j * y) + tilt
        else:
            gc = np.full(pos.shape[0], self._tilt_c)
        # inv = 1.0 / np.sqrt(1.0 + gc.real**2 + gc.imag**2): (1 + re^2) + im^2, in this order
        s = add(1.0, np.square(gc.real))
        add(s, np.square(gc.imag), out=s)
        inv = np.divide(1.0, np.sqrt(s, out=s))
        return mul(mul(-self.g, inv), gc), mul(mass * self.g, inv)

    def max_slope(self) -> float:
        """An upper bound of |grad h + tilt| anywhere on the board (dish steepest at its rim)."""
        return self.k * self.r_dish + float(np.hypot(*self.tilt))

    @property
    def trivially_flat(self) -> bool:
        return self.k == 0 and not self.tilt.any()
