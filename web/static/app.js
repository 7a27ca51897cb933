// Fray encounter page: live updates over one websocket, and commands sent
// through it. Without this script (or without a socket) every form still
// posts to the server and the page reloads, so nothing here is required.
//
// Protocol (JSON text frames), see docs/protocol.md:
//   server → client  {"type":"snapshot","seq":N,"view":{…},"html":{…}}
//                    {"type":"events","seq":N,"events":[…],"html":{…}}
//                    {"type":"ack","id":"…","seq":N}
//                    {"type":"error","id":"…","code":"…","message":"…"}
//   client → server  {"type":"command","id":"<uuid>","command":{"kind":…,…}}
// html maps a section id ("status", "pending", "actions", "order",
// "battlefield") to that element's new outer HTML, and "log" to <li> entries.
//
// Any page: a <button data-copy="ID" hidden> copies the text of #ID (a new
// token or invite link) and reports in #<data-copy-status>. It is revealed
// only where the clipboard API exists (secure contexts); elsewhere the text
// stays selectable by hand.
(() => {
  'use strict';

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
  'use strict';

  const root = document.querySelector('[data-ws-url]');
  if (!root || !('WebSocket' in window)) return;

  const wsPath = root.dataset.wsUrl;
  const conn = document.getElementById('conn');
  const notice = document.getElementById('notice');
  let seq = Number(root.dataset.seq) || 0;

  // Commands sent but not yet acknowledged, by id: the exact frame (resent
  // unchanged after a reconnect; the server applies an id at most once) and
  // the id of the form that sent it (re-disabled after a re-render).
  const pending = new Map();

  let ws = null;
  let attempt = 0; // reconnects since the last successful open
  let timer = 0;
  let stopped = false;

  // ---- connection -------------------------------------------------------

  function setConn(state, text) {
    if (!conn) return;
    conn.hidden = false;
    conn.dataset.state = state;
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
      setConn('live', 'live');
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
      if (e.code === 1008) {
        // Policy violation: the server refuses this viewer; retrying won't help.
        stopped = true;
        setConn('off', 'disconnected — reload the page');
        return;
      }
      if (e.code === 4401 || e.code === 4403 || e.code === 4409) {
        // Signed out, no longer a member, or access changed: the page as it
        // stands is no longer what this viewer may see. Load it afresh (the
        // server sends a signed-out visitor to log in).
        stopped = true;
        setConn('off', 'your access changed — reloading');
        location.reload();
        return;
      }
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
        break;
      case 'events':
        apply(msg.html, false);
        if (typeof msg.seq === 'number' && msg.seq > seq) setSeq(msg.seq);
        break;
      case 'ack':
        settle(msg.id);
        break;
      case 'error':
        settle(msg.id);
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

  // apply swaps in re-rendered sections and updates the log, keeping the
  // keyboard focus, open <details> and half-filled controls where they were.
  function apply(html, snapshot) {
    if (!html) return;
    const active = document.activeElement;
    let focus = null;
    for (const key of Object.keys(html)) {
      if (key === 'log') continue;
      const old = document.getElementById(key);
      const node = old && parse(html[key]).firstElementChild;
      if (!node || node.id !== key) continue;
      if (active && active !== document.body && old.contains(active)) {
        focus = { id: active.id, name: active.getAttribute('name'), section: key };
      }
      carryOver(old, node);
      old.replaceWith(node);
    }
    for (const [id, p] of pending) {
      const form = document.getElementById(p.formId);
      if (form) markPending(form, id);
    }
    if (focus) restoreFocus(focus);
    if (typeof html.log === 'string') updateLog(html.log, snapshot);
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
        if (Array.from(n.options).some((o) => o.value === el.value)) n.value = el.value;
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

  // updateLog merges entries into #log in order, skipping ids it already
  // holds, so a duplicate delivery never doubles an entry. A snapshot is the
  // whole log: entries it lacks are removed and changed ones replaced.
  // Existing nodes stay put, so the live region announces only what is new.
  function updateLog(html, snapshot) {
    const log = document.getElementById('log');
    if (!log) return;
    const atBottom = log.scrollHeight - log.scrollTop - log.clientHeight < 24;
    const items = Array.from(parse(html).children);
    const keep = new Set();
    let prev = null;
    let added = false;
    for (const li of items) {
      if (li.id) keep.add(li.id);
      const cur = li.id ? document.getElementById(li.id) : null;
      if (cur && cur.parentNode === log) {
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
        else log.prepend(li);
      } else {
        log.append(li);
      }
      prev = li;
      added = true;
    }
    if (snapshot) {
      for (const li of Array.from(log.children)) {
        if (!keep.has(li.id)) li.remove();
      }
    } else if (added) {
      const empty = document.getElementById('log-empty');
      if (empty) empty.remove();
    }
    if (atBottom) log.scrollTop = log.scrollHeight;
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

  function settle(id) {
    const p = id && pending.get(id);
    if (!p) return;
    pending.delete(id);
    const form = document.getElementById(p.formId);
    if (form && form.dataset.pending === id) unmarkPending(form);
  }

  function newID() {
    if (typeof crypto.randomUUID === 'function') return crypto.randomUUID();
    // randomUUID exists only in secure contexts; a phone on plain http over
    // the LAN still has getRandomValues. Build a version 4 UUID from it.
    const b = crypto.getRandomValues(new Uint8Array(16));
    b[6] = (b[6] & 0x0f) | 0x40;
    b[8] = (b[8] & 0x3f) | 0x80;
    const h = Array.from(b, (x) => x.toString(16).padStart(2, '0')).join('');
    return `${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20)}`;
  }

  // buildCommand reads the form's controls, typed by their data-type:
  // number → Number, checkbox → boolean, anything else → string. The button
  // that submitted adds its own name/value (a decision's choice).
  function buildCommand(form, submitter) {
    const cmd = {};
    for (const el of form.elements) {
      if (!el.name || el.disabled || el.hasAttribute('data-form-only')) continue;
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
    if (!(form instanceof HTMLFormElement) || !form.matches('form.action, form.decision')) return;
    if (form.dataset.pending) {
      e.preventDefault(); // already sent; waiting for the server's answer
      return;
    }
    if (!ws || ws.readyState !== WebSocket.OPEN) return; // let the browser post it
    e.preventDefault();
    let submitter = e.submitter;
    if (!submitter && document.activeElement && document.activeElement.form === form) {
      submitter = document.activeElement;
    }
    const id = newID();
    const frame = JSON.stringify({ type: 'command', id, command: buildCommand(form, submitter) });
    if (!form.id) form.id = 'form-' + id;
    pending.set(id, { frame, formId: form.id });
    showNotice('');
    markPending(form, id);
    ws.send(frame);
  });

  setConn('retry', 'connecting…');
  connect();
})();

// ---- History (issue 6): replay keyboard steps, undone log entries ---------
//
// Replay page ([data-replay]): ← and → follow the Previous and Next links,
// Home and End the First and Last ones (each step is its own URL, so the
// browser's history and shared links work the same); the log starts
// scrolled to the step.
// Any log (#log): a rewind's entry lists the seqs it undid in data-undone;
// entries already on the page are marked undone when it arrives live.
(() => {
  'use strict';

  if (document.querySelector('[data-replay]')) {
    // The log ends at this step: show its end.
    const replayLog = document.getElementById('log');
    if (replayLog) replayLog.scrollTo({ top: replayLog.scrollHeight, behavior: 'instant' });
    const keys = { ArrowLeft: 'replay-prev', ArrowRight: 'replay-next', Home: 'replay-first', End: 'replay-last' };
    document.addEventListener('keydown', (e) => {
      if (e.defaultPrevented || e.altKey || e.ctrlKey || e.metaKey || e.shiftKey) return;
      const id = keys[e.key];
      if (!id) return;
      const t = e.target;
      if (t && (t.isContentEditable || /^(INPUT|SELECT|TEXTAREA|BUTTON)$/.test(t.tagName))) return;
      const link = document.getElementById(id);
      if (!link || !link.href) return; // a disabled step is a <span>
      e.preventDefault();
      location.assign(link.href);
    });
  }

  const log = document.getElementById('log');
  if (!log || !('MutationObserver' in window)) return;

  function markUndone(entry) {
    for (const seq of (entry.dataset.undone || '').split(/\s+/)) {
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

  for (const li of log.querySelectorAll('li[data-undone]')) markUndone(li);
  new MutationObserver((changes) => {
    for (const c of changes) {
      for (const n of c.addedNodes) {
        if (n.nodeType === 1 && n.dataset.undone) markUndone(n);
      }
    }
  }).observe(log, { childList: true });
})();
