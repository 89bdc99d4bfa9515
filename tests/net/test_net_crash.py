"""Issue 34, point 4: a host killed with ``kill -9`` in the middle of a match loses nothing it told.

Each card game and a JamSumo match: a real host process (limited by CPU time) with two remote seats
played by bot clients in this process; the host is killed once the clients have seen part of the
match; every move a client was told of is then in the record's journal; ``--resume`` on the same
port gives each client its own seat back (its old token), and the match ends with every position a
client had seen as it was (same observation, same chance outcomes)."""

from __future__ import annotations

import asyncio
import json
import os
import signal
import socket
import subprocess
from pathlib import Path

import pytest

from jamsumo_sim.net import client as client_module
from jamsumo_sim.net.client import Client, JoinOptions
from jamsumo_sim.net.journal import journal_path
from jamsumo_sim.turnloop.serialize import replay_history, state_from_json
from tests.child_limits import HANG_GUARD_S, NUMBA_COMPILE_S, cpu_limited, ended
from tests.hostile.harness import script
from tests.net.helpers import CARD, bot

SEED = 4242
KILL_AFTER = 6  # moves seat 0 was told of before the host is killed


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _spawn(command: list[str]) -> subprocess.Popen:
    env = {**os.environ, "SDL_VIDEODRIVER": "dummy", "SDL_AUDIODRIVER": "dummy"}
    return subprocess.Popen(
        command,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env=env,
        preexec_fn=cpu_limited(120.0 + NUMBA_COMPILE_S),
    )


def _journal_moves(record: Path) -> dict[int, dict]:
    lines = journal_path(record).read_text().splitlines()
    rows = [json.loads(line) for line in lines[1:] if line.strip()]
    return {row["at"]: row["entry"] for row in rows if "at" in row}


def _crash_and_resume(host_args: list[str], record: Path, mirrored: bool) -> tuple:
    port = _free_port()
    url = f"ws://127.0.0.1:{port}"
    common = ["--port", str(port), "--grace", "600", "--json"]
    procs = [_spawn([*host_args, "--record", str(record), "--seed", str(SEED), *common])]
    told: dict[int, list[dict]] = {0: [], 1: []}
    killed = asyncio.Event()
    at_kill: dict[int, list[dict]] = {}

    def on_message(seat: int):  # noqa: ANN202
        def seen(raw: str) -> None:
            message = json.loads(raw)
            if "n" in message:
                told[seat].append(message)
            moved = sum(m["type"] in ("move", "update") for m in told[0])
            if seat == 0 and moved >= KILL_AFTER and not killed.is_set():
                os.kill(procs[0].pid, signal.SIGKILL)
                killed.set()

        return seen

    async def go():  # noqa: ANN202
        clients = [
            Client(url, JoinOptions(seat=k, seed=k, wait=HANG_GUARD_S), bot,
                   say=lambda text: None, on_message=on_message(k))
            for k in (0, 1)
        ]  # fmt: skip
        playing = asyncio.gather(*(c.run() for c in clients))
        await killed.wait()
        code = await asyncio.to_thread(procs[0].wait, HANG_GUARD_S)
        await asyncio.sleep(0.2)  # what the kernel had already sent arrives
        at_kill.update({k: list(v) for k, v in told.items()})
        moves = _journal_moves(record)
        procs.append(_spawn([*host_args[:2], "--resume", str(record), *common]))
        results = await playing
        return code, moves, results

    try:
        code, moves, results = asyncio.run(asyncio.wait_for(go(), HANG_GUARD_S))
        out, err = procs[1].communicate(timeout=HANG_GUARD_S)
    finally:
        for proc in procs:
            proc.kill()
    assert code == -signal.SIGKILL
    assert procs[1].returncode == 0, ended(procs[1].returncode) + err[-2000:]
    assert all(r == results[0] for r in results) and results[0]["seed"] == SEED
    assert json.loads(out) == results[0]
    lost = []
    for seat, messages in at_kill.items():
        for m in messages:
            if m["type"] == "update" and m["at"] - 1 not in moves:
                lost.append((seat, m["at"]))
            if m["type"] == "move" and moves.get(m["at"]) != m["entry"]:
                lost.append((seat, m["at"]))
    assert not lost, f"told, not in the journal: {lost[:10]}"
    return at_kill, moves


@pytest.fixture(autouse=True)
def _patient_clients(monkeypatch):
    # the resumed host may take a while to start on a busy machine: the clients wait for it
    monkeypatch.setattr(client_module, "RECONNECT_FOR_S", HANG_GUARD_S)


@pytest.mark.parametrize("name", sorted(CARD))
def test_a_card_game_host_killed_mid_game_loses_nothing_it_told(name, tmp_path):
    from jamsumo_sim.turnloop.recording import load_record

    players = CARD[name]
    seats = ",".join(["remote", "remote"] + ["smart"] * (players - 2))
    record = tmp_path / "game.json"
    args = [script("card-games"), "host", name, "--players", str(players), "--seats", seats]
    at_kill, moves = _crash_and_resume(args, record, mirrored=False)
    final, _ = load_record(record)
    assert final.is_terminal()
    assert [moves[k] for k in sorted(moves)] == final.history[: len(moves)]
    replay = state_from_json({**final.to_json(), "history": []})
    views = [replay.observation(seat) for seat in (0, 1)]
    seen = {0: [views[0]], 1: [views[1]]}
    for entry in final.history:
        replay_history(replay, [entry])
        for seat in (0, 1):
            seen[seat].append(replay.observation(seat))
    checked = 0
    for seat, messages in at_kill.items():
        for m in messages:  # what a player saw before the crash is what the match had there
            if "obs" in m:
                assert m["obs"] == seen[seat][m["at"]], (seat, m["at"])
                checked += 1
    assert checked >= KILL_AFTER


def test_a_jamsumo_host_killed_mid_match_loses_nothing_it_told(tmp_path):
    from jamsumo_sim.replay import load_replay

    record = tmp_path / "match.json"
    args = [script("jamsumo"), "host", "--mode", "jam", "--seats", "remote,remote,planner:easy",
            "--max-turns", "4", "--rounds", "1"]  # fmt: skip
    at_kill, moves = _crash_and_resume(args, record, mirrored=True)
    final = load_replay(record)
    history = final.data["history"]
    assert final.data["finished"]
    assert [moves[k] for k in sorted(moves)] == history[: len(moves)]
    told = [m for ms in at_kill.values() for m in ms if m["type"] == "move"]
    assert len(told) >= KILL_AFTER and all(history[m["at"]] == m["entry"] for m in told)
    assert len(history) > max(m["at"] for m in told) + 1  # killed in the middle of the match


def test_a_resumed_host_gives_held_seats_only_to_their_tokens():
    """Before: after --resume the old tokens were refused and whoever came first took any seat."""
    from jamsumo_sim.net.host import Host
    from tests.net.helpers import card_state, result_of
    from tests.net.peers import hello, options

    state = card_state("the_jam", seed=31)
    seats = ["remote", "remote", "bot"]
    held = "ab" * 16

    async def go():  # noqa: ANN202
        host = Host(
            state, seats, {2: bot(state.game, 2)}, lambda s: bot(state.game, s),
            lambda s: result_of(s, seats), options(grace=600.0), say=lambda t: None,
            tokens={0: held},
        )  # fmt: skip
        task = asyncio.create_task(host.run())
        await host.ready.wait()
        url = f"ws://127.0.0.1:{host.port}"
        thief = (await hello(url, seat=0))[1]
        newcomer = (await hello(url))[1]
        late = (await hello(url))[1]
        owner = (await hello(url, token=held, have=40))[1]
        task.cancel()
        return thief, newcomer, late, owner

    thief, newcomer, late, owner = asyncio.run(asyncio.wait_for(go(), HANG_GUARD_S))
    assert thief["code"] == "seat" and "taken" in thief["message"]
    assert newcomer["type"] == "welcome" and newcomer["seat"] == 1
    assert late["code"] == "full"
    assert owner["type"] == "welcome" and owner["seat"] == 0 and owner["token"] == held
    assert owner["first"] == 40  # its stream goes on from where it was, with a fresh start


def test_a_journal_of_another_version_is_refused_in_one_line(tmp_path):
    from jamsumo_sim.turnloop.recording import save_record
    from tests.hostile.harness import assert_one_line_error, run_cli
    from tests.net.helpers import card_state

    record = tmp_path / "game.json"
    state = card_state("jellyfish", seed=SEED)
    save_record(record, state, ["remote", "smart", "smart"])
    header = {"format": "jamsumo-net-journal", "version": 99, "game": "jellyfish", "seed": SEED}
    journal_path(record).write_text(json.dumps(header) + "\n")
    out = run_cli("card-games", "host", "--resume", str(record), "--port", "0")
    assert_one_line_error(out, "journal version 99 is not supported")


def test_a_journal_line_cut_by_a_crash_is_ignored_and_moves_are_played_on(tmp_path):
    from jamsumo_sim.net.journal import Journal, resume
    from tests.net.helpers import card_state

    played = card_state("jellyfish", seed=SEED)
    agents = [bot(played.game, s) for s in range(3)]
    path = tmp_path / "game.json.journal"
    journal = Journal(path, played, "m1", fresh=True)
    from jamsumo_sim.turnloop.driver import step

    for _ in range(10):
        step(played, agents)
        journal.move(len(played.history) - 1, played.history[-1])
    journal.token(1, "cd" * 16)
    journal.close()
    with path.open("ab") as f:
        f.write(b'{"at": 10, "entry": {"se')  # the write a kill -9 cut short
    fresh = card_state("jellyfish", seed=SEED)
    resumed = resume(fresh, path)
    assert resumed.moves == 10 and fresh.history == played.history
    assert resumed.tokens == {1: "cd" * 16} and resumed.match == "m1"
