// The browser seat of `card-games host GAME --web` (docs/network.md, "Play from a browser").
// It speaks protocol 2 exactly as `card-games join` does (hello, move, sync, chat, bye) and gets the
// same messages: its seat's observation (drawn here as HTML, whatever the game), its log lines, its
// legal moves (offered as buttons). It never decides a rule: it offers the host's own list of legal
// moves, and the host checks the one sent as it checks any client's.
(function () {
  "use strict";
  const S = JSON.parse(document.getElementById("scene").textContent);
  const $ = (id) => document.getElementById(id);
  const app = $("app");
  const V = 2, HEARTBEAT_MS = 150, RESEND_MS = 500, HELLO_MS = 1000;
  const RECONNECT_MS = 250, RECONNECT_FOR_MS = 60000;
  const FILTER_FROM = 9; // this many legal moves or more: a filter box above the buttons
  const MAX_DEPTH = 8, MAX_LOG = 300;
  const KEY = "card-games-seat:" + location.host;
  const H = S.hints, LABELS = S.labels || {};

  // ---- connection state ---------------------------------------------------------------------
  let ws = null, token = null, seat = null, spectate = false, welcomed = false, recalled = false;
  let have = 0, early = new Map(), helloFields = null, helloAt = 0, lostAt = null, match = null;
  let at = -1, obs = null, turn = null, sent = null, result = null, fatal = null, shownTurn = null;

  // ---- checking what the host sends (as the Python client does: a bad message ends it) ---------
  const isInt = (v) => Number.isInteger(v);
  const isStr = (v, n) => typeof v === "string" && v.length <= (n || 400);
  const isObj = (v) => v !== null && typeof v === "object" && !Array.isArray(v);
  const intOrNull = (v) => v === null || v === undefined || isInt(v);
  const lines = (v) => Array.isArray(v) && v.every((l) => isStr(l, 2000));
  function need(ok) { if (!ok) throw new TypeError("shape"); }
  function checkStream(m) {
    switch (m.type) {
      case "start": need(isStr(m.game, 40) && intOrNull(m.seat) && isInt(m.at) && isObj(m.obs) && lines(m.log || [])); break;
      case "update": need(isInt(m.at) && isObj(m.obs) && lines(m.log || [])); break;
      case "turn":
        need(isInt(m.at) && Array.isArray(m.legal) && m.legal.length > 0);
        for (const a of m.legal) need(isObj(a) && isStr(a.name, 2000));
        break;
      case "presence": need(Array.isArray(m.connected) && m.connected.every(isInt) && isInt(m.spectators)); break;
      case "chat": need(isStr(m.sender, 60) && isStr(m.text, 400)); break;
      case "end": need(isObj(m.result)); break;
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
      let m;
      try { m = JSON.parse(e.data); } catch (err) { return; } // not from a match host
      if (!m || typeof m !== "object" || fatal) return;
      try { receive(m); } catch (err) { stop(`the host sent a malformed ${String(m.type).slice(0, 30)} message`); }
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
    const f = { have, name: $("name").value.slice(0, 40) };
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

  function receive(m) {
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
    if (kind === "aim" || kind === "rest") return; // JamSumo only
    const n = m.n;
    if (!isInt(n) || n < have) return; // a duplicate
    checkStream(m);
    early.set(n, m);
    while (early.has(have) && !fatal) {
      const cur = early.get(have); early.delete(have); have += 1;
      process(cur);
    }
    render();
  }

  function refused(code, text) {
    if (code === "seat" && recalled && !welcomed) { forget(); token = null; recalled = false; showLobby("your old seat is gone: join again"); if (ws) ws.close(1000); return; }
    if (["password", "seat", "full", "version", "hello", "wait", "view"].includes(code) && !welcomed) {
      showLobby(`the host refused: ${text}`); token = null; fatal = "refused"; if (ws) ws.close(1000); return;
    }
    if (code === "illegal") { sent = null; note(`Not allowed: ${text}`); render(); return; }
    if (code === "chat-rate" || code === "rate") note(text);
    // "stale" and "turn" answer a move sent twice: play has moved on
  }

  function process(m) {
    switch (m.type) {
      case "start":
        seat = m.seat === undefined ? null : m.seat; obs = m.obs; at = m.at; turn = null; sent = null;
        $("log").replaceChildren(); // a fresh start carries the recent lines again
        for (const l of m.log || []) logLine(l);
        break;
      case "update":
        obs = m.obs; at = m.at;
        if (sent && sent.at < at) sent = null;
        for (const l of m.log || []) logLine(l);
        break;
      case "turn": turn = { at: m.at, legal: m.legal }; break;
      case "presence":
        $("presence").textContent = `connected: ${m.connected.length ? "seats " + m.connected.join(", ") : "none"}; ${m.spectators} watching`;
        break;
      case "chat": logLine(`[${m.sender}] ${m.text}`); break;
      case "end": result = m.result; send("bye"); forget(); break;
      default: break;
    }
  }

  setInterval(() => {
    if (!ws || ws.readyState !== 1 || fatal || result) return;
    const now = performance.now();
    if (!welcomed) { if (helloFields && now - helloAt >= HELLO_MS) { helloAt = now; send("hello", helloFields); } return; }
    send("sync", { have, gap: early.size > 0 });
    if (sent && sent.at === at && now - sent.time > RESEND_MS) { sent.time = now; send("move", { at: sent.at, action: sent.action }); }
  }, HEARTBEAT_MS);

  // ---- lobby ------------------------------------------------------------------------------------
  function showLobby(text) {
    app.dataset.state = "lobby"; $("lobby").hidden = false; $("game").hidden = true;
    $("lobby-note").textContent = text || "";
  }
  function showGame() {
    $("lobby").hidden = true; $("game").hidden = false;
    if (!result) app.dataset.state = "playing";
    app.dataset.seat = String(seat);
    render();
  }
  function start(watch) {
    spectate = watch; fatal = null; token = null;
    $("lobby-note").textContent = "joining…";
    connect();
  }
  $("join").addEventListener("click", () => start(false));
  $("watch").addEventListener("click", () => start(true));
  $("pw-row").hidden = !S.password;

  // ---- any observation as HTML (text only: nothing from the wire is markup) --------------------
  const label = (text) => (Object.prototype.hasOwnProperty.call(LABELS, text) ? LABELS[text] : text);
  const human = (key) => String(key).replace(/_/g, " ");
  const isScalar = (v) => v === null || typeof v !== "object";
  // a record's field shown in one table cell: a value, a list of values, or a small count table
  const isFlat = (v) => isScalar(v) || ((Array.isArray(v) || isObj(v)) && Object.values(v).every(isScalar));
  function el(tag, cls, text) {
    const e = document.createElement(tag);
    if (cls) e.className = cls;
    if (text !== undefined) e.textContent = text;
    return e;
  }
  function scalarText(v) {
    if (v === null || v === undefined) return "—";
    if (typeof v === "boolean") return v ? "yes" : "no";
    return typeof v === "string" ? label(v) : String(v);
  }
  function flatText(v) {
    if (Array.isArray(v)) return v.length ? v.map(scalarText).join(", ") : "—";
    if (isObj(v)) { const e = Object.entries(v); return e.length ? e.map(([k, x]) => `${label(k)} ${scalarText(x)}`).join(", ") : "—"; }
    return scalarText(v);
  }
  // a list laid out in rows of the observation's own width (a Jumble Jam batch of 3 × 3 places)
  function gridNode(v, width) {
    const box = el("div", "grid");
    box.style.gridTemplateColumns = `repeat(${width}, minmax(0, max-content))`;
    for (const x of v) box.append(el("span", "chip", scalarText(x)));
    return box;
  }
  function valueNode(v, depth) {
    if (depth > MAX_DEPTH) return el("span", "none", "…");
    if (isScalar(v)) return el("span", v === null ? "none" : "", scalarText(v));
    if (Array.isArray(v)) {
      if (!v.length) return el("span", "none", "none");
      if (v.every(isScalar)) {
        const box = el("div", "chips");
        for (const x of v) box.append(el("span", "chip", scalarText(x)));
        return box;
      }
      if (v.every((x) => isObj(x) && Object.values(x).every(isFlat))) return recordTable(v);
      const list = el("ol", "items");
      for (const x of v) { const li = el("li"); li.append(valueNode(x, depth + 1)); list.append(li); }
      return list;
    }
    const keys = Object.keys(v);
    if (!keys.length) return el("span", "none", "none");
    const dl = el("dl");
    for (const k of keys) {
      const dd = el("dd"); dd.append(valueNode(v[k], depth + 1));
      dl.append(el("dt", "", human(k)), dd);
    }
    return dl;
  }
  // a list of flat records (a seat's cards on the table, orders, declarations): one row each
  function recordTable(rows) {
    const keys = [...new Set(rows.flatMap((r) => Object.keys(r)))];
    const table = el("table", "records"), head = el("tr");
    for (const k of keys) head.append(el("th", "", human(k)));
    table.append(head);
    for (const r of rows) {
      const tr = el("tr");
      for (const k of keys) tr.append(el("td", "", k in r ? flatText(r[k]) : ""));
      table.append(tr);
    }
    const wrap = el("div", "scroll");
    wrap.append(table);
    return wrap;
  }
  const perSeat = (k, v) => Array.isArray(v) && v.length === S.players && !H.shared.includes(k);
  function movers() {
    const out = new Set();
    if (!obs || obs.over) return out;
    for (const k of H.mover) {
      const v = obs[k];
      if (isInt(v)) out.add(v);
      else if (Array.isArray(v)) for (const s of v) if (isInt(s)) out.add(s);
    }
    return out;
  }
  const seatName = (s) => `seat ${s}${S.seats[s] && S.seats[s] !== "remote" ? " (" + S.seats[s] + ")" : ""}${s === seat ? " — you" : ""}`;

  function drawHand() {
    const box = $("hand"); box.replaceChildren();
    let any = false;
    if (obs && seat !== null) {
      for (const k of H.hand) {
        if (!(k in obs) || obs[k] === null) continue;
        any = true;
        if (H.hand.length > 1) box.append(el("h3", "", human(k)));
        box.append(valueNode(obs[k], 0));
      }
    }
    $("hand-box").hidden = !any;
  }
  function drawTable() {
    const dl = el("dl");
    if (obs) {
      for (const [k, v] of Object.entries(obs)) {
        if (H.hidden.includes(k) || (seat !== null && H.hand.includes(k)) || perSeat(k, v)) continue;
        if (v === null || v === "" || (isObj(v) && !Object.keys(v).length)) continue;
        const width = H.grid_width.length ? obs[H.grid_width[0]] : null;
        const grid = H.grid.includes(k) && Array.isArray(v) && v.every(isScalar) && isInt(width) && width > 0 && width <= 16;
        const dd = el("dd"); dd.append(grid ? gridNode(v, width) : valueNode(v, 1));
        dl.append(el("dt", "", human(k)), dd);
      }
    }
    $("table").replaceChildren(dl);
  }
  function drawPlayers() {
    const box = $("players"); box.replaceChildren();
    const moving = movers();
    const scores = result && Array.isArray(result.scores) ? result.scores : null;
    const won = result && Array.isArray(result.winner) ? result.winner : [];
    for (let s = 0; s < S.players; s++) {
      const card = el("div", "seat" + (s === seat ? " me" : "") + (moving.has(s) ? " moving" : ""));
      card.dataset.seat = String(s);
      card.append(el("h3", "", seatName(s) + (won.includes(s) ? " — wins" : "")));
      const dl = el("dl");
      if (scores && s < scores.length) dl.append(el("dt", "", "score"), el("dd", "", scalarText(scores[s])));
      if (obs) {
        for (const [k, v] of Object.entries(obs)) {
          if (H.hidden.includes(k) || !perSeat(k, v)) continue;
          const dd = el("dd"); dd.append(valueNode(v[s], 1));
          dl.append(el("dt", "", human(k)), dd);
        }
      }
      card.append(dl);
      box.append(card);
    }
  }
  function drawMoves(mine) {
    const key = mine ? `${turn.at}:${turn.legal.length}` : null;
    if (key === shownTurn) { for (const b of $("moves").children) b.disabled = !mine; return; }
    shownTurn = key;
    const box = $("moves"); box.replaceChildren();
    $("filter").value = "";
    $("moves-box").hidden = !mine;
    if (!mine) return;
    turn.legal.forEach((a, i) => {
      const b = el("button", "", a.name); b.type = "button"; b.dataset.index = String(i);
      b.addEventListener("click", () => choose(i));
      box.append(b);
    });
    $("filter").hidden = turn.legal.length < FILTER_FROM;
  }
  function statusText(mine) {
    if (result) {
      const w = Array.isArray(result.winner) ? result.winner.filter(isInt) : [];
      if (w.length === 1) return `Game over: seat ${w[0]} wins`;
      return w.length ? `Game over: seats ${w.slice(0, -1).join(", ")} and ${w.at(-1)} win` : "Game over";
    }
    if (mine) return "Your move";
    if (sent && sent.at === at) return "Move sent…";
    const m = [...movers()].filter((s) => s !== seat);
    const who = m.length ? `waiting for ${m.map((s) => `seat ${s}`).join(", ")}` : "waiting";
    return seat === null ? `You watch · ${who}` : who;
  }
  function render() {
    const mine = !result && seat !== null && turn !== null && turn.at === at && !(sent && sent.at === at);
    app.dataset.at = String(at);
    app.dataset.turn = mine ? "mine" : sent && sent.at === at ? "sent" : "wait";
    if (result) app.dataset.state = "over";
    $("status").textContent = statusText(mine);
    drawMoves(mine);
    drawHand();
    drawTable();
    drawPlayers();
    $("result-box").hidden = !result;
    if (result) {
      const shown = Object.fromEntries(Object.entries(result).filter(([k]) => !["game", "players", "scores", "winner"].includes(k)));
      $("result").replaceChildren(valueNode(shown, 0));
    }
  }

  function choose(i) {
    if (app.dataset.turn !== "mine") return;
    const action = turn.legal[i];
    sent = { at, action, time: performance.now() };
    note("");
    send("move", { at, action });
    render();
  }

  function note(text) { $("note").textContent = text; if (app.dataset.state === "lobby") $("lobby-note").textContent = text; }
  function logLine(text) {
    const li = el("li", "", text);
    const log = $("log"); log.append(li);
    while (log.children.length > MAX_LOG) log.firstChild.remove();
    log.scrollTop = log.scrollHeight;
  }
  $("filter").addEventListener("input", () => {
    const words = $("filter").value.toLowerCase().split(/\s+/).filter(Boolean);
    for (const b of $("moves").children) b.hidden = !words.every((w) => b.textContent.toLowerCase().includes(w));
  });
  $("chat-form").addEventListener("submit", (e) => {
    e.preventDefault();
    const text = $("chat").value.trim().slice(0, 300);
    if (text && welcomed) { send("chat", { text }); $("chat").value = ""; }
  });

  // ---- for tests and tools ------------------------------------------------------------------------
  // ``send`` sends any move, as a tampered page could: the host must refuse what is not legal
  window.cardsWeb = {
    obs: () => obs, legal: () => (turn ? turn.legal : null), at: () => at, result: () => result,
    send: (action) => { sent = { at, action, time: performance.now() }; send("move", { at, action }); render(); },
  };

  const kept = recall();
  if (kept) { token = kept.token; recalled = true; seat = kept.seat; match = kept.match; $("lobby-note").textContent = "rejoining your seat…"; connect(); }
})();
