"""The optional extras (pyproject.toml's ``[project.optional-dependencies]``), imported on first use.

A plain ``pip install .`` has none of them. No module that the two command-line parsers load
imports one: a command imports its extra's modules through :func:`require` inside the function
that runs it, so ``--help`` and every other command work without them, and a command that needs a
missing extra stops with one line naming it (exit 2).
"""

from __future__ import annotations

import importlib
from types import ModuleType

from jamsumo_sim.errors import UserError


def install_hint(extra: str) -> str:
    return f"pip install 'jamsumo[{extra}]'"


def require(module: str, extra: str, needed_by: str, instead: str = "") -> ModuleType:
    """Import ``module``, which the ``extra`` brings, or raise a one-line UserError.

    ``needed_by`` names what needs it: a command in quotes (``"'jamsumo host'"``) or a feature
    (``"the ismcts seat"``); the message reads "NEEDED_BY needs the EXTRA extra: pip install …",
    then " (or INSTEAD)" when the core install has another way (``"use --workers 0"``).
    """
    alternative = f" (or {instead})" if instead else ""
    try:
        return importlib.import_module(module)
    except ModuleNotFoundError:
        raise UserError(
            f"{needed_by} needs the {extra} extra: {install_hint(extra)}{alternative}"
        ) from None
    except ImportError as exc:  # installed but broken (a missing system library, a bad build)
        reason = " ".join(str(exc).split())[:200]
        raise UserError(
            f"{needed_by} needs the {extra} extra, whose {module} does not import ({reason}): "
            f"reinstall it with {install_hint(extra)}{alternative}"
        ) from None


def available(module: str) -> bool:
    """Whether ``module`` imports (an extra that only adds to a command, e.g. ratings)."""
    try:
        importlib.import_module(module)
    except ImportError:
        return False
    return True
