"""`card-games host` and `card-games join` as commands: the same --json result everywhere, in the
shape `card-games play --json` prints, and a record that verifies."""

from __future__ import annotations

import json
import re
import subprocess
import time

from tests.child_limits import HANG_GUARD_S, cpu_limited
from tests.hostile.harness import script
from tests.net.helpers import spawn_card_games

CPU_S = 60.0  # each process's CPU budget: a match of card bots takes a second or two


def test_card_games_host_and_two_joins_print_the_same_result(tmp_path):
    record = tmp_path / "game.json"
    host = spawn_card_games(
        "host", "jellyfish", "--players", "3", "--seats", "remote,remote,smart",
        "--port", "0", "--seed", "4", "--record", str(record), "--json", "--password", "pw",
    )  # fmt: skip
    try:
        port = None
        for line in host.stderr:  # until the host says where it listens (or ends)
            found = re.search(r"ws://127\.0\.0\.1:(\d+)", line)
            if found:
                port = found.group(1)
                break
        assert port, "the host did not say where it listens"
        url = f"ws://127.0.0.1:{port}"
        joins = [
            spawn_card_games(
                "join", url, "--bot", "smart", "--json", "--password", "pw", "--seed", str(k)
            )
            for k in range(2)
        ]
        outs = [p.communicate(timeout=HANG_GUARD_S) for p in joins]
        host_out, host_err = host.communicate(timeout=HANG_GUARD_S)
    finally:
        host.kill()
    assert host.returncode == 0, host_err
    result = json.loads(host_out)
    assert [json.loads(out) for out, _ in outs] == [result, result]
    expected = {"game", "players", "seed", "variant", "scores", "winner", "turns", "end"}
    assert expected | {"breakdown", "reveal"} == set(result)
    verify = subprocess.run(
        [script("card-games"), "replay", "--verify", str(record)],
        capture_output=True,
        text=True,
        timeout=HANG_GUARD_S,
        preexec_fn=cpu_limited(CPU_S),
    )
    assert verify.returncode == 0, verify.stderr


def test_join_tries_a_silent_host_for_the_wait_then_fails_in_one_line():
    started = time.monotonic()
    out = subprocess.run(
        [script("jamsumo"), "join", "ws://127.0.0.1:1", "--bot", "random", "--wait", "0.6"],
        capture_output=True,
        text=True,
        timeout=HANG_GUARD_S,
        preexec_fn=cpu_limited(CPU_S),
    )
    lines = out.stderr.splitlines()
    # the --wait under test is wall time; a lower bound only, which load cannot break
    assert out.returncode == 2 and time.monotonic() - started >= 0.6
    assert len(lines) == 2 and "Traceback" not in out.stderr
    assert lines[0] == "ws://127.0.0.1:1 does not answer yet; trying again (up to 0.6 s)"
    assert lines[1].startswith("jamsumo: error: cannot reach ws://127.0.0.1:1")
