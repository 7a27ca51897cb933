package realtime

import (
	"context"
	"encoding/json"
	"maps"
	"slices"
	"strings"
	"testing"

	"golang.org/x/net/html"
	"golang.org/x/net/html/atom"

	"github.com/fray-vtt/fray/internal/engine"
	"github.com/fray-vtt/fray/internal/htmlscan"
	"github.com/fray-vtt/fray/internal/play"
	"github.com/fray-vtt/fray/internal/tabletest"
	"github.com/fray-vtt/fray/web"
)

// TestPageFramesEqualAFullRender plays a fight of every example with the
// simulator's tactics, the table's talk and the stage among the blows (a
// whisper, a free roll, a handout shown to one player, the GM's notes,
// pictures: tabletest.Play), and publishes each command's update to page
// clients of every kind of viewer (the GM, each player character's
// player, a spectator), two clients of each. Each client applies its
// frames as app.js does (sections replaced, parts of sections spliced into
// them by id: htmlscan.Apply); after every command its page — every
// section, and the log and table talk built from appended entries — must
// be exactly what a fresh full render of its viewer's projection gives.
// Whatever the hub skips, shares or leaves out of a frame must never leave
// a page showing something else.
func TestPageFramesEqualAFullRender(t *testing.T) {
	for _, tb := range tabletest.Tables(t) {
		t.Run(tb.Name, func(t *testing.T) {
			rs, st := tb.RS, tb.St
			viewers := tb.Viewers()
			hub := pageHub(Config{})
			var pages []*testPage
			for _, v := range viewers {
				for range 2 {
					p := &testPage{viewer: v, c: queued(hub, v, true, false)}
					full, err := web.Fragments(context.Background(), engine.Project(rs, st, v), nil, true)
					if err != nil {
						t.Fatal(err)
					}
					p.apply(t, full, true)
					pages = append(pages, p)
				}
			}
			var log []engine.Event
			commands := 0
			publish := func(events []engine.Event, next engine.State) {
				t.Helper()
				commands++
				log = append(log, events...)
				hub.Publish(play.Update{EncounterID: "e", Ruleset: rs, State: next, Events: events, Seq: next.Core().Seq})
				hub.settle("e")
				for _, p := range pages {
					p.drain(t)
					p.check(t, rs, next, log, commands)
				}
			}
			tabletest.Play(t, tb, 40, publish)
			if commands < 5 {
				t.Fatalf("only %d commands played", commands)
			}
			parts := 0
			for _, p := range pages {
				parts += p.parts
			}
			if parts == 0 {
				t.Fatal("no update was sent as parts of a section")
			}
			t.Logf("%d commands, %d parts applied by %d pages", commands, parts, len(pages))
		})
	}
}

// testPage is a page client as app.js keeps it: each section's last HTML,
// and the entries of the log and table talk lists.
type testPage struct {
	viewer   engine.Viewer
	c        *client
	sections map[string]string
	lists    map[string][]string // rendered <li>s, in page order
	parts    int                 // parts applied so far
}

func (p *testPage) drain(t *testing.T) {
	t.Helper()
	for _, f := range p.c.queuedFrames() {
		if f.data == nil {
			continue
		}
		var m struct {
			Type  string            `json:"type"`
			HTML  map[string]string `json:"html"`
			Parts map[string]string `json:"parts"`
		}
		if err := json.Unmarshal(f.data, &m); err != nil || m.Type != "events" {
			t.Fatalf("a %q frame (%v)", m.Type, err)
		}
		p.apply(t, m.HTML, false)
		p.applyParts(t, m.Parts)
		p.parts += len(m.Parts)
	}
}

// applyParts replaces, as app.js does, the element of each part's id, in
// whichever section holds it (exactly one must), every element found
// before any is replaced.
func (p *testPage) applyParts(t *testing.T, parts map[string]string) {
	t.Helper()
	in := map[string]string{}
	for _, key := range web.SectionKeys {
		next, found := htmlscan.Apply(p.sections[key], parts)
		p.sections[key] = next
		for _, id := range found {
			if in[id] != "" {
				t.Fatalf("part #%s is in #%s and in #%s", id, in[id], key)
			}
			in[id] = key
		}
	}
	for id := range parts {
		if in[id] == "" {
			t.Fatalf("part #%s is in no section of the page", id)
		}
	}
}

// TestEntryListsAreWebs checks that the fragments the hub treats as new
// entries (entryLists: sent when there are some, never remembered or
// compared) are exactly those of an update's render that are not web's
// sections: a section taken for a list would leave pages stale, a list
// taken for a section would be remembered and diffed for nothing.
func TestEntryListsAreWebs(t *testing.T) {
	tb := tabletest.Tables(t)[0]
	frags, err := web.Fragments(context.Background(), engine.Project(tb.RS, tb.St, engine.GMViewer()), nil, false)
	if err != nil {
		t.Fatal(err)
	}
	maps.DeleteFunc(frags, func(key, _ string) bool { return slices.Contains(web.SectionKeys, key) })
	if lists, hubs := slices.Sorted(maps.Keys(frags)), slices.Sorted(maps.Keys(entryLists)); !slices.Equal(lists, hubs) {
		t.Fatalf("an update's fragments besides the sections are %v; the hub's entryLists are %v", lists, hubs)
	}
}

// apply applies fragments as app.js's apply does.
func (p *testPage) apply(t *testing.T, fr map[string]string, snapshot bool) {
	t.Helper()
	if p.sections == nil {
		p.sections, p.lists = map[string]string{}, map[string][]string{}
	}
	for key, h := range fr {
		switch key {
		case "log", "chat":
			items := listItems(t, h)
			if snapshot {
				p.lists[key] = items
				continue
			}
			for _, li := range items {
				if id := liID(li); id == "" || !slices.ContainsFunc(p.lists[key], func(s string) bool { return liID(s) == id }) {
					p.lists[key] = append(p.lists[key], li)
				}
			}
		case "cards":
		default:
			if !slices.Contains(web.SectionKeys, key) {
				t.Fatalf("unknown fragment %q", key)
			}
			p.sections[key] = h
		}
	}
}

// check compares the page with a fresh full render for its viewer.
func (p *testPage) check(t *testing.T, rs engine.Ruleset, st engine.State, log []engine.Event, command int) {
	t.Helper()
	visible := engine.FilterEvents(st, p.viewer, log)
	want, err := web.Fragments(context.Background(), engine.Project(rs, st, p.viewer), visible, true)
	if err != nil {
		t.Fatal(err)
	}
	who := p.viewer.Key()
	for _, key := range web.SectionKeys {
		if p.sections[key] != want[key] {
			t.Fatalf("after command %d, viewer %q: #%s is\n%s\nwhere a full render gives\n%s", command, who, key, p.sections[key], want[key])
		}
	}
	for _, key := range []string{"log", "chat"} {
		got, exp := withoutEmpty(p.lists[key]), withoutEmpty(listItems(t, want[key]))
		if !slices.Equal(got, exp) {
			t.Fatalf("after command %d, viewer %q: %s has %d entries\n%s\nwhere a full render gives %d\n%s", command, who, key,
				len(got), strings.Join(got, "\n"), len(exp), strings.Join(exp, "\n"))
		}
	}
}

// withoutEmpty drops the empty-list placeholder (<li id="log-empty">),
// which the page removes once an entry arrives.
func withoutEmpty(items []string) []string {
	return slices.DeleteFunc(slices.Clone(items), func(li string) bool { return strings.HasSuffix(liID(li), "-empty") })
}

var bodyContext = &html.Node{Type: html.ElementNode, Data: "body", DataAtom: atom.Body}

// listItems returns the <li> elements of h, each rendered again.
func listItems(t *testing.T, h string) []string {
	t.Helper()
	nodes, err := html.ParseFragment(strings.NewReader(h), bodyContext)
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, n := range nodes {
		if n.Type != html.ElementNode || n.DataAtom != atom.Li {
			continue
		}
		var b strings.Builder
		if err := html.Render(&b, n); err != nil {
			t.Fatal(err)
		}
		out = append(out, b.String())
	}
	return out
}

// liID is the id of a rendered <li … id="…">.
func liID(li string) string {
	tag, _, _ := strings.Cut(li, ">")
	_, rest, ok := strings.Cut(tag, ` id="`)
	if !ok {
		return ""
	}
	id, _, _ := strings.Cut(rest, `"`)
	return id
}
