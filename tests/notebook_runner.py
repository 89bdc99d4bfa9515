"""Run a Jupyter notebook's code cells in-process (no kernel needed), failing on the first error.

Notebooks are part of the documentation; running them in the test suite keeps them true.
"""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any


def run_notebook(
    path: str | Path, workdir: str | Path | None = None, env: dict[str, str] | None = None
) -> dict[str, Any]:
    """Execute every code cell of ``path`` in one namespace; return the namespace.

    Cells run with the non-interactive matplotlib backend, in ``workdir`` (default: the
    notebook's folder); ``env`` adds environment variables the notebook may read (e.g. a
    smaller sample size for the test run).
    """
    os.environ.setdefault("MPLBACKEND", "Agg")
    nb_path = Path(path).resolve()
    notebook = json.loads(nb_path.read_text(encoding="utf-8"))
    namespace: dict[str, Any] = {"__name__": "__notebook__", "__file__": str(nb_path)}
    old_cwd = Path.cwd()
    old_env = dict(os.environ)
    os.environ.update(env or {})
    os.chdir(workdir or nb_path.parent)
    try:
        for index, cell in enumerate(notebook.get("cells", [])):
            if cell.get("cell_type") != "code":
                continue
            source = "".join(cell.get("source", []))
            lines = [ln for ln in source.splitlines() if not ln.lstrip().startswith(("%", "!"))]
            code = compile("\n".join(lines), f"{nb_path.name}[cell {index}]", "exec")
            exec(code, namespace)  # noqa: S102 - running our own notebook is the point
    finally:
        os.chdir(old_cwd)
        os.environ.clear()
        os.environ.update(old_env)
    return namespace
