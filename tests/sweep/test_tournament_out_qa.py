"""A tournament with --out says where its files went, as a sweep does (qa)."""

from __future__ import annotations

from pathlib import Path

from card_games.cli import main as cards_main


def test_out_folder_is_named_in_the_summary(tmp_path: Path, capsys) -> None:
    out = tmp_path / "t"
    argv = ["tournament", "jellyfish", "--matches", "2", "--seed", "1", "--out", str(out)]
    assert cards_main(argv) == 0
    last = capsys.readouterr().out.strip().splitlines()[-1]
    assert last == f"wrote {out / 'tournament.json'} and {out / 'tournament.png'}"
    assert (out / "tournament.json").is_file() and (out / "tournament.png").is_file()
