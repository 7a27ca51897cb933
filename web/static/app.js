// Fray encounter page: live updates over one websocket, and commands sent
// through it. Without this script (or without a socket) every form still
// posts to the server and the page reloads, so nothing here is required.
// A browser that parses it (ES2020) has fetch, ResizeObserver and
// MutationObserver: they are used without a feature test.
//
// Protocol (JSON text frames), see docs/protocol.md:
//   server → client  {"type":"snapshot","seq":N,"view":{…},"html":{…}}
//                    {"type":"events","seq":N,"events":[…],"html":{…},"parts":{…}}
//                    {"type":"ack","id":"…","seq":N}
//                    {"type":"error","id":"…","code":"…","message":"…"}
//   client → server  {"type":"command","id":"<uuid>","command":{"kind":…,…}}
// html maps a section id ("status", "pending", "actions", "order",
// "battlefield") to that element's new outer HTML, "log" and "chat" to <li>
// entries, and "cards" (events only) to roll cards, one an action; parts
// maps the id of an element of a section (data-part) to its outer HTML.
//
// The table: on a phone the panes become tabs (Board · Act · Log · Chat);
// clicking a token (or its roster button) picks it as the target of every
// target select that offers it and opens the likeliest action that can
// take it, or says why the action at hand cannot; the board has a keyboard
// cursor and the page keys listed by "?"; roll cards wait in their tray (a
// toast on a phone) a few seconds, then settle into the log; when it
// becomes the viewer's turn or a decision waits for them, the page calls
// for attention (see attend()). Other pages' parts are described where
// they are.
'use strict';

// Error pages: "Go back" returns through the browser's history when there
// is one, so the form the visitor filled in keeps its input.
document.addEventListener('click', (e) => {
  if (e.target instanceof Element && e.target.closest('a[data-back]') && window.history.length > 1) {
    e.preventDefault();
    window.history.back();
  }
});

// ---- Helpers every page's scripts share (app.js loads first) ---------------
//
// localStorage and sessionStorage throw where the browser refuses them
// (a private mode, storage turned off): window.frayStorage reads such a
// key as null and reports whether a write was kept, so that no use of
// them needs a try of its own. area is 'localStorage' (the default) or
// 'sessionStorage'.
window.frayStorage = {
  get(key, area = 'localStorage') {
    try {
      return window[area].getItem(key);
    } catch (err) {
      return null;
    }
  },
  // set keeps value under key, or forgets key when value is null.
  set(key, value, area = 'localStorage') {
    try {
      if (value === null) window[area].removeItem(key);
      else window[area].setItem(key, value);
      return true;
    } catch (err) {
      return false;
    }
  },
};

// window.frayTyping reports whether el takes typing (a field, a list, an
// editable), where the page's own keys must not act.
window.frayTyping = (el) => el instanceof Element && (el.isContentEditable || /^(INPUT|SELECT|TEXTAREA)$/.test(el.tagName));

// ---- Squares of a grid -------------------------------------------------------
//
// window.frayGrid reads and marks the squares of a grid board's drawing
// (svg.grid-svg, a unit a square), for the table and the draft editor.
window.frayGrid = {
  // size is the grid's [width, height] in squares ([0, 0] without one).
  size(svg) {
    const g = svg && svg.querySelector('rect.ground');
    return g ? [Number(g.getAttribute('width')), Number(g.getAttribute('height'))] : [0, 0];
  },
  // squareAt is the square [x, y] of svg under a point of the screen, or null.
  squareAt(svg, clientX, clientY) {
    const m = svg && svg.getScreenCTM();
    if (!m) return null;
    const p = new DOMPoint(clientX, clientY).matrixTransform(m.inverse());
    const [w, h] = window.frayGrid.size(svg);
    const x = Math.floor(p.x);
    const y = Math.floor(p.y);
    return x >= 0 && y >= 0 && x < w && y < h ? [x, y] : null;
  },
  // name is a square's name: its column's letters (A…Z, AA…), its row from 1.
  name(x, y) {
    let col = '';
    for (let n = x; ; n = Math.floor(n / 26) - 1) {
      col = String.fromCharCode(65 + (n % 26)) + col;
      if (n < 26) break;
    }
    return col + (y + 1);
  },
  // mark puts svg's one mark of class cls on the square xy, or takes it
  // away (xy null).
  mark(svg, cls, xy) {
    let el = svg.querySelector('rect.' + cls);
    if (!xy) {
      if (el) el.remove();
      return;
    }
    if (!el) {
      el = document.createElementNS('http://www.w3.org/2000/svg', 'rect');
      el.setAttribute('class', cls);
      el.setAttribute('width', '1');
      el.setAttribute('height', '1');
      el.setAttribute('vector-effect', 'non-scaling-stroke');
      svg.appendChild(el);
    }
    el.setAttribute('x', String(xy[0]));
    el.setAttribute('y', String(xy[1]));
  },
};

// ---- The viewer's own tokens -----------------------------------------------
//
// The server draws the board alike for every viewer who sees the same
// tokens (it renders it once for them all); the page marks the viewer's own
// tokens "mine" itself, from its root's data-controls (the ids of the
// combatants the player controls), on load and on every new battlefield
// before it is shown: window.frayMarkMine(el). window.frayOwn is that set
// of ids.
(() => {
  const root = document.querySelector('[data-controls]');
  let own = new Set();
  try {
    own = new Set(root ? JSON.parse(root.dataset.controls) : []);
  } catch (e) {
    own = new Set();
  }
  function markMine(el) {
    if (!el || own.size === 0) return;
    for (const t of el.querySelectorAll('.tok[data-token]')) {
      if (own.has(t.dataset.token)) t.classList.add('mine');
    }
    for (const b of el.querySelectorAll('.roster-item .tok-btn[data-token]')) {
      if (own.has(b.dataset.token)) b.closest('.roster-item').classList.add('mine');
    }
  }
  window.frayMarkMine = markMine;
  window.frayOwn = own;
  markMine(document.getElementById('battlefield'));
})();

// ---- Fairness (docs/protocol.md, "Checking a history") ------------------
//
// window.frayProof holds what the pages need to check the server: SHA-256
// (crypto.subtle where the page is a secure context; a plain
// implementation otherwise, e.g. a phone on http over the LAN), canonical
// JSON (RFC 8785: keys sorted by UTF-16 code units, JSON.stringify's
// numbers and strings) and the commitment to a sealed answer.
(() => {
  const K = new Uint32Array([
    0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1, 0x923f82a4, 0xab1c5ed5,
    0xd807aa98, 0x12835b01, 0x243185be, 0x550c7dc3, 0x72be5d74, 0x80deb1fe, 0x9bdc06a7, 0xc19bf174,
    0xe49b69c1, 0xefbe4786, 0x0fc19dc6, 0x240ca1cc, 0x2de92c6f, 0x4a7484aa, 0x5cb0a9dc, 0x76f988da,
    0x983e5152, 0xa831c66d, 0xb00327c8, 0xbf597fc7, 0xc6e00bf3, 0xd5a79147, 0x06ca6351, 0x14292967,
    0x27b70a85, 0x2e1b2138, 0x4d2c6dfc, 0x53380d13, 0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85,
    0xa2bfe8a1, 0xa81a664b, 0xc24b8b70, 0xc76c51a3, 0xd192e819, 0xd6990624, 0xf40e3585, 0x106aa070,
    0x19a4c116, 0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a, 0x5b9cca4f, 0x682e6ff3,
    0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208, 0x90befffa, 0xa4506ceb, 0xbef9a3f7, 0xc67178f2,
  ]);

  // plainSHA256 is FIPS 180-4 SHA-256 of bytes (a Uint8Array).
  function plainSHA256(bytes) {
    const n = bytes.length;
    const padded = new Uint8Array(((n + 9 + 63) >> 6) << 6);
    padded.set(bytes);
    padded[n] = 0x80;
    const view = new DataView(padded.buffer);
    view.setUint32(padded.length - 8, Math.floor(n / 0x20000000));
    view.setUint32(padded.length - 4, (n << 3) >>> 0);
    const h = new Uint32Array([0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a, 0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19]);
    const w = new Uint32Array(64);
    const rotr = (x, k) => (x >>> k) | (x << (32 - k));
    for (let off = 0; off < padded.length; off += 64) {
      for (let i = 0; i < 16; i++) w[i] = view.getUint32(off + 4 * i);
      for (let i = 16; i < 64; i++) {
        const s0 = rotr(w[i - 15], 7) ^ rotr(w[i - 15], 18) ^ (w[i - 15] >>> 3);
        const s1 = rotr(w[i - 2], 17) ^ rotr(w[i - 2], 19) ^ (w[i - 2] >>> 10);
        w[i] = (w[i - 16] + s0 + w[i - 7] + s1) >>> 0;
      }
      let [a, b, c, d, e, f, g, k] = h;
      for (let i = 0; i < 64; i++) {
        const t1 = (k + (rotr(e, 6) ^ rotr(e, 11) ^ rotr(e, 25)) + ((e & f) ^ (~e & g)) + K[i] + w[i]) >>> 0;
        const t2 = ((rotr(a, 2) ^ rotr(a, 13) ^ rotr(a, 22)) + ((a & b) ^ (a & c) ^ (b & c))) >>> 0;
        k = g; g = f; f = e; e = (d + t1) >>> 0; d = c; c = b; b = a; a = (t1 + t2) >>> 0;
      }
      h[0] += a; h[1] += b; h[2] += c; h[3] += d; h[4] += e; h[5] += f; h[6] += g; h[7] += k;
    }
    const out = new Uint8Array(32);
    const ov = new DataView(out.buffer);
    for (let i = 0; i < 8; i++) ov.setUint32(4 * i, h[i]);
    return out;
  }

  // sha256 resolves to the SHA-256 of bytes.
  async function sha256(bytes) {
    if (window.crypto && crypto.subtle && window.isSecureContext) {
      return new Uint8Array(await crypto.subtle.digest('SHA-256', bytes));
    }
    return plainSHA256(bytes);
  }

  const hex = (bytes) => Array.from(bytes, (x) => x.toString(16).padStart(2, '0')).join('');
  const unhex = (s) => new Uint8Array((s.match(/../g) || []).map((x) => parseInt(x, 16)));

  // canonical is the RFC 8785 form of a JSON value.
  function canonical(v) {
    if (Array.isArray(v)) return '[' + v.map(canonical).join(',') + ']';
    if (v !== null && typeof v === 'object') {
      return '{' + Object.keys(v).sort().map((k) => JSON.stringify(k) + ':' + canonical(v[k])).join(',') + '}';
    }
    return JSON.stringify(v);
  }

  // randomHex is n random bytes in hexadecimal.
  function randomHex(n) {
    return hex(crypto.getRandomValues(new Uint8Array(n)));
  }

  // commitment is the commitment to answering decision with choice and
  // values under nonce: hex SHA-256 of the canonical
  // {"choice","decision","nonce","values"} ({} for no values).
  async function commitment(decision, choice, values, nonce) {
    const text = canonical({ choice, decision, nonce, values: values || {} });
    return hex(await sha256(new TextEncoder().encode(text)));
  }

  window.frayProof = { sha256, plainSHA256, canonical, commitment, randomHex, hex, unhex };
})();

// Any page: a <button data-copy="ID" hidden> copies the text of #ID (a new
// token or invite link) and reports in #<data-copy-status>. It is revealed
// only where the clipboard API exists (secure contexts); elsewhere the text
// stays selectable by hand.
(() => {
  if (!navigator.clipboard || typeof navigator.clipboard.writeText !== 'function') return;
  for (const btn of document.querySelectorAll('button[data-copy]')) {
    const source = document.getElementById(btn.dataset.copy);
    if (!source) continue;
    const status = document.getElementById(btn.dataset.copyStatus || '');
    btn.hidden = false;
    btn.addEventListener('click', () => {
      navigator.clipboard.writeText(source.textContent.trim()).then(
        () => { if (status) status.textContent = 'Copied.'; },
        () => { if (status) status.textContent = 'Could not copy: select the text and copy it.'; },
      );
    });
  }
})();

(() => {
  const root = document.querySelector('[data-ws-url]');
  if (!root || !('WebSocket' in window)) return;

  const wsPath = root.dataset.wsUrl;
  const conn = document.getElementById('conn');
  const notice = document.getElementById('notice');
  let seq = Number(root.dataset.seq) || 0;
  const { size: gridSize, squareAt, name: squareName, mark: svgMark } = window.frayGrid;

  // Commands sent but not yet acknowledged, by id: the exact frame (resent
  // unchanged after a reconnect; the server applies an id at most once) and
  // the id of the form that sent it (re-disabled after a re-render).
  const pending = new Map();

  let ws = null;
  let attempt = 0; // reconnects since the last successful open
  let timer = 0;
  let stopped = false;
  let everOpened = false; // a socket opened since the page loaded

  // ---- connection -------------------------------------------------------

  function setConn(state, text) {
    if (!conn) return;
    // Attributes are written only when they change: writing one the
    // stylesheet selects on restyles its element even with the same value,
    // and this runs on every update.
    if (conn.hidden) conn.hidden = false;
    if (conn.dataset.state !== state) conn.dataset.state = state;
    // Only touch the text when it changes, so the live region stays quiet.
    if (conn.textContent !== text) conn.textContent = text;
  }

  function socketURL() {
    const proto = location.protocol === 'https:' ? 'wss:' : 'ws:';
    const sep = wsPath.includes('?') ? '&' : '?';
    return proto + '//' + location.host + wsPath + sep + 'since=' + seq;
  }

  function connect() {
    timer = 0;
    if (stopped) return;
    let sock;
    try {
      sock = new WebSocket(socketURL());
    } catch (err) {
      scheduleReconnect();
      return;
    }
    ws = sock;
    sock.addEventListener('open', () => {
      attempt = 0;
      everOpened = true;
      // "live" once the first message has brought the page up to date.
      setConn('retry', 'connecting…');
      for (const p of pending.values()) sock.send(p.frame);
    });
    sock.addEventListener('message', (e) => {
      let msg;
      try {
        msg = JSON.parse(e.data);
      } catch (err) {
        return;
      }
      handle(msg);
    });
    // An 'error' event is always followed by 'close'; reconnect from there.
    sock.addEventListener('close', (e) => {
      if (ws !== sock) return;
      ws = null;
      if (e.code === 4401 || e.code === 4403 || e.code === 4409) {
        // Signed out, no longer a member, or access changed: the page as it
        // stands is no longer what this viewer may see. Load it afresh (the
        // server sends a signed-out visitor to log in).
        stopped = true;
        setConn('off', 'your access changed — reloading');
        location.reload();
        return;
      }
      // Any other close is retried, 1008 too: the server sends it to a
      // client too slow to keep up (docs/protocol.md), never to refuse
      // one; the new socket brings the page up to date from its seq.
      scheduleReconnect();
    });
  }

  // Exponential backoff from 0.5 s to 10 s, with ±25 % jitter so that many
  // browsers dropped together do not return together.
  function scheduleReconnect() {
    if (stopped || timer) return;
    setConn('retry', 'reconnecting…');
    const base = Math.min(10000, 500 * 2 ** attempt);
    attempt++;
    timer = setTimeout(connect, Math.min(10000, base * (0.75 + Math.random() * 0.5)));
  }

  function reconnectNow() {
    if (stopped || ws) return;
    clearTimeout(timer);
    timer = 0;
    attempt = 0;
    connect();
  }

  window.addEventListener('online', reconnectNow);
  window.addEventListener('pagehide', () => {
    stopped = true;
    clearTimeout(timer);
    timer = 0;
    if (ws) ws.close(1000);
    ws = null;
  });
  window.addEventListener('pageshow', (e) => {
    if (e.persisted) {
      stopped = false;
      reconnectNow();
    }
  });

  // ---- messages ---------------------------------------------------------

  function handle(msg) {
    switch (msg.type) {
      case 'snapshot':
        apply(msg.html, true);
        if (typeof msg.seq === 'number') setSeq(msg.seq);
        setConn('live', 'live');
        break;
      case 'events':
        apply(msg.html, false, msg.parts);
        if (typeof msg.seq === 'number' && msg.seq > seq) setSeq(msg.seq);
        setConn('live', 'live');
        break;
      case 'ack':
        settle(msg.id, true);
        break;
      case 'error':
        settle(msg.id, false);
        showNotice(msg.message || msg.code || 'The command failed.');
        break;
    }
  }

  // The last seq seen is mirrored on the root so tests can read it.
  function setSeq(n) {
    seq = n;
    root.dataset.seq = String(n);
  }

  function parse(html) {
    const t = document.createElement('template');
    t.innerHTML = html;
    return t.content;
  }

  // parsePart parses a part that replaces old: inside an <svg> when old is
  // drawn in one (a token on the grid), since SVG markup parsed as HTML
  // makes HTML elements the drawing does not show.
  function parsePart(old, html) {
    if (old instanceof SVGElement) return parse('<svg>' + html + '</svg>').firstElementChild.firstElementChild;
    return parse(html).firstElementChild;
  }

  // ---- closed actions' forms, built when needed --------------------------
  //
  // Most of an update's markup on a GM's page is the acting combatant's
  // group of actions, new at every end of turn: a form per action (hidden
  // inputs, selects of targets and weapons, help), each behind a closed
  // <details class="act"> nobody opens. An update's sections and parts
  // bring each such form inert, in a <template> inside its <details>, and
  // build() makes the form the moment it is needed — a click on its
  // summary (before the details opens), a toggle, the keyboard's run, a
  // target or a place picked that it may offer, an open form or one the
  // user filled carried over an update (keepBuilt). The page's first
  // render, and a page without this script, have every form.

  // unbuilt is d's <template> while its form is not built, else null.
  function unbuilt(d) {
    return d.querySelector(':scope > template');
  }

  // formOf is d's form, built or not (in its template).
  function formOf(d) {
    const t = unbuilt(d);
    return (t ? t.content : d).querySelector('form');
  }

  // build makes a closed action's form from its template, filled as the
  // page fills every form: the target and the place picked, the pending
  // mark of a command it sent.
  function build(d) {
    const t = d && unbuilt(d);
    if (!t) return d;
    t.replaceWith(t.content);
    const f = d.querySelector('form');
    if (!f) return d;
    fillSelects(f, 'data-target', target);
    fillSelects(f, 'data-place', place);
    for (const [id, p] of pending) {
      if (p.formId === f.id) markPending(f, id);
    }
    return d;
  }

  // hasOption reports whether a select offers value.
  const hasOption = (sel, value) => Array.from(sel.options).some((o) => o.value === value);

  // fillSelects sets every select marked attr in scope that offers value
  // to it.
  function fillSelects(scope, attr, value) {
    if (!scope || !value) return;
    for (const sel of scope.querySelectorAll('select[' + attr + ']')) {
      if (hasOption(sel, value)) sel.value = value;
    }
  }

  // mayOffer reports whether d's form may offer value in a select marked
  // attr (data-target, data-place): a built form has such a select; an
  // unbuilt one the value among its options.
  function mayOffer(d, attr, value) {
    const t = unbuilt(d);
    if (!t) return !!d.querySelector('select[' + attr + ']');
    return Array.from(t.content.querySelectorAll('select[' + attr + '] option')).some((o) => o.value === value);
  }

  // buildOffering builds every unbuilt action in scope whose form may offer
  // value in a select marked attr, so that what reads or fills those
  // selects sees them all.
  function buildOffering(scope, attr, value) {
    if (!scope || !value) return;
    for (const d of scope.querySelectorAll('details.act')) {
      if (unbuilt(d) && mayOffer(d, attr, value)) build(d);
    }
  }

  // keepBuilt builds, in node (an update's markup, not yet shown), the
  // forms that old shows built and the user is on: open, filled in,
  // focused or waiting for the server's answer. carryOver then copies what
  // the user did; the rest go back to their markup.
  function keepBuilt(old, node) {
    for (const d of old.querySelectorAll('details.act')) {
      if (!d.id || unbuilt(d)) continue;
      const f = d.querySelector('form');
      const busy = d.open || d.contains(document.activeElement) || (f && f.dataset.pending) ||
        Array.from(d.querySelectorAll('select[id], input[id]')).some(edited);
      if (busy) build(byId(node, d.id));
    }
  }

  // A click on an unbuilt action's summary builds its form before the
  // details opens (the click's default action); toggle catches any other
  // way of opening it.
  document.addEventListener('click', (e) => {
    const s = e.target instanceof Element ? e.target.closest('summary') : null;
    if (s && s.parentElement && s.parentElement.matches('details.act')) build(s.parentElement);
  }, true);
  document.addEventListener('toggle', (e) => {
    if (e.target instanceof HTMLDetailsElement && e.target.open) build(e.target);
  }, true);

  const lastHTML = {}; // the last HTML received for each section
  // Scrolled parts of a section that keep their place when it is replaced
  // (a phone's grid panned to the fight, a long roster read halfway).
  const keptScroll = ['.board-view', '.gmap', '.board-words'];

  // apply brings re-rendered sections up to date and updates the log and
  // the chat, keeping the keyboard focus, open <details> and half-filled
  // controls where they were; then it shows new roll cards. It reads the
  // layout (the scroll places of the sections it changes) before it
  // writes anything, so an update costs one layout, not one per section;
  // and it patches a section in place (morph) rather than replacing it, so
  // that only what changed is styled and laid out again. parts are elements
  // of sections (a roster row, a token, a group of actions) sent alone, by
  // id, when the rest of their section did not change: each is patched the
  // same way.
  function apply(html, snapshot, parts) {
    if (!html && !parts) return;
    html = html || {};
    const active = document.activeElement;
    const changed = [];
    for (const key of Object.keys(html)) {
      if (key === 'log' || key === 'chat' || key === 'cards') continue;
      // A section the update does not change stays as it is: no churn for
      // focus, scroll or a screen reader.
      if (lastHTML[key] === html[key]) continue;
      lastHTML[key] = html[key];
      const old = document.getElementById(key);
      const node = old && parse(html[key]).firstElementChild;
      if (!node || node.id !== key) continue;
      if (key === 'battlefield') window.frayMarkMine(node);
      const more = key === 'handouts' && node.querySelectorAll('.handout').length > old.querySelectorAll('.handout').length;
      const scrolled = keptScroll.map((sel) => {
        const el = old.matches(sel) ? old : old.querySelector(sel);
        return el && (el.scrollLeft || el.scrollTop) ? [sel, el, el.scrollLeft, el.scrollTop] : null;
      }).filter(Boolean);
      changed.push({ key, section: key, old, node, more, scrolled });
    }
    // Every part's element is found before any is replaced: a part may
    // carry another id than the element it replaces (the next combatant's
    // actions in place of the last one's), even one another part replaces.
    for (const id of Object.keys(parts || {})) {
      const old = document.getElementById(id);
      const node = old && parsePart(old, parts[id]);
      if (!node || !node.id) continue;
      // The section no longer shows the markup last received for it.
      const section = old.closest('section[id]');
      if (section) delete lastHTML[section.id];
      if (section && section.id === 'battlefield') window.frayMarkMine(node.parentNode); // the part and what it holds
      changed.push({ key: id, section: section ? section.id : id, old, node, more: false, scrolled: [] });
    }
    // What holds the focus, if it is about to change (restored below).
    const hit = active && active !== document.body && changed.find((c) => c.old.contains(active));
    const focus = hit ? { id: active.id, name: active.getAttribute('name'), section: hit.section } : null;
    // Writes only from here on.
    for (const { key, old, node, more, scrolled } of changed) {
      keepBuilt(old, node);
      carryOver(old, node);
      if (old.tagName !== node.tagName) old.replaceWith(node);
      else morph(old, node, old.id !== node.id && old.classList.contains('action-group'));
      if (key === 'battlefield' && scrolled.length) fitGrid(); // the scroll below needs the drawing's size
      for (const [sel, was, x, y] of scrolled) {
        const el = old.matches(sel) ? old : old.querySelector(sel);
        if (el && el !== was) el.scrollTo({ left: x, top: y, behavior: 'instant' });
      }
      if (more && !snapshot) {
        // A handout just shown: point at it.
        old.classList.add('fresh');
        dot('act');
      }
    }
    for (const [id, p] of pending) {
      const form = document.getElementById(p.formId);
      if (form) markPending(form, id);
    }
    prepareBoard();
    // A focused control the morph kept keeps the focus; one it replaced
    // hands it to its successor.
    if (focus && (!document.activeElement || document.activeElement === document.body)) restoreFocus(focus);
    if (typeof html.log === 'string') updateList('log', html.log, snapshot);
    if (typeof html.chat === 'string' && updateList('chat', html.chat, snapshot) && !snapshot) dot('chat');
    if (!snapshot && typeof html.cards === 'string') showCards(html.cards);
    applyTarget(false);
    applyPlace(false);
    revealSealed();
    if (!snapshot) soonCheckHeads();
    // The board is new (prepared above): the cursor is drawn again.
    const v = boardView();
    if (v && document.activeElement === v && v.matches(':focus-visible')) drawCursor(false);
    if (!snapshot && wantsAttention()) dot('act');
    attend();
    fitTray(); // the panes beside the tray may have changed its height
  }

  // Form controls carry what the user did in properties, not markup: one
  // whose markup changed is replaced (carryOver has copied the user's
  // edits onto the new one), one whose markup did not is kept as it is.
  const formControls = new Set(['INPUT', 'SELECT', 'TEXTAREA']);

  // morph makes old's attributes and subtree those of node (a parsed
  // element with the same tag), keeping the elements that did not change:
  // what the page shows is what replacing old by node would show. An
  // element whose id changed is replaced, except within a group of actions
  // that passes to another combatant (its ids carry the combatant's, and
  // the next one's actions are mostly the same buttons under other names):
  // there (loose) elements of one tag are patched into each other whatever
  // their ids, but one holding the focus is still replaced, so the focus
  // never moves to another combatant's action.
  function morph(old, node, loose) {
    syncAttributes(old, node);
    let a = old.firstChild;
    let b = node.firstChild;
    while (b) {
      const nextB = b.nextSibling;
      if (!a) {
        old.append(b);
      } else {
        const nextA = a.nextSibling;
        if (a.nodeType !== b.nodeType) {
          a.replaceWith(b);
        } else if (a.nodeType === Node.ELEMENT_NODE) {
          const renamed = a.id !== b.id;
          // A template's content is no child of it (isEqualNode does not
          // read it): an inert form is always replaced.
          if (a.tagName !== b.tagName || a.tagName === 'TEMPLATE' || (renamed && !(loose || (a.classList.contains('action-group') && b.classList.contains('action-group'))))) {
            a.replaceWith(b);
          } else if (renamed && a.contains(document.activeElement)) {
            a.replaceWith(b);
          } else if (a.isEqualNode(b) && (!b.querySelector('template') || a.innerHTML === b.innerHTML)) {
            // Unchanged (compared natively, much faster than walking it;
            // but a template's content is no child of it, so where one is
            // inside, its markup is compared too: an action's inert form
            // changes while its button stays the same).
          } else if (formControls.has(a.tagName)) {
            a.replaceWith(b);
          } else {
            morph(a, b, loose || renamed);
          }
        } else if (a.nodeValue !== b.nodeValue) {
          a.nodeValue = b.nodeValue;
        }
        a = nextA;
      }
      b = nextB;
    }
    while (a) {
      const nextA = a.nextSibling;
      a.remove();
      a = nextA;
    }
  }

  function syncAttributes(old, node) {
    for (const at of Array.from(old.attributes)) {
      if (!node.hasAttributeNS(at.namespaceURI, at.localName)) old.removeAttributeNS(at.namespaceURI, at.localName);
    }
    for (const at of node.attributes) {
      if (old.getAttributeNS(at.namespaceURI, at.localName) !== at.value) old.setAttributeNS(at.namespaceURI, at.name, at.value);
    }
  }

  function byId(scope, id) {
    return id ? scope.querySelector('#' + CSS.escape(id)) : null;
  }

  // carryOver copies what the user changed in old onto its replacement.
  function carryOver(old, node) {
    for (const d of old.querySelectorAll('details[id][open]')) {
      const n = byId(node, d.id);
      if (n) n.open = true;
    }
    for (const el of old.querySelectorAll('select[id], input[id]')) {
      if (!edited(el)) continue;
      const n = byId(node, el.id);
      if (!n || n.tagName !== el.tagName || n.type !== el.type) continue;
      if (el.type === 'checkbox') {
        n.checked = el.checked;
      } else if (el.tagName === 'SELECT') {
        if (hasOption(n, el.value)) n.value = el.value;
      } else {
        n.value = el.value;
      }
    }
  }

  function edited(el) {
    if (el.type === 'hidden') return false;
    if (el.type === 'checkbox') return el.checked !== el.defaultChecked;
    if (el.tagName === 'SELECT') return Array.from(el.options).some((o) => o.selected !== o.defaultSelected);
    return el.value !== el.defaultValue;
  }

  function restoreFocus(f) {
    const section = document.getElementById(f.section);
    let el = f.id ? document.getElementById(f.id) : null;
    if (!el && f.name && section) el = section.querySelector('[name="' + CSS.escape(f.name) + '"]');
    const target = el && !el.disabled ? el : section;
    if (target) target.focus({ preventScroll: true });
  }

  // updateList merges entries into #log or #chat in order, skipping ids it
  // already holds, so a duplicate delivery never doubles an entry. A
  // snapshot is the whole list: entries it lacks are removed and changed
  // ones replaced. Existing nodes stay put, so the live region announces
  // only what is new. It reports whether anything was added.
  function updateList(listId, html, snapshot) {
    const list = document.getElementById(listId);
    if (!list) return false;
    const items = Array.from(parse(html).children);
    const keep = new Set();
    let prev = null;
    let added = false;
    for (const li of items) {
      if (li.id) keep.add(li.id);
      const cur = li.id ? document.getElementById(li.id) : null;
      if (cur && cur.parentNode === list) {
        if (snapshot && cur.outerHTML !== li.outerHTML) {
          cur.replaceWith(li);
          prev = li;
        } else {
          prev = cur;
        }
        continue;
      }
      if (snapshot) {
        if (prev) prev.after(li);
        else list.prepend(li);
      } else {
        list.append(li);
      }
      prev = li;
      added = true;
      if (li.dataset.undone) markUndone(li);
    }
    if (snapshot) {
      for (const li of Array.from(list.children)) {
        if (!keep.has(li.id)) li.remove();
      }
    } else if (added) {
      document.getElementById(listId + '-empty')?.remove();
    }
    if (pinned.get(list) || !snapshot || !list.dataset.shown) list.scrollTo({ top: list.scrollHeight, behavior: 'instant' });
    list.dataset.shown = 'true';
    return added;
  }

  // markUndone marks the entries a rewind's entry undid (its data-undone
  // lists their seqs) that the page already shows: the server marks those
  // it renders with the rewind, not those it sent before.
  function markUndone(entry) {
    for (const seq of entry.dataset.undone.split(/\s+/)) {
      const li = seq && document.getElementById('ev-' + seq);
      if (!li || li.classList.contains('undone')) continue;
      li.classList.add('undone');
      const text = li.querySelector('.entry-text');
      if (text && !text.querySelector('.undone-badge')) {
        const badge = document.createElement('span');
        badge.className = 'badge undone-badge';
        badge.textContent = 'undone';
        text.prepend(badge, ' ');
      }
    }
  }

  function showNotice(text) {
    if (notice) notice.textContent = text;
  }

  // ---- commands ---------------------------------------------------------

  // A pending form keeps its focus (aria-disabled rather than disabled, which
  // would drop a keyboard user's focus onto <body>) but refuses to resubmit.
  function markPending(form, id) {
    form.dataset.pending = id;
    form.setAttribute('aria-busy', 'true');
    for (const b of form.querySelectorAll('button')) b.setAttribute('aria-disabled', 'true');
  }

  function unmarkPending(form) {
    delete form.dataset.pending;
    form.removeAttribute('aria-busy');
    for (const b of form.querySelectorAll('button')) b.removeAttribute('aria-disabled');
  }

  function settle(id, ok) {
    const p = id && pending.get(id);
    if (!p) return;
    pending.delete(id);
    if (p.settled) p.settled(ok);
    const form = document.getElementById(p.formId);
    if (form && form.dataset.pending === id) unmarkPending(form);
    if (ok && form && form.id === 'chat-form') {
      const text = form.querySelector('[name="text"]');
      if (text) text.value = '';
    }
    if (!ws) showNotice(pending.size ? 'Reconnecting: ' + pending.size + ' command(s) will be sent when the connection is back.' : '');
  }

  function newID() {
    if (typeof crypto.randomUUID === 'function') return crypto.randomUUID();
    // randomUUID exists only in secure contexts; a phone on plain http over
    // the LAN still has getRandomValues. Build a version 4 UUID from it.
    const b = crypto.getRandomValues(new Uint8Array(16));
    b[6] = (b[6] & 0x0f) | 0x40;
    b[8] = (b[8] & 0x3f) | 0x80;
    const h = window.frayProof.hex(b);
    return `${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20)}`;
  }

  // buildCommand reads the form's controls, typed by their data-type:
  // number → Number, checkbox → boolean, anything else → string. The button
  // that submitted adds its own name/value (a decision's choice).
  function buildCommand(form, submitter) {
    const cmd = {};
    for (const el of form.elements) {
      if (!el.name || el.disabled) continue;
      if (el.tagName === 'BUTTON' || el.type === 'submit') continue;
      switch (el.dataset.type || el.type) {
        case 'number': {
          const n = Number(el.value);
          if (el.value !== '' && Number.isFinite(n)) cmd[el.name] = n;
          break;
        }
        case 'checkbox':
          cmd[el.name] = el.checked;
          break;
        default:
          cmd[el.name] = el.value;
      }
    }
    if (submitter && submitter.name) cmd[submitter.name] = submitter.value;
    // GM-level commands have no actor; the server rejects unknown fields.
    if (cmd.actor === '') delete cmd.actor;
    // A decision's inputs travel in the answer's values.
    for (const name of Object.keys(cmd)) {
      if (!name.startsWith('values.')) continue;
      cmd.values = cmd.values || {};
      cmd.values[name.slice('values.'.length)] = cmd[name];
      delete cmd[name];
    }
    return cmd;
  }

  document.addEventListener('submit', (e) => {
    const form = e.target;
    if (!(form instanceof HTMLFormElement) || !form.matches('form.action, form.decision, form.chat-form')) return;
    if (form.dataset.pending) {
      e.preventDefault(); // already sent; waiting for the server's answer
      return;
    }
    const open = ws && ws.readyState === WebSocket.OPEN;
    // Never connected (no websockets through this network) or leaving the
    // page: let the browser post the form.
    if (!open && (stopped || !everOpened) && !form.hasAttribute('data-sealed')) return;
    e.preventDefault();
    let submitter = e.submitter;
    if (!submitter && document.activeElement && document.activeElement.form === form) {
      submitter = document.activeElement;
    }
    const id = newID();
    if (!form.id) form.id = 'form-' + id;
    const command = buildCommand(form, submitter);
    if (form.hasAttribute('data-sealed')) {
      markPending(form, id);
      commit(command, submitter).then(
        (c) => send(id, form.id, c, null),
        () => {
          unmarkPending(form);
          showNotice('Could not seal your answer in this browser.');
        },
      );
      return;
    }
    send(id, form.id, command, null);
  });

  // send sends command under id (resent after reconnecting until acked),
  // with fresh entropy for the command's dice (docs/protocol.md, "Provable
  // dice"); formId is the form that sent it, settled is told how it ended.
  function send(id, formId, command, settled) {
    command.entropy = window.frayProof.randomHex(16);
    const frame = JSON.stringify({ type: 'command', id, command });
    pending.set(id, { frame, formId, settled });
    sent.add(id);
    const form = formId && document.getElementById(formId);
    if (form) markPending(form, id);
    if (!ws || ws.readyState !== WebSocket.OPEN) {
      // The server is away: keep the command and send it on reconnecting
      // rather than letting the browser post into an error page.
      showNotice('Reconnecting: your command will be sent when the connection is back.');
      reconnectNow();
      return;
    }
    showNotice('');
    ws.send(frame);
  }

  // ---- sealed answers -----------------------------------------------------
  //
  // A sealed decision's answer never leaves the page until everyone has
  // answered: the page sends a commitment (SHA-256 of the canonical
  // {"choice","decision","nonce","values"}) and keeps the answer and its
  // random nonce in localStorage, so a reload keeps them. When the view
  // asks for it (#pending's [data-reveal]), the page reveals them (unseal)
  // and the server checks them against the commitment.

  const encounterID = root.dataset.encounter || '';
  const store = window.frayStorage;
  const keptKey = (decision) => 'fray-sealed:' + encounterID + ':' + decision;

  // commit turns an answer into its commitment, keeping the answer.
  async function commit(command, submitter) {
    const nonce = window.frayProof.randomHex(32);
    const answer = { choice: command.choice || '', nonce, label: submitter ? submitter.textContent.trim() : '' };
    if (command.values) answer.values = command.values;
    const c = await window.frayProof.commitment(command.decision, answer.choice, answer.values, nonce);
    if (!store.set(keptKey(command.decision), JSON.stringify(answer))) throw new Error('no storage');
    return { kind: 'answer', decision: command.decision, commitment: c };
  }

  const revealing = new Set(); // decisions whose reveal is on its way

  // revealSealed reveals every kept answer the view asks for, and shows
  // the author what they chose.
  function revealSealed() {
    for (const el of document.querySelectorAll('#pending .committed[data-decision]')) {
      const decision = el.dataset.decision;
      const answer = JSON.parse(store.get(keptKey(decision)) || 'null');
      const choice = el.querySelector('.sealed-choice');
      if (choice) {
        choice.textContent = answer ? 'You chose ' + (answer.label || answer.choice) + ', sealed' : 'Your answer is sealed (kept by the page you answered on)';
      }
      if (!answer || !el.hasAttribute('data-reveal') || revealing.has(decision)) continue;
      revealing.add(decision);
      const command = { kind: 'unseal', decision, choice: answer.choice, nonce: answer.nonce };
      if (answer.values) command.values = answer.values;
      // A reveal refused is not retried: the error says why.
      send(newID(), null, command, (ok) => {
        if (ok) store.set(keptKey(decision), null);
      });
    }
  }

  // ---- the table: tabs, targets, the board's cursor -----------------------

  const sent = new Set(); // ids of the commands this page sent
  const phone = window.matchMedia('(max-width: 759px)');
  const tabs = document.getElementById('tabs');

  const tabScroll = {}; // each tab's page scroll and the board's pan, kept while another shows
  // The board's zoom (fitGrid) and what revealAction last brought into view.
  let zoom = 1;
  let fitWidth = false; // a phone's "Fit": the grid as wide as the screen
  let fitSquare = 0; // a desktop's square at zoom 1, px, the base of its zoom
  let revealed = null; // the acting tokens last brought into view

  function showTab(name, remember) {
    const was = root.dataset.tab;
    const moved = root.classList.contains('tabbed') && was !== name;
    const g = document.querySelector('#board-view .gmap');
    if (moved && was) tabScroll[was] = { y: window.scrollY, gx: g ? g.scrollLeft : 0, gy: g ? g.scrollTop : 0 };
    root.dataset.tab = name;
    const back = tabScroll[name];
    if (moved) {
      window.scrollTo({ top: back ? back.y : 0, behavior: 'instant' });
      if (g && back) g.scrollTo({ left: back.gx, top: back.gy, behavior: 'instant' });
    }
    for (const t of tabs ? tabs.querySelectorAll('[data-show]') : []) {
      const on = t.dataset.show === name;
      t.setAttribute('aria-selected', on ? 'true' : 'false');
      const d = on && t.querySelector('.tab-dot');
      if (d) d.hidden = true;
    }
    // A list shown again opens at its newest entry; the board, at the
    // action if a turn started while it was away.
    if (name === 'log' || name === 'chat') toBottom(document.getElementById(name));
    if (name === 'board' && was !== name) revealAction(false);
    if (remember) store.set('fray-tab', name, 'sessionStorage');
  }

  function toBottom(list) {
    if (list) list.scrollTo({ top: list.scrollHeight, behavior: 'instant' });
  }

  // A list read at its newest entry stays there when its pane shrinks or
  // grows (a roll card arriving above the log, say), and when a snapshot
  // replaces its entries.
  const pinned = new Map(); // #log and #chat → read at its newest entry
  for (const list of [document.getElementById('log'), document.getElementById('chat')]) {
    if (!list) continue;
    pinned.set(list, true);
    let seen = list.clientHeight; // the height the last resize left
    list.addEventListener('scroll', () => {
      // A pane squeezed since then (a roll card arriving) moved the bottom
      // away by what it lost, not the reader: that much still counts.
      const squeezed = Math.max(0, seen - list.clientHeight);
      pinned.set(list, list.scrollHeight - list.scrollTop - list.clientHeight < 24 + squeezed);
    }, { passive: true });
    new ResizeObserver(() => {
      if (pinned.get(list)) toBottom(list);
      seen = list.clientHeight;
    }).observe(list);
  }

  function setLayout() {
    const on = phone.matches;
    root.classList.toggle('tabbed', on);
    if (tabs) tabs.hidden = !on;
    if (on) showTab(store.get('fray-tab', 'sessionStorage') || root.dataset.tab || 'board', false);
  }

  // dot marks a tab that has news the user has not seen.
  function dot(name) {
    if (!root.classList.contains('tabbed') || root.dataset.tab === name || !tabs) return;
    const d = tabs.querySelector('[data-show="' + name + '"] .tab-dot');
    if (d) d.hidden = false;
  }

  function wantsAttention() {
    const pend = document.getElementById('pending');
    const status = document.getElementById('status');
    return (pend && pend.classList.contains('asking')) || (status && status.classList.contains('mine'));
  }

  // ---- attention: your turn, a decision waiting for you ------------------
  //
  // #status carries data-attention ("turn", "decision" or ""), rendered per
  // viewer by the server. When it turns on, the tab's title and icon change,
  // a short tone plays if the user turned sound on (off by default,
  // remembered in localStorage), and a hidden tab shows a notification when
  // the user allowed them — permission is asked only when they click
  // "Notify me", never on load.

  const baseTitle = document.title;
  const iconLink = document.querySelector('link[rel="icon"]');
  const baseIcon = iconLink ? iconLink.getAttribute('href') : '';
  const alertIcon = 'data:image/svg+xml,' + encodeURIComponent(
    '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 16 16"><circle cx="8" cy="8" r="7" fill="#d33"/></svg>');
  const soundToggle = document.getElementById('sound-toggle');
  const notifyBtn = document.getElementById('notify-me');
  const notifyStatus = document.getElementById('notify-status');
  const controls = document.getElementById('attention-controls');
  let attending = null; // the attention last seen; null before the first look
  let audio = null;

  function tone() {
    if (!soundToggle || !soundToggle.checked) return;
    try {
      audio = audio || new AudioContext();
      if (audio.state === 'suspended') audio.resume();
      const osc = audio.createOscillator();
      const gain = audio.createGain();
      const t = audio.currentTime;
      osc.frequency.setValueAtTime(880, t);
      osc.frequency.setValueAtTime(660, t + 0.12);
      gain.gain.setValueAtTime(0.0001, t);
      gain.gain.exponentialRampToValueAtTime(0.2, t + 0.02);
      gain.gain.exponentialRampToValueAtTime(0.0001, t + 0.3);
      osc.connect(gain).connect(audio.destination);
      osc.start(t);
      osc.stop(t + 0.32);
    } catch (err) { /* no sound, no harm */ }
  }

  function notify(text) {
    if (!document.hidden || !('Notification' in window) || Notification.permission !== 'granted') return;
    try {
      const n = new Notification(text, { body: baseTitle.replace(/ · Fray$/, ''), tag: 'fray-' + (root.dataset.encounter || '') });
      n.onclick = () => { window.focus(); n.close(); };
    } catch (err) { /* some browsers allow notifications only from a service worker */ }
  }

  function attend() {
    const status = document.getElementById('status');
    const now = (status && status.dataset.attention) || '';
    const text = now === 'turn' ? 'Your turn' : now === 'decision' ? 'A decision waits for you' : '';
    document.title = text ? '● ' + text + ' — ' + baseTitle : baseTitle;
    if (iconLink && iconLink.getAttribute('href') !== (text ? alertIcon : baseIcon)) iconLink.setAttribute('href', text ? alertIcon : baseIcon);
    const rising = attending !== null && now !== '' && now !== attending;
    attending = now;
    if (!rising) return;
    tone();
    notify(text);
  }

  function showNotifyButton() {
    if (!notifyBtn) return;
    const supported = 'Notification' in window;
    notifyBtn.hidden = !supported || Notification.permission !== 'default';
    if (notifyStatus) {
      notifyStatus.textContent = !supported ? '' : Notification.permission === 'granted' ? 'Notifications on' : Notification.permission === 'denied' ? 'Notifications blocked' : '';
    }
  }

  if (controls) {
    controls.hidden = false;
    if (soundToggle) {
      soundToggle.checked = store.get('fray-sound') === 'on';
      soundToggle.addEventListener('change', () => {
        store.set('fray-sound', soundToggle.checked ? 'on' : 'off');
        if (soundToggle.checked) {
          // Audio may start only after a user's gesture: this one (tone
          // makes the audio context).
          tone();
        }
      });
    }
    if (notifyBtn) {
      notifyBtn.addEventListener('click', () => Notification.requestPermission().then(showNotifyButton, showNotifyButton));
    }
    showNotifyButton();
  }
  attend();

  for (const t of tabs ? tabs.querySelectorAll('[data-show]') : []) {
    t.addEventListener('click', () => showTab(t.dataset.show, true));
  }
  if (phone.addEventListener) phone.addEventListener('change', setLayout);
  setLayout();

  let target = '';
  const cursorLine = document.getElementById('board-cursor'); // what the board says (the cursor, a refused target)

  function rosterItem(id) {
    const btn = document.querySelector('.tok-btn[data-token="' + CSS.escape(id) + '"]');
    return btn ? btn.closest('.roster-item') : null;
  }

  // rosterText is the text of the element sel in token id's roster row.
  function rosterText(id, sel) {
    const el = rosterItem(id)?.querySelector(sel);
    return el ? el.textContent.trim() : '';
  }
  const tokenName = (id) => rosterText(id, '.tok-name') || id;

  // The square a grid token stands on, or null.
  function squareOf(id) {
    const g = document.querySelector('#battlefield .grid-svg [data-token="' + CSS.escape(id) + '"]');
    const m = g && /^(\d+),(\d+)$/.exec(g.dataset.at || '');
    return m ? [Number(m[1]), Number(m[2])] : null;
  }

  function actionLabel(d) {
    const s = d && d.querySelector('summary');
    return s ? s.textContent.replace(/[▾▴]/g, '').trim() : 'this action';
  }

  // The actions that take a target, the likeliest first: one already open,
  // then the acting character's (main before "More…"), then the other
  // characters'. The GM's encounter controls are never opened for a click.
  function targetActions() {
    const out = [];
    const add = (d) => { if (d && !out.includes(d)) out.push(d); };
    // An unbuilt form takes a target if its markup has a target select.
    const takes = (d) => !!formOf(d)?.querySelector('select[data-target]');
    for (const d of document.querySelectorAll('#actions details.act[open]')) if (takes(d)) add(d);
    const groups = Array.from(document.querySelectorAll('#actions .action-group[id^="ag-"]:not(#ag-gm)'));
    groups.sort((a, b) => Number(b.classList.contains('acting')) - Number(a.classList.contains('acting')));
    for (const g of groups) {
      for (const d of g.querySelectorAll('.bar > details.act')) if (takes(d)) add(d);
      for (const d of g.querySelectorAll('details.more details.act')) if (takes(d)) add(d);
    }
    return out;
  }

  function offers(d, id) {
    if (!mayOffer(d, 'data-target', id)) return false;
    build(d);
    const sel = d.querySelector('select[data-target]');
    return !!sel && hasOption(sel, id);
  }

  // whyNot writes into out why target is not one action d offers: at
  // once whom it does offer; then, asked of the rules with the form as it
  // is filled in and the target put in (GET …/why), their own reason —
  // "Rat is out of range: the knife reaches 50 ft" — the words the API's
  // refusal would give.
  function whyNot(d, id, out) {
    build(d);
    const sel = d.querySelector('select[data-target]');
    const names = sel ? Array.from(sel.options).map((o) => o.textContent.trim()).filter(Boolean) : [];
    const offer = names.length ? actionLabel(d) + ' can target: ' + names.join(', ') + '.' : actionLabel(d) + ' has no target now.';
    out.textContent = 'Not a legal target for ' + actionLabel(d) + '. ' + offer;
    out.removeAttribute('data-reason');
    const form = d.querySelector('form');
    if (!form || !sel || !wsPath) return;
    const q = new URLSearchParams(new FormData(form));
    q.set(sel.name, id);
    const path = wsPath.replace(/^\/(?:api\/)?encounters\/([^/?]+)\/ws/, '/api/encounters/$1/why');
    const asked = target;
    fetch(path + (path.includes('?') ? '&' : '?') + q, { cache: 'no-store' })
      .then((res) => (res.ok ? res.json() : null))
      .then((j) => {
        if (!j || !j.reason || target !== asked || !out.isConnected) return;
        const reason = j.reason.replace(/[.\s]+$/, '');
        out.dataset.reason = reason;
        out.textContent = 'Not a legal target for ' + actionLabel(d) + ': ' + reason + '. ' + offer;
        if (root.classList.contains('tabbed')) say(tokenName(id) + ' — ' + out.textContent);
      })
      .catch(() => {});
  }

  // applyTarget marks the chosen token and fills every target select that
  // offers it. The line above the actions says what is true: the target
  // and what takes it, or that the action at hand cannot take it and why.
  // open asks to open the likeliest action that can take it.
  function applyTarget(open) {
    for (const el of document.querySelectorAll('[data-token]')) {
      const on = el.dataset.token === target;
      el.classList.toggle('selected', on);
      // Written only when it changes (it is styled; see setConn).
      if (el.classList.contains('tok-btn') && el.getAttribute('aria-pressed') !== String(on)) el.setAttribute('aria-pressed', String(on));
    }
    const line = document.getElementById('target-line');
    const name = document.getElementById('target-name');
    if (line) line.hidden = !target;
    if (!target || !line) return;
    if (name) name.textContent = tokenName(target);
    buildOffering(document.getElementById('actions'), 'data-target', target);
    const why = document.getElementById('target-why');
    fillSelects(document.getElementById('actions'), 'data-target', target);
    const acts = targetActions();
    const taking = acts.filter((d) => offers(d, target));
    const atHand = acts[0];
    line.classList.toggle('refused', !taking.length || (!!atHand && atHand.open && !offers(atHand, target)));
    if (!acts.length) {
      why.textContent = 'None of your actions takes a target now.';
    } else if ((atHand.open && !offers(atHand, target)) || !taking.length) {
      whyNot(atHand, target, why);
    } else {
      why.textContent = 'For ' + taking.map(actionLabel).join(', ') + '.';
    }
    if (open && taking.length) openAction(taking[0]);
    // On a phone the line above the actions is a tab away: the board says
    // it too when the target cannot be taken.
    if (root.classList.contains('tabbed') && line.classList.contains('refused')) say(tokenName(target) + ' — ' + why.textContent);
  }

  // openAction opens an action's form (and the "More…" around it) and
  // brings its button into view.
  function openAction(d) {
    if (!d) return;
    build(d);
    const more = d.closest('details.more');
    if (more) more.open = true;
    d.open = true;
    if (root.classList.contains('tabbed')) showTab('act', true);
    const go = d.querySelector('button[type="submit"]');
    if (go) {
      go.focus({ preventScroll: true });
      // A phone's button comes above its tabs and the roll cards' toast,
      // not under them (where a tap would hit the tab).
      if (root.classList.contains('tabbed')) reveal(go);
      else go.scrollIntoView({ block: 'nearest' });
    }
  }

  // A place on the board — a zone, or a square of a grid — clicked fills
  // every place select that offers it (a move's destination) the way a
  // token fills the target selects.
  let place = '';

  // placeAt is the place a click on the board was on: a zone's id, a
  // square as "x,y" in the grid's own units, or ''.
  function placeAt(e) {
    if (!(e.target instanceof Element)) return '';
    const area = e.target.closest('#battlefield [data-area]');
    if (area) return area.dataset.area;
    const xy = squareAt(e.target.closest('#battlefield svg.grid-svg'), e.clientX, e.clientY);
    return xy ? xy.join(',') : '';
  }

  function markPlace() {
    for (const el of document.querySelectorAll('#battlefield [data-area]')) {
      el.classList.toggle('placed', el.dataset.area === place);
    }
    const svg = document.querySelector('#battlefield svg.grid-svg');
    if (!svg) return;
    const xy = /^(\d+),(\d+)$/.exec(place);
    svgMark(svg, 'place-mark', xy ? [Number(xy[1]), Number(xy[2])] : null);
  }

  // applyPlace fills every place select that offers the chosen place (a
  // place none offers is forgotten); open asks to open the first action
  // that can go there. It reports whether any action offered the place.
  function applyPlace(open) {
    buildOffering(document.getElementById('actions'), 'data-place', place);
    const selects = document.querySelectorAll('#actions select[data-place]');
    root.classList.toggle('places', selects.length > 0 ||
      Array.from(document.querySelectorAll('#actions details.act > template')).some((t) => t.content.querySelector('select[data-place]')));
    let first = null;
    let offered = false;
    for (const sel of selects) {
      if (!place || !hasOption(sel, place)) continue;
      offered = true;
      sel.value = place;
      const d = sel.closest('details.act');
      if (!first && d && !d.closest('#ag-gm')) first = d;
    }
    if (!offered) place = '';
    markPlace();
    if (open && offered) openAction(first);
    return offered;
  }

  // setTarget makes id (or '', none) the target; open as in applyTarget.
  function setTarget(id, open) {
    target = id;
    applyTarget(open);
  }

  document.addEventListener('click', (e) => {
    const el = e.target instanceof Element ? e.target.closest('[data-token]') : null;
    if (el && root.contains(el)) {
      // Picking is on purpose only: a second click keeps the target (Clear
      // or Esc forgets it).
      setTarget(el.dataset.token, true);
      return;
    }
    const at = placeAt(e);
    if (at) {
      place = at;
      applyPlace(true);
      return;
    }
    const zb = e.target instanceof Element ? e.target.closest('[data-zoom-by]') : null;
    if (zb && root.contains(zb)) {
      zoomBoard(zb.dataset.zoomBy);
      return;
    }
    if (e.target instanceof Element && e.target.id === 'target-clear') {
      setTarget('', false);
      return;
    }
    const close = e.target instanceof Element ? e.target.closest('.card-close') : null;
    if (close) dismiss(close.closest('.card'));
    // A folded or shortened card clicked opens whole (and closes again);
    // so does a phone's toast, which leaves out what followed the roll.
    const card = !close && e.target instanceof Element ? e.target.closest('#cards .card') : null;
    if (card && (card.classList.contains('folded') || card.classList.contains('compact') || card.classList.contains('whole') || root.classList.contains('tabbed'))) {
      card.classList.toggle('whole', !card.classList.contains('whole'));
      card.classList.remove('compact');
      fitTray();
    }
    if (e.target instanceof Element && e.target.closest('#cards-toggle')) setTrayOpen(!tray.classList.contains('open'));
  });

  // A target chosen from a list counts like one clicked on the board.
  document.addEventListener('change', (e) => {
    if (e.target instanceof HTMLSelectElement && e.target.dataset.target && root.contains(e.target)) {
      setTarget(e.target.value, false);
    }
    if (e.target instanceof HTMLSelectElement && e.target.dataset.place && root.contains(e.target)) {
      place = e.target.value;
      applyPlace(false);
    }
  });

  // ---- the board's cursor: the arrow keys walk the board -------------------
  //
  // On a grid the cursor is a square; elsewhere it steps over the zones and
  // the tokens drawn (left and right one by one, up and down zone by zone).
  // Enter or Space picks what is under it, as a click would.

  let cursor = null; // [x, y] on a grid; else the element's key: "area:<id>" or "tok:<id>"

  function boardView() { return document.getElementById('board-view'); }

  // prepareBoard makes the drawing a keyboard target (a fresh one arrives
  // with every update).
  function prepareBoard() {
    fitGrid();
    fitZones();
    revealAction(false);
    const v = boardView();
    if (!v || v.hasAttribute('tabindex')) return;
    v.tabIndex = 0;
    v.setAttribute('role', 'application');
    v.setAttribute('aria-roledescription', 'board');
    v.setAttribute('aria-label', 'Board. Arrow keys move the cursor; Enter targets the token under it or picks the place.');
    if (cursorLine) v.setAttribute('aria-describedby', 'board-cursor');
  }

  // fitGrid: a wide screen draws the whole grid inside its box (contain),
  // whatever its size; a phone draws squares a finger can hit and pans.
  // The board's zoom buttons scale either: "Fit" goes back to the whole
  // board (a phone's width), + and − scale by a quarter, and the board
  // pans inside its box once it is larger.
  function fitGrid() {
    const gmap = document.querySelector('#board-view .gmap');
    const svg = gmap && gmap.querySelector('svg.grid-svg');
    if (!svg) return;
    const [w, h] = gridSize(svg);
    const cw = w + 0.7, ch = h + 0.7;
    let square = 0; // 0: the stylesheet's own size
    if (root.classList.contains('tabbed')) {
      const own = Number(svg.getAttribute('width')) / cw;
      square = (fitWidth && gmap.clientWidth > 0 ? gmap.clientWidth / cw : own) * zoom;
    } else if (zoom !== 1 && fitSquare > 0) {
      square = fitSquare * zoom;
    }
    svg.style.width = square ? Math.floor(cw * square) + 'px' : '';
    svg.style.height = square ? Math.floor(ch * square) + 'px' : '';
    gmap.classList.toggle('pan', square > 0 && (svg.clientWidth > gmap.clientWidth + 1 || svg.clientHeight > gmap.clientHeight + 1));
    if (!square && svg.clientWidth > 0) fitSquare = Math.min(svg.clientWidth / cw, svg.clientHeight / ch);
    const z = document.querySelector('#battlefield .board-zoom');
    if (z) z.dataset.zoom = square ? String(Math.round(zoom * 100)) : 'fit';
  }
  const boardPane = document.getElementById('pane-board');
  if (boardPane) new ResizeObserver(() => { fitGrid(); fitZones(); }).observe(boardPane);

  // fitZones draws a crowded zone's tokens smaller (tight), then as discs
  // alone (tighter), until they fit the zone: a desktop's zone map fits
  // its pane as a grid does. (A phone stacks its zones; they grow.)
  function fitZones() {
    const tabbed = root.classList.contains('tabbed');
    for (const a of document.querySelectorAll('#board-view .zarea')) {
      a.classList.remove('tight', 'tighter');
      if (tabbed) continue;
      for (const step of ['tight', 'tighter']) {
        if (a.scrollHeight <= a.clientHeight + 1 && a.scrollWidth <= a.clientWidth + 1) break;
        a.classList.add(step);
      }
    }
  }

  // zoomBoard follows a zoom button, keeping what was in the middle of the
  // board in the middle.
  function zoomBoard(how) {
    const gmap = document.querySelector('#board-view .gmap');
    if (!gmap) return;
    const mx = (gmap.scrollLeft + gmap.clientWidth / 2) / Math.max(1, gmap.scrollWidth);
    const my = (gmap.scrollTop + gmap.clientHeight / 2) / Math.max(1, gmap.scrollHeight);
    if (how === 'fit') {
      zoom = 1;
      fitWidth = true;
    } else {
      zoom = Math.min(4, Math.max(0.25, zoom * (how === 'in' ? 1.25 : 0.8)));
      if (Math.abs(zoom - 1) < 0.01) zoom = 1;
    }
    fitGrid();
    gmap.scrollTo({ left: mx * gmap.scrollWidth - gmap.clientWidth / 2, top: my * gmap.scrollHeight - gmap.clientHeight / 2, behavior: 'instant' });
  }

  // revealAction brings the acting token (else the viewer's own) into view
  // when a turn starts — inside the board's box and, on a phone, the
  // window — so a zoomed or panning board shows where the action is.
  // It moves only what scrolls by itself (never the page of a desktop).
  function revealAction(force) {
    const v = boardView();
    if (!v || v.getClientRects().length === 0) return;
    const shown = (sel) => Array.from(v.querySelectorAll(sel)).filter((e) => e.getClientRects().length > 0);
    const acting = shown('[data-token].acting');
    const key = acting.map((e) => e.dataset.token).join(' ');
    if (!force && key === revealed) return;
    revealed = key;
    const el = acting[0] || shown('[data-token].mine')[0];
    if (el) reveal(el);
  }

  function reveal(el) {
    for (let a = el.parentElement; a && a !== document.body; a = a.parentElement) {
      const s = getComputedStyle(a);
      if (!/(auto|scroll)/.test(s.overflowX + ' ' + s.overflowY)) continue;
      const r = el.getBoundingClientRect();
      const c = a.getBoundingClientRect();
      const left = c.left + a.clientLeft, top = c.top + a.clientTop;
      if (r.left < left || r.right > left + a.clientWidth) a.scrollLeft += r.left + r.width / 2 - (left + a.clientWidth / 2);
      if (r.top < top || r.bottom > top + a.clientHeight) a.scrollTop += r.top + r.height / 2 - (top + a.clientHeight / 2);
    }
    if (!root.classList.contains('tabbed')) return;
    // A phone's window, above its tabs and the roll cards' toast.
    const r = el.getBoundingClientRect();
    const toast = document.getElementById('cards-tray');
    const bar = Math.min(tabs && !tabs.hidden ? tabs.getBoundingClientRect().top : innerHeight,
      toast && !toast.hidden && toast.getClientRects().length ? toast.getBoundingClientRect().top : innerHeight);
    if (r.top < 0 || r.bottom > bar) window.scrollBy({ top: r.top + r.height / 2 - bar / 2, behavior: 'instant' });
  }

  // stops are the places the cursor stops at off a grid, in the board's
  // order: each zone and token once, by its key, at its first element.
  function stops() {
    const out = new Map();
    for (const el of boardView()?.querySelectorAll('[data-area], [data-token]') || []) {
      const key = el.dataset.area !== undefined ? 'area:' + el.dataset.area : 'tok:' + el.dataset.token;
      if (!out.has(key)) out.set(key, el);
    }
    return Array.from(out, ([key, el]) => ({ key, el }));
  }

  function tokensAt(svg, x, y) {
    return Array.from(svg.querySelectorAll('[data-token][data-at="' + x + ',' + y + '"]')).map((g) => g.dataset.token);
  }

  function placeOffered(value) {
    buildOffering(document.getElementById('actions'), 'data-place', value);
    return Array.from(document.querySelectorAll('#actions select[data-place]')).some((s) => hasOption(s, value));
  }

  function say(text) {
    if (cursorLine && cursorLine.textContent !== text) cursorLine.textContent = text;
  }

  // drawCursor shows the cursor where it is and says what is there.
  function drawCursor(scroll) {
    for (const el of document.querySelectorAll('#battlefield .cursor')) el.classList.remove('cursor');
    const svg = document.querySelector('#board-view svg.grid-svg');
    if (svg) svgMark(svg, 'cursor-mark', Array.isArray(cursor) ? cursor : null);
    if (!cursor) {
      say('');
      return;
    }
    if (Array.isArray(cursor) && svg) {
      const [x, y] = cursor;
      const here = tokensAt(svg, x, y).map(tokenName);
      const cell = svg.querySelector('rect.cell[x="' + x + '"][y="' + y + '"] title');
      const what = cell ? cell.textContent.replace(/^[A-Z]+\d+( — )?/, '') : '';
      let text = squareName(x, y) + (what ? ' — ' + what : '') + (here.length ? ': ' + here.join(', ') : ': empty');
      if (here.length) text += '. Enter targets ' + here[0] + '.';
      else if (placeOffered(x + ',' + y)) text += '. Enter picks it as the destination.';
      say(text);
      const mark = svg.querySelector('rect.cursor-mark');
      if (scroll && mark) mark.scrollIntoView({ block: 'nearest', inline: 'nearest' });
      return;
    }
    const el = stops().find((s) => s.key === cursor)?.el;
    if (!el) {
      say('');
      return;
    }
    el.classList.add('cursor');
    if (scroll) el.scrollIntoView({ block: 'nearest', inline: 'nearest' });
    if (cursor.startsWith('tok:')) {
      const at = rosterText(cursor.slice(4), '.tok-place');
      say(tokenName(cursor.slice(4)) + (at ? ', ' + at : '') + '. Enter targets it.');
    } else {
      const nameEl = el.querySelector('.zname');
      const name = nameEl ? nameEl.textContent : cursor.slice(5);
      const who = Array.from(el.querySelectorAll('[data-token]')).map((t) => tokenName(t.dataset.token));
      say(name + (who.length ? ': ' + who.join(', ') : ': no one') +
        (placeOffered(cursor.slice(5)) ? '. Enter picks it as the destination.' : '.'));
    }
  }

  function startCursor() {
    const svg = document.querySelector('#board-view svg.grid-svg');
    const from = target || (document.querySelector('#board-view .tok.acting') || {}).dataset?.token || '';
    if (svg) {
      cursor = (from && squareOf(from)) || [0, 0];
      return;
    }
    const list = stops();
    const at = from ? list.find((s) => s.key === 'tok:' + from) : null;
    cursor = at ? at.key : (list[0] ? list[0].key : null);
  }

  function moveCursor(key) {
    if (!cursor) startCursor();
    const svg = document.querySelector('#board-view svg.grid-svg');
    if (svg && Array.isArray(cursor)) {
      const [w, h] = gridSize(svg);
      const d = { ArrowLeft: [-1, 0], ArrowRight: [1, 0], ArrowUp: [0, -1], ArrowDown: [0, 1] }[key];
      cursor = [Math.min(w - 1, Math.max(0, cursor[0] + d[0])), Math.min(h - 1, Math.max(0, cursor[1] + d[1]))];
      return;
    }
    const list = stops();
    if (!list.length) return;
    let i = list.findIndex((s) => s.key === cursor);
    if (key === 'ArrowLeft' || key === 'ArrowRight') {
      i = i < 0 ? 0 : Math.min(list.length - 1, Math.max(0, i + (key === 'ArrowRight' ? 1 : -1)));
      cursor = list[i].key;
      return;
    }
    // Up and down: the previous or next zone (or token, on a board
    // without zones).
    const zones = list.filter((s) => s.key.startsWith('area:'));
    const pool = zones.length ? zones : list;
    const here = i < 0 ? null : list[i].el.closest('[data-area]') || list[i].el;
    let j = pool.findIndex((s) => s.el === here);
    j = j < 0 ? 0 : Math.min(pool.length - 1, Math.max(0, j + (key === 'ArrowDown' ? 1 : -1)));
    cursor = pool[j].key;
  }

  function pickAtCursor() {
    if (!cursor) startCursor();
    const svg = document.querySelector('#board-view svg.grid-svg');
    if (svg && Array.isArray(cursor)) {
      const here = tokensAt(svg, cursor[0], cursor[1]);
      if (here.length) {
        // Several in one square: each Enter picks the next.
        setTarget(here[(here.indexOf(target) + 1) % here.length], true);
        drawCursor(false);
        return;
      }
      place = cursor[0] + ',' + cursor[1];
      if (!applyPlace(true)) say(squareName(cursor[0], cursor[1]) + ': nothing to pick here, and no move goes there now.');
      return;
    }
    if (typeof cursor !== 'string') return;
    if (cursor.startsWith('tok:')) {
      setTarget(cursor.slice(4), true);
      return;
    }
    place = cursor.slice(5);
    if (!applyPlace(true)) say('No move goes there now.');
  }

  // ---- keys ------------------------------------------------------------

  const help = document.getElementById('keys');
  const helpOpen = document.getElementById('keys-open');
  if (help && typeof help.showModal === 'function' && helpOpen) {
    helpOpen.hidden = false;
    helpOpen.addEventListener('click', () => help.showModal());
  }

  // The acting character's group of actions (the viewer's first, for a
  // GM: whoever acts).
  function actingGroup() {
    return document.querySelector('#actions .action-group.acting') || document.querySelector('#actions .action-group[id^="ag-"]:not(#ag-gm)');
  }

  // run performs an action of the bar: submits one that takes no input,
  // opens the form of one that does.
  function run(item) {
    if (!item) return false;
    if (item.matches('details.act')) {
      openAction(item);
      return true;
    }
    const form = item.matches('form') ? item : item.querySelector('form');
    if (!form) return false;
    const go = form.querySelector('button[type="submit"]');
    if (go) go.focus({ preventScroll: true });
    form.requestSubmit(go || undefined);
    return true;
  }

  function mainActions() {
    const g = actingGroup();
    return g ? Array.from(g.querySelectorAll(':scope > .bar > form.action, :scope > .bar > details.act')) : [];
  }

  function endTurn() {
    const g = actingGroup();
    if (g) for (const d of g.querySelectorAll('details.act')) if (unbuilt(d) && formOf(d)?.hasAttribute('data-ends-turn')) build(d);
    const form = g && g.querySelector('form.action[data-ends-turn]');
    if (!form) return false;
    const d = form.closest('details.act');
    return d ? run(d) : run(form);
  }

  // closeSomething closes the topmost thing open — a card tray, a menu, an
  // action's form, the cards — and reports whether it did.
  function closeSomething() {
    if (tray && tray.classList.contains('open')) {
      setTrayOpen(false);
      return true;
    }
    const open = Array.from(document.querySelectorAll('#actions details.act[open], #actions details.more[open]'));
    const shut = document.querySelector('#enc-menu[open], #board-key[open]') || open.find((d) => d.matches('details.act')) || open[0];
    if (shut) {
      shut.open = false;
      shut.querySelector('summary')?.focus();
      return true;
    }
    // The target before the cards: Escape twice leaves an action's form,
    // then forgets its target, whatever rolls are on the screen.
    if (target) {
      setTarget('', false);
      return true;
    }
    if (cards && cards.children.length) {
      for (const c of Array.from(cards.children)) dismiss(c);
      return true;
    }
    return false;
  }

  let swallow = ''; // a key whose press the board used up
  document.addEventListener('keypress', (e) => {
    if (swallow && e.key === swallow) e.preventDefault();
  }, true);
  document.addEventListener('keyup', (e) => {
    if (swallow && e.key === swallow) {
      swallow = '';
      e.preventDefault();
    }
  }, true);

  document.addEventListener('keydown', (e) => {
    if (e.defaultPrevented || e.altKey || e.ctrlKey || e.metaKey) return;
    if (help && help.open) return; // the dialog handles its own keys
    const t = e.target;
    if (e.key === 'Escape') {
      if (t instanceof HTMLSelectElement) return; // closes its own list
      if (closeSomething()) e.preventDefault();
      return;
    }
    const v = boardView();
    if (v && t === v) {
      if (/^Arrow/.test(e.key)) {
        e.preventDefault();
        moveCursor(e.key);
        drawCursor(true);
        return;
      }
      if (e.key === 'Enter' || e.key === ' ') {
        e.preventDefault();
        // Picking moves the focus to the action's button, which the rest
        // of this key (its keypress, a space's keyup) must not press.
        swallow = e.key;
        pickAtCursor();
        return;
      }
    }
    if (window.frayTyping(t) || (t instanceof HTMLButtonElement && (e.key === 'Enter' || e.key === ' '))) return;
    const key = e.key.length === 1 ? e.key.toLowerCase() : e.key;
    let done = true;
    switch (key) {
      case '?':
        if (help && typeof help.showModal === 'function') help.showModal();
        else done = false;
        break;
      case 'b':
        if (root.classList.contains('tabbed')) showTab('board', true);
        if (v) {
          v.focus();
          if (!cursor) startCursor();
          drawCursor(true);
        }
        break;
      case 'a': {
        if (root.classList.contains('tabbed')) showTab('act', true);
        const first = mainActions()[0];
        const el = first && (first.querySelector('summary, button[type="submit"]'));
        if (el) el.focus();
        else done = false;
        break;
      }
      case 'e':
        done = endTurn();
        break;
      case 'd': {
        // The question waiting on you: its default answer, or its first.
        const dec = document.querySelector('#pending form.decision');
        const btn = dec && (dec.querySelector('.choices .btn.primary') || dec.querySelector('.choices button'));
        if (root.classList.contains('tabbed') && btn) showTab('act', true);
        if (btn) btn.focus();
        else done = false;
        break;
      }
      case 'l':
      case 'c': {
        // The log, or the chat's box.
        if (root.classList.contains('tabbed')) showTab(key === 'l' ? 'log' : 'chat', true);
        document.getElementById(key === 'l' ? 'log' : 'chat-text')?.focus();
        break;
      }
      default:
        if (/^[1-9]$/.test(key)) done = run(mainActions()[Number(key) - 1]);
        else done = false;
    }
    if (done) e.preventDefault();
  });

  document.addEventListener('focusout', (e) => {
    if (e.target === boardView() && !(e.relatedTarget instanceof Element && e.relatedTarget === boardView())) {
      // The cursor stays where it was, but only shows while the board has
      // the focus.
      setTimeout(() => { if (document.activeElement !== boardView()) hideCursor(); }, 0);
    }
  });
  // The cursor shows for the keyboard only: a click on the board focuses
  // it too, and then the pointer is what points.
  document.addEventListener('focusin', (e) => {
    if (e.target === boardView() && boardView().matches(':focus-visible')) {
      if (!cursor) startCursor();
      drawCursor(false);
    }
  });

  function hideCursor() {
    for (const el of document.querySelectorAll('#battlefield .cursor')) el.classList.remove('cursor');
    const svg = document.querySelector('#board-view svg.grid-svg');
    if (svg) svgMark(svg, 'cursor-mark', null);
  }

  // ---- roll cards ---------------------------------------------------------
  //
  // One card an action: a card for a command already shown takes the new
  // rolls in. Cards sit in their tray (a toast on a phone); older ones fold
  // to their totals; what does not fit goes to the log at once. Your own
  // cards settle into the log after a few seconds, others' a little later;
  // a card under the pointer or the focus stays while it is there.

  const tray = document.getElementById('cards-tray');
  const cards = document.getElementById('cards');
  const toggle = document.getElementById('cards-toggle');
  const stayMine = 6000;
  const stayOthers = 12000;
  const timers = new Map(); // card → timeout
  let holding = false; // the pointer or the focus is on the tray

  function setTrayOpen(on) {
    if (!tray) return;
    tray.classList.toggle('open', on);
    if (toggle) toggle.setAttribute('aria-expanded', on ? 'true' : 'false');
    if (on) holdAll();
    else releaseAll();
  }

  function schedule(card) {
    clearTimeout(timers.get(card));
    if (holding || (tray && tray.classList.contains('open'))) return;
    timers.set(card, setTimeout(() => dismiss(card), card.classList.contains('mine') ? stayMine : stayOthers));
  }

  function holdAll() {
    for (const t of timers.values()) clearTimeout(t);
    timers.clear();
  }

  function releaseAll() {
    if (!cards) return;
    for (const c of cards.children) schedule(c);
  }

  if (tray) {
    tray.addEventListener('pointerenter', () => { holding = true; holdAll(); });
    tray.addEventListener('pointerleave', () => { holding = false; releaseAll(); });
    tray.addEventListener('focusin', () => { holding = true; holdAll(); });
    tray.addEventListener('focusout', (e) => {
      if (e.relatedTarget instanceof Node && tray.contains(e.relatedTarget)) return;
      holding = false;
      releaseAll();
    });
  }

  function dismiss(card) {
    if (!card || !card.parentNode || card.classList.contains('leaving')) return;
    clearTimeout(timers.get(card));
    timers.delete(card);
    card.classList.add('leaving');
    const entry = document.getElementById('ev-' + (card.dataset.seq || ''));
    if (entry) {
      entry.classList.add('settled');
      setTimeout(() => entry.classList.remove('settled'), 1600);
    }
    setTimeout(() => {
      const focused = card.contains(document.activeElement);
      card.remove();
      settleTray(focused);
    }, 400);
  }

  // settleTray folds every card but the newest, fits them to the tray and
  // hides an empty tray.
  function settleTray(refocus) {
    if (!tray || !cards) return;
    const list = Array.from(cards.children).filter((c) => !c.classList.contains('leaving'));
    list.forEach((c, i) => c.classList.toggle('folded', i < list.length - 1));
    while (cards.children.length > 6) cards.firstElementChild.remove();
    const empty = cards.children.length === 0;
    tray.hidden = empty;
    if (empty) setTrayOpen(false);
    else {
      fitTray();
      showNewest();
    }
    if (refocus) document.getElementById('log')?.focus({ preventScroll: true });
  }

  // fitTray lets the oldest cards go while a desktop's tray cannot show
  // them whole, and trims the newest to what the tray holds. The tray's
  // height follows the window and the panes beside it, so this runs again
  // whenever those may have changed (each update, a resize), not only when
  // a card comes or goes.
  function fitTray() {
    if (!tray || !cards || tray.hidden || tray.classList.contains('open') || root.classList.contains('tabbed')) return;
    const over = () => tray.scrollHeight > tray.clientHeight + 1;
    while (cards.children.length > 1 && over()) {
      const old = cards.firstElementChild;
      clearTimeout(timers.get(old));
      timers.delete(old);
      old.remove();
    }
    // A card too long for the tray puts each roll in a line — its dice
    // and every modifier kept, its headline whole — and the tray scrolls
    // on below its headline; a card opened whole stays so.
    const last = cards.lastElementChild;
    if (last && !last.classList.contains('leaving')) {
      last.classList.remove('compact', 'folded');
      if (over() && !last.classList.contains('whole')) last.classList.add('compact');
    }
    showNewest();
  }

  // showNewest shows the newest card from its headline: one still taller
  // than the tray scrolls on below it, never above.
  function showNewest() {
    const last = cards && cards.lastElementChild;
    if (!last) return;
    tray.scrollTop = tray.scrollHeight;
    const above = tray.getBoundingClientRect().top - last.getBoundingClientRect().top;
    if (above > 0) tray.scrollTop -= above;
  }

  if (tray) new ResizeObserver(() => fitTray()).observe(tray.parentElement);

  function showCards(html) {
    if (!cards || !html) return;
    for (const card of Array.from(parse(html).children)) {
      if (document.getElementById(card.id)) continue;
      // Yours: sent from this page, or the roll of a character you play
      // (an attack resolved once the GM ruled on it comes with the GM's
      // answer).
      const mine = sent.has(card.dataset.command || '') || !!rosterItem(card.dataset.actor || '')?.classList.contains('mine');
      const same = card.dataset.command ? cards.querySelector('.card[data-command="' + CSS.escape(card.dataset.command) + '"]:not(.leaving)') : null;
      let shown = card;
      if (same) {
        // A follow-up of an action already on screen: its rolls join them.
        for (const el of Array.from(card.children)) {
          if (!el.matches('.card-head')) same.append(el);
        }
        shown = same;
      }
      shown.classList.toggle('mine', mine);
      cards.append(shown); // the newest last: next to the log on a desktop, the toast on a phone
      if (tray) tray.hidden = false;
      settleTray(false);
      if (shown.parentNode) schedule(shown);
    }
  }

  // ---- fingerprints ---------------------------------------------------------
  //
  // The page shows the short fingerprint of the history's head (the link
  // of its last event, docs/protocol.md, "Fingerprints") and keeps the
  // heads it showed in localStorage. Each time it checks (on load, then at
  // most every few seconds as events arrive) it asks the server for the
  // chain's links and warns when one it saw is no longer part of the
  // history: the log was changed, not appended to.

  const headsKey = 'fray-heads:' + encounterID;
  const keepHeads = 20;
  let checking = false;
  let checkAgain = false;
  let lastCheck = 0;

  function warnLost(seqN, link) {
    const w = document.getElementById('chain-warning');
    if (!w) return;
    w.hidden = false;
    w.textContent = 'Warning: this encounter\'s history has changed since you saw it. The history you were shown at event ' + seqN +
      ' (fingerprint ' + link.slice(0, 12) + ') is no longer part of it. Keep your export and take it up with the GM.';
  }

  async function checkHeads() {
    if (checking) {
      checkAgain = true;
      return;
    }
    checking = true;
    lastCheck = Date.now();
    try {
      const seen = JSON.parse(store.get(headsKey) || '{}') || {};
      const seqs = Object.keys(seen).map(Number).filter((n) => n > 0).sort((a, b) => a - b);
      const after = Math.max(0, (seqs.length ? Math.min(seqs[0], seq) : seq) - 1);
      const res = await fetch('/api/encounters/' + encodeURIComponent(encounterID) + '/chain?after=' + after, { cache: 'no-store' });
      if (!res.ok) return;
      const heads = (await res.json()).heads || [];
      const links = new Map(heads.map((h) => [h.seq, h.link]));
      const complete = heads.length < 5000;
      const lost = seqs.filter((n) => (links.has(n) ? links.get(n) !== seen[n] : complete));
      if (lost.length) warnLost(lost[0], seen[lost[0]]);
      const head = heads[heads.length - 1];
      if (!head) return;
      const code = document.getElementById('fingerprint-code');
      if (code) {
        code.textContent = head.link.slice(0, 12);
        code.title = head.link;
        document.getElementById('fingerprint').hidden = false;
      }
      // Keep the newest heads, and those lost, so the warning stays.
      const kept = {};
      for (const n of lost) kept[n] = seen[n];
      const fresh = seqs.filter((n) => !lost.includes(n)).slice(-(keepHeads - 1));
      for (const n of fresh) kept[n] = seen[n];
      if (!lost.includes(head.seq)) kept[head.seq] = head.link;
      store.set(headsKey, JSON.stringify(kept));
    } catch (err) {
      // Offline or signed out: the next update checks again.
    } finally {
      checking = false;
      if (checkAgain) {
        checkAgain = false;
        soonCheckHeads();
      }
    }
  }

  // soonCheckHeads checks after an update, at most every three seconds.
  let checkTimer = 0;
  function soonCheckHeads() {
    if (checkTimer) return;
    const wait = Math.max(0, 3000 - (Date.now() - lastCheck));
    checkTimer = setTimeout(() => {
      checkTimer = 0;
      checkHeads();
    }, wait);
  }

  setConn('retry', 'connecting…');
  connect();
  checkHeads();
})();

// ---- History (issue 6): replay keyboard steps ------------------------------
//
// Replay page ([data-replay]): ← and → follow the Previous and Next links,
// Home and End the First and Last ones (each step is its own URL, so the
// browser's history and shared links work the same); the log starts
// scrolled to the step.
(() => {
  if (!document.querySelector('[data-replay]')) return;
  // The log ends at this step: show its end.
  const replayLog = document.getElementById('log');
  if (replayLog) replayLog.scrollTo({ top: replayLog.scrollHeight, behavior: 'instant' });
  const keys = { ArrowLeft: 'replay-prev', ArrowRight: 'replay-next', Home: 'replay-first', End: 'replay-last' };
  document.addEventListener('keydown', (e) => {
    if (e.defaultPrevented || e.altKey || e.ctrlKey || e.metaKey || e.shiftKey) return;
    const id = keys[e.key];
    if (!id) return;
    if (window.frayTyping(e.target) || e.target instanceof HTMLButtonElement) return;
    const link = document.getElementById(id);
    if (!link || !link.href) return; // a disabled step is a <span>
    e.preventDefault();
    location.assign(link.href);
  });
})();

// ---- Checking a history in the page (replay page's #check) ---------------
//
// Downloads the viewer's JSON export and checks its hash chain as
// `server verify` does (docs/protocol.md, "Checking a history"): every link
// from the encounter's genesis, every event given whole against its digest,
// the export's head, and the heads this browser showed at the table.
(() => {
  const panel = document.getElementById('check');
  const button = document.getElementById('check-button');
  const out = document.getElementById('check-result');
  if (!panel || !button || !out) return;
  const p = window.frayProof;
  const enc = new TextEncoder();
  button.hidden = false;

  const concat = (...parts) => new Uint8Array(parts.flatMap((x) => Array.from(x)));

  function seqBytes(seq) {
    const b = new Uint8Array(8);
    new DataView(b.buffer).setBigUint64(0, BigInt(seq));
    return b;
  }

  // check returns the first problem of doc as [seq, reason], or a summary.
  async function check(doc) {
    if (!doc || !doc.encounter || !Array.isArray(doc.chain) || !Array.isArray(doc.events)) {
      return { bad: [0, 'not an export with its chain'] };
    }
    let prev = await p.sha256(enc.encode('fray-chain/v1' + doc.encounter.id));
    const links = new Map();
    for (let i = 0; i < doc.chain.length; i++) {
      const c = doc.chain[i];
      if (c.seq !== i + 1) return { bad: [i + 1, 'the chain goes from ' + i + ' to ' + c.seq] };
      const link = p.hex(await p.sha256(concat(prev, seqBytes(c.seq), p.unhex(c.digest))));
      if (link !== c.link) return { bad: [c.seq, 'the link does not follow from the one before'] };
      links.set(c.seq, link);
      prev = p.unhex(link);
    }
    const head = p.hex(prev);
    if (doc.head && doc.head !== head) return { bad: [doc.chain.length, 'the export\'s head is not its chain\'s'] };
    let last = 0;
    let whole = 0;
    const shown = new Set();
    for (const ev of doc.events) {
      if (ev.seq <= last) return { bad: [ev.seq, 'the events are out of order'] };
      const c = doc.chain[ev.seq - 1];
      if (!c) return { bad: [ev.seq, 'an event not in the chain'] };
      last = ev.seq;
      shown.add(ev.seq);
      if (!c.salt) continue;
      const digest = p.hex(await p.sha256(concat(p.unhex(c.salt), enc.encode(p.canonical(ev)))));
      if (digest !== c.digest) return { bad: [ev.seq, 'the event does not match its digest: it was changed'] };
      whole++;
    }
    for (const c of doc.chain) {
      if (c.salt && !shown.has(c.seq)) return { bad: [c.seq, 'an event given whole in the chain is missing'] };
    }
    const seen = JSON.parse(window.frayStorage.get('fray-heads:' + doc.encounter.id) || '{}') || {};
    const heads = Object.keys(seen).map(Number);
    for (const n of heads) {
      if (links.get(n) !== seen[n]) return { bad: [n, 'the history you were shown at the table (fingerprint ' + String(seen[n]).slice(0, 12) + ') is not part of this one'] };
    }
    return { ok: { events: doc.chain.length, whole, head, heads: heads.length } };
  }

  button.addEventListener('click', async () => {
    out.textContent = 'Checking…';
    out.dataset.result = '';
    try {
      const res = await fetch(panel.dataset.export, { cache: 'no-store' });
      if (!res.ok) throw new Error('the export could not be downloaded (' + res.status + ')');
      const r = await check(await res.json());
      if (r.bad) {
        out.dataset.result = 'bad';
        out.textContent = 'The history does NOT check out at event ' + r.bad[0] + ': ' + r.bad[1] + '.';
        return;
      }
      out.dataset.result = 'ok';
      out.textContent = 'The history checks out: ' + r.ok.events + ' events chained, ' + r.ok.whole + ' of them shown to you and checked, ' +
        'fingerprint ' + r.ok.head.slice(0, 12) + '; it contains all ' + r.ok.heads + ' fingerprints this browser showed you.';
    } catch (err) {
      out.dataset.result = 'error';
      out.textContent = 'Could not check: ' + err.message;
    }
  });
})();

