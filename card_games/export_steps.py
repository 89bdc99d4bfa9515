"""The steps of a recorded card game for its web page: the record re-played move by move, each
step the public table as the terminal draws it (a spectator's view: nothing hidden) and the
public events of that move; and the page's stepper (prev/next, a slider, the arrow keys), as the
JamSumo replay page steps through shots.

The stepper keeps its state as data attributes for tests and tools: ``#stepper[data-step]``
(0 = before the first move) and ``[data-steps]`` (how many steps there are after the start).
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any

from rich.console import Group

from card_games.terminal.display import builder
from card_games.terminal.table import Look, to_text
from jamsumo_sim.turnloop.serialize import replay_history, state_from_json

TABLE_COLUMNS = 100  # the tables are drawn as plain text this wide


def _move_text(entry: Mapping[str, Any]) -> str:
    if "seat" in entry:
        return f"seat {entry['seat']}"
    if "joint" in entry:
        return "seats " + ", ".join(sorted(entry["joint"]))
    return "the deal"


def steps(data: Mapping[str, Any]) -> list[dict[str, Any]]:
    """Step 0 (the table before any move) and one step per move by a seat; the deals and draws
    (chance) between two moves are shown with the move that follows them."""
    state = state_from_json({**data, "history": []}, where="record")
    game = state.game
    look = Look(plain=True, width=TABLE_COLUMNS)
    build = builder(game).build

    def table() -> str:
        return to_text(Group(*build(game, state.observation(None), None, look)), look)

    out = [{"move": "start", "table": table(), "events": state.log_for(None)}]
    seen = len(state.log)
    history = list(data["history"])
    for index, entry in enumerate(history):
        replay_history(state, [entry], where="record")
        last = index + 1 == len(history)
        if "chance" in entry and not last:
            continue  # shown with the next move
        events = [e.text for e in state.log[seen:] if e.visible_to(None)]
        seen = len(state.log)
        out.append({"move": _move_text(entry), "table": table(), "events": events})
    return out


STYLE = """
#stepper{margin:1em 0}
#stepper .controls{display:flex;gap:.5em;align-items:center;flex-wrap:wrap;margin:.5em 0}
#stepper button{font:inherit;padding:.2em .8em;border-radius:5px;border:1px solid #cdbfa8;
  background:#f3e9d8;cursor:pointer}
#stepper input[type=range]{flex:1;min-width:12em}
#step-caption{font-weight:600}
#step-events{margin:.3em 0;padding-left:1.4em;min-height:1.4em}
"""

SCRIPT = r"""
(function () {
  "use strict";
  const S = JSON.parse(document.getElementById("steps-data").textContent);
  const box = document.getElementById("stepper");
  const $ = (id) => document.getElementById(id);
  const last = S.length - 1;
  const slider = $("step-slider");
  slider.max = String(last);
  box.dataset.steps = String(last);
  function show(k) {
    k = Math.max(0, Math.min(last, k));
    const s = S[k];
    box.dataset.step = String(k);
    slider.value = String(k);
    $("step-caption").textContent = k === 0 ? "Before the first move" :
      `Move ${k} of ${last}: ${s.move}`;
    $("step-table").textContent = s.table;
    const list = $("step-events");
    list.textContent = "";
    for (const line of s.events) {
      const li = document.createElement("li"); li.textContent = line; list.appendChild(li);
    }
    $("prev").disabled = k === 0; $("next").disabled = k === last;
  }
  $("prev").addEventListener("click", () => show(+box.dataset.step - 1));
  $("next").addEventListener("click", () => show(+box.dataset.step + 1));
  $("first").addEventListener("click", () => show(0));
  $("last").addEventListener("click", () => show(last));
  slider.addEventListener("input", () => show(+slider.value));
  document.addEventListener("keydown", (e) => {
    if (e.target === slider) return;  // the slider steps itself with the arrow keys
    const k = +box.dataset.step;
    if (e.key === "ArrowRight" || e.key === "n") show(k + 1);
    else if (e.key === "ArrowLeft" || e.key === "p") show(k - 1);
    else if (e.key === "Home") show(0);
    else if (e.key === "End") show(last);
    else return;
    e.preventDefault();
  });
  box.hidden = false;
  show(0);
})();
"""


def stepper_html(all_steps: list[dict[str, Any]]) -> str:
    """The stepper section: hidden until its script runs (without it the page's final table and
    log still read as before); the steps as inline JSON, safe inside a script element."""
    payload = json.dumps(all_steps, ensure_ascii=True, separators=(",", ":"))
    payload = payload.replace("</", "<\\/")  # never ends the script element early
    return (
        f"<style>{STYLE}</style>\n"
        '<section id="stepper" hidden data-step="0">\n'
        "<h2>Step through the game</h2>\n"
        '<div class="controls"><button id="first" title="Home">|&lt;</button>'
        '<button id="prev" title="left arrow">&lt; prev</button>'
        '<button id="next" title="right arrow">next &gt;</button>'
        '<button id="last" title="End">&gt;|</button>'
        f'<input id="step-slider" type="range" min="0" max="{len(all_steps) - 1}" value="0" '
        'aria-label="move"></div>\n'
        '<p id="step-caption"></p>\n<ul id="step-events"></ul>\n<pre id="step-table"></pre>\n'
        f"</section>\n"
        f'<script type="application/json" id="steps-data">{payload}</script>\n'
        f"<script>{SCRIPT}</script>"
    )
