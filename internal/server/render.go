package server

import (
	"net/http"

	"github.com/a-h/templ"

	"github.com/fray-vtt/fray/web"
)

// render writes a page; the layout shows who is signed in. A client that
// has gone gets nothing: the work stops with its request.
func render(w http.ResponseWriter, r *http.Request, c templ.Component) {
	ctx := r.Context()
	if ctx.Err() != nil {
		return
	}
	if u := userFrom(r); u != nil {
		ctx = web.WithUser(ctx, u.Name)
	}
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	w.Header().Set("Cache-Control", "no-store")
	_ = c.Render(ctx, w) // after the first byte the status is sent; nothing more to tell the client
}
