// The command line and the announcements of the encounter page (see
// web/words.templ). The server reads what is typed against the viewer's
// own view: POST /api/encounters/{id}/say answers what it was read as, or
// why not; GET …/say?text= offers ways to finish it. Everything the page
// reads out goes through #announce, its one polite live region, once and
// in order: each new log and chat entry (its data-spoken words), the
// status when it changes (whose turn, what waits on you), and the command
// line's answers. "/" anywhere on the page (outside a field) goes to the
// command line.
(() => {
  'use strict';
  const root = document.getElementById('encounter');
  const form = document.getElementById('words-form');
  const input = document.getElementById('words-input');
  const list = document.getElementById('words-list');
  const answer = document.getElementById('words-answer');
  const region = document.getElementById('announce');
  const mine = document.getElementById('announce-mine');
  if (!root || !form || !input || !list || !region) return;

  const as = new URLSearchParams(location.search).get('as');
  const api = '/api/encounters/' + encodeURIComponent(root.dataset.encounter) + '/say';
  const withAs = (q) => {
    const p = new URLSearchParams(q);
    if (as) p.set('as', as);
    const s = p.toString();
    return api + (s ? '?' + s : '');
  };
  const controls = window.frayOwn; // the ids of the combatants the viewer plays

  // ---- announcements ----------------------------------------------------

  const kept = 200; // the region keeps the latest lines only
  // announce adds a line; seq marks one that reads an event out.
  function announce(text, seq) {
    if (!text) return;
    const p = document.createElement('p');
    p.textContent = text;
    if (seq) p.dataset.seq = String(seq);
    region.append(p);
    while (region.childElementCount > kept) region.firstElementChild.remove();
  }

  // Without storage the option lasts the page.
  const onlyMine = 'fray-announce-mine';
  mine.checked = window.frayStorage.get(onlyMine) === '1';
  mine.addEventListener('change', () => window.frayStorage.set(onlyMine, mine.checked ? '1' : '0'));

  function concernsMe(li) {
    if (!mine.checked || controls.size === 0) return true;
    return (li.dataset.concerns || '').split(' ').some((id) => controls.has(id));
  }

  const seqOf = (li) => Number(li.id.slice(3));
  const entries = () => Array.from(document.querySelectorAll('li[id^="ev-"][data-spoken]'));
  // What the page showed when it loaded is not news: read from there on,
  // each entry once (an entry may land after a later one: a sealed
  // answer's own line, say).
  const loaded = entries().reduce((m, li) => Math.max(m, seqOf(li) || 0), 0);
  const read = new Set();
  let last = loaded;
  const statusNow = () => document.getElementById('status')?.dataset.spoken || '';
  let lastStatus = statusNow();
  let queued = false;

  function scan() {
    queued = false;
    const fresh = entries().filter((li) => seqOf(li) > loaded && !read.has(seqOf(li)) && !li.classList.contains('undone'));
    fresh.sort((a, b) => seqOf(a) - seqOf(b));
    for (const li of fresh) {
      read.add(seqOf(li));
      last = Math.max(last, seqOf(li));
      if (concernsMe(li)) announce(li.dataset.spoken, seqOf(li));
    }
    const st = statusNow();
    if (st && st !== lastStatus) {
      lastStatus = st;
      announce(st);
    }
    root.dataset.announced = String(last);
  }
  // Updates come in bursts (a batch of events, then the sections): read
  // once they have landed.
  new MutationObserver(() => {
    if (!queued) {
      queued = true;
      setTimeout(scan, 50);
    }
  }).observe(root, { childList: true, subtree: true, attributes: true, attributeFilter: ['data-spoken'] });
  root.dataset.announced = String(last);

  // ---- completions -----------------------------------------------------

  let options = [];
  let active = -1;
  let asked = 0;

  function close() {
    list.hidden = true;
    list.replaceChildren();
    input.setAttribute('aria-expanded', 'false');
    input.removeAttribute('aria-activedescendant');
    options = [];
    active = -1;
  }

  function show(completions) {
    close();
    options = completions;
    if (options.length === 0) return;
    options.forEach((text, i) => {
      const li = document.createElement('li');
      li.id = 'words-opt-' + i;
      li.setAttribute('role', 'option');
      li.setAttribute('aria-selected', 'false');
      li.textContent = text;
      li.addEventListener('mousedown', (e) => {
        e.preventDefault();
        pick(i);
      });
      list.append(li);
    });
    list.hidden = false;
    input.setAttribute('aria-expanded', 'true');
  }

  function highlight(i) {
    active = i;
    list.querySelectorAll('[role=option]').forEach((li, j) => li.setAttribute('aria-selected', String(j === i)));
    if (i >= 0) input.setAttribute('aria-activedescendant', 'words-opt-' + i);
    else input.removeAttribute('aria-activedescendant');
  }

  function pick(i) {
    input.value = options[i];
    close();
    input.focus();
    suggest();
  }

  let timer = 0;
  async function suggest() {
    const n = ++asked;
    try {
      const res = await fetch(withAs({ text: input.value }), { credentials: 'same-origin', headers: { Accept: 'application/json' } });
      if (!res.ok || n !== asked) return;
      const body = await res.json();
      if (n !== asked || document.activeElement !== input) return;
      show((body.completions || []).filter((c) => c.trim().toLowerCase() !== input.value.trim().toLowerCase()));
    } catch (err) {
      // offline: no completions
    }
  }

  input.addEventListener('input', () => {
    clearTimeout(timer);
    timer = setTimeout(suggest, 120);
  });
  input.addEventListener('blur', () => setTimeout(close, 150));
  input.addEventListener('keydown', (e) => {
    if (e.key === 'ArrowDown' || e.key === 'ArrowUp') {
      e.preventDefault();
      if (list.hidden) {
        suggest();
        return;
      }
      const step = e.key === 'ArrowDown' ? 1 : -1;
      let next = active + step;
      if (next >= options.length) next = -1;
      else if (next < -1) next = options.length - 1;
      highlight(next);
    } else if ((e.key === 'Enter' || e.key === 'Tab') && active >= 0) {
      e.preventDefault();
      pick(active);
    } else if (e.key === 'Tab' && !e.shiftKey && options.length === 1 && !list.hidden) {
      e.preventDefault();
      pick(0);
    } else if (e.key === 'Escape' && !list.hidden) {
      e.preventDefault();
      e.stopPropagation();
      close();
    }
  });

  // ---- saying ----------------------------------------------------------

  let n = 0;
  form.addEventListener('submit', async (e) => {
    e.preventDefault();
    const text = input.value.trim();
    if (!text) return;
    close();
    form.setAttribute('aria-busy', 'true');
    const id = 'say-' + Date.now().toString(36) + '-' + (n++) + '-' + Math.random().toString(36).slice(2, 8);
    let said = 'The server could not be reached: try again.';
    let shown = ''; // the answer shown, when not what is said
    let ok = false;
    try {
      const res = await fetch(withAs({}), {
        method: 'POST',
        credentials: 'same-origin',
        headers: { 'Content-Type': 'application/json', Accept: 'application/json' },
        body: JSON.stringify({ id, text }),
      });
      const body = await res.json().catch(() => ({}));
      ok = res.ok;
      if (ok) {
        // A command's events arrive with the log and are read from there;
        // here, what it was read as — or the table's answer.
        said = body.said ? 'You: ' + body.said + '.' : body.answer;
        shown = body.answer;
        input.value = '';
      } else {
        said = body.message || 'That could not be done.';
      }
    } catch (err) {
      // The server could not be reached: said says so.
    }
    answer.textContent = shown || said;
    answer.classList.toggle('refused', !ok);
    form.removeAttribute('aria-busy');
    announce(said);
    input.focus();
  });

  // "/" goes to the command line from anywhere but a field.
  document.addEventListener('keydown', (e) => {
    if (e.key !== '/' || e.ctrlKey || e.metaKey || e.altKey || e.defaultPrevented) return;
    if (window.frayTyping(e.target)) return;
    if (document.querySelector('dialog[open]')) return;
    e.preventDefault();
    const pane = form.closest('[data-pane]');
    if (pane && root.dataset.tab && pane.dataset.pane !== root.dataset.tab) {
      document.querySelector('.tab[data-show="' + pane.dataset.pane + '"]')?.click();
    }
    input.focus();
    input.select();
  });
})();
