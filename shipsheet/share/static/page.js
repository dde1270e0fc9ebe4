/* ShipSheet Table Link: the player's page (see shipsheet/share/PROTOCOL.md).
 *
 * Plain script, no framework, nothing loaded from elsewhere. Every text from the server
 * goes in with textContent or as an attribute value, never as markup. The sheet SVG is
 * parsed, cleaned and imported into the page (so it uses the page's font), with one real
 * <button> per hit area laid over it. */
(function () {
  "use strict";

  var SVG_NS = "http://www.w3.org/2000/svg";
  var INVALID = "This link is no longer valid. Ask the referee for a new one.";
  var CLOSED = "The referee has closed this seat.";
  var LONG_PRESS_MS = 500;
  var MOVE_SLOP = 10;
  var BACKOFF_MIN = 500;
  var BACKOFF_MAX = 5000;
  var ASK_AGAIN_MS = 2000;   // a device waiting for the referee's yes asks again this often
  var PING_MS = 5000;        // how often the live connection is timed
  var BEHIND_MS = 1500;      // a round trip longer than this is shown ("Behind by 2 s")

  var base = seatBase();
  var app = {
    view: null,            // the last view the server sent
    viewSeq: 0,            // request number of the view shown (older answers are dropped)
    seq: 0,
    syncedAt: null,        // when the view shown was received
    selected: null,        // ship id shown when there are several
    stopped: false,
    conn: "connecting",
    ws: null,
    wsEverOpened: false,
    wsBackoff: BACKOFF_MIN,
    wsTimer: 0,
    stateBusy: false,
    stateAgain: false,
    stateTimer: 0,
    stateDelay: BACKOFF_MIN,
    pending: null,         // the one request not answered yet: {json, body, inFlight, onOk}
    retryTimer: 0,
    retryDelay: BACKOFF_MIN,
    ships: new Map(),      // ship id -> its section's parts
    menu: null,
    menuDownOnBackdrop: false,
    toastTimer: 0,
    toastToken: 0,
    uid: 0,
    pickerSig: null,       // what the ship tabs, the seat list and the log were drawn from
    seatsSig: null,
    joinsSig: null,
    logSig: null,
    pingTimer: 0,
    pingSent: null,        // the page's clock when the unanswered ping went, else null
    lag: 0                 // the last round trip of the live connection (ms)
  };

  function $(id) { return document.getElementById(id); }

  function el(tag, className, text) {
    var node = document.createElement(tag);
    if (className) node.className = className;
    if (text !== undefined && text !== null) node.textContent = String(text);
    return node;
  }

  function seatBase() {
    var m = /^(\/s\/[^/]+\/)/.exec(location.pathname);
    if (m) return m[1];
    var p = location.pathname;
    return p.charAt(p.length - 1) === "/" ? p : p + "/";
  }

  function api(path, init) {
    var opts = { credentials: "same-origin", cache: "no-store" };
    if (init) for (var k in init) opts[k] = init[k];
    return fetch(base + path, opts);
  }

  function postJson(path, body) {
    return api(path, {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: typeof body === "string" ? body : JSON.stringify(body)
    });
  }

  function readJson(resp) {
    return resp.json().then(function (d) {
      return d && typeof d === "object" ? d : null;
    }, function () { return null; });
  }

  function sleep(ms) { return new Promise(function (r) { setTimeout(r, ms); }); }

  /* Calls ``fn`` after the delay kept in app[delayKey], which doubles (up to BACKOFF_MAX)
     for the next time; one call waits at a time, its timer in app[timerKey]. */
  function later(timerKey, delayKey, fn) {
    if (app.stopped || app[timerKey]) return;
    var delay = app[delayKey];
    app[delayKey] = Math.min(delay * 2, BACKOFF_MAX);
    app[timerKey] = setTimeout(function () { app[timerKey] = 0; fn(); }, delay);
  }

  /* A request id: 18 random bytes, url-safe base64 (24 characters). */
  function newId() {
    var bytes = new Uint8Array(18);
    crypto.getRandomValues(bytes);
    var s = "";
    for (var i = 0; i < bytes.length; i++) s += String.fromCharCode(bytes[i]);
    return btoa(s).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
  }

  function pad2(n) { return (n < 10 ? "0" : "") + n; }
  function clock(d) { return pad2(d.getHours()) + ":" + pad2(d.getMinutes()) + ":" + pad2(d.getSeconds()); }

  /* ---------------------------------------------------------------- messages */

  function say(text, kind) {
    var t = $("toast");
    var token = ++app.toastToken;
    clearTimeout(app.toastTimer);
    t.dataset.kind = kind || "info";
    // Emptied first, so the same words said twice are announced twice.
    t.textContent = "";
    t.classList.add("show");
    setTimeout(function () {
      if (token !== app.toastToken) return;
      t.textContent = String(text);
      app.toastTimer = setTimeout(function () {
        if (token === app.toastToken) t.classList.remove("show");
      }, kind === "error" ? 9000 : 5000);
    }, 30);
  }

  function fail(text) {
    app.stopped = true;
    clearTimeout(app.wsTimer);
    clearTimeout(app.retryTimer);
    clearTimeout(app.stateTimer);
    app.pending = null;
    forgetSeat();  // what this tab kept for a seat it may no longer use
    document.body.classList.remove("busy");
    if (app.ws) {
      var ws = app.ws;
      app.ws = null;
      try { ws.close(); } catch (e) { /* already closed */ }
    }
    closeMenu(false);
    $("undo-row").hidden = true;
    $("referee").hidden = true;
    var notice = $("notice");
    notice.textContent = text;
    notice.hidden = false;
    $("main").hidden = true;
    setConn("closed");
  }

  /* -------------------------------------------------------------- connection */

  function setConn(state) {
    app.conn = state;
    var c = $("conn");
    c.dataset.state = state;
    c.textContent = {
      live: "Live", connecting: "Connecting…", reconnecting: "Reconnecting…", closed: "Closed"
    }[state] || state;
    var behind = $("behind");
    if (state === "reconnecting" && app.view && app.syncedAt) {
      behind.textContent = "Behind — showing turn " + app.view.session.turn +
        " as of " + clock(app.syncedAt);
      behind.hidden = false;
    } else {
      behind.textContent = "";
      behind.hidden = true;
    }
  }

  function connect() {
    if (app.stopped || app.ws) return;
    clearTimeout(app.wsTimer);
    app.wsTimer = 0;
    var url = (location.protocol === "https:" ? "wss:" : "ws:") + "//" + location.host + base + "api/ws";
    var ws;
    try {
      ws = new WebSocket(url);
    } catch (e) {
      scheduleReconnect();
      return;
    }
    app.ws = ws;
    ws.onopen = function () {
      if (app.ws !== ws) return;
      app.wsEverOpened = true;
      app.wsBackoff = BACKOFF_MIN;
      setConn("live");
      startPings(ws);
      refreshState();  // whatever changed while not listening
      retryPending();
    };
    ws.onmessage = function (ev) {
      if (app.ws !== ws) return;
      var msg;
      try { msg = JSON.parse(ev.data); } catch (e) { return; }
      if (!msg || typeof msg !== "object") return;
      if (msg.type === "changed") refreshState();
      else if (msg.type === "pong") pong(msg.t);
      else if (msg.type === "revoked") fail(CLOSED);
    };
    ws.onerror = function () { /* a close follows */ };
    ws.onclose = function () {
      if (app.ws !== ws) return;
      app.ws = null;
      stopPings();
      if (app.stopped) return;
      setConn("reconnecting");
      scheduleReconnect();
    };
  }

  function scheduleReconnect() { later("wsTimer", "wsBackoff", connect); }

  /* How far behind the table this page is: the live connection is timed every PING_MS
     (the server answers a ping at once); a round trip over BEHIND_MS, or a ping not
     answered that long, is shown under the top row ("Behind by 2 s"). From home, over a
     tunnel, a slow link is worth knowing about before a tap seems lost. */
  function startPings(ws) {
    stopPings();
    app.pingTimer = setInterval(function () {
      if (app.ws !== ws || ws.readyState !== WebSocket.OPEN) return;
      var now = performance.now();
      if (app.pingSent !== null) {  // the last one is not answered yet: that long behind
        showLag(now - app.pingSent);
        return;
      }
      app.pingSent = now;
      try { ws.send(JSON.stringify({ type: "ping", t: now })); } catch (e) { /* closing */ }
    }, PING_MS);
  }

  function stopPings() {
    clearInterval(app.pingTimer);
    app.pingTimer = 0;
    app.pingSent = null;
  }

  function pong(t) {
    if (typeof t !== "number" || app.pingSent === null || t !== app.pingSent) return;
    app.pingSent = null;
    showLag(performance.now() - t);
  }

  function showLag(ms) {
    app.lag = ms;
    if (app.conn !== "live") return;  // reconnecting says so itself
    var behind = $("behind");
    if (ms > BEHIND_MS) {
      behind.textContent = "Behind by " + Math.max(1, Math.round(ms / 1000)) + " s — the connection to the table is slow";
      behind.hidden = false;
    } else {
      behind.textContent = "";
      behind.hidden = true;
    }
  }

  function wakeUp() {
    if (app.stopped || !app.view) return;
    refreshState();
    if (!app.ws) {
      app.wsBackoff = BACKOFF_MIN;
      clearTimeout(app.wsTimer);
      app.wsTimer = 0;
      connect();
    }
    retryPending();
  }

  /* ------------------------------------------------------------ pair, state */

  function fragmentSecret() {
    var h = location.hash.replace(/^#/, "");
    if (!h) return null;
    var params = new URLSearchParams(h);
    return params.has("k") ? params.get("k") : null;
  }

  function dropFragment() {
    try {
      history.replaceState(history.state, "", location.pathname + location.search);
    } catch (e) {
      location.hash = "";
    }
  }

  /* Trades the link's secret for this device's cookie. Where the referee lets new devices
     in (a table reached from outside the room), the server answers 202: the page says it
     waits, and asks again every ASK_AGAIN_MS with the question's id until the referee
     answers (200: in; 403: turned away; 410: the question lapsed). */
  async function pair(secret) {
    var delay = BACKOFF_MIN;
    var join = null;
    for (;;) {
      var r = null, d = null;
      var body = { secret: secret };
      if (join) body.join = join;
      try {
        r = await postJson("api/pair", body);
        d = await readJson(r);
      } catch (e) { r = null; }
      if (r && r.status === 202 && d && d.waiting && typeof d.join === "string") {
        join = d.join;
        waitForReferee(typeof d.message === "string" ? d.message : "Waiting for the referee…");
        await sleep(ASK_AGAIN_MS);
        continue;
      }
      if (r && r.ok) { waitForReferee(null); return true; }
      if (r && (r.status === 401 || r.status === 403)) {
        // Turned away by the referee (it waited): their words; else the link is not valid.
        fail((join && d && typeof d.error === "string" && d.error) || INVALID);
        return false;
      }
      if (r && r.status < 500 && r.status !== 429) {
        fail((d && d.error) || ("This device could not be paired (HTTP " + r.status + ")."));
        return false;
      }
      setConn("reconnecting");
      await sleep(delay);
      delay = Math.min(delay * 2, BACKOFF_MAX);
    }
  }

  /* The words shown while this device waits for the referee's yes (null: no longer). */
  function waitForReferee(text) {
    var notice = $("notice");
    notice.textContent = text || "";
    notice.hidden = !text;
    notice.classList.toggle("waiting", !!text);
    $("main").hidden = !!text;
    if (text) {
      var c = $("conn");
      c.dataset.state = "waiting";
      c.textContent = "Waiting…";
    }
  }

  function retryStateLater() { later("stateTimer", "stateDelay", refreshState); }

  async function refreshState() {
    if (app.stopped) return;
    if (app.stateBusy) { app.stateAgain = true; return; }
    app.stateBusy = true;
    try {
      do {
        app.stateAgain = false;
        var seq = ++app.seq;
        var r = null, d = null;
        try {
          r = await api("api/state");
          d = await readJson(r);
        } catch (e) { r = null; }
        if (app.stopped) return;
        if (!r) {
          if (app.conn === "live" || app.conn === "connecting") setConn("reconnecting");
          retryStateLater();
          return;
        }
        if (r.status === 401 || r.status === 403) { fail(INVALID); return; }
        if (!r.ok || !d || !d.session) {
          if (r.status >= 500 || r.status === 429) retryStateLater();
          else say((d && d.error) || ("The referee's app answered HTTP " + r.status + "."), "error");
          return;
        }
        app.stateDelay = BACKOFF_MIN;
        if (app.ws && app.ws.readyState === WebSocket.OPEN && app.conn !== "live") setConn("live");
        if (!(await withBoxes(d))) retryStateLater();
        applyView(d, seq);
      } while (app.stateAgain && !app.stopped);
    } finally {
      app.stateBusy = false;
    }
  }

  /* A ship's boxes are not in the view but at an address of their own, one per revision
     (ship.boxes): fetched once, kept by address while the view names it, so a look after
     one ship changed fetches that ship's boxes alone. A view without the address carries
     its boxes (ship.areas). Only the ship shown is fetched (its boxes, forms and drawing):
     a seat that sees many ships (the referee's, a spectator's) would otherwise fetch every
     ship's at every change of any; the others' stay as the view names them until a tab
     shows them (selectShip), their areas and forms null meanwhile unless kept at this
     revision. True when the ship shown has its boxes; if they could not be fetched it
     keeps the ones it had, and the view is asked for again later. */
  var boxesKept = new Map();

  /* The fetches of kept lists under way, by address: a tap's answer and the push that
     follows it name the same revision, and the second look waits for the first's fetch
     instead of asking again. */
  var boxesFetching = new Map();

  /* A list kept by its address (a ship's boxes or forms at one revision): fetched once;
     ``fallback`` when it cannot be, and then ``missed.any`` is set. */
  async function keptList(url, fallback, missed) {
    var list = boxesKept.get(url);
    if (list) return list;
    var fetching = boxesFetching.get(url);
    if (!fetching) {
      fetching = (async function () {
        try {
          var r = await fetch(url, { credentials: "same-origin" });
          if (!r.ok) throw new Error("HTTP " + r.status);
          var got = await r.json();
          if (!Array.isArray(got)) throw new Error("not a list");
          boxesKept.set(url, got);
          return got;
        } catch (e) {
          return null;
        } finally {
          boxesFetching.delete(url);
        }
      })();
      boxesFetching.set(url, fetching);
    }
    list = await fetching;
    if (list) return list;
    missed.any = true;
    return Array.isArray(fallback) ? fallback : [];
  }

  /* The ship a view shows: the one shown before while the view has it, else the one
     picked before a reload, else the seat's own first, else the first. */
  function shownShip(ships) {
    if (ships.some(function (sh) { return sh.id === app.selected; })) return app.selected;
    var mine = ships.filter(function (sh) { return sh.mine; })[0];
    var kept = keptShip();
    return ships.some(function (sh) { return sh.id === kept; }) ? kept : (mine || ships[0] || {}).id || null;
  }

  async function withBoxes(view) {
    var ships = view && Array.isArray(view.ships) ? view.ships : [];
    var had = new Map();
    ((app.view && app.view.ships) || []).forEach(function (s) { had.set(s.id, s); });
    var shown = shownShip(ships);
    var missed = { any: false };
    await Promise.all(ships.map(async function (ship) {
      var before = had.get(ship.id) || {};
      var fetchIt = ship.id === shown;
      if (typeof ship.forms === "string") {  // its forms at an address per revision too
        ship.formsUrl = ship.forms;
        ship.forms = fetchIt ? await keptList(ship.formsUrl, before.forms, missed)
          : boxesKept.get(ship.formsUrl) || null;
      }
      if (typeof ship.boxes === "string") {
        ship.areas = fetchIt ? await keptList(ship.boxes, before.areas, missed)
          : boxesKept.get(ship.boxes) || null;
      }
    }));
    var named = new Set(ships.map(function (s) { return s.boxes; }).concat(
      ships.map(function (s) { return s.formsUrl; })));
    Array.from(boxesKept.keys()).forEach(function (url) { if (!named.has(url)) boxesKept.delete(url); });
    return !missed.any;
  }

  function applyView(view, seq) {
    if (!view || !view.session || seq < app.viewSeq) return;
    app.viewSeq = seq;
    app.view = view;
    app.syncedAt = new Date();
    render();
  }

  /* ---------------------------------------------------------------- requests */

  /* A request about one ship at the revision drawn. ``onFail(error, status, queued)`` is
     told of a refusal; a tap's or a menu entry's own says on the ship what was not applied
     (boxRefused). True when it was sent. */
  function sendAct(ship, fields, onOk, onFail) {
    if (!ship) return false;
    return sendRequest({ ship: ship.id, rev: ship.rev }, fields, onOk,
                       onFail || boxRefused(ship, fields));
  }

  /* One request (PROTOCOL.md, Requests): ``target`` is the ship and its revision, or {}
     for a request about the whole session (the referee's undo, phase and new links). */
  function sendRequest(target, fields, onOk, onFail) {
    if (app.stopped || !app.view || stillSending()) return false;
    var body = { id: newId(), epoch: app.view.epoch };
    var k;
    for (k in target) body[k] = target[k];
    for (k in fields) body[k] = fields[k];
    // The same text is sent again after a failure: the server applies an id once.
    app.pending = { json: JSON.stringify(body), inFlight: false, onOk: onOk || null,
                    onFail: onFail || null, told: false, ship: target.ship || null,
                    form: fields.kind === "decide" ? fields.form : null };
    app.retryDelay = BACKOFF_MIN;
    document.body.classList.add("busy");
    postPending();
    return true;
  }

  /* The form of that ship is being sent (drawn again only once it is answered). */
  function sendingForm(shipId, kind) {
    var p = app.pending;
    return !!p && p.ship === shipId && p.form === kind;
  }

  /* A tap or a menu entry, in words, and what is said on its ship when it is refused
     after waiting for the connection (queued while it was down, or over a restart of the
     referee's app) or because the sheet changed meanwhile: "Not applied: tap on …",
     kept on the sheet until dismissed (a toast alone may be missed). */
  function boxRefused(ship, fields) {
    if (fields.kind !== "tap" && fields.kind !== "menu") return null;
    var parts = app.ships.get(ship.id);
    var area = parts ? areaOf(parts, fields.key) : null;
    var what = shortLabel(area && area.label, fields.key);
    if (fields.kind === "menu") {
      var entries = area && Array.isArray(area.menu) ? area.menu : [];
      var entry = entries.filter(function (m, i) {
        return (typeof m.index === "number" ? m.index : i) === fields.index;
      })[0];
      what = "“" + ((entry && entry.label) || "menu entry") + "” on " + what;
    } else {
      what = "tap on " + what;
    }
    return function (error, status, queued) {
      if (!queued && status !== 409) return;  // said at once, to a player looking at it
      var now = app.ships.get(ship.id);
      if (now) shipNote(now, "Not applied: " + what + " — " + error);
    };
  }

  /* A box's name from its label: the first line, up to its first ": ". */
  function shortLabel(label, key) {
    var text = String(label || "").split("\n")[0];
    var colon = text.indexOf(": ");
    if (colon > 0) text = text.slice(0, colon);
    text = text.trim();
    if (text.length > 60) text = text.slice(0, 59) + "…";
    return text || String(key);
  }

  /* One request at a time: true, and the player told, while the last is not answered. */
  function stillSending() {
    if (!app.pending) return false;
    say("Still sending your last change…", "info");
    return true;
  }

  function retryPending() {
    var p = app.pending;
    if (!p || p.inFlight || app.stopped) return;
    clearTimeout(app.retryTimer);
    app.retryTimer = 0;
    postPending();
  }

  async function postPending() {
    var p = app.pending;
    if (!p || p.inFlight || app.stopped) return;
    p.inFlight = true;
    var seq = ++app.seq;
    var r = null, d = null;
    try {
      r = await postJson("api/act", p.json);
      d = await readJson(r);
    } catch (e) { r = null; }
    p.inFlight = false;
    if (app.pending !== p || app.stopped) return;
    if (!r || (!d && (r.status >= 500 || r.status === 429))) {
      // Not answered: the same request again after a pause or as soon as we reconnect.
      if (!p.told) {
        p.told = true;
        say("Not sent yet — it will be sent again when the connection is back.", "info");
      }
      later("retryTimer", "retryDelay", postPending);
      return;
    }
    app.pending = null;
    document.body.classList.remove("busy");
    if (r.status === 401) { fail(INVALID); return; }
    if (d && d.ok && p.onOk) p.onOk(d);
    if (d && d.state) {
      if (!(await withBoxes(d.state))) retryStateLater();
      applyView(d.state, seq);
    }
    if (d && d.ok) {
      say(d.message || "Done.", "ok");
    } else {
      var error = (d && d.error) || ("The referee's app refused (HTTP " + r.status + ").");
      say(error, "error");
      // Never dropped in silence: shown where it was asked (after the sheet it refers to).
      if (p.onFail && !app.stopped) p.onFail(error, r.status, p.told);
    }
  }

  /* ------------------------------------------------------------------ render */

  function render() {
    var v = app.view;
    var s = v.session || {};
    var seat = v.seat || {};
    $("session-title").textContent = s.title || "ShipSheet";
    $("game").textContent = s.game_title || s.game || "";
    $("turn").textContent = "Turn " + s.turn + (s.phase ? " · " + s.phase : "");
    // On the header's menu button: the phase, and under it the turn and the connection.
    $("turn-short").textContent = s.phase || "Turn " + s.turn;
    $("turn-number").textContent = s.phase ? "Turn " + s.turn + " · " : "";
    $("seat-name").textContent = seat.name || "";
    var role = seat.role && seat.role !== "player" ? " (" + seat.role + ")" : "";
    $("seat-role").textContent = role;
    document.title = (seat.name ? seat.name + " · " : "") + (s.title || "ShipSheet");
    $("loading").hidden = true;
    setConn(app.conn);

    var ships = Array.isArray(v.ships) ? v.ships : [];
    app.selected = shownShip(ships);
    var rights = Array.isArray(seat.rights) ? seat.rights : [];
    renderUndo(v, rights);
    renderReferee(v, rights);
    renderRecovered(v);
    renderPicker(ships);
    renderShips(ships);
    $("no-ships").hidden = ships.length > 0;
    renderLog(Array.isArray(v.log) ? v.log : []);
  }

  /* The referee's seat may take back the last step (whoever made it), as the window's
     Edit ▸ Undo does; the button names it. */
  function renderUndo(v, rights) {
    var row = $("undo-row");
    var button = $("undo");
    row.hidden = rights.indexOf("undo") < 0;
    if (row.hidden) return;
    var name = typeof v.undo === "string" && v.undo ? v.undo : null;
    button.textContent = name ? "Undo " + name : "Nothing to undo";
    button.disabled = !name;
  }

  /* The referee's seat (the admin right) steps the phase or the turn, as the window's
     buttons do, and gives another seat a new link (its phones are closed out). */
  function renderReferee(v, rights) {
    var section = $("referee");
    var list = $("seat-list");
    section.hidden = rights.indexOf("admin") < 0;
    renderJoins(section.hidden ? [] : (Array.isArray(v.seats) ? v.seats : []));
    var seats = section.hidden ? [] : (Array.isArray(v.seats) ? v.seats : []).filter(function (s) {
      return s && typeof s === "object" && !s.self;
    });
    // Drawn again only when it changed (most views change other things).
    var sig = section.hidden ? "" : JSON.stringify(seats);
    if (sig === app.seatsSig) return;
    app.seatsSig = sig;
    if (section.hidden) { list.textContent = ""; return; }
    $("seats-summary").textContent = "Seats (" + seats.length + ")";
    var focused = list.contains(document.activeElement) ? document.activeElement.dataset.seat : null;
    list.textContent = "";
    if (!seats.length) {
      list.appendChild(el("li", "quiet", "No other seats."));
      return;
    }
    seats.forEach(function (seat) {
      var li = el("li", "seat");
      li.dataset.seat = String(seat.id);
      var about = el("div", "seat-about");
      about.appendChild(el("strong", "seat-name", seat.name || "Seat"));
      var phones = Number(seat.connected) || 0;
      about.appendChild(el("span", "seat-meta",
        (seat.role || "") + " · " + phones + (phones === 1 ? " phone" : " phones") +
        (seat.locked === true ? " · joining locked" : "")));
      li.appendChild(about);
      var button = el("button", "new-link", "New Link");
      button.type = "button";
      button.dataset.seat = String(seat.id);
      button.setAttribute("aria-label", "New Link for " + (seat.name || "this seat"));
      li.appendChild(button);
      list.appendChild(li);
      if (focused === button.dataset.seat) button.focus();
    });
  }

  /* Devices waiting for the referee's yes and seats whose joining locked, at the top of the
     referee's page (not in the menu: a player at home is waiting on it): "A new device wants
     Blue's seat — allow?" with where it asks from and what it says it is. */
  function renderJoins(seats) {
    var box = $("joins");
    var items = [];
    seats.forEach(function (seat) {
      if (!seat || typeof seat !== "object") return;
      var name = seat.self ? "your" : (String(seat.name || "a") + "'s");
      (Array.isArray(seat.waiting) ? seat.waiting : []).forEach(function (w) {
        if (w && typeof w.join === "string") items.push({ kind: "join", id: w.join, name: name,
          device: String(w.device || "an unknown browser"), from: String(w.from || "") });
      });
      if (seat.locked === true) items.push({ kind: "locked", id: String(seat.id), name: name });
    });
    var sig = JSON.stringify(items);
    if (sig === app.joinsSig) return;
    app.joinsSig = sig;
    box.textContent = "";
    box.hidden = !items.length;
    items.forEach(function (item) {
      var row = el("div", "join");
      var words = el("p", "join-words");
      if (item.kind === "join") {
        words.appendChild(el("strong", null, "A new device wants " + item.name + " seat — allow?"));
        words.appendChild(el("span", "join-meta", item.device + (item.from ? ", from " + item.from : "")));
        row.appendChild(words);
        [["Allow", true], ["Refuse", false]].forEach(function (b) {
          var button = el("button", b[1] ? "join-allow" : "join-refuse", b[0]);
          button.type = "button";
          button.dataset.join = item.id;
          button.dataset.allow = b[1] ? "1" : "";
          row.appendChild(button);
        });
      } else {
        words.appendChild(el("strong", null, "Joining " + item.name + " seat is locked"));
        words.appendChild(el("span", "join-meta", "after too many wrong links; its phones go on"));
        row.appendChild(words);
        var open = el("button", "join-open", "Open Joining");
        open.type = "button";
        open.dataset.open = item.id;
        row.appendChild(open);
      }
      box.appendChild(row);
    });
  }

  async function answerJoin(body) {
    if (app.stopped) return;
    var r = null, d = null;
    try {
      r = await postJson("api/joins", body);
      d = await readJson(r);
    } catch (e) { r = null; }
    if (!r) { say("Not sent: no connection to the table.", "error"); return; }
    if (r.status === 401) { fail(INVALID); return; }
    say((d && (d.message || d.error)) || ("The referee's app answered HTTP " + r.status + "."),
        r.ok ? "ok" : "error");
    refreshState();
  }

  function stepPhase(step) {
    if (!app.view || app.stopped || stillSending()) return;
    if (step === "turn" &&
        !window.confirm("Run through the rest of turn " + app.view.session.turn + "?")) return;
    sendRequest({}, { kind: "phase", step: step });
  }

  function newLink(seatId) {
    if (!app.view || app.stopped || stillSending()) return;
    var seat = (app.view.seats || []).filter(function (s) { return s && s.id === seatId; })[0];
    if (!seat) return;
    if (!window.confirm("Give " + (seat.name || "this seat") + " a new link? Their phones are closed out.")) return;
    sendRequest({}, { kind: "revoke", seat: seat.id }, showNewLink);
  }

  /* The new link a revoke answered with (its QR code as rows of "1" and "0"): shown at
     once on the referee's phone, to show or send to the player. */
  function showNewLink(d) {
    var link = d && d.link;
    if (!link || typeof link.url !== "string") return;
    $("new-link-title").textContent = "New link for " + (link.name || "the seat");
    $("new-link-url").textContent = link.url;
    var box = $("new-link-qr");
    while (box.firstChild) box.removeChild(box.firstChild);
    var rows = Array.isArray(link.qr) ? link.qr.filter(function (r) {
      return typeof r === "string" && /^[01]+$/.test(r);
    }) : [];
    if (rows.length && rows.length <= 200) {
      var NS = "http://www.w3.org/2000/svg", quiet = 4, n = rows.length + 2 * quiet;
      var svg = document.createElementNS(NS, "svg");
      svg.setAttribute("viewBox", "0 0 " + n + " " + n);
      svg.setAttribute("role", "img");
      svg.setAttribute("aria-label", "QR code of the new link");
      svg.setAttribute("class", "qr");
      var back = document.createElementNS(NS, "rect");
      back.setAttribute("width", n);
      back.setAttribute("height", n);
      back.setAttribute("class", "qr-back");
      svg.appendChild(back);
      var path = "";
      rows.forEach(function (row, y) {
        for (var x = 0; x < row.length; x++) {
          if (row.charAt(x) === "1") path += "M" + (x + quiet) + " " + (y + quiet) + "h1v1h-1z";
        }
      });
      var dark = document.createElementNS(NS, "path");
      dark.setAttribute("d", path);
      dark.setAttribute("class", "qr-dark");
      svg.appendChild(dark);
      box.appendChild(svg);
    }
    $("more").open = false;  // the header's menu would take the panel's taps for its own
    $("new-link").hidden = false;
    $("new-link-close").focus();
  }

  function closeNewLink() {
    $("new-link").hidden = true;
    $("new-link-url").textContent = "";
    var box = $("new-link-qr");
    while (box.firstChild) box.removeChild(box.firstChild);
  }

  function copyNewLink() {
    var text = $("new-link-url").textContent;
    if (navigator.clipboard && text) {
      navigator.clipboard.writeText(text).then(function () { say("Link copied.", "ok"); },
        function () { say("Could not copy: select the link and copy it.", "error"); });
    }
  }

  /* Words from the referee's app for every phone (a recovery after a crash): shown until
     the player says OK, once per start of the referee's app (its epoch). */
  function renderRecovered(v) {
    var text = typeof v.notice === "string" ? v.notice : "";
    var key = "shipsheet.recovered." + (v.epoch || "");
    var seen = false;
    try { seen = window.sessionStorage.getItem(key) === "1"; } catch (e) { seen = false; }
    $("recovered-text").textContent = text;
    $("recovered").hidden = !text || seen || app.recoveredSeen === v.epoch;
  }

  function dismissRecovered() {
    var epoch = app.view && app.view.epoch;
    app.recoveredSeen = epoch;
    try { window.sessionStorage.setItem("shipsheet.recovered." + epoch, "1"); } catch (e) { /* private mode */ }
    $("recovered").hidden = true;
  }

  function renderPicker(ships) {
    var sig = JSON.stringify([app.selected, ships.map(function (s) { return [s.id, s.name]; })]);
    if (sig === app.pickerSig) return;  // as drawn (most views change other things)
    app.pickerSig = sig;
    var picker = $("picker");
    var focusedId = picker.contains(document.activeElement) ? document.activeElement.dataset.ship : null;
    picker.textContent = "";
    // The header names the ship shown: its tab among several, or its name alone.
    var current = ships.filter(function (s) { return s.id === app.selected; })[0];
    var now = $("ship-now");
    now.textContent = current ? current.name || "" : "";
    now.hidden = !current || ships.length > 1;
    picker.hidden = ships.length < 2;
    if (ships.length < 2) return;
    ships.forEach(function (ship, i) {
      var tab = el("button", "tab", ship.name || ("Ship " + (i + 1)));
      tab.type = "button";
      tab.id = "tab-" + i;
      tab.dataset.ship = ship.id;
      tab.setAttribute("role", "tab");
      var on = ship.id === app.selected;
      tab.setAttribute("aria-selected", on ? "true" : "false");
      tab.tabIndex = on ? 0 : -1;
      picker.appendChild(tab);
      if (focusedId === ship.id) tab.focus();
    });
    showTab(picker);
  }

  /* The selected tab scrolled into the header's row (the row scrolls sideways). */
  function showTab(picker) {
    var tab = picker.querySelector('[aria-selected="true"]');
    if (!tab) return;
    var left = tab.offsetLeft - picker.offsetLeft;
    if (left < picker.scrollLeft) picker.scrollLeft = left;
    else if (left + tab.offsetWidth > picker.scrollLeft + picker.clientWidth) {
      picker.scrollLeft = left + tab.offsetWidth - picker.clientWidth;
    }
  }

  /* How far down each ship's sheet was read: switching back to a ship returns there. */
  var shipScrolls = new Map();

  function selectShip(id, focus) {
    var changed = app.selected !== id;
    if (changed && app.selected) shipScrolls.set(app.selected, window.scrollY);
    app.selected = id;
    keepShip(id);
    renderPicker(app.view.ships);
    var ships = app.view.ships;
    app.ships.forEach(function (parts, shipId) {
      parts.section.hidden = ships.length > 1 && shipId !== id;
    });
    // Its sheet as the view has it: drawn and boxed now if they were kept at this
    // revision, else a look fetches them (withBoxes fetches the ship shown).
    var index = ships.findIndex(function (s) { return s.id === id; });
    if (index >= 0 && app.ships.has(id)) {
      updateShip(app.ships.get(id), ships[index], index, ships.length);
      if (!Array.isArray(ships[index].areas)) refreshState();
    }
    if (changed) window.scrollTo(0, shipScrolls.get(id) || 0);
    if (focus) {
      var tab = $("picker").querySelector('[aria-selected="true"]');
      if (tab) tab.focus();
    }
  }

  function renderShips(ships) {
    var box = $("ships");
    var seen = new Set();
    ships.forEach(function (ship, i) {
      seen.add(ship.id);
      var parts = app.ships.get(ship.id);
      if (!parts) {
        parts = makeShip();
        app.ships.set(ship.id, parts);
      }
      // Moved only when out of place (moving a section would take the focus away).
      if (box.children[i] !== parts.section) box.insertBefore(parts.section, box.children[i] || null);
      updateShip(parts, ship, i, ships.length);
    });
    app.ships.forEach(function (parts, id) {
      if (!seen.has(id)) { parts.section.remove(); app.ships.delete(id); }
    });
  }

  function makeShip() {
    var parts = { ship: null, svg: null, svgUrl: null, loadingUrl: null, areasSig: null,
                  waiting: false, forms: new Map(), press: null, suppressClick: false };
    parts.section = el("section", "ship");
    var head = el("div", "ship-head");
    parts.name = el("h2", "ship-name");
    parts.meta = el("p", "ship-meta");
    parts.zoom = el("button", "zoom", "Zoom in");
    parts.zoom.type = "button";
    parts.zoom.setAttribute("aria-pressed", "false");
    var titles = el("div", "ship-titles");
    titles.appendChild(parts.name);
    titles.appendChild(parts.meta);
    head.appendChild(titles);
    head.appendChild(parts.zoom);
    parts.frame = el("div", "sheet-frame");
    parts.sheet = el("div", "sheet");
    parts.areas = el("div", "areas");
    parts.sheet.appendChild(parts.areas);
    parts.frame.appendChild(parts.sheet);
    parts.status = el("p", "sheet-status quiet", "Loading the sheet…");
    parts.formsBox = el("div", "forms");
    parts.section.appendChild(head);
    parts.section.appendChild(parts.frame);
    parts.section.appendChild(parts.status);
    parts.section.appendChild(parts.formsBox);

    parts.zoom.addEventListener("click", function () {
      var on = !parts.frame.classList.contains("zoomed");
      parts.frame.classList.toggle("zoomed", on);
      parts.zoom.setAttribute("aria-pressed", on ? "true" : "false");
      parts.zoom.textContent = on ? "Fit width" : "Zoom in";
    });
    bindAreas(parts);
    return parts;
  }

  function updateShip(parts, ship, index, count) {
    parts.ship = ship;
    var sectionId = "ship-" + index;
    parts.section.id = sectionId;
    parts.section.hidden = count > 1 && ship.id !== app.selected;
    if (count > 1) {
      parts.section.setAttribute("role", "tabpanel");
      parts.section.setAttribute("aria-labelledby", "tab-" + index);
    } else {
      parts.section.removeAttribute("role");
      parts.section.removeAttribute("aria-labelledby");
    }
    parts.name.textContent = ship.name || "";
    var meta = [ship["class"], ship.side].filter(function (x) { return x; });
    if (ship.mine === false) meta.push("view only");
    parts.meta.textContent = meta.join(" · ");

    var w = Number(ship.width) || 1, h = Number(ship.height) || 1;
    parts.sheet.style.aspectRatio = w + " / " + h;
    // A hidden ship's sheet, boxes and forms wait until its tab shows it (selectShip).
    if (parts.section.hidden) return;
    if (!Array.isArray(ship.areas)) {  // not fetched at this revision: the look brings them
      if (parts.areasSig !== null) {
        parts.areasSig = null;
        buildAreas(parts, [], w, h);  // no box of an older drawing is tapped meanwhile
      }
      parts.formsBox.hidden = true;  // nor is a form of an older revision sent
      parts.status.textContent = "Loading the sheet…";
      parts.waiting = true;
      return;
    }
    if (parts.waiting) {  // its boxes came: the drawing's own load says how it goes
      parts.waiting = false;
      parts.formsBox.hidden = false;
      if (ship.svg === parts.svgUrl) parts.status.textContent = "";
    }
    if (typeof ship.svg === "string" && ship.svg !== parts.svgUrl && ship.svg !== parts.loadingUrl) {
      loadSvg(parts, ship.svg, w, h, ship.name || "");
    }
    var sig = JSON.stringify([ship.areas, w, h]);
    if (sig !== parts.areasSig) {
      parts.areasSig = sig;
      buildAreas(parts, ship.areas || [], w, h);
    }
    renderForms(parts, ship);
  }

  /* -------------------------------------------------------------------- sheet */

  async function loadSvg(parts, url, w, h, name) {
    parts.loadingUrl = url;
    if (!parts.svg) parts.status.textContent = "Loading the sheet…";
    try {
      var r = await fetch(url, { credentials: "same-origin" });
      if (!r.ok) throw new Error("HTTP " + r.status);
      var text = await r.text();
      if (parts.loadingUrl !== url) return;  // a newer sheet is on its way
      var svg = importSvg(text, w, h, name);
      if (parts.svg && parts.svg.parentNode) parts.svg.replaceWith(svg);
      else parts.sheet.insertBefore(svg, parts.areas);
      parts.svg = svg;
      parts.svgUrl = url;
      parts.status.textContent = "";
    } catch (e) {
      if (parts.loadingUrl === url) {
        parts.status.textContent = "The sheet could not be loaded; it is tried again with the next change.";
      }
    } finally {
      if (parts.loadingUrl === url) parts.loadingUrl = null;
    }
  }

  var DROP = { script: 1, foreignobject: 1, style: 1, iframe: 1, object: 1, embed: 1, audio: 1,
               video: 1, canvas: 1, handler: 1, listener: 1, set: 1, animate: 1,
               animatemotion: 1, animatetransform: 1, animatecolor: 1, title: 1, desc: 1,
               metadata: 1 };

  /* Style and event attributes renamed before parsing: the parsed document lives under the
     page's CSP, which would refuse them (and say so in the console). */
  function defuse(text) {
    return text.replace(/<[A-Za-z][^>]*>/g, function (tag) {
      return tag.replace(/(\s)(style|on[\w.-]*)(\s*=)/gi, "$1data-sheet-$2$3");
    });
  }

  function importSvg(text, w, h, name) {
    var doc = new DOMParser().parseFromString(defuse(text), "image/svg+xml");
    var root = doc.documentElement;
    if (!root || root.namespaceURI !== SVG_NS || root.localName !== "svg" ||
        doc.getElementsByTagName("parsererror").length) {
      throw new Error("not an SVG");
    }
    var styles = [];
    var all = [root].concat(Array.prototype.slice.call(root.getElementsByTagName("*")));
    all.forEach(function (node) {
      if (node !== root && DROP[node.localName.toLowerCase()]) { node.remove(); return; }
      Array.prototype.slice.call(node.attributes).forEach(function (attr) {
        var n = attr.name.toLowerCase(), v = attr.value;
        if (n.indexOf("on") === 0 || n.indexOf("data-sheet-on") === 0) {
          node.removeAttributeNode(attr);
          return;
        }
        if (n === "href" || n === "xlink:href" || attr.localName === "href") {
          var ok = v.charAt(0) === "#" ||
                   (node.localName === "image" && /^data:image\/(png|jpeg|gif|webp);/i.test(v));
          if (!ok) node.removeAttributeNode(attr);
          return;
        }
        if (/url\(\s*['"]?\s*(?!#)/i.test(v) || /javascript:/i.test(v)) {
          node.removeAttributeNode(attr);
          return;
        }
        if (n === "style" || n === "data-sheet-style") {
          // Applied through the CSSOM once imported (the CSP refuses style attributes).
          node.removeAttributeNode(attr);
          node.setAttribute("data-sheet-css", String(styles.length));
          styles.push(v);
        }
      });
    });
    if (!root.getAttribute("viewBox")) root.setAttribute("viewBox", "0 0 " + w + " " + h);
    root.removeAttribute("width");
    root.removeAttribute("height");
    var svg = document.importNode(root, true);
    Array.prototype.slice.call(svg.querySelectorAll("[data-sheet-css]")).forEach(function (node) {
      var css = styles[Number(node.getAttribute("data-sheet-css"))] || "";
      node.removeAttribute("data-sheet-css");
      if (!/url\(|expression|javascript:/i.test(css)) node.style.cssText = css;
    });
    svg.setAttribute("class", "sheet-svg");
    svg.setAttribute("role", "img");
    svg.setAttribute("aria-label", "Sheet of " + name);
    svg.setAttribute("focusable", "false");
    return svg;
  }

  function buildAreas(parts, areas, w, h) {
    var active = document.activeElement;
    var focusedKey = active && parts.areas.contains(active) ? active.dataset.key : null;
    parts.areas.textContent = "";
    areas.forEach(function (a) {
      var b = document.createElement("button");
      b.type = "button";
      b.className = "area";
      b.setAttribute("aria-label", String(a.label || a.key));
      b.dataset.key = a.key;
      if (!a.tap) b.setAttribute("aria-disabled", "true");
      if (Array.isArray(a.menu) && a.menu.length) b.setAttribute("aria-haspopup", "dialog");
      b.style.left = (100 * a.x / w) + "%";
      b.style.top = (100 * a.y / h) + "%";
      b.style.width = (100 * a.w / w) + "%";
      b.style.height = (100 * a.h / h) + "%";
      parts.areas.appendChild(b);
      if (focusedKey !== null && focusedKey === a.key) b.focus({ preventScroll: true });
    });
  }

  function areaOf(parts, key) {
    var areas = (parts.ship && parts.ship.areas) || [];
    for (var i = 0; i < areas.length; i++) if (areas[i].key === key) return areas[i];
    return null;
  }

  function bindAreas(parts) {
    var box = parts.areas;
    function target(ev) {
      var t = ev.target;
      return t && t.closest ? t.closest("button.area") : null;
    }
    function cancelPress() {
      if (parts.press) { clearTimeout(parts.press.timer); parts.press = null; }
    }
    box.addEventListener("click", function (ev) {
      var b = target(ev);
      if (!b) return;
      if (parts.suppressClick && ev.detail !== 0) {
        parts.suppressClick = false;
        return;
      }
      var area = areaOf(parts, b.dataset.key);
      if (!area) return;
      if (!area.tap) {
        say(area.refusal || "This seat cannot change that.", "error");
        return;
      }
      sendAct(parts.ship, { kind: "tap", key: area.key });
    });
    box.addEventListener("pointerdown", function (ev) {
      var b = target(ev);
      parts.suppressClick = false;
      cancelPress();
      if (!b || (ev.pointerType === "mouse" && ev.button !== 0)) return;
      var area = areaOf(parts, b.dataset.key);
      if (!area || !Array.isArray(area.menu) || !area.menu.length) return;
      var press = { x: ev.clientX, y: ev.clientY, key: area.key, button: b };
      press.timer = setTimeout(function () {
        if (parts.press !== press) return;
        parts.press = null;
        parts.suppressClick = true;
        var current = areaOf(parts, press.key);
        if (current && current.menu && current.menu.length) openMenu(parts, current, press.button);
      }, LONG_PRESS_MS);
      parts.press = press;
    });
    box.addEventListener("pointermove", function (ev) {
      var p = parts.press;
      if (p && (Math.abs(ev.clientX - p.x) > MOVE_SLOP || Math.abs(ev.clientY - p.y) > MOVE_SLOP)) cancelPress();
    });
    box.addEventListener("pointerup", cancelPress);
    box.addEventListener("pointercancel", cancelPress);
    box.addEventListener("contextmenu", function (ev) {
      var b = target(ev);
      if (!b) return;
      ev.preventDefault();
      cancelPress();
      var area = areaOf(parts, b.dataset.key);
      if (!area || !Array.isArray(area.menu) || !area.menu.length) return;
      parts.suppressClick = true;
      if (app.menu && app.menu.key === area.key && app.menu.parts === parts) return;
      openMenu(parts, area, b);
    });
  }

  /* --------------------------------------------------------------------- menu */

  function openMenu(parts, area, opener) {
    if (app.stopped) return;
    closeMenu(false);
    app.menu = { parts: parts, key: area.key, opener: opener };
    $("menu-title").textContent = area.label || area.key;
    var items = $("menu-items");
    items.textContent = "";
    area.menu.forEach(function (entry, i) {
      var b = el("button", "menu-item", entry.label);
      b.type = "button";
      var index = typeof entry.index === "number" ? entry.index : i;
      b.addEventListener("click", function () {
        closeMenu(true);
        sendAct(parts.ship, { kind: "menu", key: area.key, index: index });
      });
      items.appendChild(b);
    });
    $("toast").classList.remove("show");
    $("menu").hidden = false;
    var first = items.querySelector("button");
    if (first) first.focus();
  }

  function closeMenu(refocus) {
    var m = app.menu;
    app.menu = null;
    $("menu").hidden = true;
    $("menu-items").textContent = "";
    if (refocus && m && m.opener && document.contains(m.opener)) m.opener.focus({ preventScroll: true });
  }

  /* -------------------------------------------------------------------- forms */

  /* A decision being filled is the player's (issue 29). A form is drawn again only when
     its spec changes: a change to another ship, or one that leaves the form as it was,
     leaves it as typed. When what it decides changes, what the player typed stays (where
     the field still is) and the form says in words what changed since they began; when
     a send is refused (stale, or by the rules) the values sent are shown back with the
     reason and Send again. What is typed is kept in the tab (keepFormValues), so a reload
     keeps it; it goes once the form is applied. */
  var formApi = new WeakMap();  // form node -> {read() -> values, write(values) -> names not set}

  function renderForms(parts, ship) {
    var forms = Array.isArray(ship.forms) ? ship.forms : [];
    var keep = new Map();
    var box = parts.formsBox;
    forms.forEach(function (spec, i) {
      var sig = JSON.stringify(spec);
      var entry = parts.forms.get(spec.kind);
      if (!entry) {
        entry = newForm(parts, ship, spec, sig, keptForm(ship.id, spec.kind));
      } else if (entry.reset) {
        entry = replaceForm(entry, newForm(parts, ship, spec, sig, null));  // applied: afresh
      } else if (entry.sig !== sig && !sendingForm(ship.id, spec.kind)) {
        entry = replaceForm(entry, changedForm(parts, ship, entry, spec, sig));
      }
      keep.set(spec.kind, entry);
      if (box.children[i] !== entry.node) box.insertBefore(entry.node, box.children[i] || null);
    });
    parts.forms.forEach(function (entry, kind) {
      if (keep.has(kind)) return;
      entry.node.remove();
      if (entry.reset || sendingForm(ship.id, kind)) return;  // its answer says what became of it
      if (Object.keys(typedValues(entry)).length) {
        shipNote(parts, (entry.spec.title || kind) + " is not open any more (" + (ship.name || "the ship") +
                 " changed): what you typed was not sent.");
      }
      dropKept(formKey(ship.id, kind));
    });
    parts.forms = keep;
    // What was kept of a form that is not open now (say, before a reload) is dropped: it
    // is never filled into the next turn's form.
    keptKeys(shipForms(ship.id)).forEach(function (key) {
      var kind = decodeURIComponent(key.slice(shipForms(ship.id).length));
      if (!keep.has(kind) && !sendingForm(ship.id, kind)) dropKept(key);
    });
  }

  /* A form drawn from its spec; ``saved``: what the tab kept of it (values typed before a
     reload, and a digest of the form they were typed in, with that form when it fit). */
  function newForm(parts, ship, spec, sig, saved) {
    var node = buildForm(parts, spec);
    var api = formApi.get(node);
    var entry = { kind: spec.kind, sig: sig, spec: spec, node: node, api: api, initial: api.read(),
                  base: spec, baseHash: hashText(sig), reset: false, changed: null, problem: null };
    if (saved && saved.v && typeof saved.v === "object") {
      var lost = api.write(saved.v);
      if (typeof saved.h === "string" && saved.h !== entry.baseHash) {
        entry.baseHash = saved.h;
        entry.base = saved.b && typeof saved.b === "object" && Array.isArray(saved.b.fields) ? saved.b : null;
      }
      showChanged(entry, ship, saved.v, lost);
    }
    return entry;
  }

  /* The form again from a spec that changed: the values typed kept where they still fit,
     and what changed since the player began said in words. Nothing typed: drawn afresh. */
  function changedForm(parts, ship, old, spec, sig) {
    var typed = typedValues(old);
    var entry = newForm(parts, ship, spec, sig, null);
    if (!Object.keys(typed).length && !old.problem) {
      dropKept(formKey(ship.id, spec.kind));
      return entry;
    }
    entry.base = old.base;
    entry.baseHash = old.baseHash;
    var lost = entry.api.write(typed);
    showChanged(entry, ship, typed, lost);
    if (old.problem) showProblem(entry, old.problem.firstChild.textContent);
    keepFormValues(ship.id, entry);
    return entry;
  }

  function replaceForm(old, entry) {
    var active = document.activeElement;
    var name = active && old.node.contains(active) ? active.name : null;
    if (old.node.parentNode) old.node.replaceWith(entry.node);
    var input = name ? entry.node.elements.namedItem(name) : null;
    if (input && input.focus) input.focus({ preventScroll: true });
    return entry;
  }

  /* The fields whose value the player changed: {name: value}. */
  function typedValues(entry) {
    var now = entry.api.read(), typed = {};
    Object.keys(now).forEach(function (name) {
      if (JSON.stringify(now[name]) !== JSON.stringify(entry.initial[name])) typed[name] = now[name];
    });
    return typed;
  }

  /* Says in the form what changed since the player began (nothing when it did not):
     "Resolute changed since you began: “Drive die (d10)” is now “Drive die (d8)”; …
     Check and send." ``typed``: the values they typed, ``lost``: the names of those the
     form has no place for now. */
  function showChanged(entry, ship, typed, lost) {
    var words = [];
    function add(w) { if (w && words.indexOf(w) < 0) words.push(w); }
    if (entry.baseHash !== hashText(entry.sig)) {
      if (entry.base) changeWords(entry.base, entry.spec, typed).forEach(add);
      else add("the form is not the one you began");
    }
    (lost || []).forEach(function (name) {
      var was = fieldOf(entry.base, name), now = fieldOf(entry.spec, name);
      var label = (now || was || {}).label || name;
      if (!now) add("“" + label + "” is gone (you had " + valueWords(was, typed[name]) + ")");
      else add(label + ": " + valueWords(was || now, typed[name]) + " is not offered now");
    });
    var note = entry.changed;
    if (!words.length) {
      if (note) { note.remove(); entry.changed = null; }
      return;
    }
    if (!note) {
      note = entry.changed = el("p", "decision-changed");
      note.setAttribute("role", "status");
      var after = entry.node.querySelector(".decision-text") || entry.node.querySelector(".decision-title");
      entry.node.insertBefore(note, after ? after.nextSibling : entry.node.firstChild);
    }
    note.textContent = (ship.name || "The ship") + " changed since you began: " + words.join("; ") +
      ". Check and send.";
  }

  function fieldOf(spec, name) {
    var fields = spec && Array.isArray(spec.fields) ? spec.fields : [];
    for (var i = 0; i < fields.length; i++) if (fields[i] && fields[i].name === name) return fields[i];
    return null;
  }

  function optionLabel(field, value) {
    var options = field && Array.isArray(field.options) ? field.options : [];
    for (var i = 0; i < options.length; i++) {
      if (options[i].value === value) return options[i].label !== undefined ? options[i].label : value;
    }
    return null;
  }

  function valueWords(field, value) {
    if (value === null || value === undefined || value === "") return "nothing";
    if (typeof value === "boolean") return value ? "yes" : "no";
    var label = field && field.type === "choice" ? optionLabel(field, value) : null;
    return "“" + String(label !== null ? label : value) + "”";
  }

  /* What differs between the form the player began (``base``) and the one now, in words. */
  function changeWords(base, spec, typed) {
    var words = [];
    (Array.isArray(spec.fields) ? spec.fields : []).forEach(function (f) {
      var b = fieldOf(base, f.name);
      var label = f.label || f.name;
      if (!b) { words.push("“" + label + "” is new"); return; }
      var was = b.label || b.name;
      if (was !== label) words.push("“" + was + "” is now “" + label + "”");
      if (f.type === "int" && (b.min !== f.min || b.max !== f.max)) {
        words.push(label + ": from " + f.min + " to " + f.max + " now");
      }
      var yours = Object.prototype.hasOwnProperty.call(typed, f.name);
      if (f.type === "choice" && JSON.stringify(b.options) !== JSON.stringify(f.options)) {
        var before = yours ? optionLabel(b, typed[f.name]) : null;
        var after = yours ? optionLabel(f, typed[f.name]) : null;
        if (before !== null && after !== null && before !== after) {
          words.push(label + ": “" + before + "” is now “" + after + "”");
        } else if (!yours || after !== null) {
          words.push(label + ": its choices changed");
        }
      }
      if (JSON.stringify(b.value) !== JSON.stringify(f.value)) {
        words.push(yours ? label + ": the sheet says " + valueWords(f, f.value) + " now; yours, " +
                           valueWords(f, typed[f.name]) + ", is kept"
                         : label + " is " + valueWords(f, f.value) + " now");
      }
    });
    (Array.isArray(base.fields) ? base.fields : []).forEach(function (b) {
      if (b && !fieldOf(spec, b.name)) words.push("“" + (b.label || b.name) + "” is gone");
    });
    // The explanation's sentences that are new (the energy left, the turn).
    var old = sentences(base.text);
    sentences(spec.text).forEach(function (s) {
      if (old.indexOf(s) < 0) words.push(s.replace(/[.!]$/, "").slice(0, 200));
    });
    if (!words.length && JSON.stringify(base) !== JSON.stringify(spec)) words.push("the form changed");
    return words;
  }

  function sentences(text) {
    return String(text || "").split(/(?<=[.!?])\s+/).map(function (s) { return s.trim(); })
      .filter(function (s) { return s; });
  }

  /* A refused send of a form: the values sent shown back in it, with the reason and one
     tap to send them again. A form no longer open says so on its ship. */
  function formRefused(parts, shipId, spec, values, error) {
    if (app.ships.get(shipId) !== parts) return;  // the ship is gone (the toast said why)
    var entry = parts.forms.get(spec.kind);
    if (!entry) {
      shipNote(parts, "Not applied: " + (spec.title || spec.kind) + " — " + error +
               " The form is not open any more.");
      dropKept(formKey(shipId, spec.kind));
      return;
    }
    entry.api.write(values);
    showProblem(entry, "Not applied: " + error + " What you sent is in the form: check it and send again.");
    keepFormValues(shipId, entry);
  }

  function showProblem(entry, text) {
    var box = entry.problem;
    if (!box) {
      box = entry.problem = el("div", "decision-problem");
      box.setAttribute("role", "alert");
      box.appendChild(el("p", "decision-problem-text"));
      var again = el("button", "decision-again", "Send again");
      again.type = "button";
      again.addEventListener("click", function () {
        var form = again.closest("form");
        if (form) form.requestSubmit();
      });
      box.appendChild(again);
      entry.node.insertBefore(box, entry.node.querySelector(".decision-submit"));
    }
    box.firstChild.textContent = text;
  }

  function clearProblem(entry) {
    if (entry && entry.problem) { entry.problem.remove(); entry.problem = null; }
  }

  /* A line on a ship's section, kept until dismissed: a tap or a form not applied. */
  var SHIP_NOTES = 5;

  function shipNote(parts, text) {
    var box = parts.notes;
    if (!box || box.parentNode !== parts.section) {
      box = parts.notes = el("div", "ship-notes");
      // Above the sheet (under the ship's name), where the player looks after a tap.
      var at = parts.frame && parts.frame.parentNode === parts.section ? parts.frame : parts.formsBox;
      parts.section.insertBefore(box, at && at.parentNode === parts.section ? at : null);
    }
    var note = el("div", "ship-note");
    note.setAttribute("role", "alert");
    note.appendChild(el("p", "ship-note-text", text));
    var ok = el("button", "ship-note-dismiss", "OK");
    ok.type = "button";
    ok.setAttribute("aria-label", "Dismiss this note");
    ok.addEventListener("click", function () { note.remove(); });
    note.appendChild(ok);
    box.appendChild(note);
    while (box.children.length > SHIP_NOTES) box.firstChild.remove();
  }

  /* ------------------------------------------------------------ kept in the tab */

  /* What a reload keeps: the ship picked and what the player typed into each form, in
     this tab's sessionStorage under the seat's id (from the page's address), the ship's id
     and the form's kind. Never a secret (the link's is dropped at once, the device's is
     an HttpOnly cookie) and nothing of another seat. A form's entry is its typed values,
     a digest of the form they were typed in and, when it fits, that form (to say what
     changed since); it goes once the form is applied or closes, and everything goes when
     a link is opened here anew or the seat is closed. */
  var KEPT = "shipsheet.";
  var KEPT_ENTRY_MAX = 8000;  // characters of one form's entry (past it, without the form)
  var KEPT_FORMS_MAX = 20;    // forms kept for the seat, the oldest dropped first

  function tabStore() {
    try { return window.sessionStorage; } catch (e) { return null; }
  }

  function seatKey() {
    var m = /^\/s\/([^/]+)\/$/.exec(base);
    return KEPT + (m ? m[1] : "page") + ".";
  }

  function formKey(shipId, kind) { return shipForms(shipId) + keyPart(kind); }

  function shipForms(shipId) { return seatKey() + "form." + keyPart(shipId) + "."; }

  function keyPart(text) { return encodeURIComponent(String(text)).replace(/\./g, "%2E"); }

  function readKept(key) {
    var store = tabStore();
    try {
      var d = store ? JSON.parse(store.getItem(key) || "null") : null;
      return d && typeof d === "object" ? d : null;
    } catch (e) { return null; }
  }

  function writeKept(key, text) {
    var store = tabStore();
    try { if (store) store.setItem(key, text); } catch (e) { /* full or refused: not kept */ }
  }

  function dropKept(key) {
    var store = tabStore();
    try { if (store) store.removeItem(key); } catch (e) { /* refused: nothing kept */ }
  }

  function keptKeys(prefix) {
    var store = tabStore(), out = [];
    try {
      for (var i = 0; store && i < store.length; i++) {
        var k = store.key(i);
        if (k && k.indexOf(prefix) === 0) out.push(k);
      }
    } catch (e) { /* refused: nothing kept */ }
    return out;
  }

  function keptForm(shipId, kind) { return readKept(formKey(shipId, kind)); }

  function keepFormValues(shipId, entry) {
    var key = formKey(shipId, entry.kind);
    var typed = typedValues(entry);
    if (!Object.keys(typed).length) { dropKept(key); return; }
    var kept = { v: typed, h: entry.baseHash, at: Date.now() };
    var text = JSON.stringify({ v: typed, h: entry.baseHash, at: kept.at, b: entry.base });
    if (!entry.base || text.length > KEPT_ENTRY_MAX) text = JSON.stringify(kept);
    if (text.length > KEPT_ENTRY_MAX) { dropKept(key); return; }
    writeKept(key, text);
    var keys = keptKeys(seatKey() + "form.");
    if (keys.length > KEPT_FORMS_MAX) {
      keys.map(function (k) { return [k, (readKept(k) || {}).at || 0]; })
        .sort(function (a, b) { return a[1] - b[1]; })
        .slice(0, keys.length - KEPT_FORMS_MAX)
        .forEach(function (k) { dropKept(k[0]); });
    }
  }

  function keepShip(id) { writeKept(seatKey() + "ship", JSON.stringify({ id: String(id) })); }

  function keptShip() {
    var d = readKept(seatKey() + "ship");
    return d && typeof d.id === "string" ? d.id : null;
  }

  function forgetSeat() { keptKeys(seatKey()).forEach(dropKept); }

  /* FNV-1a (32 bits) of a text: whether a form is still the one the values were typed in. */
  function hashText(text) {
    var h = 0x811c9dc5;
    for (var i = 0; i < text.length; i++) {
      h ^= text.charCodeAt(i);
      h = Math.imul(h, 0x01000193) >>> 0;
    }
    return h.toString(36);
  }

  function buildForm(parts, spec) {
    var form = el("form", "decision");
    form.setAttribute("aria-label", spec.title || spec.kind);
    form.dataset.kind = String(spec.kind);
    form.appendChild(el("h3", "decision-title", spec.title || spec.kind));
    if (spec.text) form.appendChild(el("p", "decision-text", spec.text));
    var readers = [];
    (Array.isArray(spec.fields) ? spec.fields : []).forEach(function (f) {
      var id = "f" + (++app.uid);
      var type = f.type;
      var row = el("div", "field field-" + type);
      var label = el("label", "", f.label || f.name);
      label.htmlFor = id;
      var input;
      if (type === "choice") {
        input = document.createElement("select");
        var options = Array.isArray(f.options) ? f.options : [];
        if (f.optional) {
          // An optional choice may be left empty: a blank first entry, sent as null.
          var blank = el("option", "", "—");
          blank.value = "";
          blank.setAttribute("aria-label", "None");
          input.appendChild(blank);
        }
        var unset = f.value === null || f.value === undefined;
        if (!f.optional && unset && options.length > 1) {
          // A choice the player must make, not made yet: nothing is picked for them. The
          // empty first entry of a required select makes the browser ask before sending.
          var placeholder = el("option", "", "Choose…");
          placeholder.value = "";
          input.appendChild(placeholder);
          input.required = true;
        }
        var chosen = false;
        options.forEach(function (o, i) {
          var opt = el("option", "", o.label !== undefined ? o.label : o.value);
          opt.value = String(i);
          if (!chosen && f.value !== null && f.value !== undefined && o.value === f.value) {
            opt.selected = chosen = true;
          }
          input.appendChild(opt);
        });
        if ((f.optional || input.required) && !chosen) input.selectedIndex = 0;
        readers.push([f.name, function () {
          var opt = input.options[input.selectedIndex];
          if (!opt || opt.value === "") return null;
          var o = options[Number(opt.value)];
          return o ? o.value : null;
        }, function (v) {
          if (v === null || v === undefined) {
            var empty = input.options.length > 0 && input.options[0].value === "";
            if (empty) input.selectedIndex = 0;
            return empty;
          }
          for (var j = 0; j < options.length; j++) {
            if (options[j].value === v) { input.value = String(j); return true; }
          }
          return false;  // not offered (any more)
        }]);
      } else if (type === "int") {
        input = document.createElement("input");
        input.type = "number";
        input.inputMode = "numeric";
        input.step = "1";
        if (typeof f.min === "number") input.min = String(f.min);
        if (typeof f.max === "number") input.max = String(f.max);
        if (f.value !== null && f.value !== undefined) input.value = String(f.value);
        readers.push([f.name, function () {
          var t = input.value.trim();
          if (t === "") return null;
          var n = Number(t);
          return isFinite(n) ? Math.trunc(n) : null;
        }, function (v) {
          if (v === null || v === undefined) { input.value = ""; return true; }
          if (typeof v !== "number" || !isFinite(v)) return false;
          input.value = String(Math.trunc(v));
          return true;
        }]);
      } else if (type === "bool") {
        input = document.createElement("input");
        input.type = "checkbox";
        input.checked = !!f.value;
        readers.push([f.name, function () { return input.checked; }, function (v) {
          if (typeof v !== "boolean") return false;
          input.checked = v;
          return true;
        }]);
      } else {
        input = document.createElement("input");
        input.type = "text";
        if (typeof f.max === "number") input.maxLength = f.max;
        input.value = f.value === null || f.value === undefined ? "" : String(f.value);
        readers.push([f.name, function () { return input.value; }, function (v) {
          if (typeof v !== "string") return false;
          input.value = input.maxLength >= 0 ? v.slice(0, input.maxLength) : v;
          return true;
        }]);
      }
      input.id = id;
      input.name = f.name;
      if (type === "bool") { row.appendChild(input); row.appendChild(label); }
      else { row.appendChild(label); row.appendChild(input); }
      form.appendChild(row);
    });
    var submit = el("button", "decision-submit", spec.submit || "Send");
    submit.type = "submit";
    form.appendChild(submit);
    function read() {
      var values = {};
      readers.forEach(function (r) { values[r[0]] = r[1](); });
      return values;
    }
    formApi.set(form, {
      read: read,
      write: function (values) {  // the names that could not be set (no such field, or option)
        var lost = [];
        Object.keys(values || {}).forEach(function (name) {
          var r = readers.filter(function (x) { return x[0] === name; })[0];
          if (!r || !r[2](values[name])) lost.push(name);
        });
        return lost;
      }
    });
    function mine() {
      var entry = parts.forms.get(spec.kind);
      return entry && entry.node === form ? entry : null;
    }
    function typed() {  // kept in the tab as it is typed (a reload keeps it)
      var entry = mine();
      if (entry && parts.ship) keepFormValues(parts.ship.id, entry);
    }
    form.addEventListener("input", typed);
    form.addEventListener("change", typed);
    form.addEventListener("submit", function (ev) {
      ev.preventDefault();
      if (!form.reportValidity()) return;
      var values = read();
      var ship = parts.ship;
      var sent = sendAct(ship, { kind: "decide", form: spec.kind, values: values }, function () {
        var entry = mine();
        if (entry) entry.reset = true;  // drawn afresh from the answer
        dropKept(formKey(ship.id, spec.kind));
      }, function (error) {
        formRefused(parts, ship.id, spec, values, error);
      });
      if (sent) clearProblem(mine());
    });
    return form;
  }

  /* ---------------------------------------------------------------------- log */

  function renderLog(lines) {
    var sig = JSON.stringify(lines);
    if (sig === app.logSig) return;  // as drawn
    app.logSig = sig;
    var details = $("log");
    details.hidden = false;
    $("log-summary").textContent = "Log (" + lines.length + ")";
    var list = $("log-lines");
    list.textContent = "";
    if (!lines.length) {
      list.appendChild(el("li", "quiet", "Nothing yet."));
      return;
    }
    for (var i = lines.length - 1; i >= 0; i--) {
      var line = lines[i] || {};
      var li = el("li", "log-line log-" + (line.kind || "action"));
      var where = [line.turn === undefined || line.turn === null ? "" : "Turn " + line.turn,
                   line.phase, line.ship].filter(function (x) { return x; }).join(" · ");
      if (where) li.appendChild(el("span", "log-where", where));
      var text = el(line.undone ? "s" : "span", "log-text", line.text || "");
      li.appendChild(text);
      if (line.undone) {
        li.classList.add("undone");
        li.appendChild(el("span", "visually-hidden", " (undone)"));
      }
      list.appendChild(li);
    }
  }

  /* -------------------------------------------------------------------- start */

  /* The header's menu (a <details>): it closes on Escape and on a tap anywhere else. A tap
     on the page then only closes it (it marks no box); one in the header goes on (a tab). */
  function bindMore() {
    var more = $("more");
    document.addEventListener("click", function (ev) {
      if (!more.open || more.contains(ev.target)) return;
      more.open = false;
      if (!(ev.target.closest && ev.target.closest(".top"))) {
        ev.preventDefault();
        ev.stopPropagation();
      }
    }, true);
    document.addEventListener("keydown", function (ev) {
      if (ev.key === "Escape" && more.open && !app.menu) {
        more.open = false;
        $("more-summary").focus();
      }
    });
  }

  function bind() {
    $("picker").addEventListener("click", function (ev) {
      var tab = ev.target.closest ? ev.target.closest("button.tab") : null;
      if (tab) selectShip(tab.dataset.ship, true);
    });
    $("picker").addEventListener("keydown", function (ev) {
      if (ev.key !== "ArrowRight" && ev.key !== "ArrowLeft") return;
      var ships = app.view ? app.view.ships : [];
      var i = ships.findIndex(function (s) { return s.id === app.selected; });
      if (i < 0) return;
      var next = ships[(i + (ev.key === "ArrowRight" ? 1 : ships.length - 1)) % ships.length];
      ev.preventDefault();
      selectShip(next.id, true);
    });
    var menu = $("menu");
    menu.addEventListener("pointerdown", function (ev) { app.menuDownOnBackdrop = ev.target === menu; });
    menu.addEventListener("click", function (ev) {
      if (ev.target === menu && app.menuDownOnBackdrop) closeMenu(true);
      app.menuDownOnBackdrop = false;
    });
    $("menu-cancel").addEventListener("click", function () { closeMenu(true); });
    document.addEventListener("keydown", function (ev) {
      if (ev.key === "Escape" && app.menu) { ev.preventDefault(); closeMenu(true); }
    });
    $("toast").addEventListener("click", function () { $("toast").classList.remove("show"); });
    bindMore();
    $("undo").addEventListener("click", function () {
      if (!app.view || !app.view.undo) return;
      // The step the button names: never one that arrived since it was drawn.
      sendRequest({}, { kind: "undo", undo_step: app.view.undo_step || 0 });
    });
    $("next-phase").addEventListener("click", function () { stepPhase("phase"); });
    $("next-turn").addEventListener("click", function () { stepPhase("turn"); });
    $("joins").addEventListener("click", function (ev) {
      var button = ev.target.closest ? ev.target.closest("button") : null;
      if (!button) return;
      if (button.dataset.join) {
        button.disabled = true;
        answerJoin({ join: button.dataset.join, allow: button.dataset.allow === "1" });
      } else if (button.dataset.open) {
        button.disabled = true;
        answerJoin({ open: button.dataset.open });
      }
    });
    $("seat-list").addEventListener("click", function (ev) {
      var button = ev.target.closest ? ev.target.closest("button.new-link") : null;
      if (button) newLink(button.dataset.seat);
    });
    $("new-link-close").addEventListener("click", closeNewLink);
    $("new-link-copy").addEventListener("click", copyNewLink);
    $("recovered-ok").addEventListener("click", dismissRecovered);
    document.addEventListener("visibilitychange", function () {
      if (document.visibilityState === "visible") wakeUp();
    });
    window.addEventListener("online", wakeUp);
    window.addEventListener("hashchange", function () {
      // A new link opened over this page (same document): start again with its secret.
      if (fragmentSecret() !== null) location.reload();
    });
    window.addEventListener("offline", function () {
      if (!app.stopped && app.view) setConn("reconnecting");
    });
  }

  async function start() {
    bind();
    setConn("connecting");
    var secret = fragmentSecret();
    if (secret !== null) {
      // Out of the address bar and the history at once; kept in memory for the exchange.
      dropFragment();
      forgetSeat();  // a link opened here anew starts afresh (a reload keeps what was typed)
      if (!(await pair(secret))) return;
    }
    await refreshState();
    if (!app.stopped) connect();
  }

  start();
})();
