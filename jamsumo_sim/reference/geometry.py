"""The die's contact points in its body frame: an N x N grid over the flat part of each face, points
on the rounded edges (strictly inside each quarter circle, so a die lying flat touches with its face
grid alone: the game's 14 mm patch) and one point per rounded corner."""

from __future__ import annotations

import itertools
from dataclasses import dataclass

import numpy as np

FACE, EDGE, CORNER = 0, 1, 2


@dataclass(frozen=True)
class ContactPoints:
    points: np.ndarray  # (n, 3) m, on the die's surface, body frame
    normals: np.ndarray  # (n, 3) outward unit normals
    kinds: np.ndarray  # (n,) FACE, EDGE or CORNER


def _midpoints(n: int, half: float) -> np.ndarray:
    return (np.arange(n) + 0.5) / n * 2 * half - half


def die_points(
    size: float, edge_radius: float, grid: int, along: int, around: int
) -> ContactPoints:
    h = size / 2
    r = min(edge_radius, h)
    inner = h - r  # half side of the cube whose Minkowski sum with a sphere of radius r is the die
    pts, nrm, kind = [], [], []
    mids = _midpoints(grid, inner) if inner > 0 else np.zeros(1)
    for axis, sign in itertools.product(range(3), (-1.0, 1.0)):
        u, v = [k for k in range(3) if k != axis]
        for s, t in itertools.product(mids, mids):
            p = np.zeros(3)
            p[axis], p[u], p[v] = sign * h, s, t
            n = np.zeros(3)
            n[axis] = sign
            pts.append(p)
            nrm.append(n)
            kind.append(FACE)
    if r > 0:
        angles = (np.arange(around) + 0.5) / around * (np.pi / 2)
        for axis in range(3):  # edges parallel to this axis
            u, v = [k for k in range(3) if k != axis]
            for su, sv in itertools.product((-1.0, 1.0), repeat=2):
                for s, a in itertools.product(_midpoints(along, inner), angles):
                    n = np.zeros(3)
                    n[u], n[v] = su * np.cos(a), sv * np.sin(a)
                    c = np.zeros(3)
                    c[axis], c[u], c[v] = s, su * inner, sv * inner
                    pts.append(c + r * n)
                    nrm.append(n)
                    kind.append(EDGE)
        for signs in itertools.product((-1.0, 1.0), repeat=3):
            n = np.array(signs) / np.sqrt(3.0)
            pts.append(np.array(signs) * inner + r * n)
            nrm.append(n)
            kind.append(CORNER)
    return ContactPoints(np.array(pts), np.array(nrm), np.array(kind, dtype=np.int8))


def face_up(rotation: np.ndarray, orientation_faces: tuple[int, int, int]) -> tuple[int, float]:
    """(face showing on top, its normal's z) for a die with body-to-world ``rotation`` (3 x 3) whose
    body +z, +x, +y axes carry the faces ``(top, east, north)`` (the game's Orientation)."""
    zs = rotation[2, :]  # world z of each body axis
    k = int(np.argmax(np.abs(zs)))
    top, east, north = orientation_faces
    face = {2: top, 0: east, 1: north}[k]
    if zs[k] < 0:
        face = 7 - face
    return face, float(abs(zs[k]))
