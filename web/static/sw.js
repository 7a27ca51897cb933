// Fray's service worker: shows the Web Push notices the server sends
// (encrypted for this browser; see docs/protocol.md, Notices) and opens
// the encounter when one is clicked. Served at /sw.js so its scope is the
// whole site. It caches nothing.
//
// A decision's notice with few answers carries them as buttons (actions)
// and its signed link (act): a button posts the answer to the link's API
// (/api/act/…) at once; when that fails, the decision's page opens and
// says why.
'use strict';

self.addEventListener('push', (event) => {
  let p = {};
  try {
    p = event.data ? event.data.json() : {};
  } catch (e) {
    p = { body: event.data ? event.data.text() : '' };
  }
  const options = {
    body: p.body || '',
    tag: p.tag || undefined,
    renotify: Boolean(p.tag),
    icon: '/static/icons/icon-192.png',
    data: { url: p.url || '/', act: p.act || '', answers: {} },
  };
  if (Array.isArray(p.actions) && p.act) {
    options.actions = p.actions.slice(0, 2).map((a) => ({ action: String(a.action), title: String(a.title) }));
    options.data.answers = Object.fromEntries(options.actions.map((a) => [a.action, a.title]));
  }
  event.waitUntil(self.registration.showNotification(p.title || 'Fray', options));
});

// sitePath is path as a URL of this site, or the home page: a notice
// names only paths on it.
function sitePath(path) {
  const url = new URL(path || '/', self.location.origin);
  return url.origin === self.location.origin ? url : new URL('/', self.location.origin);
}

function open(url) {
  return self.clients.matchAll({ type: 'window', includeUncontrolled: true }).then((windows) => {
    for (const w of windows) {
      if (w.url === url.href && 'focus' in w) {
        return w.focus();
      }
    }
    return self.clients.openWindow(url.href);
  });
}

// answer posts a button's answer to the notice's link, and says so.
async function answer(note, choice) {
  const data = note.data || {};
  const link = sitePath(data.act);
  if (!link.pathname.startsWith('/act/')) {
    return open(sitePath(data.url));
  }
  try {
    const res = await fetch('/api' + link.pathname, {
      method: 'POST',
      credentials: 'same-origin',
      headers: { 'Content-Type': 'application/json', Accept: 'application/json' },
      body: JSON.stringify({ choice }),
    });
    if (res.ok) {
      const label = (data.answers && data.answers[choice]) || choice;
      return self.registration.showNotification(note.title, {
        body: 'Answered: ' + label, tag: note.tag || undefined, icon: '/static/icons/icon-192.png', data: { url: '/' },
      });
    }
  } catch (e) {
    // Offline, or the server refused it: the page says which.
  }
  return open(link);
}

self.addEventListener('notificationclick', (event) => {
  event.notification.close();
  if (event.action) {
    event.waitUntil(answer(event.notification, event.action));
    return;
  }
  event.waitUntil(open(sitePath(event.notification.data && event.notification.data.url)));
});
