"""Replays: record → verify round trips, and every way a file can be bad."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest

from jamsumo_sim import replay_cli
from jamsumo_sim.cli import main
from jamsumo_sim.replay import content_hash, load_replay, save_replay, verify_replay
from jamsumo_sim.rules.bots import RandomBot
from jamsumo_sim.turnloop import play
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
        entry["action"]["args"]["impulse"] *= 1.5

    rewrite(path, stronger, rehash=False)
    assert main(["replay", str(path), "--verify"]) == 2
    err = capsys.readouterr().err.strip()
    assert "changed or damaged" in err and len(err.splitlines()) == 1


def test_a_rehashed_tampered_flick_diverges(copy_of: Path) -> None:
    path = copy_of

    def stronger(d: dict) -> None:
        entry = next(e for e in d["history"] if "action" in e)
        entry["action"]["args"]["impulse"] *= 1.2

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
