// Fray's service worker: shows the Web Push notices the server sends
// (encrypted for this browser; see docs/protocol.md, Notices) and opens
// the encounter when one is clicked. Served at /sw.js so its scope is the
// whole site. It caches nothing.
'use strict';

self.addEventListener('push', (event) => {
  let p = {};
  try {
    p = event.data ? event.data.json() : {};
  } catch (e) {
    p = { body: event.data ? event.data.text() : '' };
  }
  event.waitUntil(self.registration.showNotification(p.title || 'Fray', {
    body: p.body || '',
    tag: p.tag || undefined,
    renotify: Boolean(p.tag),
    icon: '/static/icons/icon-192.png',
    data: { url: p.url || '/' },
  }));
});

self.addEventListener('notificationclick', (event) => {
  event.notification.close();
  // Only this site's pages: a notice names a path on it.
  let url = new URL((event.notification.data && event.notification.data.url) || '/', self.location.origin);
  if (url.origin !== self.location.origin) {
    url = new URL('/', self.location.origin);
  }
  event.waitUntil(self.clients.matchAll({ type: 'window', includeUncontrolled: true }).then((windows) => {
    for (const w of windows) {
      if (w.url === url.href && 'focus' in w) {
        return w.focus();
      }
    }
    return self.clients.openWindow(url.href);
  }));
});
