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
// "battlefield") to that element's new outer HTML, "log" and "chat" to <li>
// entries, and "cards" (events only) to roll cards shown over the table.
//
// The table: on a phone the panes become tabs (Board · Act · Log · Chat);
// clicking a token (or its roster button) picks it as the target of every
// target select in the action bar and opens the first main action that can
// take it; roll cards stay on screen a while (your own until dismissed).
//
// Any page: a <button data-copy="ID" hidden> copies the text of #ID (a new
// token or invite link) and reports in #<data-copy-status>. It is revealed
// only where the clipboard API exists (secure contexts); elsewhere the text
// stays selectable by hand.
// A draft's page: the encounter odds section (#odds) refreshes itself while
// a simulation runs, and its forms post without leaving the page (the
// server answers them with the section, asked by the X-Fray-Fragment
// header). Without the script they post, the page reloads and shows the
// progress as it stood.
// Attention: when it becomes the viewer's turn or a decision waits for
// them (#status's data-attention), the title and icon change, an optional
// tone plays, and a hidden tab shows a notification (see attend()).
// Error pages: "Go back" returns through the browser's history when there
// is one, so the form the visitor filled in keeps its input.
(() => {
  'use strict';

  const back = document.querySelector('a[data-back]');
  if (!back) return;
  back.addEventListener('click', (e) => {
    if (window.history.length > 1) {
      e.preventDefault();
      window.history.back();
    }
  });
})();

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
  let everOpened = false; // a socket opened since the page loaded

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
        setConn('live', 'live');
        break;
      case 'events':
        apply(msg.html, false);
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

  const lastHTML = {}; // the last HTML received for each section

  // apply swaps in re-rendered sections and updates the log and the chat,
  // keeping the keyboard focus, open <details> and half-filled controls
  // where they were; then it shows new roll cards.
  function apply(html, snapshot) {
    if (!html) return;
    const active = document.activeElement;
    let focus = null;
    for (const key of Object.keys(html)) {
      if (key === 'log' || key === 'chat' || key === 'cards') continue;
      // A section the update does not change stays as it is: no churn for
      // focus, scroll or a screen reader.
      if (lastHTML[key] === html[key]) continue;
      lastHTML[key] = html[key];
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
    if (typeof html.log === 'string') updateList('log', html.log, snapshot);
    if (typeof html.chat === 'string' && updateList('chat', html.chat, snapshot) && !snapshot) dot('chat');
    if (!snapshot && typeof html.cards === 'string') showCards(html.cards);
    applyTarget(false);
    applyPlace(false);
    if (!snapshot && wantsAttention()) dot('act');
    attend();
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

  // updateList merges entries into #log or #chat in order, skipping ids it
  // already holds, so a duplicate delivery never doubles an entry. A
  // snapshot is the whole list: entries it lacks are removed and changed
  // ones replaced. Existing nodes stay put, so the live region announces
  // only what is new. It reports whether anything was added.
  function updateList(listId, html, snapshot) {
    const list = document.getElementById(listId);
    if (!list) return false;
    const atBottom = list.scrollHeight - list.scrollTop - list.clientHeight < 24;
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
    }
    if (snapshot) {
      for (const li of Array.from(list.children)) {
        if (!keep.has(li.id)) li.remove();
      }
    } else if (added) {
      const empty = document.getElementById(listId + '-empty');
      if (empty) empty.remove();
    }
    if (atBottom || !snapshot) list.scrollTop = list.scrollHeight;
    return added;
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
    if (!(form instanceof HTMLFormElement) || !form.matches('form.action, form.decision, form.chat-form')) return;
    if (form.dataset.pending) {
      e.preventDefault(); // already sent; waiting for the server's answer
      return;
    }
    const open = ws && ws.readyState === WebSocket.OPEN;
    // Never connected (no websockets through this network) or leaving the
    // page: let the browser post the form.
    if (!open && (stopped || !everOpened)) return;
    e.preventDefault();
    let submitter = e.submitter;
    if (!submitter && document.activeElement && document.activeElement.form === form) {
      submitter = document.activeElement;
    }
    const id = newID();
    const frame = JSON.stringify({ type: 'command', id, command: buildCommand(form, submitter) });
    if (!form.id) form.id = 'form-' + id;
    pending.set(id, { frame, formId: form.id });
    sent.add(id);
    markPending(form, id);
    if (!open) {
      // The server is away: keep the command and send it on reconnecting
      // rather than letting the browser post into an error page.
      showNotice('Reconnecting: your command will be sent when the connection is back.');
      reconnectNow();
      return;
    }
    showNotice('');
    ws.send(frame);
  });

  // ---- the table: tabs, targets, roll cards -----------------------------

  const sent = new Set(); // ids of the commands this page sent
  const phone = window.matchMedia('(max-width: 759px)');
  const tabs = document.getElementById('tabs');

  function showTab(name, remember) {
    root.dataset.tab = name;
    if (tabs) {
      for (const t of tabs.querySelectorAll('[data-show]')) {
        const on = t.dataset.show === name;
        t.setAttribute('aria-selected', on ? 'true' : 'false');
        if (on) {
          const d = t.querySelector('.tab-dot');
          if (d) d.hidden = true;
        }
      }
    }
    if (remember) {
      try { sessionStorage.setItem('fray-tab', name); } catch (err) { /* private mode */ }
    }
  }

  function setLayout() {
    const on = phone.matches;
    root.classList.toggle('tabbed', on);
    if (tabs) tabs.hidden = !on;
    if (on) {
      let saved = null;
      try { saved = sessionStorage.getItem('fray-tab'); } catch (err) { /* private mode */ }
      showTab(saved || root.dataset.tab || 'board', false);
    }
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

  function storedSound() {
    try { return localStorage.getItem('fray-sound') === 'on'; } catch (err) { return false; }
  }

  function tone() {
    if (!soundToggle || !soundToggle.checked) return;
    const AC = window.AudioContext || window.webkitAudioContext;
    if (!AC) return;
    try {
      audio = audio || new AC();
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
    if (iconLink) iconLink.setAttribute('href', text ? alertIcon : baseIcon);
    root.dataset.attention = now;
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
      soundToggle.checked = storedSound();
      soundToggle.addEventListener('change', () => {
        try { localStorage.setItem('fray-sound', soundToggle.checked ? 'on' : 'off'); } catch (err) { /* private mode */ }
        if (soundToggle.checked) {
          // Audio may start only after a user's gesture: this one.
          const AC = window.AudioContext || window.webkitAudioContext;
          if (AC && !audio) { try { audio = new AC(); } catch (err) { /* none */ } }
          tone();
        }
      });
    }
    if (notifyBtn) {
      notifyBtn.addEventListener('click', () => {
        const asked = Notification.requestPermission(showNotifyButton);
        if (asked && typeof asked.then === 'function') asked.then(showNotifyButton, showNotifyButton);
      });
    }
    showNotifyButton();
  }
  attend();

  if (tabs) {
    tabs.setAttribute('role', 'tablist');
    for (const t of tabs.querySelectorAll('[data-show]')) {
      t.setAttribute('role', 'tab');
      t.addEventListener('click', () => showTab(t.dataset.show, true));
    }
  }
  if (phone.addEventListener) phone.addEventListener('change', setLayout);
  setLayout();

  let target = '';

  function tokenName(id) {
    const btn = document.querySelector('.tok-btn[data-token="' + CSS.escape(id) + '"] .tok-name');
    return btn ? btn.textContent : id;
  }

  // applyTarget marks the chosen token and fills every target select that
  // offers it; open asks to open the first main action that can take it.
  function applyTarget(open) {
    for (const el of document.querySelectorAll('[data-token]')) {
      const on = el.dataset.token === target;
      el.classList.toggle('selected', on);
      if (el.classList.contains('tok-btn')) el.setAttribute('aria-pressed', on ? 'true' : 'false');
    }
    const line = document.getElementById('target-line');
    if (line) {
      line.hidden = !target;
      const name = document.getElementById('target-name');
      if (name) name.textContent = target ? tokenName(target) : '';
    }
    if (!target) return;
    let first = null;
    for (const sel of document.querySelectorAll('#actions select[data-target]')) {
      if (!Array.from(sel.options).some((o) => o.value === target)) continue;
      sel.value = target;
      const d = sel.closest('details.act');
      if (!first && d && !d.closest('details.more')) first = d;
    }
    if (open) openAction(first, 'select[data-target]');
  }

  // openAction opens the action form already open that has a select
  // matching sel, or else first, and brings its button into view.
  function openAction(first, sel) {
    const already = document.querySelector('#actions details.act[open] ' + sel);
    const d = already ? already.closest('details.act') : first;
    if (!d) return;
    d.open = true;
    if (root.classList.contains('tabbed')) showTab('act', true);
    const go = d.querySelector('button[type="submit"]');
    if (go) {
      go.focus({ preventScroll: true });
      go.scrollIntoView({ block: 'nearest' });
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
    const svg = e.target.closest('#battlefield svg.grid-svg');
    const m = svg && svg.getScreenCTM();
    if (!m) return '';
    const p = new DOMPoint(e.clientX, e.clientY).matrixTransform(m.inverse());
    const x = Math.floor(p.x);
    const y = Math.floor(p.y);
    return x >= 0 && y >= 0 ? x + ',' + y : '';
  }

  function markPlace() {
    for (const el of document.querySelectorAll('#battlefield [data-area]')) {
      el.classList.toggle('placed', el.dataset.area === place);
    }
    const svg = document.querySelector('#battlefield svg.grid-svg');
    if (!svg) return;
    let mark = svg.querySelector('rect.place-mark');
    const xy = /^(\d+),(\d+)$/.exec(place);
    if (!xy) {
      if (mark) mark.remove();
      return;
    }
    if (!mark) {
      mark = document.createElementNS('http://www.w3.org/2000/svg', 'rect');
      mark.setAttribute('class', 'place-mark');
      mark.setAttribute('width', '1');
      mark.setAttribute('height', '1');
      mark.setAttribute('vector-effect', 'non-scaling-stroke');
      svg.appendChild(mark);
    }
    mark.setAttribute('x', xy[1]);
    mark.setAttribute('y', xy[2]);
  }

  // applyPlace fills every place select that offers the chosen place (a
  // place none offers is forgotten); open asks to open the first main
  // action that can go there.
  function applyPlace(open) {
    const selects = document.querySelectorAll('#actions select[data-place]');
    root.classList.toggle('places', selects.length > 0);
    let first = null;
    let offered = false;
    for (const sel of selects) {
      if (!place || !Array.from(sel.options).some((o) => o.value === place)) continue;
      offered = true;
      sel.value = place;
      const d = sel.closest('details.act');
      if (!first && d && !d.closest('details.more')) first = d;
    }
    if (!offered) place = '';
    markPlace();
    if (open && offered) openAction(first, 'select[data-place]');
  }

  document.addEventListener('click', (e) => {
    const el = e.target instanceof Element ? e.target.closest('[data-token]') : null;
    if (el && root.contains(el)) {
      target = target === el.dataset.token && el.classList.contains('tok-btn') ? '' : el.dataset.token;
      applyTarget(!!target);
      return;
    }
    const at = placeAt(e);
    if (at) {
      place = place === at ? '' : at;
      applyPlace(!!place);
      return;
    }
    if (e.target instanceof Element && e.target.id === 'target-clear') {
      target = '';
      applyTarget(false);
      return;
    }
    const close = e.target instanceof Element ? e.target.closest('.card-close') : null;
    if (close) dismiss(close.closest('.card'));
  });

  // A target chosen from a list counts like one clicked on the board.
  document.addEventListener('change', (e) => {
    if (e.target instanceof HTMLSelectElement && e.target.dataset.target && root.contains(e.target)) {
      target = e.target.value;
      applyTarget(false);
    }
    if (e.target instanceof HTMLSelectElement && e.target.dataset.place && root.contains(e.target)) {
      place = e.target.value;
      applyPlace(false);
    }
  });

  document.addEventListener('keydown', (e) => {
    if (e.key !== 'Escape') return;
    const open = document.querySelector('#actions details.act[open]');
    if (open) {
      open.open = false;
      const s = open.querySelector('summary');
      if (s) s.focus();
    }
  });

  // ---- roll cards ---------------------------------------------------------

  const cards = document.getElementById('cards');
  const maxCards = 3;

  function dismiss(card) {
    if (!card || !card.parentNode) return;
    card.classList.add('leaving');
    setTimeout(() => card.remove(), 400);
  }

  function showCards(html) {
    if (!cards || !html) return;
    for (const card of Array.from(parse(html).children)) {
      if (document.getElementById(card.id)) continue;
      const mine = sent.has(card.dataset.command || '');
      card.classList.toggle('mine', mine);
      if (mine) {
        // A newer card of your own replaces the older one.
        for (const old of cards.querySelectorAll('.card.mine')) setTimeout(() => dismiss(old), 4000);
      } else {
        setTimeout(() => dismiss(card), 12000);
      }
      cards.append(card);
    }
    while (cards.children.length > maxCards) cards.firstElementChild.remove();
  }

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

(() => {
  'use strict';

  if (!document.getElementById('odds') || typeof fetch !== 'function') return;
  const headers = { 'X-Fray-Fragment': 'odds' };
  let timer = 0;

  // swap puts the section the server sent in place of the old one; focus
  // goes to focusID, or stays on the element it was on.
  function swap(html, focusID) {
    const old = document.getElementById('odds');
    const t = document.createElement('template');
    t.innerHTML = html.trim();
    const node = t.content.firstElementChild;
    if (!old || !node || node.id !== 'odds') return;
    const was = document.activeElement && old.contains(document.activeElement) ? document.activeElement.id : '';
    old.replaceWith(node);
    const focus = document.getElementById(focusID || was) || (focusID && node.querySelector('button'));
    if (focus) focus.focus();
    schedule();
  }

  function schedule() {
    clearTimeout(timer);
    const sec = document.getElementById('odds');
    if (sec && sec.hasAttribute('data-active')) timer = setTimeout(poll, 1000);
  }

  function poll() {
    const sec = document.getElementById('odds');
    if (!sec) return;
    fetch(sec.dataset.oddsUrl, { headers, credentials: 'same-origin' })
      .then((r) => (r.ok ? r.text() : Promise.reject(new Error(String(r.status)))))
      .then((html) => swap(html, ''), () => { timer = setTimeout(poll, 5000); });
  }

  document.addEventListener('submit', (e) => {
    const form = e.target;
    if (!(form instanceof HTMLFormElement) || !form.hasAttribute('data-odds-form')) return;
    e.preventDefault();
    const button = form.querySelector('button[type="submit"]');
    if (button) button.disabled = true;
    fetch(form.action, { method: 'POST', body: new URLSearchParams(new FormData(form)), headers, credentials: 'same-origin' })
      .then((r) => r.text())
      .then((html) => swap(html, document.getElementById('simulate') ? 'odds-cancel' : 'simulate'), () => form.submit());
  });

  schedule();
})();
