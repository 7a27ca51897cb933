package server

import (
	"context"
	"fmt"
	"net/url"

	"github.com/fray-vtt/fray/internal/engine"
	"github.com/fray-vtt/fray/web"
)

// actURL is where an encounter page's forms post for viewer as.
func actURL(id, as string) string {
	return fmt.Sprintf("/encounters/%s/act?%s", url.PathEscape(id), url.Values{"as": {as}}.Encode())
}

// viewerParam is the ?as= value that yields v.
func viewerParam(v engine.Viewer) string {
	if v.GM || len(v.Controls) == 0 {
		return engine.GM
	}
	return v.Controls[0]
}

// RenderFragments renders a viewer's live page fragments with forms posting
// to the same place as the page's; the realtime hub calls it for updates.
func RenderFragments(ctx context.Context, v engine.View, events []engine.Event, full bool) (map[string]string, error) {
	return web.Fragments(web.WithActURL(ctx, actURL(v.ID, viewerParam(v.Viewer))), v, events, full)
}
