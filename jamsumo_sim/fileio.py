"""Reading user files and writing output files safely: the one place every reader and writer goes through.

Readers turn every problem (missing, unreadable, not UTF-8, too large, malformed, numbers with thousands
of digits, nesting too deep) into one :class:`UserError` line that names the file.  Writers check an output
path *before* any long work (:func:`check_output_path`), refuse to overwrite one of the inputs, and write
atomically (:func:`write_atomic`): the file is the old one or the complete new one, never half; a temporary
file left by a killed writer is removed on the next write; new files get the usual mode (umask), not 0600.
"""

from __future__ import annotations

import json
import math
import os
import tempfile
import threading
import tomllib
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import IO, Any

from jamsumo_sim.errors import UserError

# Sizes a user file may have: far above any real record (a long JamSumo match is ~1 MB), far below what
# could exhaust memory when parsed.
MAX_FILE_BYTES = 64 * 1024 * 1024
MAX_JSON_DEPTH = 64
MAX_NUMBER_CHARS = 40  # a JSON number literal: enough for any seed (< 2**64) and any float's digits

_TMP_SUFFIX = ".tmp"
_umask_lock = threading.Lock()
_umask_cache: int | None = None


# --- reading ------------------------------------------------------------------------------------


def read_text(path: str | os.PathLike[str], what: str = "file") -> str:
    """The file's text (UTF-8); a one-line UserError naming ``what`` and the path otherwise."""
    p = Path(path)
    try:
        if p.is_dir():
            raise UserError(f"{what} {p} is a directory, not a file")
        size = p.stat().st_size
        if size > MAX_FILE_BYTES:
            raise UserError(
                f"{what} {p} is too large ({size / 1e6:.0f} MB; at most {MAX_FILE_BYTES // 2**20} MiB)"
            )
        data = p.read_bytes()
    except FileNotFoundError:
        raise UserError(f"{what} {p}: no such file") from None
    except OSError as exc:
        raise UserError(f"cannot read {what} {p}: {exc.strerror or exc}") from None
    return decode_utf8(data, f"{what} {p}")


def decode_utf8(data: bytes, where: str) -> str:
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as exc:
        line = data[: exc.start].count(b"\n") + 1
        raise UserError(
            f"{where} is not UTF-8 text (byte 0x{data[exc.start]:02x} on line {line}); "
            "save it as UTF-8"
        ) from None


def _json_int(text: str) -> int:
    if len(text) > MAX_NUMBER_CHARS:
        raise ValueError(f"a number with {len(text)} digits (at most {MAX_NUMBER_CHARS})")
    return int(text)


def _json_float(text: str) -> float:
    if len(text) > MAX_NUMBER_CHARS + 10:
        raise ValueError(f"a number written with {len(text)} characters")
    value = float(text)
    if not math.isfinite(value):
        raise ValueError(f"the number {text[:20]} is out of range")
    return value


def _json_constant(name: str) -> float:
    raise ValueError(f"{name} is not a JSON number")


def _json_depth_ok(text: str) -> bool:
    """Cheap bound on nesting: brackets outside strings never open deeper than MAX_JSON_DEPTH."""
    if text.count("[") + text.count("{") <= MAX_JSON_DEPTH:
        return True
    depth = 0
    in_string = escaped = False
    for ch in text:
        if in_string:
            if escaped:
                escaped = False
            elif ch == "\\":
                escaped = True
            elif ch == '"':
                in_string = False
        elif ch == '"':
            in_string = True
        elif ch in "[{":
            depth += 1
            if depth > MAX_JSON_DEPTH:
                return False
        elif ch in "]}":
            depth -= 1
    return True


def parse_json(text: str, where: str) -> Any:
    """Parse JSON text with bounded numbers and nesting; errors are one line starting with ``where``."""
    if not text.strip():
        raise UserError(f"{where} is empty")
    if not _json_depth_ok(text):
        raise UserError(f"{where}: JSON nested deeper than {MAX_JSON_DEPTH} levels")
    try:
        return json.loads(
            text, parse_int=_json_int, parse_float=_json_float, parse_constant=_json_constant
        )
    except json.JSONDecodeError as exc:
        raise UserError(
            f"{where} is not valid JSON: {exc.msg} (line {exc.lineno}, column {exc.colno})"
        ) from None
    except (ValueError, RecursionError) as exc:
        msg = str(exc).splitlines()[0] if str(exc) else type(exc).__name__
        raise UserError(f"{where} is not valid JSON: {msg}") from None


def read_json(path: str | os.PathLike[str], what: str = "file") -> Any:
    """Read and parse a JSON file (see :func:`parse_json`)."""
    return parse_json(read_text(path, what), f"{what} {Path(path)}")


def parse_toml(text: str, where: str) -> dict[str, Any]:
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise UserError(f"{where} is not valid TOML: {str(exc).splitlines()[0]}") from None
    except (ValueError, RecursionError) as exc:
        raise UserError(f"{where} is not valid TOML: {str(exc).splitlines()[0]}") from None
    _check_toml_numbers(data, where)
    return data


def _check_toml_numbers(value: Any, where: str) -> None:
    stack = [value]
    while stack:
        v = stack.pop()
        if isinstance(v, dict):
            stack.extend(v.values())
        elif isinstance(v, list):
            stack.extend(v)
        elif isinstance(v, int) and not isinstance(v, bool) and abs(v) >= 2**64:
            raise UserError(f"{where}: the integer {str(v)[:20]}... is out of range")


def read_toml(path: str | os.PathLike[str], what: str = "file") -> dict[str, Any]:
    """Read and parse a TOML file; errors are one line naming ``what`` and the path."""
    return parse_toml(read_text(path, what), f"{what} {Path(path)}")


# --- writing ------------------------------------------------------------------------------------


def same_file(a: str | os.PathLike[str], b: str | os.PathLike[str]) -> bool:
    """True when two paths name the same file (existing or not)."""
    try:
        return os.path.samefile(a, b)
    except OSError:
        return Path(a).resolve() == Path(b).resolve()


# the options that name a file or folder to write, in every command of both scripts
OUTPUT_OPTIONS = ("out", "record", "screenshot", "preview")


def refuse_empty_outputs(args: object) -> None:
    """An output option given as ``""`` is an error in every command (one line, exit 2), as
    :func:`check_output_path` says it, rather than silently the default or no output at all."""
    for name in OUTPUT_OPTIONS:
        value = getattr(args, name, None)
        if isinstance(value, str) and not value.strip():
            check_output_path(value, f"--{name}")


def check_output_path(
    path: str | os.PathLike[str] | None,
    what: str = "output file",
    inputs: Iterable[str | os.PathLike[str] | None] = (),
    suffixes: Iterable[str] | None = None,
) -> Path:
    """Check before any work that ``path`` can be written; return it as a Path.

    Refuses an empty path, a directory, a path whose folder is a file or cannot be created or written,
    a path that is one of ``inputs``, and (with ``suffixes``) a file ending not in that list.
    """
    if path is None or not str(path).strip():
        raise UserError(f"{what}: the path is empty")
    p = Path(path)
    for source in inputs:
        if source is not None and str(source) != "-" and same_file(p, source):
            raise UserError(f"{what} {p} is also an input; choose another path")
    if suffixes is not None:
        allowed = [s.lower() for s in suffixes]
        if p.suffix.lower() not in allowed:
            raise UserError(
                f"{what} {p}: unsupported file type {p.suffix or '(none)'!r} "
                f"(use {', '.join(allowed)})"
            )
    if p.is_dir():
        raise UserError(f"{what} {p} is a directory; give a file name")
    parent = p.parent
    ancestor = parent
    while not ancestor.exists():
        if ancestor.parent == ancestor:
            break
        ancestor = ancestor.parent
    if ancestor.exists() and not ancestor.is_dir():
        raise UserError(f"{what} {p}: {ancestor} is a file, not a folder")
    if not os.access(ancestor, os.W_OK | os.X_OK):
        raise UserError(f"{what} {p}: the folder {ancestor} cannot be written")
    if p.exists() and not os.access(p, os.W_OK):
        raise UserError(f"{what} {p} cannot be written (read-only)")
    return p


def _default_mode() -> int:
    global _umask_cache
    with _umask_lock:
        if _umask_cache is None:
            current = os.umask(0o022)
            os.umask(current)
            _umask_cache = current
    return 0o666 & ~_umask_cache


def _remove_stale_temps(target: Path) -> None:
    """Remove temporary files a killed writer of ``target`` left behind (``.NAME.*.tmp``)."""
    try:
        for stale in target.parent.glob(f".{target.name}.*{_TMP_SUFFIX}"):
            stale.unlink(missing_ok=True)
    except OSError:
        pass


def write_atomic(
    path: str | os.PathLike[str],
    write: Callable[[IO[Any]], None] | str | bytes,
    what: str = "output file",
    binary: bool = False,
) -> Path:
    """Write ``path`` atomically; ``write`` is the content or a function writing to an open handle.

    Errors are one-line UserErrors naming the file; the old file is untouched on any failure.
    """
    target = Path(path)
    try:
        target.parent.mkdir(parents=True, exist_ok=True)
    except FileExistsError:
        raise UserError(f"cannot write {what} {target}: {target.parent} is a file") from None
    except OSError as exc:
        raise UserError(f"cannot write {what} {target}: {exc.strerror or exc}") from None
    _remove_stale_temps(target)
    binary = binary or isinstance(write, bytes)
    try:
        fd, tmp = tempfile.mkstemp(prefix=f".{target.name}.", suffix=_TMP_SUFFIX, dir=target.parent)
    except OSError as exc:
        raise UserError(f"cannot write {what} {target}: {exc.strerror or exc}") from None
    try:
        mode = "wb" if binary else "w"
        encoding = None if binary else "utf-8"
        with os.fdopen(fd, mode, encoding=encoding) as handle:
            if callable(write):
                write(handle)
            else:
                handle.write(write)
            handle.flush()
            os.fsync(handle.fileno())
        os.chmod(tmp, _default_mode())
        os.replace(tmp, target)
    except OSError as exc:
        Path(tmp).unlink(missing_ok=True)
        raise UserError(f"cannot write {what} {target}: {exc.strerror or exc}") from None
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise
    return target


def write_json(path: str | os.PathLike[str], data: Any, what: str = "output file") -> Path:
    """Write ``data`` as JSON atomically (see :func:`write_atomic`)."""

    def dump(handle: IO[str]) -> None:
        json.dump(data, handle, indent=1, sort_keys=False)
        handle.write("\n")

    return write_atomic(path, dump, what)
