"""The log's last line of a finished Jumble Jam or Jelly Fish game reads as words: coins by seat,
not a Python list, and a shared win said as one (qa)."""

from __future__ import annotations

import json

from card_games.registry import resolve


def _state(name: str, players: int):
    game = resolve(name)
    return game.new_initial_state(game.validate_params({"players": players}), seed=1)


def test_jumble_jam_end_line_names_coins_by_seat() -> None:
    state = _state("jumble-jam", 3)
    state.coins = [17, 38, 9]
    state._end("round_limit", limit=40)
    last = state.log_for(None)[-1]
    assert last == (
        "game over: the 40-round limit is reached. Coins: seat 0 17, seat 1 38, seat 2 9; "
        "winner: seat 1"
    )


def test_jumble_jam_tie_is_a_shared_win() -> None:
    state = _state("jumble-jam", 2)
    state.coins = [20, 20]
    state._end("round_limit", limit=40)
    assert state.log_for(None)[-1].endswith("; shared win: seat 0 and seat 1")


def test_jellyfish_tie_is_a_shared_win() -> None:
    state = _state("jellyfish", 2)
    state._end("pile_exhausted")
    assert state.winners() == [0, 1]  # nothing collected: a tie
    assert state.log_for(None)[-1] == (
        "Game over: the draw pile ran out. Shared win: seat 0 and seat 1."
    )


def test_a_shared_win_in_the_result_line_is_a_list(capsys) -> None:
    from card_games.cli import main

    seats = "smart,random,smart,random,smart"
    argv = ["play", "jumblejack", "--players", "5", "--seats", seats, "--seed", "4"]
    assert main([*argv, "--json"]) == 0
    winners = json.loads(capsys.readouterr().out)["winner"]
    assert len(winners) >= 3  # all but the cursed seat
    assert main(argv) == 0
    line = capsys.readouterr().out.strip().splitlines()[-1]
    names = [f"seat {s}" for s in winners]
    assert f"Winners: {', '.join(names[:-1])} and {names[-1]} after " in line, line


def test_replay_ends_with_the_same_result_line_as_play(tmp_path, capsys) -> None:
    from card_games.cli import main

    record = tmp_path / "r.json"
    argv = ["play", "jellyfish", "--players", "3", "--seats", "smart,random,smart", "--seed", "3"]
    assert main([*argv, "--record", str(record)]) == 0
    played = capsys.readouterr().out.strip().splitlines()[-1]
    assert played.startswith("Jelly Fish Toast & Jam: seat 0 (smart): ")
    assert main(["replay", str(record)]) == 0
    assert capsys.readouterr().out.strip().splitlines()[-1] == played
