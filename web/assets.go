// Package web holds Fray's browser UI: the templ components the server
// renders, the fragments it pushes over the websocket for live updates, and
// the embedded static assets (one stylesheet, the page script, the
// notifications page's push switch and the service worker that shows push
// notices).
//
// Every component takes plain props; nothing here does IO. The pages obey a
// strict Content-Security-Policy: no inline scripts, event handlers or style
// attributes, only /static/app.css and /static/app.js (and
// /static/push.js on the notifications page, /static/htmx.min.js and
// /static/prep.js on the draft editor, /sw.js as the service worker). The
// icons, favicon.svg and the web app manifest (/manifest.webmanifest) are
// drawn by cmd/icons from one description:
//
//go:generate go run ../cmd/icons -dir static
package web

import "embed"

// Static holds the files under static/, served by the server at /static/
// (static/app.css becomes /static/app.css).
//
//go:embed static
var Static embed.FS
