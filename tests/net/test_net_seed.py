"""The match seed stays on the host: no message a client gets before the end holds it (with it a
seat could rebuild every hidden card), the end's result does, and the host states a fresh one on
its own stderr only."""

from __future__ import annotations

import json
import re
import time

import pytest

from tests.child_limits import HANG_GUARD_S
from tests.cli.test_fresh_seeds import stated_seed
from tests.net.helpers import card_state, host_and_join, jam_state, spawn_card_games

SEED = 0xD1CE_5EED_0BAD_F00D  # 64 bits, digits that turn up in no message by chance


def _before_end(messages: list[str]) -> tuple[list[str], dict]:
    """The messages before the ``end`` message, and the end's result."""
    kinds = [json.loads(m)["type"] for m in messages]
    end = kinds.index("end")
    return messages[:end], json.loads(messages[end])["result"]


@pytest.mark.parametrize("state", [card_state("jellyfish", SEED), jam_state("jam", SEED)])
def test_no_message_before_the_end_holds_the_seed(state) -> None:
    run = host_and_join(state)
    for seat in run.messages:
        before, result = _before_end(run.messages[seat])
        assert len(before) > 3  # the welcome, the start and moves came first
        for text in before:
            assert str(SEED) not in text and f"{SEED:x}" not in text.lower(), text[:200]
        assert result["seed"] == SEED  # revealed with the result, once the game is over


def test_a_host_without_seed_states_a_fresh_one_on_its_own_stderr(tmp_path) -> None:
    record = tmp_path / "game.json"
    host = spawn_card_games(
        "host", "jellyfish", "--players", "2", "--seats", "remote,smart",
        "--port", "0", "--record", str(record), "--json",
    )  # fmt: skip
    lines: list[str] = []
    try:
        port = None
        deadline = time.monotonic() + HANG_GUARD_S  # a hang guard only: up in about a second
        while port is None and time.monotonic() < deadline and host.poll() is None:
            lines.append(host.stderr.readline())
            found = re.search(r"ws://127\.0\.0\.1:(\d+)", lines[-1])
            port = found.group(1) if found else None
        assert port, "the host did not say where it listens"
        join = spawn_card_games("join", f"ws://127.0.0.1:{port}", "--bot", "smart", "--json")
        join_out, join_err = join.communicate(timeout=HANG_GUARD_S)
        host_out, host_err = host.communicate(timeout=HANG_GUARD_S)
    finally:
        host.kill()
    assert host.returncode == 0 and join.returncode == 0, host_err + join_err
    seed = stated_seed("".join(lines) + host_err)
    assert json.loads(host_out)["seed"] == seed == json.loads(record.read_text())["seed"]
    assert str(seed) not in join_err  # the player learns it only from the result at the end
    assert json.loads(join_out)["seed"] == seed


def test_a_resumed_host_keeps_the_recorded_seed(tmp_path) -> None:
    from jamsumo_sim.turnloop.recording import save_record
    from tests.hostile.harness import assert_one_line_error, run_cli

    saved = tmp_path / "game.json"
    save_record(saved, card_state("jellyfish", SEED), ["remote", "smart", "smart"])
    out = run_cli("card-games", "host", "--resume", str(saved), "--seed", "5", "--port", "0")
    assert_one_line_error(out, f"seed {SEED}, not 5", "drop --seed")
