"""`card-games export RECORD --out game.html`: a recorded card game as one readable, self-contained
page (no network): a stepper through the game move by move (the public table and events of each
step, as the JamSumo replay page steps through shots), the game's public log, the final table as
the terminal draws it, the score breakdown and every hidden card that counts, revealed (each
game's ``render.report``). Without its script the page still reads as a static page."""

from __future__ import annotations

import argparse
import html
from collections.abc import Mapping, Sequence
from typing import Any

from card_games.export_steps import stepper_html, steps
from card_games.terminal.display import TableDisplay, builder
from card_games.terminal.report import _cell
from card_games.terminal.table import Look
from jamsumo_sim import fileio
from jamsumo_sim.turnloop.recording import load_record, result_summary

SUFFIXES = (".html", ".htm")
TABLE_COLUMNS = 100  # the final table is drawn as plain text this wide

STYLE = """
body{margin:2em auto;max-width:60em;padding:0 1em;font:16px/1.45 system-ui,sans-serif;
  background:#fbf7f0;color:#2b2118}
h1{font-size:1.5em} h2{font-size:1.15em;margin-top:1.6em}
pre{background:#2b2118;color:#f3e9d8;padding:1em;overflow-x:auto;border-radius:6px;font-size:13px}
table{border-collapse:collapse} td,th{border:1px solid #cdbfa8;padding:.25em .6em;text-align:left}
td.n{text-align:right;font-variant-numeric:tabular-nums} .win{font-weight:700;color:#2f6b2f}
ol{padding-left:2.5em} li{margin:.1em 0}
"""


def _e(value: Any) -> str:
    return html.escape(str(value))


def _rows_table(rows: Sequence[Mapping[str, Any]], winners: Sequence[int], cls: str) -> str:
    columns = list(dict.fromkeys(k for row in rows for k in row if k != "seat"))
    head = "".join(f"<th>{_e(c.replace('_', ' '))}</th>" for c in columns)
    body = []
    for row in rows:
        seat = f"seat {row['seat']}" + (" — winner" if row["seat"] in winners else "")
        mark = ' class="win"' if row["seat"] in winners else ""
        cells = "".join(
            f'<td class="n">{_e(_cell(v))}</td>'
            if isinstance(v := row.get(c, ""), int | float)
            else f"<td>{_e(_cell(v))}</td>"
            for c in columns
        )
        body.append(f"<tr><td{mark}>{_e(seat)}</td>{cells}</tr>")
    return f'<table class="{cls}"><tr><th>seat</th>{head}</tr>{"".join(body)}</table>'


def build_page(state: Any, data: Mapping[str, Any]) -> str:
    game = state.game
    seats = ", ".join(f"seat {s}: {kind}" for s, kind in enumerate(data["seats"]))
    log = "".join(f"<li>{_e(line)}</li>" for line in state.log_for(None))
    parts = [
        f"<h1>{_e(game.title)}</h1>",
        f"<p>{state.num_players} players ({_e(seats)}), seed {state.seed}, "
        f"variant {_e(state.params.get('variant', '-'))}.</p>",
    ]
    if state.is_terminal():
        summary = result_summary(state)
        report = builder(game).report(state)
        winners = report.get("winners", summary["winner"])
        names = " and ".join(f"seat {s}" for s in winners) or "nobody"
        parts += [
            f'<p id="result">Winner: <span class="win">{_e(names)}</span> after '
            f"{summary['turns']} turns. Decided by: {_e(report['decided_by'])}.</p>",
            "<h2>Score breakdown</h2>",
            _rows_table(report["breakdown"], winners, "breakdown"),
            "<h2>Hidden cards revealed</h2>",
            _rows_table(report["reveal"], winners, "reveal"),
        ]
        for what, cards in (report.get("shared") or {}).items():
            parts.append(f"<p>{_e(what)}: {_e(_cell(cards))}</p>")
        final = TableDisplay(game, Look(plain=True, width=TABLE_COLUMNS)).end(state)
        parts += ["<h2>Final table</h2>", f'<pre id="final-table">{_e(final)}</pre>']
    else:
        parts.append(
            f'<p id="result">Unfinished after {len(state.history)} moves '
            "(card-games resume goes on).</p>"
        )
    # at the top, under the players: the public tables only, nothing hidden shows
    parts.insert(2, stepper_html(steps(data)))
    parts += ["<h2>Game log</h2>", f'<ol id="log">{log}</ol>']
    title = _e(f"{game.title} — seed {state.seed}")
    return (
        '<!DOCTYPE html>\n<html lang="en">\n<head>\n<meta charset="utf-8">\n'
        f'<meta name="viewport" content="width=device-width, initial-scale=1">\n'
        f"<title>{title}</title>\n<style>{STYLE}</style>\n</head>\n<body>\n"
        + "\n".join(parts)
        + "\n</body>\n</html>\n"
    )


DESCRIPTION = """\
Write a recorded card game as one self-contained HTML page (no network): the
players, seed and variant, a stepper through the game (prev/next, a slider,
the arrow keys: the public table and events after each move) and the public
game log; for a
finished game also the winner, the score breakdown, every hidden card that
counted, revealed, and the final table as the terminal draws it. An unfinished
game's page shows the public log only (nothing hidden is revealed)."""
EPILOG = """\
RECORD is the JSON file a game is saved to: --record FILE of 'card-games play'
or 'card-games host', 'save FILE' typed during a game, or the file saved when a
person quits (in $XDG_DATA_HOME/jamsumo/saves/, by default
~/.local/share/jamsumo/saves/; the game says which file).

examples:
  card-games play jellyfish --players 3 --seats smart,smart,random --record fish.json
  card-games export fish.json --out fish.html
  card-games replay fish.json      (the same game as text in the terminal)"""


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser(
        "export",
        help="a recorded game as one readable HTML page",
        description=DESCRIPTION,
        epilog=EPILOG,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    p.add_argument("file", metavar="RECORD", help="the game record (JSON) to show")
    p.add_argument("--out", required=True, metavar="FILE", help="the page to write (.html or .htm)")
    p.set_defaults(func=cmd_export)


def cmd_export(args: argparse.Namespace) -> int:
    out = fileio.check_output_path(args.out, "--out", inputs=[args.file], suffixes=SUFFIXES)
    state, data = load_record(args.file)
    fileio.write_atomic(out, build_page(state, data), "page")
    print(f"wrote {out}: {game_line(state)}")
    return 0


def game_line(state: Any) -> str:
    status = "finished" if state.is_terminal() else "unfinished"
    return f"{state.game.title}, {len(state.history)} moves, {status}"
