"""Errors that reach a user as one clear line (and exit code 2), never as a traceback."""

from __future__ import annotations


class UserError(Exception):
    """Bad input from a user: a file, a command-line value or a typed move.

    The message is one line that names the problem (and, for files, the file and where in it).
    """

    exit_code = 2


class IllegalAction(UserError):
    """An action that is not legal in the current state; the message says why."""
