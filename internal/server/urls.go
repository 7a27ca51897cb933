package server

import (
	"context"
	"net/url"

	"github.com/fray-vtt/fray/internal/engine"
	"github.com/fray-vtt/fray/internal/realtime"
	"github.com/fray-vtt/fray/web"
)

// encounterURL is an encounter page's path, previewed as a player
// character when as is set (GMs only).
func encounterURL(id, suffix, as string, extra url.Values) string {
	q := url.Values{}
	for k, v := range extra {
		q[k] = v
	}
	if as != "" {
		q.Set("as", as)
	}
	u := "/encounters/" + url.PathEscape(id) + suffix
	if len(q) > 0 {
		u += "?" + q.Encode()
	}
	return u
}

// actURL is where an encounter page's forms post.
func actURL(id, as string) string { return encounterURL(id, "/act", as, nil) }

// RenderFragments renders a viewer's live page fragments for the realtime
// hub. Forms post without ?as=: a GM previewing as a player posts as the GM,
// who may command that character anyway.
func RenderFragments(ctx context.Context, v engine.View, events []engine.Event, full bool) (map[string]string, error) {
	return web.Fragments(web.WithActURL(ctx, actURL(v.ID, "")), v, events, full)
}

// Pages is the realtime hub's renderer of one encounter's updates
// (realtime.Config.Pages): RenderFragments with each section rendered once
// per distinct input (web.Sections).
func Pages() realtime.PageRenderer { return pages{web.NewSections()} }

type pages struct{ sections *web.Sections }

func (p pages) Render(ctx context.Context, v engine.View, events []engine.Event, full bool) (map[string]string, error) {
	return p.sections.Render(web.WithActURL(ctx, actURL(v.ID, "")), v, events, full)
}

func (p pages) Next() { p.sections.Next() }
