"""`jamsumo match`: result printing, JSON shape, recording, bad input."""

from __future__ import annotations

import io
import json
import sys
from pathlib import Path

import pytest

from jamsumo_sim import replay_cli
from jamsumo_sim.cli import main
from jamsumo_sim.errors import UserError
from jamsumo_sim.replay import verify_replay
from jamsumo_sim.rules import match_cli
from jamsumo_sim.rules.bots import RandomBot
from jamsumo_sim.rules.match import MatchState


def test_match_json_shape_and_record(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    rec = tmp_path / "m.json"
    argv = [
        "match",
        "--mode",
        "jamsumo",
        "--players",
        "2",
        "--seats",
        "random,random",
        "--seed",
        "3",
        "--max-turns",
        "2",
        "--rounds",
        "1",
        "--json",
        "--record",
        str(rec),
    ]
    assert main(argv) == 0
    out = json.loads(capsys.readouterr().out)
    assert {"mode", "players", "seed", "rounds", "totals", "winner"} <= set(out)
    assert out["mode"] == "jamsumo" and out["players"] == 2 and out["seed"] == 3
    assert [r["mode"] for r in out["rounds"]] == ["jam", "sumo"]
    assert all(r["capped"] for r in out["rounds"])
    jam, sumo = out["rounds"]
    assert out["totals"] == [sumo["scores"][k] - jam["scores"][k] for k in range(2)]
    assert main(["replay", str(rec), "--verify"]) == 0


def test_match_text_output(capsys: pytest.CaptureFixture[str]) -> None:
    argv = [
        "match",
        "--mode",
        "sumo",
        "--players",
        "3",
        "--seats",
        "random,random,random",
        "--seed",
        "1",
        "--max-turns",
        "2",
        "--rounds",
        "1",
    ]
    assert main(argv) == 0
    out = capsys.readouterr().out
    assert "round 1 sumo: points" in out and "winner:" in out and "turn cap" in out


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["--players", "5"], "2–4 players"),
        (["--seats", "random"], "takes 2–4 players, not 1"),
        (["--seats", "random,wizard"], "unknown seat"),
        (["--seats", "random,random:hard"], "only the planner has levels"),
        (["--seats", "random,planner:godlike"], "unknown planner level"),
        (["--max-turns", "0"], "--max-turns must be a whole number from 1 to 1000"),
        (["--max-turns", str(10**9)], "--max-turns must be a whole number from 1 to 1000"),
        (["--rounds", str(10**12)], "--rounds must be a whole number from 1 to 20"),
        (["--params", "/nonexistent.toml"], "/nonexistent.toml"),
    ],
)
def test_bad_input_one_line_exit_2(
    argv: list[str], message: str, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["match", "--mode", "jam", *argv]) == 2
    err = capsys.readouterr().err.strip()
    assert message in err and len(err.splitlines()) == 1


def test_resume_an_unfinished_replay(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    from jamsumo_sim.replay import save_replay
    from tests.jamsumo.helpers import new_state, settle_marker

    state = new_state("jam", rounds=1, max_turns=3)
    settle_marker(state, 1)
    state.apply_action(state.legal_actions()[0])
    path = tmp_path / "saved.json"
    save_replay(path, state, ["random", "random"])
    assert main(["match", "--resume", str(path), "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["finished"] and out["turns"] == 3 and out["rounds"][0]["capped"]


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["--seed", "-1"], "argument --seed: the seed must be from 0 to 2**64-1, not -1"),
        (["--seed", str(2**64)], "the seed must be from 0 to 2**64-1"),
        (["--rounds", "1e12"], "argument --rounds: invalid int value: '1e12'"),
    ],
)
def test_bad_arguments_are_one_usage_line_exit_2(
    argv: list[str], message: str, capsys: pytest.CaptureFixture[str]
) -> None:
    with pytest.raises(SystemExit) as stop:  # argparse's usage error, on one line
        main(["match", "--mode", "jam", *argv])
    assert stop.value.code == 2
    err = capsys.readouterr().err.strip()
    assert message in err and len(err.splitlines()) == 1, err


def test_players_follow_the_seats_and_resume_keeps_the_saved_match(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    rec = tmp_path / "m3.json"
    argv = ["match", "--mode", "jam", "--seats", "random,random,random", "--rounds", "1"]
    assert main([*argv, "--max-turns", "3", "--seed", "0", "--json", "--record", str(rec)]) == 0
    assert json.loads(capsys.readouterr().out)["players"] == 3
    # a finished match cannot be resumed, and a resume takes no new rules
    assert main(["match", "--resume", str(rec)]) == 2
    assert "already finished" in capsys.readouterr().err
    assert main(["match", "--resume", str(rec), "--mode", "sumo"]) == 2
    assert "drop --mode" in capsys.readouterr().err


# --- never lose a match: outputs checked first, checkpoints, Ctrl-C, resume (issue 15) -------------

SHORT = ["--mode", "jam", "--seats", "random,random", "--rounds", "1", "--max-turns", "4"]


@pytest.fixture
def no_match(monkeypatch: pytest.MonkeyPatch) -> None:
    """Fail the test if a match starts: the check must come before any play."""

    def refuse(*_a: object, **_k: object) -> None:
        raise AssertionError("the match started before the output path was checked")

    monkeypatch.setattr(match_cli, "play", refuse)


@pytest.mark.parametrize(
    ("record", "message"),
    [
        ("P.toml", "--record {tmp}/P.toml is also an input"),
        ("", "--record: the path is empty"),
        ("afile/x.json", "afile is a file, not a folder"),
        (".", "is a directory"),
    ],
)
def test_the_record_path_is_checked_before_the_match(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], no_match: None, record: str, message: str
) -> None:
    params = tmp_path / "P.toml"
    params.write_text("version = 1\n[params]\nmu_board = 0.3\n")
    (tmp_path / "afile").write_text("")
    before = params.read_bytes()
    target = str(tmp_path / record) if record else ""
    argv = ["match", *SHORT, "--params", str(params), "--record", target]
    assert main(argv) == 2
    err = capsys.readouterr().err.strip()
    assert message.format(tmp=tmp_path) in err and len(err.splitlines()) == 1, err
    assert params.read_bytes() == before


def _shots(path: Path) -> int:
    return len(json.loads(path.read_text())["shots"])


def _uninterrupted(capsys: pytest.CaptureFixture[str], seed: int = 5) -> dict:
    assert main(["match", *SHORT, "--seed", str(seed), "--json"]) == 0
    return json.loads(capsys.readouterr().out)


def test_a_recorded_match_is_saved_after_every_move(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """With the write interval at 0, the file is rewritten at the start and after every move,
    and each of those files is a whole replay that a kill would leave behind."""
    rec = tmp_path / "m.json"
    written: list[dict] = []
    real_write = match_cli.write_json

    def spy(path, data, what="output file"):  # noqa: ANN001, ANN202
        written.append(json.loads(json.dumps(data)))
        return real_write(path, data, what)

    monkeypatch.setattr(match_cli, "CHECKPOINT_INTERVAL_S", 0.0)
    monkeypatch.setattr(match_cli, "write_json", spy)
    assert main(["match", *SHORT, "--seed", "5", "--json", "--record", str(rec)]) == 0
    capsys.readouterr()
    counts = [len(d["shots"]) for d in written]
    total = counts[-1]
    assert total >= 3 and counts[0] == 0
    assert sorted(set(counts)) == list(range(total + 1))  # one file per shot, none skipped
    assert counts == sorted(counts)
    assert written[-1]["finished"] and not any(d["finished"] for d in written[:-2])
    # a checkpoint from the middle of the match resumes to the same end as the whole match
    mid = tmp_path / "mid.json"
    mid.write_text(json.dumps(written[counts.index(2)]))
    assert main(["match", "--resume", str(mid), "--json"]) == 0
    assert json.loads(capsys.readouterr().out) == _uninterrupted(capsys)


def _interrupt_mid_shot(monkeypatch: pytest.MonkeyPatch, shot: int) -> None:
    """Ctrl-C while shot ``shot`` is half done: flicked, at rest, not yet ruled."""
    real = MatchState._resolve
    calls = {"n": 0}

    def resolve(self, seat, flicked, events):  # noqa: ANN001, ANN202
        calls["n"] += 1
        if calls["n"] == shot:
            raise KeyboardInterrupt
        return real(self, seat, flicked, events)

    monkeypatch.setattr(MatchState, "_resolve", resolve)


def _interrupt_in_a_turn(monkeypatch: pytest.MonkeyPatch, shot: int) -> None:
    """Ctrl-C while a bot thinks about its move (between whole moves)."""
    real = RandomBot.act
    calls = {"n": 0}

    def act(self, view):  # noqa: ANN001, ANN202
        calls["n"] += 1
        if calls["n"] == shot:
            raise KeyboardInterrupt
        return real(self, view)

    monkeypatch.setattr(RandomBot, "act", act)


def _interrupt_while_saving(monkeypatch: pytest.MonkeyPatch, shot: int) -> None:
    """Ctrl-C inside the checkpoint write after shot ``shot - 1``: the write is abandoned."""
    real = match_cli.write_json
    calls = {"n": 0}

    def write(path, data, what="output file"):  # noqa: ANN001, ANN202
        calls["n"] += 1
        if calls["n"] == shot:  # the first write is the start; write k+1 follows move k
            raise KeyboardInterrupt
        return real(path, data, what)

    monkeypatch.setattr(match_cli, "CHECKPOINT_INTERVAL_S", 0.0)
    monkeypatch.setattr(match_cli, "write_json", write)


@pytest.mark.parametrize(
    "interrupt",
    [_interrupt_mid_shot, _interrupt_in_a_turn, _interrupt_while_saving],
    ids=["mid-shot", "in-a-turn", "while-saving"],
)
def test_ctrl_c_saves_the_last_whole_move_and_resume_finishes_the_same_match(
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    interrupt,
) -> None:
    expected = _uninterrupted(capsys)
    rec = tmp_path / "m.json"
    interrupt(monkeypatch, 3)
    assert main(["match", *SHORT, "--seed", "5", "--json", "--record", str(rec)]) == 130
    out = capsys.readouterr()
    assert out.out == ""
    lines = out.err.strip().splitlines()
    assert len(lines) == 1 and f"saved in {rec}" in lines[0] and f"--resume {rec}" in lines[0]
    monkeypatch.undo()
    assert 1 <= _shots(rec) <= 2  # every whole move before the interrupted one
    assert verify_replay(rec).ok  # the file is a whole, true replay of those moves
    # --resume keeps updating the same file, to the end the match would have had
    assert main(["match", "--resume", str(rec), "--json"]) == 0
    assert json.loads(capsys.readouterr().out) == expected
    data = json.loads(rec.read_text())
    assert data["finished"] and verify_replay(rec).ok
    assert not list(tmp_path.glob(".m.json.*"))  # no temporary file left behind


def test_a_real_ctrl_c_inside_a_finaliser_still_stops_the_match(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """A real SIGINT that arrives while a finaliser runs (as pymunk's do, freeing a Space): Python
    swallows an exception raised there, so Ctrl-C must not depend on one reaching the match."""
    import os
    import signal

    class SendsCtrlC:
        def __del__(self) -> None:
            os.kill(os.getpid(), signal.SIGINT)
            for _ in range(1000):  # the handler runs between bytecodes, here
                pass

    real = RandomBot.act
    calls = {"n": 0}

    def act(self, view):  # noqa: ANN001, ANN202
        calls["n"] += 1
        if calls["n"] == 2:
            obj = SendsCtrlC()
            del obj
        return real(self, view)

    monkeypatch.setattr(RandomBot, "act", act)
    rec = tmp_path / "m.json"
    assert main(["match", *SHORT, "--seed", "5", "--json", "--record", str(rec)]) == 130
    assert f"saved in {rec}" in capsys.readouterr().err
    monkeypatch.undo()
    assert _shots(rec) >= 1 and verify_replay(rec).ok


def test_ctrl_c_without_record_says_nothing_was_saved(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    _interrupt_in_a_turn(monkeypatch, 2)
    assert main(["match", *SHORT, "--seed", "0", "--json"]) == 130
    err = capsys.readouterr().err.strip()
    assert "not saved" in err and "--record FILE" in err and len(err.splitlines()) == 1


def test_resume_refuses_another_seed_and_accepts_its_own(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    rec = tmp_path / "m.json"
    _interrupt_in_a_turn(monkeypatch, 2)
    assert main(["match", *SHORT, "--seed", "5", "--record", str(rec)]) == 130
    monkeypatch.undo()
    capsys.readouterr()
    before = rec.read_bytes()
    assert main(["match", "--resume", str(rec), "--seed", "6"]) == 2
    err = capsys.readouterr().err.strip()
    assert "the saved match has seed 5, not 6" in err and len(err.splitlines()) == 1
    assert rec.read_bytes() == before
    assert main(["match", "--resume", str(rec), "--seed", "5", "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["seed"] == 5


@pytest.mark.parametrize("error", [RecursionError, MemoryError, lambda: UserError("a\nb")])
def test_errors_an_input_can_cause_are_one_line_exit_2(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], error
) -> None:
    """The top-level dispatch turns these into one line, never a traceback."""

    def run(_args: object) -> int:
        raise error()

    monkeypatch.setattr(replay_cli, "run", run)
    assert main(["replay", "r.json", "--verify"]) == 2
    err = capsys.readouterr().err.strip()
    assert err.startswith("jamsumo: error: ") and len(err.splitlines()) == 1, err


class _Terminal(io.StringIO):
    """A stderr that says it is a terminal (tqdm draws on it)."""

    def isatty(self) -> bool:
        return True


def test_progress_on_a_terminal_only_for_match_and_verify(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    rec = tmp_path / "m.json"
    argv = ["match", "--mode", "jam", "--seats", "random,random", "--seed", "3"]
    argv += ["--max-turns", "2", "--rounds", "1"]
    assert main([*argv, "--record", str(rec)]) == 0
    assert main(["replay", str(rec), "--verify"]) == 0
    piped = capsys.readouterr()
    assert piped.err == ""  # stderr is a file or a pipe here: no bars
    tty = _Terminal()
    monkeypatch.setattr(sys, "stderr", tty)
    assert main(argv) == 0
    assert "turn" in tty.getvalue()  # the match's counter of turns played
    tty.seek(0)
    tty.truncate()
    assert main(["replay", str(rec), "--verify"]) == 0
    assert "verify" in tty.getvalue() and "shot" in tty.getvalue()
    assert capsys.readouterr().out.splitlines()[-1] == piped.out.splitlines()[-1]  # unchanged
    tty.seek(0)
    tty.truncate()
    assert main([*argv, "--json"]) == 0
    assert tty.getvalue() == ""
