"""`jamsumo sim SCENARIO.json [--params PARAMS.toml] [--trace SECONDS]`: run one scenario, print JSON.

Scenario (SI units, origin at the hole's centre, x right of seat 0, y away from seat 0, angles in
radians counter-clockwise)::

    {"version": 1,
     "board": "standard" | "path/to/board.toml" | {"side": 2.0, "platforms": [], ...},
     (a relative board path is read from the scenario file's folder)
     "params": {"mu_board": 0.25, ...},
     "dice": [{"id": "red-1", "x": 0.0, "y": -0.1, "angle": 0.0, "vx": 0.0, "vy": 1.0,
               "omega": 0.0, "face": 4}],
     "flicks": [{"die": "red-1", "direction": 1.5708, "impulse": 0.0045, "offset": 0.0, "height": 0.5},
                {"die": "red-1", "direction": 0.3, "finger_speed": 1.2}],
     "max_time": 20.0}

A flick gives exactly one of ``impulse`` (N s, the finger's impulse) and ``finger_speed`` (m/s, the
fingertip's speed: J = (1 + finger_restitution) m / (1 + 6 lever^2) V_f; see jamsumo_sim.physics.flick).

Parameters: the board's defaults, then ``--params`` file, then the scenario's ``params`` (by name).
Dice take ``face`` (1..6, default 1) or ``orientation`` ([top, east, north]); ``angle``, ``vx``,
``vy``, ``omega`` default to 0.  A flick's ``offset`` (-0.5..0.5 of the face width, along it) and ``height``
(0..1, up it) say where the finger strikes.  The first flick is applied at
t = 0 together with any initial velocities; each later flick once everything has come to rest.
``description`` (any text, e.g. what the scenario shows) is not read.
``max_time`` (default 20 s, at most 60 s) limits each shot; at most 64 dice and 100 flicks (see
docs/limits.md for every bound).  Output: ``time_to_rest`` and ``steps`` (totals over all
shots; ``dt`` is the model step they count), ``rested``, the dice at the end, every event, and with
``--trace`` the dice every SECONDS (rounded to whole model steps).
"""

from __future__ import annotations

import argparse
import json
import math
import os
import sys
from collections.abc import Mapping
from pathlib import Path
from typing import TYPE_CHECKING, Any

from .errors import UserError
from .fileio import MAX_FILE_BYTES, decode_utf8, parse_json, read_text
from .limits import as_finite
from .physics.board import load_board
from .physics.die import Orientation
from .physics.flick import Flick
from .physics.params import PhysicsParams
from .physics.params_file import load_params

if TYPE_CHECKING:  # the World (and numba) load only when a scenario runs: errors stay quick
    from .world import World

SCENARIO_VERSION = 1
_TOP_KEYS = {"version", "board", "params", "dice", "flicks", "max_time", "description"}
_DIE_KEYS = {"id", "x", "y", "angle", "vx", "vy", "omega", "face", "orientation"}
DEFAULT_MAX_TIME = 20.0
DEFAULT_FACE = 1  # top face of a die given neither "face" nor "orientation"

# Bounds on a scenario's sizes (docs/limits.md): dice come to rest within seconds, the game uses
# 24 dice; beyond these a run takes minutes or its output gigabytes.
MAX_TIME = 60.0  # s per shot: at the smallest dt (0.1 ms) 600 000 steps
MAX_DICE = 64
MAX_FLICKS = 100
MAX_ID_CHARS = 64
MIN_TRACE = 1e-4  # s: one step at the smallest dt (shorter intervals round up to one step anyway)
MAX_TRACE_POINTS = 250_000  # die positions in a --trace output (~30 MB of JSON)

# the example scenarios shipped with the package (assets/scenarios/; the checkout's
# examples/scenarios links there); each says what it shows in its "description"
EXAMPLES = ("break", "hole-skim", "high-flick")
_EPILOG = """\
examples (shipped with jamsumo; also in a checkout's examples/scenarios/):
  jamsumo sim --example break        a shooter scatters a pack of nine dice
  jamsumo sim --example hole-skim    a fast die crosses the hole without dropping
  jamsumo sim --example high-flick   a flick high on the face: the die tumbles
  jamsumo sim examples/scenarios/hole-skim.json --trace 0.05 > skim.json

To make your own, copy an example and edit it: its "description" says what it
shows; every key is described by: python3 -m pydoc jamsumo_sim.scenario"""


def register(subparsers: argparse._SubParsersAction) -> None:
    """Add the ``sim`` subcommand."""
    p = subparsers.add_parser(
        "sim",
        help="run a physics scenario (JSON) and print the result as JSON",
        description="Simulate dice and flicks on a board; prints one JSON object on stdout.",
        epilog=_EPILOG,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    p.add_argument(
        "scenario",
        metavar="SCENARIO.json",
        nargs="?",
        help="scenario file ('-' reads stdin)",
    )
    p.add_argument(
        "--example",
        choices=EXAMPLES,
        metavar="NAME",
        help=f"run a shipped example instead of a file: {', '.join(EXAMPLES)}",
    )
    p.add_argument("--params", metavar="PARAMS.toml", help="parameter file (e.g. from calibration)")
    p.add_argument(
        "--trace",
        metavar="SECONDS",
        type=_positive_float,
        help="also output the dice's positions every SECONDS of simulated time (rounded to whole "
        "model steps)",
    )
    p.set_defaults(func=run)


def example_path(name: str) -> Path:
    """The shipped example scenario ``name`` (package data, in a wheel too)."""
    from .resources import asset

    return Path(str(asset("scenarios", f"{name}.json")))


def _positive_float(text: str) -> float:
    try:
        v = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a number: {text[:30]!r}") from None
    if not (MIN_TRACE <= v <= MAX_TIME):
        raise argparse.ArgumentTypeError(
            f"must be from {MIN_TRACE:g} to {MAX_TIME:g} seconds, got {text[:30]!r}"
        )
    return v


def run(args: argparse.Namespace) -> int:
    """Entry point for ``jamsumo sim``; returns the exit code."""
    try:
        if (args.scenario is None) == (args.example is None):
            raise UserError("give a SCENARIO.json file or --example NAME (see jamsumo sim --help)")
        if args.example is not None:
            args.scenario = str(example_path(args.example))
        scenario = read_scenario(args.scenario)
        base = None if args.scenario == "-" else Path(args.scenario).resolve().parent
        try:
            result = run_scenario(
                scenario, params_path=args.params, trace=args.trace, base_dir=base
            )
        except UserError as exc:  # name the scenario unless the message names another file
            named = str(exc).startswith(("params file", "board file", "board '"))
            where = "scenario on stdin" if args.scenario == "-" else f"scenario {args.scenario}"
            raise UserError(str(exc) if named else f"{where}: {exc}") from None
    except UserError as exc:
        print(f"jamsumo sim: error: {exc}", file=sys.stderr)
        return exc.exit_code
    text = json.dumps(result, indent=1) + "\n"
    try:
        sys.stdout.write(text)
        sys.stdout.flush()
    except BrokenPipeError:  # e.g. piped into `head`: not an error of ours
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
    return 0


def read_scenario(path: str) -> dict[str, Any]:
    """Read and parse a scenario file ('-' for stdin); errors are one-line UserErrors."""
    if path == "-":
        try:  # bounded like a file: one byte more than allowed says "too large"
            data_bytes = sys.stdin.buffer.read(MAX_FILE_BYTES + 1)
        except OSError as exc:
            raise UserError(f"cannot read scenario from stdin: {exc.strerror or exc}") from None
        if len(data_bytes) > MAX_FILE_BYTES:
            raise UserError(f"scenario on stdin is larger than {MAX_FILE_BYTES // 2**20} MiB")
        text = decode_utf8(data_bytes, "scenario on stdin")
        where = "scenario on stdin"
    else:
        text = read_text(path, "scenario")
        where = f"scenario {path}"
    data = parse_json(text, where)
    if not isinstance(data, dict):
        raise UserError(f"scenario {path} must be a JSON object")
    return data


def _number(value: Any, where: str) -> float:
    v = as_finite(value)
    if v is None:
        raise UserError(f"{where} must be a finite number, got {json.dumps(value)[:30]}")
    return v


def build_world(
    scenario: Mapping[str, Any],
    params_path: str | Path | None = None,
    base_dir: Path | None = None,
) -> tuple[World, list[Flick], float]:
    """Validate a scenario and set up its World; returns (world, flicks, max_time).

    A relative board path is read from ``base_dir`` (the scenario file's folder), so a scenario
    and its board file can move together.
    """
    if not isinstance(scenario, Mapping):
        raise UserError("scenario must be a JSON object")
    if "version" not in scenario:
        raise UserError('scenario lacks "version" (expected 1)')
    version = scenario["version"]
    if type(version) is not int or version != SCENARIO_VERSION:  # true == 1 in Python, not here
        raise UserError(f"unsupported scenario version {json.dumps(version)[:30]} (expected 1)")
    unknown = sorted(set(scenario) - _TOP_KEYS)
    if unknown:
        raise UserError(f"scenario has unknown key {unknown[0]!r}")
    board_src = scenario.get("board", "standard")
    if not isinstance(board_src, str | dict):
        raise UserError("scenario board must be a board name, a path or an object")
    relative_file = isinstance(board_src, str) and board_src.endswith(".toml")
    if relative_file and base_dir is not None and not Path(board_src).is_absolute():
        board_src = str(base_dir / board_src)
    board = load_board(board_src)
    params = PhysicsParams.from_board(board)
    if params_path is not None:
        params = load_params(params_path, base=params)
    overrides = scenario.get("params", {})
    if not isinstance(overrides, dict):
        raise UserError("scenario params must be an object of name: number")
    try:
        params = params.with_overrides(overrides)
    except UserError as exc:
        raise UserError(f"scenario params: {exc}") from None
    max_time = _number(scenario.get("max_time", DEFAULT_MAX_TIME), "max_time")
    if not 0 < max_time <= MAX_TIME:
        raise UserError(
            f"max_time must be more than 0 and at most {MAX_TIME:g} s, got {max_time:g}"
        )

    from .world import World

    world = World(board, params)
    dice = scenario.get("dice", [])
    if not isinstance(dice, list):
        raise UserError("scenario dice must be a list")
    if len(dice) > MAX_DICE:
        raise UserError(f"scenario has {len(dice)} dice; at most {MAX_DICE}")
    for i, d in enumerate(dice):
        where = f"dice[{i}]"
        if not isinstance(d, dict):
            raise UserError(f"{where} must be an object")
        bad = sorted(set(d) - _DIE_KEYS)
        if bad:
            raise UserError(f"{where} has unknown key {bad[0]!r}")
        for k in ("id", "x", "y"):
            if k not in d:
                raise UserError(f"{where} lacks {k!r}")
        if not isinstance(d["id"], str) or not 0 < len(d["id"]) <= MAX_ID_CHARS:
            raise UserError(f"{where}.id must be a string of 1 to {MAX_ID_CHARS} characters")
        vals = {
            k: _number(d.get(k, 0.0), f"{where}.{k}")
            for k in ("x", "y", "angle", "vx", "vy", "omega")
        }
        speed = math.hypot(vals["vx"], vals["vy"])
        if speed > params.max_launch_speed:
            # beyond the cap the fixed step no longer guarantees no tunnelling (physics notes)
            raise UserError(
                f"{where} starts at {speed:.3g} m/s, above the {params.max_launch_speed:g} m/s cap"
            )
        orientation = None
        if "orientation" in d:
            o = d["orientation"]
            if not (isinstance(o, list) and len(o) == 3 and all(type(f) is int for f in o)):
                raise UserError(f"{where}.orientation must be [top, east, north] faces")
            try:
                orientation = Orientation.from_list(o)
            except ValueError as exc:
                raise UserError(f"{where}.orientation: {exc}") from None
        face = d.get("face")
        if face is None and orientation is None:
            face = DEFAULT_FACE
        if face is not None and (type(face) is not int or not 1 <= face <= 6):
            raise UserError(f"{where}.face must be an integer 1..6, got {json.dumps(face)}")
        world.add_die(d["id"], face=face, orientation=orientation, **vals)
    _refuse_overlaps(dice, params)

    flicks_raw = scenario.get("flicks", [])
    if not isinstance(flicks_raw, list):
        raise UserError("scenario flicks must be a list")
    if len(flicks_raw) > MAX_FLICKS:
        raise UserError(f"scenario has {len(flicks_raw)} flicks; at most {MAX_FLICKS}")
    flicks = []
    for i, f in enumerate(flicks_raw):
        try:
            flicks.append(Flick.from_json(f))
        except UserError as exc:
            raise UserError(f"flicks[{i}]: {exc}") from None
        if flicks[-1].die not in world.die_ids:
            raise UserError(f"flicks[{i}]: no die {flicks[-1].die!r} in the scenario")
    return world, flicks, max_time


def _refuse_overlaps(dice: list[dict[str, Any]], params: PhysicsParams) -> None:
    """One line naming the first two dice that start overlapping by more than the collision slop
    (two coincident dice would otherwise stay coincident forever: physics.md s8.7)."""
    from .calibration.limits import DataLimits, footprint_gap

    lim = DataLimits.from_params(params)
    reach = params.die_size * math.sqrt(2)  # centres farther apart never overlap
    poses = [(float(d["x"]), float(d["y"]), float(d.get("angle", 0.0))) for d in dice]
    for i, a in enumerate(poses):
        for j in range(i + 1, len(poses)):
            b = poses[j]
            dist = math.hypot(b[0] - a[0], b[1] - a[1])
            if dist < reach and footprint_gap(a, b, lim) < -params.collision_slop:
                raise UserError(
                    f"dice[{i}] ({dice[i]['id']!r}) and dice[{j}] ({dice[j]['id']!r}) start "
                    f"overlapping (centres {dist * 1000:.1f} mm apart, dice "
                    f"{params.die_size * 1000:g} mm wide)"
                )


def run_scenario(
    scenario: Mapping[str, Any],
    params_path: str | Path | None = None,
    trace: float | None = None,
    base_dir: Path | None = None,
) -> dict[str, Any]:
    """Run a scenario dict; returns the output object of ``jamsumo sim`` (see the module docstring)."""
    world, flicks, max_time = build_world(scenario, params_path, base_dir)
    samples: list[dict[str, Any]] = []
    every = None
    if trace is not None:
        if not (MIN_TRACE <= trace <= MAX_TIME):
            raise UserError(
                f"trace interval must be from {MIN_TRACE:g} to {MAX_TIME:g} s, got {trace!r}"
            )
        every = max(1, round(trace / world.params.step))
        per_shot = math.ceil(max_time / world.params.step) // every + 1
        points = (1 + per_shot * max(1, len(flicks))) * max(1, len(world.die_ids))
        if points > MAX_TRACE_POINTS:  # refuse before the work, not after filling memory
            raise UserError(
                f"--trace {trace:g} could output {points} die positions (at most "
                f"{MAX_TRACE_POINTS}); use a longer interval or a shorter max_time"
            )
        samples.append(_sample(world))

    total_steps = 0
    rested = True
    shots = flicks if flicks else [None]
    for k, flick in enumerate(shots):
        if flick is not None:
            try:
                world.apply_flick(flick)
            except UserError as exc:
                raise UserError(f"flicks[{k}]: {exc}") from None
        if every is None:
            res = world.run_until_rest(max_time)
            total_steps += res.steps
            rested = res.rested
        else:
            limit = world.steps + max(1, math.ceil(max_time / world.params.step - 1e-9))
            start = world.steps
            while not world.at_rest() and world.steps < limit:
                world.step()
                if world.steps % every == 0:
                    samples.append(_sample(world))
            total_steps += world.steps - start
            rested = world.at_rest()
            if rested:
                world.run_until_rest(0.0)  # settles (no step), exactly as a full run does
        if not rested:
            break

    out: dict[str, Any] = {
        "time_to_rest": total_steps * world.params.step,
        "steps": total_steps,
        "dt": world.params.step,  # one model step (s): what ``steps`` counts
        "rested": rested,
        "dice": [_die_json(s) for s in world.states()],
        "events": [e.to_json() for e in world.events],
    }
    if every is not None:
        out["trace"] = samples
    return out


def _die_json(s) -> dict[str, Any]:
    return {
        "id": s.id,
        "x": s.x,
        "y": s.y,
        "angle": s.angle,
        "face": s.face,
        "orientation": s.orientation.as_list(),
        "status": s.status,
        "flat": s.flat,
        "on_platform": s.on_platform is not None,
        "platform": s.on_platform,
        "z": s.z,  # m, its base above the local surface (0 on the board; a die on a die: > 0)
    }


def _sample(world: World) -> dict[str, Any]:
    return {
        "t": world.time,
        "dice": [
            {"id": s.id, "x": s.x, "y": s.y, "angle": s.angle, "status": s.status, "z": s.z}
            for s in world.states()
        ],
    }
