// Fray's encounter editor on the board (the draft page). Drags and clicks
// on the board become edits posted with htmx (static/htmx.min.js); the
// server answers with the editor, #draft-editor, which htmx swaps in. This
// file only turns pointer gestures into an edit's fields: what was
// dragged or picked (a combatant, a bestiary entry or character, a zone)
// and where it went (a zone, a square, another combatant, a rung). Every
// gesture also works as two clicks (pick, then put), and every edit has a
// form in the side panel for the keyboard.
(() => {
  'use strict';
  const editor = () => document.getElementById('draft-editor');
  if (!editor() || !window.htmx) return;

  let picked = null; // {token} | {add, key, id} | {zone}
  let press = null; // the pointer gesture under way

  const post = (values) =>
    htmx.ajax('POST', editor().dataset.editUrl, { target: '#draft-editor', swap: 'outerHTML', values });
  const canvas = () => document.getElementById('board-preview');
  const model = () => (canvas() ? canvas().dataset.model : '');
  const value = (id) => (document.getElementById(id) || {}).value || '';

  // setValue sets the field #id, if the page has it, to v.
  const setValue = (id, v) => {
    const f = document.getElementById(id);
    if (f) f.value = String(v);
  };

  // squareMark draws a one-square mark of class cls at x, y on a grid's
  // svg.
  function squareMark(svg, cls, x, y) {
    const mark = document.createElementNS('http://www.w3.org/2000/svg', 'rect');
    mark.setAttribute('class', cls);
    mark.setAttribute('x', x);
    mark.setAttribute('y', y);
    mark.setAttribute('width', 1);
    mark.setAttribute('height', 1);
    svg.appendChild(mark);
  }

  // source is what a pointer went down on that can be dragged.
  function source(el) {
    const chip = el.closest('[data-drag-token],[data-drag-add]');
    if (chip && editor().contains(chip)) {
      return chip.dataset.dragToken
        ? { token: chip.dataset.dragToken, el: chip }
        : { add: chip.dataset.dragAdd, key: chip.dataset.key, id: chip.dataset.id, el: chip };
    }
    const tok = el.closest('#board-preview [data-token]');
    return tok ? { token: tok.dataset.token, el: tok } : null;
  }

  // grid is the board's grid drawing, if it is a grid (see app.js's
  // window.frayGrid); cellAt is its square under a point of the screen.
  const grid = () => document.querySelector('#board-preview .grid-svg');
  const cellAt = (x, y) => window.frayGrid.squareAt(grid(), x, y);

  // target is the place on the board under a point: a zone, a square,
  // another combatant, or the board itself.
  function target(x, y) {
    const el = document.elementFromPoint(x, y);
    if (!el || !el.closest('#board-preview')) return null;
    const tok = el.closest('[data-token]');
    switch (model()) {
      case 'zones': {
        const a = el.closest('[data-area]');
        return a ? { zone: a.dataset.area } : { board: true };
      }
      case 'grid': {
        const c = cellAt(x, y);
        return c ? { cell: c } : null;
      }
      case 'pairs':
        return tok ? { other: tok.dataset.token } : { board: true };
      default:
        return { board: true };
    }
  }

  function startFields(t) {
    if (t.zone) return { 'start.zone': t.zone };
    if (t.cell) return { 'start.x': String(t.cell[0]), 'start.y': String(t.cell[1]) };
    return {};
  }

  // put applies what was picked or dragged (src) to the place t; false
  // when it means nothing there.
  function put(src, t) {
    if (!src || !t) return false;
    if (src.add) {
      post(Object.assign({ op: src.add, [src.key]: src.id, side: value('tray-side'), count: '1' }, startFields(t)));
      return true;
    }
    if (src.token && t.other && t.other !== src.token) {
      post({ op: 'pair-add', a: src.token, b: t.other, distance: value('pair-distance') });
      return true;
    }
    if (src.token && (t.zone || t.cell)) {
      post(Object.assign({ op: 'place', combatant: src.token }, startFields(t)));
      return true;
    }
    if (src.zone && t.zone && t.zone !== src.zone) {
      post({ op: 'connect', a: src.zone, b: t.zone });
      return true;
    }
    return false;
  }

  function pick(src) {
    document.querySelectorAll('#draft-editor .picked').forEach((el) => {
      el.classList.remove('picked');
      if (el.hasAttribute('aria-pressed')) el.setAttribute('aria-pressed', 'false');
    });
    picked = src;
    if (!src) return;
    if (src.el) {
      src.el.classList.add('picked');
      if (src.el.hasAttribute('aria-pressed')) src.el.setAttribute('aria-pressed', 'true');
    }
    if (src.token) {
      // The side panel: the combatant's own row, to edit it.
      const row = document.querySelector('#combatant-list [data-combatant="' + CSS.escape(src.token) + '"]');
      if (row) {
        row.classList.add('picked');
        row.scrollIntoView({ block: 'nearest' });
      }
    }
  }

  function ghost(src, x, y) {
    const g = document.createElement('div');
    g.className = 'drag-ghost';
    g.textContent = (src.el && src.el.textContent.trim()) || '';
    document.body.appendChild(g);
    move(g, x, y);
    return g;
  }
  function move(el, x, y) {
    el.style.transform = 'translate(' + (x + 8) + 'px,' + (y + 8) + 'px)';
  }

  // The rectangle a zone is drawn with, in the canvas.
  function rectBox(p, x, y) {
    const c = canvas().getBoundingClientRect();
    const l = Math.max(Math.min(p.x, x), c.left), r = Math.min(Math.max(p.x, x), c.right);
    const t = Math.max(Math.min(p.y, y), c.top), b = Math.min(Math.max(p.y, y), c.bottom);
    return { c, l, r, t, b };
  }
  function drawRect(p, x, y) {
    const { c, l, r, t, b } = rectBox(p, x, y);
    if (!p.rect) {
      p.rect = document.createElement('div');
      p.rect.className = 'draw-rect';
      canvas().appendChild(p.rect);
    }
    Object.assign(p.rect.style, { left: l - c.left + 'px', top: t - c.top + 'px', width: r - l + 'px', height: b - t + 'px' });
  }
  // A drawn rectangle opens the "Add a zone" form with the place and size
  // it covers: columns and rows of the zone map's frame (12 columns and
  // 8 rows until every zone has a place, then the map's own), so the zone
  // is drawn on the page where it was drawn here.
  function zoneFromRect(p, x, y) {
    const { c, l, r, t, b } = rectBox(p, x, y);
    const zmap = canvas().querySelector('.zmap[data-placed="true"]');
    const cols = zmap ? Number(zmap.dataset.cols) || 12 : 12, rows = zmap ? Number(zmap.dataset.rows) || 8 : 8;
    const box = zmap ? zmap.getBoundingClientRect() : c;
    const at = (v, lo, size, n) => Math.min(n - 1, Math.max(0, Math.floor(((v - lo) / size) * n)));
    const col = at(l + 1, box.left, box.width, cols), row = at(t + 1, box.top, box.height, rows);
    const col2 = at(r - 1, box.left, box.width, cols), row2 = at(b - 1, box.top, box.height, rows);
    setValue('zone-x', col);
    setValue('zone-y', row);
    setValue('zone-w', Math.max(1, col2 - col + 1));
    setValue('zone-h', Math.max(1, row2 - row + 1));
    const name = document.getElementById('zone-name');
    if (name) {
      name.scrollIntoView({ block: 'nearest' });
      name.focus();
    }
  }

  document.addEventListener('pointerdown', (e) => {
    if (e.button !== 0 || !editor() || !editor().contains(e.target)) return;
    const src = source(e.target);
    const onBoard = !!e.target.closest('#board-preview');
    if (!src && !onBoard) return;
    press = { x: e.clientX, y: e.clientY, src, moved: false, cells: new Set() };
    if (!src && onBoard && splitting()) {
      press.split = true;
    } else if (!src && onBoard && !picked) {
      if (model() === 'zones' && !e.target.closest('[data-area]')) press.draw = true;
      if (model() === 'grid' && cellAt(e.clientX, e.clientY)) press.paint = true;
    }
    if (press.paint) paintAt(e.clientX, e.clientY);
    if (src || press.draw || press.paint || press.split) e.preventDefault();
  });

  // Splitting a zone along a drawn line: with "Draw a split line"
  // pressed, a stroke across a zone fills the split form — the zone under
  // the stroke's middle, a line down or across the map as the stroke
  // mostly runs, at the nearest column or row boundary — and sends it.
  const splitting = () => {
    const b = document.getElementById('split-draw');
    return !!b && b.getAttribute('aria-pressed') === 'true';
  };
  document.addEventListener('click', (e) => {
    const b = e.target.closest('#split-draw');
    if (!b) return;
    b.setAttribute('aria-pressed', splitting() ? 'false' : 'true');
    if (canvas()) canvas().classList.toggle('splitting', splitting());
  });
  function drawLine(p, x, y) {
    const c = canvas().getBoundingClientRect();
    if (!p.line) {
      p.line = document.createElement('div');
      p.line.className = 'split-line';
      canvas().appendChild(p.line);
    }
    const len = Math.hypot(x - p.x, y - p.y), angle = Math.atan2(y - p.y, x - p.x);
    Object.assign(p.line.style, { left: p.x - c.left + 'px', top: p.y - c.top + 'px', width: len + 'px',
      transform: 'rotate(' + angle + 'rad)' });
  }
  function splitFromLine(p, x, y) {
    if (p.line) p.line.remove();
    const zmap = canvas().querySelector('.zmap');
    if (!zmap) return;
    const mx = (p.x + x) / 2, my = (p.y + y) / 2;
    const area = document.elementsFromPoint(mx, my).map((el) => el.closest && el.closest('#board-preview [data-area]')).find(Boolean);
    if (!area) return;
    const box = zmap.getBoundingClientRect();
    const cols = Number(zmap.dataset.cols) || 12, rows = Number(zmap.dataset.rows) || 8;
    const down = Math.abs(x - p.x) < Math.abs(y - p.y);
    const at = down ? Math.round(((mx - box.left) / box.width) * cols) : Math.round(((my - box.top) / box.height) * rows);
    setValue('split-zone', area.dataset.area);
    setValue('split-axis', down ? 'col' : 'row');
    setValue('split-at', at);
    document.getElementById('split-form')?.requestSubmit();
  }

  // A map file dropped on the import form or on the board is imported.
  function mapDrop(e) {
    const form = document.getElementById('map-form'), input = document.getElementById('map-file');
    if (!form || !input || !e.dataTransfer || !e.dataTransfer.files.length) return;
    if (!e.target.closest('#map-drop, #board-preview')) return;
    e.preventDefault();
    input.files = e.dataTransfer.files;
    form.requestSubmit();
  }
  document.addEventListener('dragover', (e) => {
    if (e.dataTransfer && [...e.dataTransfer.types].includes('Files') && e.target.closest && e.target.closest('#map-drop, #board-preview')) {
      e.preventDefault();
      const d = document.getElementById('map-drop');
      if (d) d.classList.add('over');
    }
  });
  document.addEventListener('drop', mapDrop);

  function paintAt(x, y) {
    const c = cellAt(x, y);
    if (!c || press.cells.has(c.join(','))) return;
    press.cells.add(c.join(','));
    squareMark(grid(), 'paint-mark', c[0], c[1]);
  }

  document.addEventListener('pointermove', (e) => {
    if (!press) return;
    if (!press.moved && Math.hypot(e.clientX - press.x, e.clientY - press.y) < 6) return;
    press.moved = true;
    if (press.src) {
      if (!press.ghost) press.ghost = ghost(press.src, e.clientX, e.clientY);
      move(press.ghost, e.clientX, e.clientY);
    } else if (press.draw) {
      drawRect(press, e.clientX, e.clientY);
    } else if (press.split) {
      drawLine(press, e.clientX, e.clientY);
    } else if (press.paint) {
      paintAt(e.clientX, e.clientY);
    }
  });

  document.addEventListener('pointerup', (e) => {
    const p = press;
    press = null;
    if (!p) return;
    if (p.ghost) p.ghost.remove();
    if (p.paint) {
      const brush = new FormData(document.getElementById('cell-form') || undefined);
      const v = { op: 'cell-set', cells: [...p.cells] };
      for (const [k, val] of brush) if (k.startsWith('prop.')) v[k] = val;
      post(v);
      return;
    }
    if (p.draw) {
      if (p.moved) zoneFromRect(p, e.clientX, e.clientY);
      return;
    }
    if (p.split) {
      if (p.moved) splitFromLine(p, e.clientX, e.clientY);
      else if (p.line) p.line.remove();
      return;
    }
    const t = target(e.clientX, e.clientY);
    if (p.moved && p.src) {
      if (put(p.src, t)) pick(null);
      return;
    }
    // A click: put what is picked here, or pick this.
    if (picked && put(picked, t)) {
      pick(null);
      return;
    }
    if (p.src) {
      pick(picked && picked.el === p.src.el ? null : p.src);
      return;
    }
    const rung = e.target.closest('#board-preview [data-rung]');
    if (rung) {
      const l = rung.closest('[data-a]');
      post({ op: 'distance-set', a: l.dataset.a, b: l.dataset.b, rung: rung.dataset.rung });
      return;
    }
    const area = e.target.closest('#board-preview [data-area]');
    if (area && model() === 'zones') pick({ zone: area.dataset.area, el: area });
  });

  // The keyboard. Enter or Space on a chip picks it (a click without a
  // pointer) and takes the board's cursor: the arrows move it over the
  // places of the board (zones, squares, combatants, rungs), Enter puts
  // what is picked there, Escape drops the pick and goes back to the chip.
  // With nothing picked, Enter on the board picks the zone or combatant
  // under the cursor (then Enter elsewhere connects, moves or engages),
  // sets a rung, or paints a square with the side panel's paint.
  let cursor = null; // {i} over places() | {x, y} on a grid
  let back = null; // the chip to return to

  // places are the board's stops for the cursor, in reading order.
  function places() {
    const c = canvas();
    if (!c) return [];
    const sel = { zones: '[data-area]', pairs: '[data-token]', ladder: '[data-rung]' }[model()] || '[data-area]';
    const out = [...c.querySelectorAll(sel)].map((el) => ({
      el,
      label: (el.querySelector('.zname') || el).textContent.trim(),
      t: el.dataset.area ? { zone: el.dataset.area } : el.dataset.token ? { other: el.dataset.token } : { rung: el },
    }));
    // Pairs: the board itself, where a combatant joins unengaged.
    if (model() === 'pairs') out.push({ el: c, label: 'not engaged', t: { board: true } });
    return out;
  }
  // tokenAt is the first token on the square x, y (data-at), or null.
  function tokenAt(x, y) {
    return document.querySelector('#board-preview .grid-svg [data-token][data-at="' + x + ',' + y + '"]');
  }
  // here is the place under the cursor: {t, el, label}.
  function here() {
    if (!cursor) return null;
    if (cursor.x !== undefined) {
      const tok = tokenAt(cursor.x, cursor.y);
      return { t: { cell: [cursor.x, cursor.y] }, el: tok, label: window.frayGrid.name(cursor.x, cursor.y) };
    }
    return places()[cursor.i] || null;
  }
  function showCursor() {
    const c = canvas();
    if (!c) return;
    c.querySelectorAll('.cursor').forEach((el) => el.classList.remove('cursor'));
    c.querySelectorAll('.cursor-mark').forEach((el) => el.remove());
    const h = here();
    const say = document.getElementById('board-cursor');
    if (!h) return;
    if (cursor.x !== undefined) {
      squareMark(c.querySelector('.grid-svg'), 'cursor-mark', cursor.x, cursor.y);
    } else if (h.el !== c) {
      h.el.classList.add('cursor');
    }
    c.dataset.cursor = h.t.zone || h.t.other || (h.t.cell ? h.t.cell.join(',') : h.t.rung ? h.t.rung.dataset.rung : '');
    if (say) say.textContent = (picked ? (picked.label || '') + ' → ' : '') + h.label;
  }
  function enterBoard() {
    const c = canvas();
    if (!c) return;
    if (!cursor) cursor = grid() ? { x: 0, y: 0 } : { i: 0 };
    c.focus();
    showCursor();
  }
  function leaveBoard() {
    cursor = null;
    showCursor(); // shows none
  }
  function moveCursor(key) {
    if (cursor.x !== undefined && grid()) {
      const size = window.frayGrid.size(grid());
      const d = { ArrowLeft: [-1, 0], ArrowRight: [1, 0], ArrowUp: [0, -1], ArrowDown: [0, 1] }[key];
      cursor.x = Math.min(size[0] - 1, Math.max(0, cursor.x + d[0]));
      cursor.y = Math.min(size[1] - 1, Math.max(0, cursor.y + d[1]));
    } else {
      const n = places().length;
      if (!n) return;
      const step = key === 'ArrowLeft' || key === 'ArrowUp' ? -1 : 1;
      cursor.i = (cursor.i + step + n) % n;
    }
    showCursor();
  }
  // enter acts at the cursor, as a click there would.
  function enter() {
    const h = here();
    if (!h) return;
    if (h.t.rung) {
      const l = h.t.rung.closest('[data-a]');
      post({ op: 'distance-set', a: l.dataset.a, b: l.dataset.b, rung: h.t.rung.dataset.rung });
      return;
    }
    if (picked && put(picked, h.t)) {
      pick(null);
      return;
    }
    if (picked) return;
    if (h.t.zone) {
      pick({ zone: h.t.zone, el: h.el, label: h.label });
    } else if (h.t.other || (h.t.cell && h.el)) {
      pick({ token: h.t.other || h.el.dataset.token, el: h.el, label: h.label });
    } else if (h.t.cell) {
      const brush = new FormData(document.getElementById('cell-form') || undefined);
      const v = { op: 'cell-set', x: String(h.t.cell[0]), y: String(h.t.cell[1]) };
      for (const [k, val] of brush) if (k.startsWith('prop.')) v[k] = val;
      post(v);
    }
    showCursor();
  }

  document.addEventListener('click', (e) => {
    if (e.detail !== 0) return;
    const src = source(e.target);
    if (!src || !src.el.matches('button')) return;
    if (picked && picked.el === src.el) {
      pick(null);
      return;
    }
    src.label = src.el.textContent.trim();
    pick(src);
    back = src.el.id;
    enterBoard();
  });
  document.addEventListener('keydown', (e) => {
    const onBoard = e.target === canvas();
    if (onBoard && e.key.startsWith('Arrow')) {
      if (!cursor) enterBoard();
      moveCursor(e.key);
      e.preventDefault();
      return;
    }
    if (onBoard && (e.key === 'Enter' || e.key === ' ')) {
      if (!cursor) enterBoard();
      else enter();
      e.preventDefault();
      return;
    }
    if (e.key === 'Escape' && (picked || cursor)) {
      pick(null);
      leaveBoard();
      const chip = back && document.getElementById(back);
      if (chip) chip.focus();
      back = null;
    }
    // Ctrl+Z undoes the last edit, Ctrl+Shift+Z (or Ctrl+Y) redoes it —
    // except in a text field, where they undo typing.
    if ((e.ctrlKey || e.metaKey) && !e.altKey && /^[zy]$/i.test(e.key) && !window.frayTyping(e.target)) {
      const redo = e.key.toLowerCase() === 'y' || e.shiftKey;
      const btn = document.getElementById(redo ? 'redo' : 'undo');
      if (btn && !btn.disabled) post({ op: redo ? 'redo' : 'undo' });
      e.preventDefault();
    }
  });

  // The check's problem is marked on the board.
  function highlight() {
    const c = canvas();
    const at = c && c.dataset.highlight;
    if (!at) return;
    const esc = CSS.escape(at);
    const el = c.querySelector('[data-area="' + esc + '"], [data-token="' + esc + '"]');
    if (el) el.classList.add('problem');
    const cell = /^(\d+),(\d+)$/.exec(at);
    if (cell && grid()) squareMark(grid(), 'problem-mark', cell[1], cell[2]);
  }
  // redraw marks a board drawn anew (the page's, or a swapped editor's):
  // the check's problem, and the keyboard's cursor where it was.
  function redraw() {
    const c = canvas();
    if (!c || c.classList.contains('drawn')) return;
    c.classList.add('drawn');
    // What was picked on the board before is gone with it.
    if (picked && picked.el && !document.contains(picked.el)) picked = null;
    highlight();
    if (cursor) enterBoard();
  }
  redraw();
  // Other parts of the page are swapped too (the odds): only a new board
  // counts. (After the swap, not the settle: a key pressed in between
  // must find the new board ready.)
  document.body.addEventListener('htmx:afterSwap', redraw);

  // The page stays where the GM works across every edit: the editor
  // swapped in anew is as tall as the old until its pictures have loaded
  // (a shorter page would pull the window up), and the window goes back
  // to where it was, whatever the swap focused or scrolled.
  // The tray's side too: chips dropped next join the side it says.
  let kept = null;
  let traySide = '';
  document.body.addEventListener('htmx:beforeSwap', () => {
    traySide = value('tray-side') || traySide;
    if (!kept) kept = { y: window.scrollY };
    document.body.style.minHeight = document.documentElement.scrollHeight + 'px';
  });
  document.body.addEventListener('htmx:afterSwap', () => {
    const side = document.getElementById('tray-side');
    if (side && traySide && Array.from(side.options).some((o) => o.value === traySide)) side.value = traySide;
  });
  document.body.addEventListener('htmx:afterSettle', () => {
    if (!kept) return;
    const y = kept.y;
    kept = null;
    window.scrollTo({ top: y, behavior: 'instant' });
    const waiting = Array.from(document.images).filter((i) => !i.complete)
      .map((i) => new Promise((done) => { i.addEventListener('load', done, { once: true }); i.addEventListener('error', done, { once: true }); }));
    Promise.all(waiting).then(() => {
      document.body.style.minHeight = '';
      if (Math.abs(window.scrollY - y) > 1 && !kept) window.scrollTo({ top: y, behavior: 'instant' });
    });
  });

  // The odds section (#odds) swaps itself (see odds.templ). When the
  // button that had focus gives way to the other (Simulate to Cancel,
  // Cancel to Simulate as the simulation is cancelled or ends), focus
  // follows it.
  let oddsFocused = false;
  document.body.addEventListener('htmx:beforeSwap', (e) => {
    const odds = e.detail.target.id === 'odds';
    // A failure (5xx) answered with the section shows it, its error included.
    if (odds && e.detail.serverResponse.includes('id="odds"')) e.detail.shouldSwap = true;
    oddsFocused = odds && e.detail.target.contains(document.activeElement);
  });
  document.body.addEventListener('htmx:afterSwap', () => {
    const odds = document.getElementById('odds');
    if (oddsFocused && odds && !odds.contains(document.activeElement)) odds.querySelector('button').focus();
  });
})();
