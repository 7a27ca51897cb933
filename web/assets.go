// Package web holds Fray's browser UI: the templ components the server
// renders, the fragments it pushes over the websocket for live updates, and
// the embedded static assets (one stylesheet, one script).
//
// Every component takes plain props; nothing here does IO. The pages obey a
// strict Content-Security-Policy: no inline scripts, event handlers or style
// attributes, only /static/app.css and /static/app.js.
package web

import "embed"

// Static holds the files under static/, served by the server at /static/
// (static/app.css becomes /static/app.css).
//
//go:embed static
var Static embed.FS
