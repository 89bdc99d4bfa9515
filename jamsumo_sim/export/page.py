"""The shared page: one HTML file with its style, script and data inline (no network, works from
``file://``). The board is drawn to scale on a canvas; the dice move along the sampled trajectories
(linear between samples); play/pause, a timeline to scrub, shot stepping and the score table.

For tests and tools the player exposes its state as data attributes: ``#player[data-shot]``
(1-based), ``[data-time]`` (s into the shot), ``[data-frame]``, ``[data-playing]``; the canvas gives
``data-scale`` (CSS px per metre) and ``data-origin-x/y`` (CSS px of the board's centre)."""

from __future__ import annotations

import html
import json
from typing import Any

BOARD_PX = 640  # CSS pixels of the canvas (the board plus a margin)
BOARD_MARGIN_PX = 16

STYLE = """
body{margin:0;background:#2e241e;color:#ece2d2;font:15px/1.35 system-ui,sans-serif}
#player{display:flex;flex-wrap:wrap;gap:16px;padding:16px;align-items:flex-start}
#board{display:block;border-radius:8px}
#side{min-width:260px;max-width:420px;flex:1}
h1{font-size:19px;margin:0 0 6px}
#caption{font-weight:600;margin:6px 0 2px}
#story{color:#a09688;margin:0 0 8px;min-height:1.35em}
#controls{display:flex;gap:6px;align-items:center;margin:8px 0;flex-wrap:wrap}
button,select{background:#46403a;color:#ece2d2;border:1px solid #6a5e54;border-radius:5px;
  padding:4px 10px;font:inherit;cursor:pointer}
#timeline{width:100%}
#clock{font-variant-numeric:tabular-nums;color:#a09688}
table{border-collapse:collapse;width:100%;margin-top:6px}
td,th{padding:3px 6px;text-align:left;border-bottom:1px solid #46403a}
td.score{text-align:right;font-variant-numeric:tabular-nums}
.sw{display:inline-block;width:12px;height:12px;border-radius:3px;margin-right:6px;vertical-align:-1px}
#log{color:#a09688;font-size:13px;padding-left:18px}
"""

SCRIPT = r"""
(function () {
  "use strict";
  const D = JSON.parse(document.getElementById("replay-data").textContent);
  const BOARD_PX = %(board_px)d, MARGIN = %(margin)d, HOLD = 0.6, TRAIL = 0.35;
  const player = document.getElementById("player");
  const canvas = document.getElementById("board");
  const ctx = canvas.getContext("2d");
  const $ = (id) => document.getElementById(id);
  const shots = D.shots, n = shots.length;
  const side = D.board.side, scale = (BOARD_PX - 2 * MARGIN) / side;
  const ox = BOARD_PX / 2, oy = BOARD_PX / 2;
  const offsets = [];
  let total = 0;
  for (const s of shots) { offsets.push(total); total += s.duration; }
  const dpr = window.devicePixelRatio || 1;
  canvas.width = BOARD_PX * dpr; canvas.height = BOARD_PX * dpr;
  canvas.style.width = BOARD_PX + "px"; canvas.style.height = BOARD_PX + "px";
  canvas.dataset.scale = String(scale);
  canvas.dataset.originX = String(ox);
  canvas.dataset.originY = String(oy);
  const rgb = (c, a) => a === undefined ? `rgb(${c[0]},${c[1]},${c[2]})` : `rgba(${c[0]},${c[1]},${c[2]},${a})`;
  const T = D.theme;
  const X = (x) => ox + x * scale, Y = (y) => oy - y * scale;
  const colourOf = (id) => id.replace(/[0-9]+$/, "");

  let shot = Math.max(0, Math.min(n - 1, (D.start || 1) - 1)), t = 0, playing = false, wait = 0, last = null;
  $("timeline").max = String(total);

  function drawBoard() {
    ctx.fillStyle = rgb(T.table); ctx.fillRect(0, 0, BOARD_PX, BOARD_PX);
    const x0 = X(-side / 2), y0 = Y(side / 2), w = side * scale;
    const g = ctx.createLinearGradient(x0, y0, x0 + w, y0 + w);
    g.addColorStop(0, rgb(T.wood_light)); g.addColorStop(1, rgb(T.wood_dark));
    ctx.fillStyle = g; ctx.beginPath(); ctx.roundRect(x0, y0, w, w, 0.02 * w); ctx.fill();
    ctx.lineWidth = 3; ctx.strokeStyle = rgb(T.wood_edge); ctx.stroke();
    const dish = ctx.createRadialGradient(X(0), Y(0), 0, X(0), Y(0), D.board.dish_radius * scale);
    dish.addColorStop(0, rgb(T.dish_shadow, 0.45)); dish.addColorStop(1, rgb(T.dish_shadow, 0));
    ctx.fillStyle = dish; ctx.beginPath(); ctx.arc(X(0), Y(0), D.board.dish_radius * scale, 0, 2 * Math.PI); ctx.fill();
    ctx.fillStyle = rgb(T.hole); ctx.strokeStyle = rgb(T.hole_rim); ctx.lineWidth = 3;
    ctx.beginPath(); ctx.arc(X(0), Y(0), D.board.hole_radius * scale, 0, 2 * Math.PI); ctx.fill(); ctx.stroke();
    ctx.textAlign = "center"; ctx.textBaseline = "middle";
    for (const [x, y, pw, pd] of D.board.sumo) {
      ctx.strokeStyle = rgb(T.sumo_line); ctx.lineWidth = 2;
      ctx.strokeRect(X(x - pw / 2), Y(y + pd / 2), pw * scale, pd * scale);
      const d = 0.5 * Math.max(pw, pd) * 1.55, r = Math.hypot(x, y) || 1;
      label("SUMO", x - x / r * d, y - y / r * d, T.sumo_text);
    }
    for (const [x, y, pw, pd] of D.board.platforms) {
      ctx.fillStyle = rgb(T.platform_light); ctx.strokeStyle = rgb(T.platform_dark); ctx.lineWidth = 2;
      ctx.fillRect(X(x - pw / 2), Y(y + pd / 2), pw * scale, pd * scale);
      ctx.strokeRect(X(x - pw / 2), Y(y + pd / 2), pw * scale, pd * scale);
      label("JAM", x, y, T.platform_text);
    }
  }

  function label(text, x, y, colour) {
    // lettering with its top towards the hole, as carved on the board
    ctx.save(); ctx.translate(X(x), Y(y)); ctx.rotate(Math.atan2(-X(x) + ox, Y(y) - oy));
    ctx.fillStyle = rgb(colour); ctx.font = `bold ${Math.max(8, Math.round(0.012 * scale))}px sans-serif`;
    ctx.fillText(text, 0, 0); ctx.restore();
  }

  function frameAt(s, time) {
    // the sample at or before ``time`` and the weight of the next one
    const times = s.times;
    let lo = 0, hi = times.length - 1;
    if (time >= times[hi]) return [hi, 0];
    while (hi - lo > 1) { const mid = (lo + hi) >> 1; if (times[mid] <= time + 1e-9) lo = mid; else hi = mid; }
    const span = times[lo + 1] - times[lo];
    return [lo, span > 0 ? Math.max(0, Math.min(1, (time - times[lo]) / span)) : 0];
  }

  function poseOf(s, k, w, j) {
    const a = s.frames[k], b = s.frames[Math.min(k + 1, s.frames.length - 1)], o = 5 * j;
    if (!a[o + 4]) return null;
    if (w === 0 || !b[o + 4]) return [a[o], a[o + 1], a[o + 2], a[o + 3]];
    let da = b[o + 2] - a[o + 2];
    da = Math.atan2(Math.sin(da), Math.cos(da));
    return [a[o] + (b[o] - a[o]) * w, a[o + 1] + (b[o + 1] - a[o + 1]) * w, a[o + 2] + da * w, (w < 0.5 ? a : b)[o + 3]];
  }

  function drawDie(id, p) {
    const c = D.colours[colourOf(id)] || [150, 150, 150];
    const h = D.die_size * scale / 2;
    ctx.save(); ctx.translate(X(p[0]), Y(p[1])); ctx.rotate(-p[2]);
    ctx.fillStyle = rgb(c); ctx.strokeStyle = "rgb(20,14,10)"; ctx.lineWidth = 1.2;
    ctx.beginPath(); ctx.roundRect(-h, -h, 2 * h, 2 * h, 0.22 * h); ctx.fill(); ctx.stroke();
    const lum = 0.299 * c[0] + 0.587 * c[1] + 0.114 * c[2];
    ctx.fillStyle = lum > 150 ? "rgb(30,26,22)" : "rgb(250,248,240)";
    for (const [u, v] of D.pips[String(p[3])] || []) {
      ctx.beginPath(); ctx.arc(u * 2 * h, -v * 2 * h, Math.max(1, 0.2 * h), 0, 2 * Math.PI); ctx.fill();
    }
    ctx.restore();
  }

  function drawTrails(s, k) {
    if (!$("trails").checked) return;
    const first = frameAt(s, Math.max(0, t - TRAIL))[0];
    s.ids.forEach((id, j) => {
      ctx.beginPath(); let started = false;
      for (let f = first; f <= k; f++) {
        const p = s.frames[f], o = 5 * j;
        if (!p[o + 4]) break;
        if (!started) { ctx.moveTo(X(p[o]), Y(p[o + 1])); started = true; } else ctx.lineTo(X(p[o]), Y(p[o + 1]));
      }
      ctx.strokeStyle = rgb(D.colours[colourOf(id)] || [150, 150, 150], 0.35);
      ctx.lineWidth = Math.max(2, D.die_size * scale * 0.3); ctx.lineCap = "round"; ctx.stroke();
    });
  }

  function storyAt(s, time) {
    // what has happened by ``time``: an outcome is told when it happens, not before
    let told = "";
    for (const [when, text] of s.timeline) { if (when > time + 1e-9) break; told = text; }
    return told;
  }

  function scoreTable(rows) {
    const body = $("scores").tBodies[0];
    body.innerHTML = "";
    for (const r of rows) {
      const tr = body.insertRow();
      const name = tr.insertCell(); const sw = document.createElement("span");
      sw.className = "sw"; sw.style.background = rgb(D.colours[r.colour_name]);
      name.append(sw, `${r.name} (${r.agent})`);
      const sc = tr.insertCell(); sc.className = "score"; sc.textContent = r.total;
    }
  }

  function render() {
    const s = shots[shot];
    const [k, w] = frameAt(s, t);
    ctx.setTransform(dpr, 0, 0, dpr, 0, 0);
    drawBoard();
    if (t > 0 && t < s.duration) drawTrails(s, k);
    s.ids.forEach((id, j) => { const p = poseOf(s, k, w, j); if (p) drawDie(id, p); });
    const done = t >= s.duration;
    player.dataset.shot = String(shot + 1);
    player.dataset.time = t.toFixed(4);
    player.dataset.frame = String(k);
    player.dataset.playing = String(playing);
    $("caption").textContent = s.title;
    $("story").textContent = done ? (s.verdict ? `${s.story} — ${s.verdict}` : s.story) : storyAt(s, t);
    scoreTable(done ? s.after : s.before);
    const log = $("log"); log.innerHTML = "";
    if (done) for (const line of s.log) { const li = document.createElement("li"); li.textContent = line; log.append(li); }
    $("timeline").value = String(offsets[shot] + t);
    $("clock").textContent = `shot ${shot + 1} / ${n} · ${t.toFixed(3)} s of ${s.duration.toFixed(3)} s`;
    $("play").textContent = playing ? "Pause" : "Play";
    $("end").textContent = shot === n - 1 && done ? D.finished : "";
  }

  function seek(i, time) {
    shot = Math.max(0, Math.min(n - 1, i));
    t = Math.max(0, Math.min(shots[shot].duration, time));
    wait = 0; render();
  }
  function scrub(global) {
    let i = 0;
    while (i < n - 1 && global >= offsets[i + 1]) i++;
    seek(i, global - offsets[i]);
  }
  function step(delta) { playing = false; seek(shot + delta, 0); }
  function toggle() {
    if (!playing && shot === n - 1 && t >= shots[shot].duration) seek(0, 0);
    playing = !playing; last = null; render();
  }
  function tick(now) {
    if (playing) {
      const dt = last === null ? 0 : Math.min(0.1, (now - last) / 1000);
      const speed = parseFloat($("speed").value);
      const s = shots[shot];
      if (t < s.duration) t = Math.min(s.duration, t + dt * speed);
      else if ((wait += dt) >= HOLD) { if (shot < n - 1) { shot += 1; t = 0; wait = 0; } else playing = false; }
      render();
    }
    last = now;
    requestAnimationFrame(tick);
  }
  $("play").addEventListener("click", toggle);
  $("prev").addEventListener("click", () => step(-1));
  $("next").addEventListener("click", () => step(+1));
  $("start").addEventListener("click", () => { playing = false; seek(0, 0); });
  $("timeline").addEventListener("input", (e) => { playing = false; scrub(parseFloat(e.target.value)); });
  $("trails").addEventListener("change", render);
  document.addEventListener("keydown", (e) => {
    if (e.target.tagName === "INPUT" && e.target.type === "range" && e.key.startsWith("Arrow")) return;
    if (e.key === " ") { e.preventDefault(); toggle(); }
    else if (e.key === "ArrowRight") step(+1);
    else if (e.key === "ArrowLeft") step(-1);
    else if (e.key === "Home") { playing = false; seek(0, 0); }
  });
  window.jamsumoPlayer = { seek: (i, time) => seek(i - 1, time), scrub };
  player.dataset.shots = String(n);
  render();
  requestAnimationFrame(tick);
})();
"""

TEMPLATE = """<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>{title}</title>
<style>{style}</style>
</head>
<body>
<main id="player" data-shot="1" data-time="0" data-frame="0" data-playing="false">
<canvas id="board" width="{board_px}" height="{board_px}" aria-label="the board"></canvas>
<section id="side">
<h1>{title}</h1>
<div id="caption"></div>
<p id="story"></p>
<div id="controls">
<button id="start" title="back to the first shot (Home)">|◀</button>
<button id="prev" title="previous shot (←)">◀ shot</button>
<button id="play" title="play / pause (Space)">Play</button>
<button id="next" title="next shot (→)">shot ▶</button>
<select id="speed" title="playback speed">
<option value="0.1">×0.1</option><option value="0.25">×0.25</option><option value="0.5">×0.5</option>
<option value="1" selected>×1</option><option value="2">×2</option>
</select>
<label><input id="trails" type="checkbox" checked> trails</label>
</div>
<input id="timeline" type="range" min="0" max="1" step="0.001" value="0" aria-label="timeline">
<div id="clock"></div>
<table id="scores"><thead><tr><th>player</th><th class="score">{score_head}</th></tr></thead>
<tbody></tbody></table>
<p id="end"></p>
<ol id="log"></ol>
<p id="credit">Exported by jamsumo {version}: the shots re-simulated from the replay.</p>
</section>
</main>
<script type="application/json" id="replay-data">{data}</script>
<script>{script}</script>
</body>
</html>
"""


def inline_json(data: Any) -> str:
    """JSON safe inside a <script> element (no ``</script>``, no ``<!--``)."""
    text = json.dumps(data, separators=(",", ":"), ensure_ascii=True, allow_nan=False)
    return text.replace("<", "\\u003c").replace(">", "\\u003e").replace("&", "\\u0026")


def build_page(data: dict[str, Any], start_shot: int, version: str) -> str:
    payload = {**data, "start": start_shot}
    return TEMPLATE.format(
        title=html.escape(str(data["title"])),
        style=STYLE,
        board_px=BOARD_PX,
        score_head=html.escape(str(data.get("score_head", "score"))),
        version=html.escape(version),
        data=inline_json(payload),
        script=SCRIPT % {"board_px": BOARD_PX, "margin": BOARD_MARGIN_PX},
    )
