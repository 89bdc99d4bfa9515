"""Where numba keeps the compiled step kernels: the user's cache folder, never the package folder.

Numba's default (``cache=True``) writes ``__pycache__/*.nbi``/``*.nbc`` beside the module.  In an
installed package that leaves a folder pip does not own: after ``pip install -e .`` over a normal
install it survives as a namespace package that shadows the checkout, and both commands die with
``ImportError ... (unknown location)`` (issue 15).  So the cache goes to
``$NUMBA_CACHE_DIR`` if the user set one, else ``$XDG_CACHE_HOME/jamsumo/numba`` (default
``~/.cache/jamsumo/numba``).  Cache files only hold machine code: results are bit-identical with
or without them.

Numba checks a cached kernel against its own source file only, not the files of the kernels it
calls or the constants it reads from other modules: a changed ``step_kernels.kick`` left the
machine code of ``physics/compiled_steps.run_steps``, which calls it, running the old one.  So the
cache lives in a subfolder named by a hash of every file kernels are compiled from
(:data:`KERNEL_SOURCES`): any change there starts a fresh cache.
"""

from __future__ import annotations

import hashlib
import os
import sys
from pathlib import Path

from .. import compile_notice

ENV_VAR = "NUMBA_CACHE_DIR"
# the files compiled kernels come from (and the constants they freeze: physics/space.py's bands)
KERNEL_SOURCES = (
    "physics/step_kernels.py",
    "physics/compiled_steps.py",
    "physics/space.py",
    "sweep/lone_kernel.py",
)


def source_key() -> str:
    """``kernels-`` and a hash of :data:`KERNEL_SOURCES`' contents."""
    h = hashlib.sha256()
    root = Path(__file__).parent.parent  # the package folder: KERNEL_SOURCES are relative to it
    for rel in KERNEL_SOURCES:
        try:
            h.update((root / rel).read_bytes())
        except OSError:
            h.update(rel.encode())
    return "kernels-" + h.hexdigest()[:16]


def cache_dir() -> Path:
    """The folder numba's cache goes to (not created here)."""
    chosen = os.environ.get(ENV_VAR)
    if chosen:
        return Path(chosen)
    base = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    return Path(base) / "jamsumo" / "numba"


def configure() -> bool:
    """Point numba's cache at :func:`cache_dir`; call before the kernels are defined.

    Returns whether caching may be used: False when the folder cannot be created or written, since
    numba would then fall back to the package folder (the kernels are compiled each run instead).
    Then arms the first-compile line if the command asked for it (:mod:`.compile_notice`).
    """
    cached = _point_numba_at_cache()
    compile_notice.arm(cached)
    return cached


def _point_numba_at_cache() -> bool:
    folder = cache_dir()
    key = source_key()
    if folder.name != key:  # (numba's own copy of the folder, set below, already ends in it)
        folder = folder / key
    try:
        folder.mkdir(parents=True, exist_ok=True)
    except OSError:
        return False
    if not (folder.is_dir() and os.access(folder, os.W_OK | os.X_OK)):
        return False
    os.environ[ENV_VAR] = str(folder)
    numba_config = sys.modules.get("numba.core.config")
    if numba_config is not None:  # numba read the environment already: set its copy too
        numba_config.CACHE_DIR = str(folder)
    return True
