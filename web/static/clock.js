// The clock: how long whoever the table waits on has left before their
// standing orders and the turn deadline's fallback act. The element
// (#clock, data-clock-url) is filled from the encounter's clock status
// (GET /api/encounters/{id}/clock) when the page loads, whenever the
// encounter page's seq moves (data-seq on #encounter), and every minute;
// in between it counts down by itself. A decision page renders the
// status and lets this script count it down. Only text is written.
'use strict';

(() => {
  const el = document.getElementById('clock');
  if (!el) {
    return;
  }
  const url = el.dataset.clockUrl;
  let status = null;
  let at = 0;
  if (el.dataset.remaining) {
    // A decision page: one wait, rendered by the server.
    status = { on: true, clock: el.dataset.kind === 'clock', waiting: [{ name: el.dataset.name || '', player: '', remaining: Number(el.dataset.remaining) }] };
    at = performance.now();
  }

  function fmt(ms) {
    let s = Math.max(0, Math.floor(ms / 1000));
    const d = Math.floor(s / 86400);
    const h = Math.floor((s % 86400) / 3600);
    const m = Math.floor((s % 3600) / 60);
    s %= 60;
    const two = (n) => String(n).padStart(2, '0');
    if (d > 0) {
      return d + 'd ' + h + 'h';
    }
    return h > 0 ? h + ':' + two(m) + ':' + two(s) : m + ':' + two(s);
  }

  function render() {
    if (!status || !status.on || !status.waiting || status.waiting.length === 0) {
      el.hidden = true;
      return;
    }
    const spent = performance.now() - at;
    const parts = status.waiting.map((w) => {
      const who = w.name + (w.player ? ' (' + w.player + ')' : '');
      return (who ? who + ': ' : '') + fmt(w.remaining - spent);
    });
    el.textContent = (status.clock ? '' : 'Deadline: ') + parts.join(' · ') + ' left' + (el.dataset.after || '');
    el.title = status.clock ? 'Time left on the clock of whoever the table waits on' : 'Time left before the turn deadline';
    el.hidden = false;
  }

  async function load() {
    if (!url) {
      return;
    }
    try {
      const res = await fetch(url, { headers: { Accept: 'application/json' } });
      if (!res.ok) {
        return;
      }
      status = await res.json();
      at = performance.now();
      render();
    } catch (e) {
      // Offline for a moment: the next change or minute tries again.
    }
  }

  const root = document.getElementById('encounter');
  if (root) {
    let seq = root.dataset.seq;
    new MutationObserver(() => {
      if (root.dataset.seq !== seq) {
        seq = root.dataset.seq;
        load();
      }
    }).observe(root, { attributes: true, attributeFilter: ['data-seq'] });
  }
  load();
  render();
  setInterval(render, 1000);
  setInterval(load, 60000);
})();
