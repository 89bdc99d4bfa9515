// The browser seat of `jamsumo host --web` (docs/network.md, "Play from a browser").
// It speaks protocol 2 as `jamsumo join` does (hello, move, sync, chat, aim, bye), asks the host for
// the public view ("view") and each shot's poses ("shot"), and never decides a rule: the host checks
// every move. The board and dice are drawn as on the replay page (jamsumo_sim/export/page.py).
(function () {
  "use strict";
  const S = JSON.parse(document.getElementById("scene").textContent);
  const $ = (id) => document.getElementById(id);
  const app = $("app"), canvas = $("board"), ctx = canvas.getContext("2d");
  const V = 2, HEARTBEAT_MS = 150, RESEND_MS = 500, HELLO_MS = 1000, AIM_MS = 100;
  const AIM_SHOWN_MS = 1000, HOLD_S = 0.35, FADE_S = 0.45, MARGIN = 10, MAX_IDS = 64;
  const RECONNECT_MS = 250, RECONNECT_FOR_MS = 60000;
  const KEY = "jamsumo-seat:" + location.host;
  const PU = S.units.position, AU = S.units.angle, side = S.board.side, G = S.gesture, P = S.physics;
  const T = S.theme;
  const stats = { latencies: [], fps: [], frames: 0, sinceFlick: [] };

  // ---- connection state ---------------------------------------------------------------------
  let ws = null, token = null, seat = null, spectate = false, welcomed = false, recalled = false;
  let have = 0, early = new Map(), helloFields = null, helloAt = 0, lostAt = null, match = null;
  let turnAt = -1, sent = null, result = null, fatal = null;
  let view = null, queue = [], anim = null, aims = new Map();
  let aim = null, chosen = null, placement = null, lastAim = 0, aiming = false, corner = null;

  // ---- checking what the host sends (as the Python client does: a bad message ends it) ---------
  const isInt = (v) => Number.isInteger(v);
  const isNum = (v) => typeof v === "number" && Number.isFinite(v);
  const isStr = (v, n) => typeof v === "string" && v.length <= (n || 400);
  const intOrNull = (v) => v === null || v === undefined || isInt(v);
  function need(ok) { if (!ok) throw new TypeError("shape"); }
  function checkView(m) {
    need(isInt(m.at) && isStr(m.mode, 10) && isInt(m.round) && isInt(m.rounds));
    need(intOrNull(m.to_move) && intOrNull(m.setting_up) && typeof m.over === "boolean");
    need(Array.isArray(m.dice) && m.dice.length <= MAX_IDS);
    for (const d of m.dice) need(Array.isArray(d) && d.length === 5 && isStr(d[0], 16) && d.slice(1).every(isInt));
    need(Array.isArray(m.hands) && m.hands.every((h) => Array.isArray(h) && h.every((d) => isStr(d, 16))));
    need(Array.isArray(m.scores) && m.scores.every((r) => r && isInt(r.seat) && isStr(r.name, 40) && isStr(r.agent, 40) && isStr(r.colour, 20) && isStr(String(r.total), 60)));
    need(Array.isArray(m.log) && m.log.every((l) => isStr(l, 1000)) && isStr(m.score_head, 200));
    need(Array.isArray(m.setups) && m.setups.length <= 16);
    for (const u of m.setups) {
      need(u && isStr(u.corner, 40) && isStr(u.layout, 60) && u.action && isStr(u.action.name, 200));
      need(Array.isArray(u.dice) && u.dice.length <= 16 && u.dice.every((d) => Array.isArray(d) && d.length === 3 && d.every(isInt)));
    }
  }
  function checkShot(m) {
    need(isInt(m.at) && isInt(m.seat) && isStr(m.die, 16) && isNum(m.dt) && m.dt > 0 && isNum(m.duration) && m.duration >= 0);
    need(Array.isArray(m.ids) && m.ids.length <= MAX_IDS && m.ids.every((i) => isStr(i, 16)));
    need(Array.isArray(m.frames) && m.frames.length >= 1);
    const width = 5 * m.ids.length;
    for (const f of m.frames) need(Array.isArray(f) && f.length === width && f.every(isInt));
  }
  function checkStream(m) {
    switch (m.type) {
      case "start": need(isStr(m.game, 40) && intOrNull(m.seat)); break;
      case "view": checkView(m); break;
      case "shot": checkShot(m); break;
      case "move": need(isInt(m.at)); break;
      case "turn": need(isInt(m.at)); break;
      case "presence": need(Array.isArray(m.connected) && m.connected.every(isInt) && isInt(m.spectators)); break;
      case "chat": need(isStr(m.sender, 60) && isStr(m.text, 400)); break;
      case "end": need(m.result && typeof m.result === "object"); break;
      default: break; // another kind of message (a newer host): nothing to act on
    }
  }

  // ---- the connection -----------------------------------------------------------------------
  function send(type, fields) {
    if (ws && ws.readyState === 1) ws.send(JSON.stringify(Object.assign({ v: V, type }, fields || {})));
  }
  function remember() {
    if (token !== null && seat !== null) localStorage.setItem(KEY, JSON.stringify({ token, seat, match }));
  }
  function forget() { localStorage.removeItem(KEY); }
  function recall() {
    try { const k = JSON.parse(localStorage.getItem(KEY) || "null"); return k && isStr(k.token, 64) ? k : null; }
    catch (e) { return null; }
  }

  function connect() {
    ws = new WebSocket((location.protocol === "https:" ? "wss://" : "ws://") + location.host + "/");
    ws.onopen = () => { lostAt = null; hello(); };
    ws.onmessage = (e) => {
      const arrived = performance.now();
      let m;
      try { m = JSON.parse(e.data); } catch (err) { return; } // not from a match host
      if (!m || typeof m !== "object" || fatal) return;
      try { receive(m, arrived); } catch (err) { stop(`the host sent a malformed ${String(m.type).slice(0, 30)} message`); }
    };
    ws.onclose = () => {
      welcomed = false;
      if (result || fatal) return;
      const now = performance.now();
      if (lostAt === null) lostAt = now;
      if (now - lostAt > RECONNECT_FOR_MS) { stop("lost the connection to the host"); return; }
      note(token ? "connection lost: reconnecting…" : "cannot reach the host: trying again…");
      setTimeout(connect, RECONNECT_MS);
    };
  }

  function hello() {
    const f = { have, name: $("name").value.slice(0, 40), view: true };
    const pw = $("password").value;
    if (pw) f.password = pw.slice(0, 200);
    if (token) f.token = token; else if (spectate) f.spectate = true;
    helloFields = f; helloAt = performance.now();
    send("hello", f);
  }

  function stop(text) {
    fatal = text; note(text); app.dataset.state = result ? "over" : "stopped";
    if (ws) ws.close(1000, "stop");
  }

  function receive(m, arrived) {
    if (m.v !== V) { stop(`the host speaks protocol version ${String(m.v).slice(0, 20)}; this page speaks ${V}`); return; }
    const kind = m.type;
    if (kind === "welcome") {
      need(isStr(m.token, 64) && m.token.length > 0 && intOrNull(m.seat) && intOrNull(m.first));
      if (m.first > have) { have = m.first; for (const n of early.keys()) if (n < have) early.delete(n); }
      token = m.token; seat = m.seat === undefined ? null : m.seat; match = isStr(m.match, 64) ? m.match : null;
      welcomed = true; recalled = false;
      remember();
      showGame();
      return;
    }
    if (kind === "error") { refused(String(m.code).slice(0, 30), String(m.message).slice(0, 300)); return; }
    if (kind === "aim") {
      need(isInt(m.seat) && isInt(m.at));
      if (m.die !== undefined) need(isStr(m.die, 16) && isNum(m.direction) && isNum(m.speed));
      aims.set(m.seat, { m, at: performance.now() });
      return;
    }
    if (kind === "rest") return;
    const n = m.n;
    if (!isInt(n) || n < have) return; // a duplicate
    checkStream(m);
    m._arrived = arrived;
    early.set(n, m);
    while (early.has(have) && !fatal) {
      const cur = early.get(have); early.delete(have); have += 1;
      process(cur);
    }
  }

  function refused(code, text) {
    if (code === "seat" && recalled && !welcomed) { forget(); token = null; recalled = false; showLobby("your old seat is gone: join again"); if (ws) ws.close(1000); return; }
    if (["password", "seat", "full", "version", "hello", "wait", "view"].includes(code) && !welcomed) {
      showLobby(`the host refused: ${text}`); token = null; fatal = "refused"; if (ws) ws.close(1000); return;
    }
    if (code === "illegal") { sent = null; note(`Not allowed: ${text}`); return; }
    if (code === "chat-rate" || code === "rate") note(text);
    // "stale" and "turn" answer a move sent twice: play has moved on
  }

  function process(m) {
    switch (m.type) {
      case "start": seat = m.seat === undefined ? null : m.seat; app.dataset.seat = String(seat); break;
      case "view": case "shot": m._queued = anim !== null || queue.length > 0; queue.push(m); break;
      case "turn": turnAt = m.at; break;
      case "presence":
        $("presence").textContent = `connected: ${m.connected.length ? "seats " + m.connected.join(", ") : "none"}; ${m.spectators} watching`;
        break;
      case "chat": logLine(`[${m.sender}] ${m.text}`); break;
      case "end":
        result = m.result; queue.push({ type: "end" });
        send("bye"); forget();
        break;
      default: break;
    }
  }

  setInterval(() => {
    if (!ws || ws.readyState !== 1 || fatal || result) return;
    const now = performance.now();
    if (!welcomed) { if (helloFields && now - helloAt >= HELLO_MS) { helloAt = now; send("hello", helloFields); } return; }
    send("sync", { have, gap: early.size > 0 });
    if (sent && view && sent.at === view.at && now - sent.time > RESEND_MS) { sent.time = now; send("move", { at: sent.at, action: sent.action }); }
  }, HEARTBEAT_MS);

  // ---- lobby ------------------------------------------------------------------------------------
  function showLobby(text) {
    app.dataset.state = "lobby"; $("lobby").hidden = false; $("game").hidden = true;
    $("lobby-note").textContent = text || "";
  }
  function showGame() {
    $("lobby").hidden = true; $("game").hidden = false;
    app.dataset.state = "playing"; app.dataset.seat = String(seat);
    resize();
  }
  function start(watch) {
    spectate = watch; fatal = null; token = null;
    $("lobby-note").textContent = "joining…";
    connect();
  }
  $("join").addEventListener("click", () => start(false));
  $("watch").addEventListener("click", () => start(true));
  $("pw-row").hidden = !S.password;
  $("height").value = String(G.height_default);

  // ---- geometry and drawing (as the replay page draws) ------------------------------------------
  let size = 320, scale = 1, ox = 0, oy = 0, dpr = 1;
  function resize() {
    const wide = window.innerWidth >= 800;
    const room = wide ? Math.min(window.innerWidth - 500, window.innerHeight - 16) : Math.min(window.innerWidth - 12, window.innerHeight - 190);
    size = Math.max(240, Math.floor(Math.min(room, 900)));
    dpr = window.devicePixelRatio || 1;
    canvas.width = Math.round(size * dpr); canvas.height = Math.round(size * dpr);
    canvas.style.width = size + "px"; canvas.style.height = size + "px";
    scale = (size - 2 * MARGIN) / side; ox = size / 2; oy = size / 2;
    canvas.dataset.scale = String(scale);
  }
  window.addEventListener("resize", resize);
  const rgb = (c, a) => a === undefined ? `rgb(${c[0]},${c[1]},${c[2]})` : `rgba(${c[0]},${c[1]},${c[2]},${a})`;
  const X = (x) => ox + x * scale, Y = (y) => oy - y * scale;
  const colourOf = (id) => id.replace(/[0-9]+$/, "");
  const dieColour = (id) => S.colours[colourOf(id)] || [150, 150, 150];

  function label(text, x, y, colour) {
    ctx.save(); ctx.translate(X(x), Y(y)); ctx.rotate(Math.atan2(-X(x) + ox, Y(y) - oy));
    ctx.fillStyle = rgb(colour); ctx.font = `bold ${Math.max(8, Math.round(0.012 * scale))}px sans-serif`;
    ctx.fillText(text, 0, 0); ctx.restore();
  }
  function drawBoard() {
    ctx.fillStyle = rgb(T.table); ctx.fillRect(0, 0, size, size);
    const x0 = X(-side / 2), y0 = Y(side / 2), w = side * scale;
    const g = ctx.createLinearGradient(x0, y0, x0 + w, y0 + w);
    g.addColorStop(0, rgb(T.wood_light)); g.addColorStop(1, rgb(T.wood_dark));
    ctx.fillStyle = g; ctx.beginPath(); ctx.roundRect(x0, y0, w, w, 0.02 * w); ctx.fill();
    ctx.lineWidth = 3; ctx.strokeStyle = rgb(T.wood_edge); ctx.stroke();
    const B = S.board;
    const dish = ctx.createRadialGradient(X(0), Y(0), 0, X(0), Y(0), B.dish_radius * scale);
    dish.addColorStop(0, rgb(T.dish_shadow, 0.45)); dish.addColorStop(1, rgb(T.dish_shadow, 0));
    ctx.fillStyle = dish; ctx.beginPath(); ctx.arc(X(0), Y(0), B.dish_radius * scale, 0, 2 * Math.PI); ctx.fill();
    ctx.fillStyle = rgb(T.hole); ctx.strokeStyle = rgb(T.hole_rim); ctx.lineWidth = 3;
    ctx.beginPath(); ctx.arc(X(0), Y(0), B.hole_radius * scale, 0, 2 * Math.PI); ctx.fill(); ctx.stroke();
    ctx.textAlign = "center"; ctx.textBaseline = "middle";
    for (const [, x, y, pw, pd] of B.sumo) {
      ctx.strokeStyle = rgb(T.sumo_line); ctx.lineWidth = 2;
      ctx.strokeRect(X(x - pw / 2), Y(y + pd / 2), pw * scale, pd * scale);
      const d = 0.5 * Math.max(pw, pd) * 1.55, r = Math.hypot(x, y) || 1;
      label("SUMO", x - x / r * d, y - y / r * d, T.sumo_text);
    }
    for (const [, x, y, pw, pd] of B.platforms) {
      ctx.fillStyle = rgb(T.platform_light); ctx.strokeStyle = rgb(T.platform_dark); ctx.lineWidth = 2;
      ctx.fillRect(X(x - pw / 2), Y(y + pd / 2), pw * scale, pd * scale);
      ctx.strokeRect(X(x - pw / 2), Y(y + pd / 2), pw * scale, pd * scale);
      label("JAM", x, y, T.platform_text);
    }
  }
  function drawDie(id, x, y, angle, face, alpha, ring) {
    const c = dieColour(id), h = S.die_size * scale / 2;
    ctx.save(); ctx.globalAlpha = alpha; ctx.translate(X(x), Y(y)); ctx.rotate(-angle);
    ctx.fillStyle = rgb(c); ctx.strokeStyle = ring ? rgb(T.highlight) : "rgb(20,14,10)"; ctx.lineWidth = ring ? 2.5 : 1.2;
    ctx.beginPath(); ctx.roundRect(-h, -h, 2 * h, 2 * h, 0.22 * h); ctx.fill(); ctx.stroke();
    const lum = 0.299 * c[0] + 0.587 * c[1] + 0.114 * c[2];
    ctx.fillStyle = lum > 150 ? "rgb(30,26,22)" : "rgb(250,248,240)";
    for (const [u, v] of S.pips[String(face)] || []) {
      ctx.beginPath(); ctx.arc(u * 2 * h, -v * 2 * h, Math.max(1, 0.2 * h), 0, 2 * Math.PI); ctx.fill();
    }
    ctx.restore();
  }
  function arrow(x, y, direction, length, colour) {
    const x1 = x + Math.cos(direction) * length, y1 = y + Math.sin(direction) * length;
    ctx.strokeStyle = colour; ctx.fillStyle = colour; ctx.lineWidth = 3; ctx.lineCap = "round";
    ctx.beginPath(); ctx.moveTo(X(x), Y(y)); ctx.lineTo(X(x1), Y(y1)); ctx.stroke();
    const a = -direction, hl = 10;
    ctx.beginPath(); ctx.moveTo(X(x1), Y(y1));
    ctx.lineTo(X(x1) - hl * Math.cos(a - 0.4), Y(y1) - hl * Math.sin(a - 0.4));
    ctx.lineTo(X(x1) - hl * Math.cos(a + 0.4), Y(y1) - hl * Math.sin(a + 0.4)); ctx.closePath(); ctx.fill();
  }

  // the dice as the view has them: [id, x, y, angle, face] in metres and radians
  function restingDice() {
    return view ? view.dice.map((d) => ({ id: d[0], x: d[1] * PU, y: d[2] * PU, angle: d[3] * AU, face: d[4] })) : [];
  }

  function animatedDice(now) {
    const m = anim.m, t = Math.min((now - anim.t0) / 1000, m.duration), last = m.frames.length - 1;
    let k = Math.min(last, Math.floor(t / m.dt)), w = 0;
    if (k < last) {
      const t0 = k * m.dt, t1 = k + 1 === last ? m.duration : (k + 1) * m.dt;
      w = t1 > t0 ? Math.max(0, Math.min(1, (t - t0) / (t1 - t0))) : 0;
    }
    const a = m.frames[k], b = m.frames[Math.min(k + 1, last)], out = [];
    m.ids.forEach((id, j) => {
      const o = 5 * j;
      if (!a[o + 4]) {
        // a die that left play fades where it was last seen
        const gone = anim.gone[id];
        if (gone && t - gone.t < FADE_S) out.push(Object.assign({}, gone.d, { alpha: 1 - (t - gone.t) / FADE_S }));
        return;
      }
      let da = w && b[o + 4] ? b[o + 2] - a[o + 2] : 0;
      da = Math.atan2(Math.sin(da * AU), Math.cos(da * AU)) / AU;
      const mix = (i) => (w && b[o + 4] ? a[o + i] + (b[o + i] - a[o + i]) * w : a[o + i]);
      const d = { id, x: mix(0) * PU, y: mix(1) * PU, angle: (a[o + 2] + da * w) * AU, face: (w < 0.5 ? a : b)[o + 3], alpha: 1 };
      if (b[o + 4] === 0 && !anim.gone[id]) anim.gone[id] = { t: (k + 1) * m.dt, d };
      out.push(d);
    });
    return out;
  }

  // ---- the display queue: shots animate in order, each view shows once the shot before it ended
  function frame(now) {
    while (!anim && queue.length) {
      const m = queue.shift();
      if (m.type === "shot") {
        anim = { m, t0: now, drawn: 0, gone: {} };
        const latency = now - m._arrived;
        // a shot that came while another was still on show waited for it: not a latency
        if (!m._queued) { stats.latencies.push(latency); app.dataset.animLatency = latency.toFixed(1); }
        // this seat's own flick: from the finger's release to its shot moving on the screen
        if (sent && m.at - sent.at <= 1 && m.at >= sent.at && m.seat === seat) stats.sinceFlick.push(now - sent.released);
        app.dataset.anim = "1";
      } else if (m.type === "view") applyView(m);
      else if (m.type === "end") showEnd();
    }
    draw(now);
    if (anim) {
      anim.drawn += 1;
      const t = (now - anim.t0) / 1000;
      if (t >= anim.m.duration + HOLD_S) {
        const fps = anim.drawn / Math.max(1e-3, t);
        stats.fps.push(fps);
        app.dataset.animFps = fps.toFixed(1);
        app.dataset.shots = String(Number(app.dataset.shots) + 1);
        anim = null; app.dataset.anim = "0";
      }
    }
    stats.frames += 1;
    requestAnimationFrame(frame);
  }

  function draw(now) {
    ctx.setTransform(dpr, 0, 0, dpr, 0, 0);
    drawBoard();
    const dice = anim ? animatedDice(now) : restingDice();
    const aimed = aim ? aim.die.id : null;
    for (const d of dice) drawDie(d.id, d.x, d.y, d.angle, d.face, d.alpha === undefined ? 1 : d.alpha, d.id === aimed);
    if (placement && !anim) drawDie(placement.die, placement.x, placement.y, 0, 1, 0.85, true);
    if (corner && !anim && seat !== null) {
      corner.dice.forEach((d, k) => drawDie(`${S.seat_colours[seat]}${k + 1}`, d[0] * PU, d[1] * PU, d[2] * AU, k + 1, 0.75, true));
    }
    if (aim && !anim) {
      const f = flickOf(aim);
      ctx.strokeStyle = rgb(T.highlight, 0.6); ctx.lineWidth = 2; ctx.setLineDash([5, 5]);
      ctx.beginPath(); ctx.moveTo(X(aim.press[0]), Y(aim.press[1])); ctx.lineTo(X(aim.current[0]), Y(aim.current[1])); ctx.stroke();
      ctx.setLineDash([]);
      if (f) {
        arrow(aim.die.x, aim.die.y, f.direction, S.die_size + 1.5 * f.power * G.pull_full, rgb(T.highlight));
        const off = Math.abs(f.offset) < 0.005 ? "0.00" : (f.offset > 0 ? "+" : "") + f.offset.toFixed(2);
        const text = `power ${Math.round(100 * f.power)} % · offset ${off} · height ${f.height.toFixed(2)}`;
        ctx.font = "bold 14px system-ui,sans-serif"; ctx.textAlign = "left"; ctx.textBaseline = "top";
        ctx.fillStyle = "rgba(20,14,10,0.7)"; ctx.fillRect(6, 6, ctx.measureText(text).width + 8, 22);
        ctx.fillStyle = rgb(T.highlight); ctx.fillText(text, 10, 9);
      }
    }
    if (!anim && view) {
      const now2 = performance.now();
      for (const [s, a] of aims) {
        const m = a.m;
        if (s === seat || m.at !== view.at || now2 - a.at > AIM_SHOWN_MS || m.die === undefined) continue;
        const d = restingDice().find((x) => x.id === m.die);
        if (d) arrow(d.x, d.y, m.direction, S.die_size + 1.5 * Math.min(1, m.speed / P.max_launch_speed) * G.pull_full, rgb(dieColour(m.die), 0.8));
      }
    }
  }

  // ---- what the host's view says -----------------------------------------------------------------
  function myTurn() {
    return view !== null && seat !== null && !view.over && view.to_move === seat && turnAt === view.at && !anim && queue.length === 0 && !(sent && sent.at === view.at);
  }
  function applyView(m) {
    view = m;
    app.dataset.at = String(m.at);
    if (sent && sent.at !== m.at) sent = null;
    for (const line of m.log) logLine(line);
    const body = $("scores").tBodies[0];
    body.replaceChildren();
    $("score-head").textContent = m.score_head;
    for (const r of m.scores) {
      const tr = body.insertRow(), name = tr.insertCell(), sw = document.createElement("span");
      sw.className = "sw"; sw.style.background = rgb(S.colours[r.colour] || [150, 150, 150]);
      name.append(sw, `${r.name} (${r.seat === seat ? "you" : r.agent})`);
      const sc = tr.insertCell(); sc.className = "score"; sc.textContent = String(r.total);
    }
    const hand = $("hand");
    hand.replaceChildren();
    const mine = seat !== null && m.hands[seat] ? m.hands[seat] : [];
    if (chosen && !mine.includes(chosen)) chosen = null;
    if (placement && !mine.includes(placement.die)) placement = null;
    for (const id of mine) {
      const b = document.createElement("button");
      b.type = "button"; b.textContent = id.replace(/^[a-z]+/, ""); b.dataset.die = id;
      b.style.background = rgb(dieColour(id)); b.title = `${id}: tap it, then tap a JAM zone`;
      b.setAttribute("aria-pressed", String(chosen === id));
      b.addEventListener("click", () => { chosen = chosen === id ? null : id; placement = null; refreshTools(); });
      hand.append(b);
    }
    const box = $("setups");
    box.replaceChildren();
    const choices = seat !== null && m.setting_up === seat ? m.setups : [];
    if (corner && !choices.some((u) => u.corner === corner.corner)) corner = null;
    for (const u of choices) {
      const b = document.createElement("button");
      b.type = "button"; b.dataset.corner = u.corner;
      b.addEventListener("click", () => {
        if (!myTurn()) return;
        // the first tap shows the dice there, the second sets them up
        if (corner && corner.corner === u.corner) { corner = null; sendMove(u.action); } else corner = u;
        refreshTools();
      });
      box.append(b);
    }
    refreshTools();
  }
  function refreshTools() {
    for (const b of $("setups").children) {
      const picked = corner !== null && corner.corner === b.dataset.corner;
      b.textContent = picked ? `Set up in ${b.dataset.corner}` : b.dataset.corner;
      b.setAttribute("aria-pressed", String(picked));
    }
    for (const b of $("hand").children) b.setAttribute("aria-pressed", String(chosen === b.dataset.die));
    const turn = myTurn();
    app.dataset.turn = turn ? "mine" : "other";
    $("pass").disabled = !turn;
    const playing = seat !== null && !result;
    $("hand").hidden = !playing;
    const settingUp = view !== null && view.setting_up !== null && view.setting_up !== undefined;
    $("height-row").hidden = !playing || settingUp;
    $("pass").hidden = !playing || settingUp;
    if (result && app.dataset.state === "over") { showEnd(); return; }
    if (!view) return;
    const who = view.to_move === null ? "" : S.names[view.to_move] || `seat ${view.to_move}`;
    let text = `Round ${view.round} of ${view.rounds} (${view.mode[0].toUpperCase()}${view.mode.slice(1)})`;
    if (view.over) text += " · match over";
    else if (turn && view.setting_up === seat) text += corner ? " · tap again to set up there" : " · your turn: choose your corner";
    else if (turn) text += placement ? " · your turn: drag back from the die and release" : (chosen ? " · tap a JAM zone to place it" : " · your turn: pick a die, or drag back from one on the board");
    else if (sent && sent.at === view.at) text += " · your move went to the host";
    else if (who) text += ` · ${who} to move`;
    if (seat === null) text += " · you watch";
    $("status").textContent = text;
  }
  function showEnd() {
    app.dataset.state = "over";
    for (const id of ["hand", "height-row", "pass", "setups"]) $(id).hidden = true;
    const w = Array.isArray(result.winner) ? result.winner.filter(isInt).map((s) => S.names[s] || `seat ${s}`) : [];
    $("status").textContent = `Match over${w.length ? ": " + w.join(" and ") + (w.length > 1 ? " win" : " wins") : ""}`;
    $("pass").disabled = true;
  }
  function note(text) { $("note").textContent = text; if (app.dataset.state === "lobby") $("lobby-note").textContent = text; }
  function logLine(text) {
    const li = document.createElement("li"); li.textContent = text; // text only: nothing from the wire is markup
    const log = $("log"); log.append(li);
    while (log.children.length > 200) log.firstChild.remove();
    log.scrollTop = log.scrollHeight;
  }
  setInterval(refreshTools, 200);
  // back from the background (no frames were drawn meanwhile): the last shot only, every view
  document.addEventListener("visibilitychange", () => {
    if (document.hidden) return;
    const last = queue.map((q) => q.type).lastIndexOf("shot");
    queue = queue.filter((q, k) => q.type !== "shot" || k === last);
  });

  // ---- the gesture: the window's drag (jamsumo_sim/ui/gesture.py) ---------------------------------
  const wrap = (a) => Math.atan2(Math.sin(a), Math.cos(a));
  const clamp = (v, lo, hi) => Math.max(lo, Math.min(hi, v));
  function faceNormal(angle, direction) {
    const rear = direction + Math.PI - angle;
    const k = ((Math.round(rear / (Math.PI / 2)) % 4) + 4) % 4;
    return wrap(angle + k * Math.PI / 2);
  }
  function flickOf(a) {
    const dx = a.press[0] - a.current[0], dy = a.press[1] - a.current[1], pull = Math.hypot(dx, dy);
    if (pull < G.pull_min) return null;
    const power = Math.min(1, Math.pow(pull / G.pull_full, G.power_curve));
    const direction = Math.atan2(dy, dx);
    const tangent = faceNormal(a.die.angle, direction) - Math.PI / 2;
    const px = a.press[0] - a.die.x, py = a.press[1] - a.die.y;
    const offset = clamp((px * Math.cos(tangent) + py * Math.sin(tangent)) / S.die_size, -0.5, 0.5);
    const speed = power * P.max_launch_speed;
    // the power sets the finger's speed (as the window: a centred strike launches at ``speed``)
    const finger = speed / (1 + P.finger_restitution);
    return { die: a.die.id, direction: wrap(direction), offset, height: Number($("height").value), power, speed, finger };
  }
  const fmt = (v, d) => { const t = v.toFixed(d).replace(/\.?0+$/, ""); return t === "" || t === "-0" ? "0" : t; };
  function actionOf(f, pl) {
    const args = { die: f.die, direction: f.direction, finger_speed: f.finger, offset: f.offset, height: f.height };
    const what = `dir ${fmt(f.direction * 180 / Math.PI, 1)}° finger ${fmt(f.finger, 3)} m/s off ${fmt(f.offset, 2)} h ${fmt(f.height, 2)}`;
    if (!pl) return { name: `flick ${f.die} ${what}`, args };
    Object.assign(args, { place: pl.zone, px: pl.x, py: pl.y, pangle: 0 });
    return { name: `place ${f.die} on ${pl.zone} at (${fmt(pl.x * 1000, 1)}, ${fmt(pl.y * 1000, 1)}) mm and flick ${what}`, args };
  }
  function sendMove(action) {
    const now = performance.now();
    sent = { at: view.at, action, time: now, released: now };
    send("move", { at: view.at, action });
    send("aim", { at: view.at }); aiming = false;
    note("");
    refreshTools();
  }
  $("pass").addEventListener("click", () => { if (myTurn()) { aim = null; placement = null; sendMove({ name: "pass" }); } });

  function toWorld(clientX, clientY) {
    const r = canvas.getBoundingClientRect();
    return [(clientX - r.left - ox) / scale, (oy - (clientY - r.top)) / scale];
  }
  function containsDie(d, x, y, slack) {
    const dx = x - d.x, dy = y - d.y, c = Math.cos(d.angle), s = Math.sin(d.angle);
    const lx = c * dx + s * dy, ly = -s * dx + c * dy, half = S.die_size * (0.5 + slack);
    return Math.abs(lx) <= half && Math.abs(ly) <= half;
  }
  function zoneAt(x, y) {
    for (const [name, zx, zy, w, d] of S.board.platforms) if (Math.abs(x - zx) <= w / 2 && Math.abs(y - zy) <= d / 2) return name;
    return null;
  }
  function down(clientX, clientY) {
    if (!myTurn()) return;
    const [x, y] = toWorld(clientX, clientY);
    if (placement) {
      const spot = { id: placement.die, x: placement.x, y: placement.y, angle: 0 };
      if (containsDie(spot, x, y, G.grab_slack)) { aim = { die: spot, press: [x, y], current: [x, y], placement }; return; }
    }
    let best = null;
    for (const d of restingDice()) {
      if (!d.id.startsWith(S.seat_colours[seat]) || !containsDie(d, x, y, G.grab_slack)) continue;
      const dist = Math.hypot(x - d.x, y - d.y);
      if (!best || dist < best[0]) best = [dist, d];
    }
    if (best) { aim = { die: best[1], press: [x, y], current: [x, y], placement: null }; return; }
    const zone = zoneAt(x, y);
    const die = chosen || (placement && placement.die);
    if (zone && die) { placement = { die, zone, x, y }; chosen = null; refreshTools(); return; }
    if (chosen) note("Drop the die on a JAM zone to bring it into play.");
  }
  function move(clientX, clientY) {
    if (!aim) return;
    aim.current = toWorld(clientX, clientY);
    const now = performance.now(), f = flickOf(aim);
    if (f && now - lastAim >= AIM_MS) { lastAim = now; aiming = true; send("aim", { at: view.at, die: f.die, direction: f.direction, speed: f.speed }); }
  }
  function up(clientX, clientY) {
    if (!aim) return;
    aim.current = toWorld(clientX, clientY);
    const a = aim; aim = null;
    const f = flickOf(a);
    if (!f || !myTurn()) {
      if (aiming) { send("aim", { at: view.at }); aiming = false; }
      note("Drag back from the die, then release: the push goes the other way.");
      return;
    }
    if (a.placement) placement = null;
    sendMove(actionOf(f, a.placement));
  }
  const opts = { passive: false };
  canvas.addEventListener("touchstart", (e) => { e.preventDefault(); const t = e.changedTouches[0]; down(t.clientX, t.clientY); }, opts);
  canvas.addEventListener("touchmove", (e) => { e.preventDefault(); const t = e.changedTouches[0]; move(t.clientX, t.clientY); }, opts);
  canvas.addEventListener("touchend", (e) => { e.preventDefault(); const t = e.changedTouches[0]; up(t.clientX, t.clientY); }, opts);
  canvas.addEventListener("touchcancel", () => { aim = null; }, opts);
  canvas.addEventListener("mousedown", (e) => { if (e.button === 0) down(e.clientX, e.clientY); });
  window.addEventListener("mousemove", (e) => move(e.clientX, e.clientY));
  window.addEventListener("mouseup", (e) => { if (e.button === 0) up(e.clientX, e.clientY); });
  canvas.addEventListener("wheel", (e) => {
    // as the window's wheel: up raises the strike point
    if (seat === null) return;
    e.preventDefault();
    const h = $("height");
    h.value = String(clamp(Number(h.value) - Math.sign(e.deltaY) * G.height_step, 0, 1));
    h.dispatchEvent(new Event("input"));
  }, opts);
  $("height").addEventListener("input", () => { $("height-value").textContent = Number($("height").value).toFixed(2); });
  document.addEventListener("keydown", (e) => { if (e.key === "Escape") { aim = null; placement = null; chosen = null; refreshTools(); } });
  $("chat-form").addEventListener("submit", (e) => {
    e.preventDefault();
    const text = $("chat").value.trim().slice(0, 300);
    if (text && welcomed) { send("chat", { text }); $("chat").value = ""; }
  });

  // ---- for tests and tools: where a die is on the screen, what was measured ----------------------
  window.jamsumoWeb = {
    stats,
    view: () => view,
    flickOf: (die, press, current, height) => { $("height").value = String(height); return flickOf({ die, press, current }); },
    screenOf: (x, y) => { const r = canvas.getBoundingClientRect(); return [r.left + X(x), r.top + Y(y)]; },
    play: (m) => { checkShot(m); m._arrived = performance.now(); queue.push(m); },
  };

  resize();
  requestAnimationFrame(frame);
  const kept = recall();
  if (kept) { token = kept.token; recalled = true; seat = kept.seat; match = kept.match; $("lobby-note").textContent = "rejoining your seat…"; connect(); }
})();
