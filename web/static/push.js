// The notifications page's push switch: subscribes this browser to Fray's
// Web Push notices when the user clicks (permission is never asked on
// load), registers the service worker (/sw.js), and tells the server the
// subscription (POST /api/push/subscriptions); the other button undoes it.
'use strict';

(() => {
  const state = document.getElementById('push-state');
  const on = document.getElementById('push-on');
  const off = document.getElementById('push-off');
  if (!state || !on || !off) {
    return;
  }
  const say = (text) => { state.textContent = text; };
  // iOS gives Web Push only to a site added to the Home Screen and opened
  // from there: say how, where that is what is missing.
  const ios = /iPad|iPhone|iPod/.test(navigator.userAgent) || (navigator.platform === 'MacIntel' && navigator.maxTouchPoints > 1);
  const installed = navigator.standalone === true || window.matchMedia('(display-mode: standalone)').matches;
  if (ios && !installed) {
    document.getElementById('push-ios').hidden = false;
  }
  if (!('serviceWorker' in navigator) || !('PushManager' in window) || !('Notification' in window)) {
    say('This browser cannot receive push notifications.');
    return;
  }

  const current = async () => {
    const reg = await navigator.serviceWorker.getRegistration('/');
    return reg ? reg.pushManager.getSubscription() : null;
  };

  const show = async () => {
    const sub = await current();
    on.hidden = Boolean(sub);
    off.hidden = !sub;
    if (Notification.permission === 'denied') {
      say('Notifications are blocked for this site in your browser\'s settings.');
      on.hidden = true;
    } else {
      say(sub ? 'This browser receives your notifications.' : 'This browser does not receive your notifications.');
    }
  };

  const send = (method, body) => fetch('/api/push/subscriptions', {
    method,
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify(body),
  }).then(async (r) => {
    if (!r.ok) {
      const e = await r.json().catch(() => ({}));
      throw new Error(e.message || r.statusText);
    }
  });

  // A step that never answers (a browser whose push service cannot be
  // reached keeps subscribe pending for ever) ends with a message instead
  // of a button that stays greyed out.
  const within = (promise, what) => Promise.race([promise, new Promise((_, reject) => {
    setTimeout(() => reject(new Error(what + ' did not answer within 20 seconds; try again, or use another browser or e-mail')), 20000);
  })]);

  on.addEventListener('click', async () => {
    on.disabled = true;
    try {
      if (await Notification.requestPermission() !== 'granted') {
        say('Notifications were not allowed.');
        return;
      }
      say('Turning notifications on…');
      const reg = await within(navigator.serviceWorker.register('/sw.js', { scope: '/' }), 'the service worker');
      await within(navigator.serviceWorker.ready, 'the service worker');
      // The server's VAPID key goes as it is: subscribe reads base64url.
      const sub = await within(reg.pushManager.subscribe({ userVisibleOnly: true, applicationServerKey: state.dataset.pushKey }), "this browser's push service");
      const j = sub.toJSON();
      await send('POST', { endpoint: j.endpoint, keys: { p256dh: j.keys.p256dh, auth: j.keys.auth } });
      await show();
    } catch (e) {
      say('Could not turn notifications on: ' + e.message);
    } finally {
      on.disabled = false;
    }
  });

  off.addEventListener('click', async () => {
    off.disabled = true;
    try {
      const sub = await current();
      if (sub) {
        await send('DELETE', { endpoint: sub.endpoint });
        await sub.unsubscribe();
      }
      await show();
    } catch (e) {
      say('Could not turn notifications off: ' + e.message);
    } finally {
      off.disabled = false;
    }
  });

  show();
})();
