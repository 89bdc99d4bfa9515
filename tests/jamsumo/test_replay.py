"""Replays: record → verify round trips, and every way a file can be bad."""

from __future__ import annotations

import hashlib
import json
import sys
from pathlib import Path

import pytest

from jamsumo_sim import replay_cli
from jamsumo_sim.cli import main
from jamsumo_sim.replay import content_hash, load_replay, save_replay, verify_replay
from jamsumo_sim.rules.bots import RandomBot
from jamsumo_sim.rules.match import MatchState
from jamsumo_sim.rules.scoring import HAND, HOLED
from jamsumo_sim.turnloop import play, step
from tests.jamsumo.helpers import GAMES

SHORT = {"rounds": 1, "max_turns": 3, "shot_time": 1.5}


def record(tmp_path: Path, mode: str, seed: int, players: int = 2, name: str = "r.json") -> Path:
    game = GAMES[mode]
    agents = [RandomBot(s, game) for s in range(players)]
    result = play(game, agents, seed=seed, params={"players": players, **SHORT})
    path = tmp_path / name
    save_replay(path, result.state, ["random"] * players)
    return path


@pytest.fixture(scope="module")
def recorded(tmp_path_factory: pytest.TempPathFactory) -> bytes:
    """One short recorded Jam match, shared by the tests that only change or read the file."""
    return record(tmp_path_factory.mktemp("rec"), "jam", 4).read_bytes()


@pytest.fixture
def copy_of(recorded: bytes, tmp_path: Path) -> Path:
    path = tmp_path / "copy.json"
    path.write_bytes(recorded)
    return path


def rewrite(path: Path, change, rehash: bool = True) -> None:
    data = json.loads(path.read_text())
    change(data)
    if rehash:
        data["content_sha256"] = content_hash(data)
    path.write_text(json.dumps(data))


@pytest.mark.parametrize(
    ("mode", "seed", "players"), [("jam", 1, 2), ("sumo", 2, 3), ("jamsumo", 3, 2)]
)
def test_record_then_verify(tmp_path: Path, mode: str, seed: int, players: int) -> None:
    path = record(tmp_path, mode, seed, players)
    report = verify_replay(path)
    assert report.ok, report.message
    assert report.shots == len(load_replay(path).shots) > 0
    data = json.loads(path.read_text())
    assert data["schema"] == 1 and data["pymunk_version"] and data["package_version"]
    assert data["params"]["board"]["board"]["side"] > 0  # the board itself, not a name
    assert "gravity" in data["params"]["physics"]
    assert data["start"]["dice"] and data["finished"] is True


def test_cli_verify_exit_codes(copy_of: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = copy_of
    assert main(["replay", str(path), "--verify"]) == 0
    # a different rest state for shot 2 (as a changed physics would give): exit 1, naming the shot
    rewrite(path, lambda d: d["shots"][1].update(checksum="0" * 64))
    assert main(["replay", str(path), "--verify"]) == 1
    assert "shot 2" in capsys.readouterr().err


def test_divergence_names_the_recording_program(copy_of: Path) -> None:
    """A replay from another version of the program (whose physics may differ) says so."""
    rewrite(
        copy_of,
        lambda d: (d["shots"][0].update(checksum="0" * 64), d.update(package_version="0.0.1")),
    )
    report = verify_replay(copy_of)
    assert not report.ok and "shot 1" in report.message
    assert "recorded with jamsumo 0.0.1, now" in report.message


def test_tampered_file_is_rejected(copy_of: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = copy_of

    def stronger(d: dict) -> None:
        entry = next(e for e in d["history"] if "action" in e)
        entry["action"]["args"]["finger_speed"] *= 1.5  # the bots flick by finger speed

    rewrite(path, stronger, rehash=False)
    assert main(["replay", str(path), "--verify"]) == 2
    err = capsys.readouterr().err.strip()
    assert "changed or damaged" in err and len(err.splitlines()) == 1


def test_a_rehashed_tampered_flick_diverges(copy_of: Path) -> None:
    path = copy_of

    def stronger(d: dict) -> None:
        entry = next(e for e in d["history"] if "action" in e)
        entry["action"]["args"]["finger_speed"] *= 1.2  # the bots flick by finger speed

    rewrite(path, stronger)
    report = verify_replay(path)
    assert not report.ok and report.first_divergence == 1


@pytest.mark.parametrize(
    ("change", "message"),
    [
        (lambda p: p.write_text(p.read_text()[: len(p.read_text()) // 2]), "line"),
        (lambda p: p.write_text(""), "empty"),
        (lambda p: p.write_text("[1, 2]"), "not a JamSumo replay"),
        (lambda p: rewrite(p, lambda d: d.update(schema=99)), "schema version 99"),
        (lambda p: rewrite(p, lambda d: d.update(kind="other")), "not a JamSumo replay"),
        (lambda p: rewrite(p, lambda d: d.pop("shots")), "missing field 'shots'"),
        (lambda p: rewrite(p, lambda d: d.update(game="chess")), "unknown game"),
        (lambda p: rewrite(p, lambda d: d["history"].append({"x": 1})), "history"),
    ],
)
def test_bad_files_give_one_line_and_exit_2(
    copy_of: Path, capsys: pytest.CaptureFixture[str], change, message: str
) -> None:
    path = copy_of
    change(path)
    assert main(["replay", str(path), "--verify"]) == 2
    err = capsys.readouterr().err.strip()
    assert message in err and len(err.splitlines()) == 1


def test_missing_file_exit_2(tmp_path: Path) -> None:
    assert main(["replay", str(tmp_path / "nope.json"), "--verify"]) == 2


def test_shots_iterate_with_the_state_before_each(copy_of: Path) -> None:
    path = copy_of
    replay = load_replay(path)
    numbers = []
    for shot in replay.iter_shots():
        assert shot.state.current_player() == shot.seat
        world = shot.state.preview(shot.action)  # what a viewer animates
        assert world is not shot.state.world
        numbers.append(shot.number)
    assert numbers == list(range(1, len(replay.shots) + 1))


def test_resume_a_saved_match_continues_with_the_same_seat(tmp_path: Path) -> None:
    game = GAMES["jam"]
    params = game.validate_params({"players": 2, **SHORT})
    agents = [RandomBot(s, game) for s in range(2)]
    whole = play(game, agents, seed=8, params=params)
    state = game.new_initial_state(params, seed=8)
    from jamsumo_sim.turnloop import step

    while sum(1 for e in state.history if "action" in e) < 2:
        step(state, agents)
    save_replay(tmp_path / "saved.json", state, ["random", "random"])
    back = load_replay(tmp_path / "saved.json").final_state()
    assert back.current_player() == state.current_player()
    assert back.digest() == state.digest()
    resumed = play(game, agents, seed=8, state=back)
    assert resumed.state.history == whole.state.history


def test_viewer_missing_gives_one_line(copy_of: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    path = copy_of

    monkeypatch.setattr(replay_cli, "VIEWER_MODULE", "jamsumo_sim.ui.no_such_viewer")
    assert main(["replay", str(path)]) == 2


def test_viewer_is_called_lazily(copy_of: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    path = copy_of
    seen = {}

    class FakeViewer:
        @staticmethod
        def run_viewer(args) -> int:
            seen.update(file=args.file, frames=args.frames, speed=args.speed)
            return 0

    monkeypatch.setitem(sys.modules, "jamsumo_sim.ui.replay_viewer", FakeViewer)
    assert main(["replay", str(path), "--frames", "3", "--speed", "2"]) == 0
    assert seen == {"file": str(path), "frames": 3, "speed": 2.0}


# --- the recorded end is checked, not only the shots (issue 25, item 2) -----------------------------


def _other_digest(d: dict) -> None:
    d["digest"] = ("1" if d["digest"][0] != "1" else "2") + d["digest"][1:]


def _other_totals(d: dict) -> None:
    d["result"]["totals"] = [t + 1 for t in d["result"]["totals"]]


@pytest.mark.parametrize(
    "change",
    [_other_digest, lambda d: d.update(finished=False), _other_totals],
    ids=["digest", "finished", "result"],
)
def test_verify_fails_when_only_the_recorded_end_differs(
    copy_of: Path, capsys: pytest.CaptureFixture[str], change
) -> None:
    """Every shot matches; only the recorded final digest, `finished` or `result` differs."""
    rewrite(copy_of, change)  # re-hashed: the file is well formed, only the end disagrees
    assert main(["replay", str(copy_of), "--verify"]) == 1
    err = capsys.readouterr().err.strip()
    assert "the final state differs from the recorded one" in err and len(err.splitlines()) == 1
    report = verify_replay(copy_of)
    assert not report.ok and report.shots == len(load_replay(copy_of).shots)


# --- the shot checksum covers the ruling (issue 25, item 3) -----------------------------------------


def test_a_ruling_changed_on_one_shot_fails_at_that_shot(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Recorded by rules that rule one die differently (to the hole, not back to hand): the
    physics and the world after the rules are the same (the die leaves the board either way),
    only the ruling differs, and verify must stop at exactly that shot."""
    real = MatchState.shot_outcome
    changed: dict[str, int] = {}

    def other_ruling(self, world, seat, flicked, events):  # noqa: ANN001, ANN202
        out = real(self, world, seat, flicked, events)
        swap = {HAND: HOLED, HOLED: HAND}
        if not changed and out and out[0][1] in swap:
            changed["shot"] = len(self.shot_checksums) + 1
            die, where, line = out[0]
            out = [(die, swap[where], line), *out[1:]]
        return out

    monkeypatch.setattr(MatchState, "shot_outcome", other_ruling)
    for seed in range(10):  # the first seed with a die leaving the board (seed 0: shot 2)
        path = record(tmp_path, "jam", seed)
        if changed:
            break
    monkeypatch.undo()
    assert changed, "no shot in 10 short matches sent a die to hand or into the hole"
    report = verify_replay(path)
    assert not report.ok
    shot = changed["shot"]
    assert report.first_divergence == shot and f"shot {shot} " in report.message, report.message


def _a_shot_that_removed_a_die() -> MatchState:
    """A short Jam match stopped just after a shot that took a die off the board (same round)."""
    game = GAMES["jam"]
    params = game.validate_params({"players": 2, **SHORT})
    for seed in range(10):
        state = game.new_initial_state(params, seed=seed)
        agents = [RandomBot(s, game) for s in range(2)]
        while not state.is_terminal():
            shots = len(state.shot_checksums)
            step(state, agents)
            shot = state.last_shot
            if (
                len(state.shot_checksums) > shots  # this move was a flick
                and not state.is_terminal()
                and shot["round"] == state.round  # its world is still the match's world
                and shot["rest_checksum"] != state.world.checksum()  # the rules took a die
            ):
                return state
    raise AssertionError("no shot in 10 short matches took a die off the board")


def test_the_shot_checksum_covers_exactly_rest_state_world_after_rules_and_ruling() -> None:
    """sha256 of: the rest state as the physics left it | the world after the rules took dice
    away | where every die now is (the ruling). Pinned so that no part can be dropped unseen."""
    state = _a_shot_that_removed_a_die()
    shot = state.last_shot
    where = ",".join(f"{d}:{w}" for d, w in sorted(state.where.items()))
    blob = f"{shot['rest_checksum']}|{state.world.checksum()}|{where}".encode()
    assert state.shot_checksums[-1] == shot["checksum"] == hashlib.sha256(blob).hexdigest()


# --- malformed files are exit 2, never a "divergence" (issue 15) -----------------------------------


def _first_flick(d: dict) -> dict:
    return next(e for e in d["history"] if "action" in e and e["action"]["name"] != "pass")


@pytest.mark.parametrize(
    ("change", "message"),
    [
        (lambda d: d["shots"][0].update(move=[1]), "shots[0].move must be"),
        (lambda d: d["shots"][0].update(shot="1"), "shots[0].shot must be 1"),
        (lambda d: d["shots"][0].update(checksum=7), "shots[0].checksum"),
        (lambda d: d["shots"].pop(), "shots listed but"),
        (lambda d: _first_flick(d).update(action=[1, 2]), ".action must be an object"),
        (lambda d: _first_flick(d)["action"]["args"].update(impulse=[1]), "'args' must map"),
        (lambda d: _first_flick(d)["action"]["args"].update(impulse=-1.0), "not a valid flick"),
        (lambda d: _first_flick(d)["action"]["args"].pop("die"), "not a valid flick"),
        (lambda d: _first_flick(d).update(seat=-3), ".seat must be a seat number 0 to 1"),
        (lambda d: _first_flick(d).update(extra=1), "is malformed"),
        (lambda d: d.update(comment="hi"), "unknown field 'comment'"),
        (lambda d: d.update(seed=2**64), "field 'seed' must be from 0 to 2**64-1"),
        (lambda d: d.update(seed=-1), "field 'seed' must be from 0 to 2**64-1"),
        (lambda d: d["params"].update(rounds=10**12), "params.rounds must be a whole number"),
        (lambda d: d["params"].update(shot_time=1e9), "params.shot_time"),
        (lambda d: d["params"].update(board="standard"), "board written out in full"),
        (lambda d: d["params"]["physics"].update(mu_board="x"), "mu_board"),
        (lambda d: d.update(result=5), "field 'result' must be an object or null"),
        (lambda d: d["result"].update(extra=1), "'result' must hold exactly"),
        (lambda d: d.update(digest="not hex"), "field 'digest'"),
        (lambda d: d.update(start={}), "'start' must hold"),
        (lambda d: d.update(seats=["random", 3]), "'seats' must name one agent per player"),
        (lambda d: d.update(pymunk_version="x" * 1000), "too long"),
        (lambda d: d["history"].extend([d["history"][0]] * 10**4), "moves in the history"),
    ],
)
def test_malformed_replays_are_exit_2_not_a_divergence(
    copy_of: Path, capsys: pytest.CaptureFixture[str], change, message: str
) -> None:
    rewrite(copy_of, change)  # re-hashed: only the structure is wrong
    assert main(["replay", str(copy_of), "--verify"]) == 2
    err = capsys.readouterr().err.strip()
    assert message in err and len(err.splitlines()) == 1, err
    assert err.count(str(copy_of)) == 1  # the path once


def test_a_divergence_names_the_file_once(copy_of: Path) -> None:
    """A recorded flick the re-play finds illegal (as changed physics may make it) is a
    divergence (exit 1) whose message names the file once, not twice."""

    def from_hand(d: dict) -> None:
        # the first flick places a die from hand; make it a die the seat does not own
        flick = _first_flick(d)
        other = "red1" if flick["seat"] == 1 else "blue1"
        flick["action"]["args"]["die"] = other
        d["shots"][0]["die"] = other

    rewrite(copy_of, from_hand)
    report = verify_replay(copy_of)
    assert not report.ok and report.first_divergence == 1
    assert report.message.count(str(copy_of)) == 1, report.message
    assert "cannot be replayed" not in report.message and "diverges" in report.message
