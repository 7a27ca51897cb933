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

  // cellAt is the grid square under a point of the screen, or null.
  function cellAt(x, y) {
    const svg = document.querySelector('#board-preview .grid-svg');
    const ground = svg && svg.querySelector('.ground');
    if (!ground) return null;
    const pt = svg.createSVGPoint();
    pt.x = x;
    pt.y = y;
    const p = pt.matrixTransform(svg.getScreenCTM().inverse());
    const cx = Math.floor(p.x), cy = Math.floor(p.y);
    if (cx < 0 || cy < 0 || cx >= ground.width.baseVal.value || cy >= ground.height.baseVal.value) return null;
    return [cx, cy];
  }

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
  // A drawn rectangle opens the "Add a zone" form with the place under its
  // centre (the map has 12 columns and 8 rows).
  function zoneFromRect(p, x, y) {
    const { c, l, r, t, b } = rectBox(p, x, y);
    const col = Math.min(11, Math.max(0, Math.floor((((l + r) / 2 - c.left) / c.width) * 12)));
    const row = Math.min(7, Math.max(0, Math.floor((((t + b) / 2 - c.top) / c.height) * 8)));
    const fx = document.getElementById('zone-x'), fy = document.getElementById('zone-y');
    if (fx && fy) {
      fx.value = String(col);
      fy.value = String(row);
    }
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
    press = { x: e.clientX, y: e.clientY, src, moved: false, cells: new Map() };
    if (!src && onBoard && !picked) {
      if (model() === 'zones' && !e.target.closest('[data-area]')) press.draw = true;
      if (model() === 'grid' && cellAt(e.clientX, e.clientY)) press.paint = true;
    }
    if (press.paint) paintAt(e.clientX, e.clientY);
    if (src || press.draw || press.paint) e.preventDefault();
  });

  function paintAt(x, y) {
    const c = cellAt(x, y);
    if (!c || press.cells.has(c.join(','))) return;
    press.cells.set(c.join(','), true);
    const svg = document.querySelector('#board-preview .grid-svg');
    const mark = document.createElementNS('http://www.w3.org/2000/svg', 'rect');
    mark.setAttribute('class', 'paint-mark');
    mark.setAttribute('x', c[0]);
    mark.setAttribute('y', c[1]);
    mark.setAttribute('width', 1);
    mark.setAttribute('height', 1);
    svg.appendChild(mark);
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
      const v = { op: 'cell-set', cells: [...p.cells.keys()] };
      for (const [k, val] of brush) if (k.startsWith('prop.')) v[k] = val;
      post(v);
      return;
    }
    if (p.draw) {
      if (p.moved) zoneFromRect(p, e.clientX, e.clientY);
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

  // The keyboard: Enter or Space on a chip picks it (a click without a
  // pointer); the side panel's forms do the rest.
  document.addEventListener('click', (e) => {
    if (e.detail !== 0) return;
    const src = source(e.target);
    if (src && src.el.matches('button')) pick(picked && picked.el === src.el ? null : src);
  });
  document.addEventListener('keydown', (e) => {
    if (e.key === 'Escape' && picked) pick(null);
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
    const svg = c.querySelector('.grid-svg');
    if (cell && svg) {
      const mark = document.createElementNS('http://www.w3.org/2000/svg', 'rect');
      mark.setAttribute('class', 'problem-mark');
      mark.setAttribute('x', cell[1]);
      mark.setAttribute('y', cell[2]);
      mark.setAttribute('width', 1);
      mark.setAttribute('height', 1);
      svg.appendChild(mark);
    }
  }
  highlight();
  document.body.addEventListener('htmx:afterSettle', () => {
    picked = null;
    highlight();
  });
})();
