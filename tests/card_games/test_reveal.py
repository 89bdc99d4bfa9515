"""End of game (issue 19): every hidden card that counts is revealed and each player's score is
broken down, in the terminal and in ``--json`` (``"breakdown"`` and ``"reveal"`` beside the
keys it always had)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from card_games.cli import main
from card_games.registry import resolve
from card_games.terminal.display import builder
from jamsumo_sim.turnloop import RandomAgent, step

from .tables_helpers import play_as_person

OLD_KEYS = {"game", "players", "seed", "variant", "scores", "winner", "turns", "end"}


def _finished(name: str, players: int, variant: str | None = None, seed: int = 4):  # type: ignore[no-untyped-def]
    game = resolve(name)
    params = game.validate_params({"players": players, "variant": variant or game.variants[0]})
    state = game.new_initial_state(params, seed)
    agents = [RandomAgent(s, game) for s in range(players)]
    while not state.is_terminal():
        step(state, agents)
    return state


@pytest.mark.parametrize(
    ("game", "players"), [("jellyfish", 3), ("jumble-jam", 3), ("jumblejack", 4), ("the-jam", 3)]
)
def test_json_adds_breakdown_and_reveal(
    capsys: pytest.CaptureFixture[str], game: str, players: int
) -> None:
    seats = ",".join(["random"] * players)
    args = ["play", game, "--players", str(players), "--seats", seats, "--seed", "3", "--json"]
    assert main(args) == 0
    out = json.loads(capsys.readouterr().out)
    assert set(out) >= OLD_KEYS
    assert [row["seat"] for row in out["breakdown"]] == list(range(players))
    assert [row["total"] for row in out["breakdown"]] == out["scores"]
    assert [row["seat"] for row in out["reveal"]] == list(range(players))


def test_the_jam_breakdown_adds_up_and_every_task_and_travel_pile_is_revealed() -> None:
    state = _finished("the_jam", 2, "travel")
    report = builder(state.game).report(state)
    full = state.full_state()
    for seat, row in enumerate(report["breakdown"]):
        parts = sum(v for k, v in row.items() if k not in ("seat", "total"))
        assert parts == row["total"] == state.returns()[seat]
        shown = report["reveal"][seat]
        tasks = [t for kind in full["tasks"][seat].values() for t in kind]
        assert len(tasks) == len(shown["tasks"])
        assert all(any(text.startswith(t + " ") for text in shown["tasks"]) for t in tasks)
        # the travel pile is face down during play: every recipe is named at the end
        assert len(shown["recipes"]) == len(full["made"][seat])
        assert len(state.observation(1 - seat)["made"][seat]) < len(shown["recipes"])


def test_jumblejack_reveals_every_pirate_and_token() -> None:
    state = _finished("jumblejack", 5)
    report = builder(state.game).report(state)
    full = state.full_state()
    for seat, shown in enumerate(report["reveal"]):
        assert shown["pirate"].startswith(full["pirates"][seat] + " wears ")
        token = full["tokens"][seat]  # None once discarded
        assert (
            state.c.token(token).name in shown["Piece of Eight"]
            if token
            else "Piece of Eight" not in shown
        )
    outcomes = [row["outcome"] for row in report["breakdown"]]
    assert sum(o == "wins" for o in outcomes) == len(state.winners())


def test_jellyfish_reveals_every_cover_card() -> None:
    state = _finished("jellyfish", 4)
    report = builder(state.game).report(state)
    full = state.full_state()
    for seat, shown in enumerate(report["reveal"]):
        assert len(shown["cover cards"]) == len(full["covers"][seat])
    assert [r["face-up cards"] for r in report["breakdown"]] == [
        state.partial_count(s) for s in range(4)
    ]


def test_jumble_jam_reveals_hands_and_coins_per_order() -> None:
    state = _finished("jumble_jam", 4)
    report = builder(state.game).report(state)
    full = state.full_state()
    for seat, shown in enumerate(report["reveal"]):
        assert len(shown["hand"]) == len(full["hands"][seat])
        coins = sum(int(o.rsplit(" ", 1)[1]) for o in report["breakdown"][seat]["orders"])
        assert coins <= report["breakdown"][seat]["total"] == full["coins"][seat]


def test_a_person_sees_the_end_table_with_every_task_revealed(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    record = tmp_path / "jam.json"
    out = play_as_person(monkeypatch, tmp_path, "the-jam", "--record", str(record))
    end = out[out.index("GAME OVER") :]
    assert "Score breakdown" in end and "Hidden cards revealed" in end
    from jamsumo_sim.turnloop.recording import load_record

    state, _ = load_record(record)
    for seat_tasks in state.full_state()["tasks"]:
        for kind in seat_tasks.values():
            for task in kind:
                assert f"{task} " in end, task
