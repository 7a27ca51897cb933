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

// RenderEntries renders only the fragments of a viewer's new events (see
// web.EntryFragments), for the realtime hub.
func RenderEntries(ctx context.Context, v engine.View, events []engine.Event, _ bool) (map[string]string, error) {
	return web.EntryFragments(web.WithActURL(ctx, actURL(v.ID, "")), v, events)
}

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

// RenderParts is Render with where its sections' parts sit
// (realtime.PartRenderer).
func (p pages) RenderParts(ctx context.Context, v engine.View, events []engine.Event, full bool) (map[string]string, map[string][]realtime.Part, error) {
	html, parts, err := p.sections.RenderParts(web.WithActURL(ctx, actURL(v.ID, "")), v, events, full)
	return html, partsOf(parts), err
}

func (p pages) Next() { p.sections.Next() }

// partsOf is web's parts as the realtime hub's.
func partsOf(parts map[string][]web.Part) map[string][]realtime.Part {
	out := make(map[string][]realtime.Part, len(parts))
	for k, ps := range parts {
		rp := make([]realtime.Part, len(ps))
		for i, p := range ps {
			rp[i] = realtime.Part(p)
		}
		out[k] = rp
	}
	return out
}
