"""Whether :mod:`.compiled_steps`' loop may run here, decided once at import.

The loop calls Chipmunk's C functions through their addresses with arguments laid out by hand:
a ``cpVect`` (two doubles) and a ``cpShapeFilter`` (a ``uintptr_t`` and two 32-bit masks) passed
by value in registers, as the x86-64 System V and AArch64 conventions pass 16-byte structs (Windows
x64 passes them by reference), and the ``int`` counters that lead pymunk's batch arrays written
in place.  Where the platform, the pymunk release or that layout is not the one the loop was
built and checked for, :data:`evolve.COMPILED <jamsumo_sim.physics.evolve.COMPILED>` starts
False: every step runs on the Python path, bit for bit the same, slower, with one warning.

Separately, :func:`require_supported_pymunk` refuses (one line, :class:`UserError`) a pymunk
older than 7.0, on which neither path runs (its Space wrapper keeps other internals).

The decision takes the version, platform and layout as arguments (:func:`compiled_path_ok`), so
tests can give it any; :func:`decide` reads this machine's.
"""

from __future__ import annotations

import contextlib
import importlib.metadata
import platform
import re
import struct
import sys
import warnings
from collections.abc import Mapping

from ..errors import UserError

# pymunk releases the loop was checked bit-identical against the Python path on (7.0-7.3.1)
VERIFIED_PYMUNK = ((7, 0), (7, 4))  # [low, high)
# what pyproject.toml allows; older has another Space wrapper, which neither path can drive
MIN_PYMUNK = (7, 0)
PYMUNK_RANGE = ">=7.0,<8"
# platforms whose calling convention the loop's calls through addresses follow
ARCHES = {"x86_64": "x86-64", "amd64": "x86-64", "aarch64": "AArch64", "arm64": "AArch64"}
SYSTEMS = ("Linux", "Darwin")

# the C functions the loop calls by address, with the signatures its calls assume
FUNCTIONS = {
    "cpSpaceStep": "void(*)(struct cpSpace *, double)",
    "cpSpaceEachBody": "void(*)(struct cpSpace *, void(*)(struct cpBody *, void *), void *)",
    "cpSpaceEachCachedArbiter": (
        "void(*)(struct cpSpace *, void(*)(struct cpArbiter *, void *), void *)"
    ),
    "pmSpaceBodyGetIteratorFuncBatched": "void(*)(struct cpBody *, void *)",
    "pmSpaceBodySetIteratorFuncBatched": "void(*)(struct cpBody *, void *)",
    "pmSpaceArbiterIteratorFuncBatched": "void(*)(struct cpArbiter *, void *)",
    "cpBodySetVelocity": "void(*)(struct cpBody *, struct cpVect)",
    "cpBodySetAngularVelocity": "void(*)(struct cpBody *, double)",
    "cpShapeSetFilter": "void(*)(struct cpShape *, struct cpShapeFilter)",
}
# the struct layout the calls and the counter writes assume: (type, field) -> (C type, offset);
# field None: the whole type -> (C type, size)
FIELDS: dict[tuple[str, str | None], tuple[str, int]] = {
    ("cpFloat", None): ("double", 8),
    ("cpVect", None): ("struct cpVect", 16),
    ("cpVect", "x"): ("double", 0),
    ("cpVect", "y"): ("double", 8),
    ("cpShapeFilter", None): ("struct cpShapeFilter", 16),
    ("cpShapeFilter", "group"): ("uintptr_t", 0),
    ("cpShapeFilter", "categories"): ("unsigned int", 8),
    ("cpShapeFilter", "mask"): ("unsigned int", 12),
    ("unsigned int", None): ("unsigned int", 4),
    ("pmFloatArray", "num"): ("int", 0),
    ("pmIntArray", "num"): ("int", 0),
    ("int", None): ("int", 4),
}


def expected_layout() -> dict[str, object]:
    """The layout :func:`read_layout` must find: signatures by function name, (C type, size or
    offset) by ``type`` or ``type.field``."""
    out: dict[str, object] = dict(FUNCTIONS)
    for (kind, field), value in FIELDS.items():
        out[kind if field is None else f"{kind}.{field}"] = value
    return out


def read_layout() -> dict[str, object]:
    """What the installed pymunk's cffi module says of :func:`expected_layout`'s entries (None:
    missing)."""
    out: dict[str, object] = dict.fromkeys(expected_layout())
    try:
        from pymunk._chipmunk import ffi, lib
    except ImportError:
        return out
    for name in FUNCTIONS:
        with contextlib.suppress(AttributeError, TypeError, ffi.error):
            out[name] = ffi.typeof(getattr(lib, name)).cname
    for kind, field in FIELDS:
        with contextlib.suppress(AttributeError, KeyError, TypeError, ffi.error):
            if field is None:
                out[kind] = (ffi.typeof(kind).cname, ffi.sizeof(kind))
            else:
                ctype = dict(ffi.typeof(kind).fields)[field].type.cname
                out[f"{kind}.{field}"] = (ctype, ffi.offsetof(kind, field))
    return out


def parse_version(text: str) -> tuple[int, ...] | None:
    """``"7.3.1"`` -> (7, 3, 1); a pre-release keeps its numeric part; None if none."""
    m = re.match(r"\s*(\d+(?:\.\d+)*)", text)
    return tuple(int(x) for x in m.group(1).split(".")) if m else None


def compiled_path_ok(
    pymunk_version: str,
    machine: str,
    system: str,
    pointer_size: int,
    byteorder: str = "little",
    layout: Mapping[str, object] | None = None,
) -> tuple[bool, str]:
    """(may the compiled loop run, why not).  ``machine``/``system``: as platform.machine() and
    platform.system() name them; ``pointer_size``: bytes (struct.calcsize("P")); ``layout``: as
    :func:`read_layout` gives it (None: not checked)."""
    arch = ARCHES.get(machine.lower())
    if system not in SYSTEMS or arch is None:
        return False, (
            f"it is built for x86-64 and AArch64 on Linux and macOS, not {machine} on {system}"
        )
    if pointer_size != 8 or byteorder != "little":
        bits = 8 * pointer_size
        return False, f"it is built for 64-bit little-endian {arch}, not {bits}-bit {byteorder}"
    version = parse_version(pymunk_version)
    if version is None or not VERIFIED_PYMUNK[0] <= version[:2] < VERIFIED_PYMUNK[1]:
        low, high = (".".join(map(str, v)) for v in VERIFIED_PYMUNK)
        return False, f"it is verified with pymunk >={low},<{high}, not {pymunk_version}"
    if layout is not None:
        for key, want in expected_layout().items():
            got = layout.get(key)
            if got is None:
                what = "C function" if key in FUNCTIONS else "type"
                return False, f"pymunk {pymunk_version} has no {what} {key}"
            if got != want:
                return False, f"pymunk {pymunk_version}'s {key} is {got}, not {want}"
    return True, ""


def installed_pymunk_version() -> str:
    """The installed pymunk's release, from its metadata (pymunk 7.0.0's own ``pymunk.version``
    says 2.0.0, its Chipmunk fork's); ``pymunk.version`` only where there is none."""
    try:
        return importlib.metadata.version("pymunk")
    except importlib.metadata.PackageNotFoundError:
        import pymunk

        return pymunk.version


def decide() -> tuple[bool, str]:
    """:func:`compiled_path_ok` for this machine and the installed pymunk."""
    return compiled_path_ok(
        installed_pymunk_version(),
        platform.machine(),
        platform.system(),
        struct.calcsize("P"),
        sys.byteorder,
        read_layout(),
    )


class CompiledPathWarning(RuntimeWarning):
    """The compiled loop is off here; the Python path runs every step (same results, slower)."""


_warned = False


def choose(decision: tuple[bool, str]) -> bool:
    """``decision``'s verdict, with one warning per process when it is no."""
    global _warned
    ok, reason = decision
    if not ok and not _warned:
        _warned = True
        warnings.warn(
            f"jamsumo: the compiled physics loop is off ({reason}); every step runs on the "
            "Python path instead: identical results, about 1.4x the CPU time",
            CompiledPathWarning,
            stacklevel=3,  # (evolve's COMPILED line, through compiled_default)
        )
    return ok


def compiled_default() -> bool:
    """evolve.COMPILED's value at import (warns once if False)."""
    return choose(decide())


def pymunk_error(pymunk_version: str, detail: str = "") -> UserError:
    """The one-line error for a pymunk that neither path can use (``detail``: what is amiss)."""
    why = f" ({detail})" if detail else ""
    return UserError(
        f"pymunk {pymunk_version} is installed{why}; jamsumo needs pymunk{PYMUNK_RANGE} "
        f"(pip install 'pymunk{PYMUNK_RANGE}')"
    )


def require_supported_pymunk(pymunk_version: str) -> None:
    """:func:`pymunk_error` for a pymunk older than :data:`MIN_PYMUNK`: its Space wrapper keeps
    other internals than the ones physics/_chipmunk.py moves bodies with, on either path."""
    version = parse_version(pymunk_version)
    if version is not None and version[:2] < MIN_PYMUNK:
        raise pymunk_error(pymunk_version)
