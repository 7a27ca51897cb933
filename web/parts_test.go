package web

import (
	"context"
	"slices"
	"testing"

	"github.com/fray-vtt/fray/internal/board"
	"github.com/fray-vtt/fray/internal/board/boardtest"
	"github.com/fray-vtt/fray/internal/engine"
	"github.com/fray-vtt/fray/internal/htmlscan"
)

// TestReplaceParts: the element of an id is found whole — nested elements
// of its own tag, void elements and self-closing SVG inside it — and
// replaced; an id not in the markup changes nothing; parts that swap two
// elements' ids replace both.
func TestReplaceParts(t *testing.T) {
	markup := `<section id="s"><div id="a"><div>x<img src="p"><br></div><svg><path d="M0"/></svg></div><div id="b">y</div><input id="c"></section>`
	for _, c := range []struct{ id, part, want string }{
		{"a", `<div id="a">new</div>`, `<section id="s"><div id="a">new</div><div id="b">y</div><input id="c"></section>`},
		{"b", `<div id="b">z</div>`, `<section id="s"><div id="a"><div>x<img src="p"><br></div><svg><path d="M0"/></svg></div><div id="b">z</div><input id="c"></section>`},
		{"c", `<input id="c" value="1">`, `<section id="s"><div id="a"><div>x<img src="p"><br></div><svg><path d="M0"/></svg></div><div id="b">y</div><input id="c" value="1"></section>`},
	} {
		got, found := ReplaceParts(markup, map[string]string{c.id: c.part})
		if len(found) != 1 || got != c.want {
			t.Errorf("#%s: %v\n%s\nwant\n%s", c.id, found, got, c.want)
		}
	}
	if got, found := ReplaceParts(markup, map[string]string{"nope": "<p></p>"}); len(found) != 0 || got != markup {
		t.Errorf("an absent id: %v %s", found, got)
	}
	// Two elements swapped: each found before either is replaced.
	got, found := ReplaceParts(markup, map[string]string{"a": `<div id="b">y</div>`, "b": `<div id="a">x</div>`})
	if want := `<section id="s"><div id="b">y</div><div id="a">x</div><input id="c"></section>`; len(found) != 2 || got != want {
		t.Errorf("swapped: %v\n%s\nwant\n%s", found, got, want)
	}
}

// TestRenderPartsLocatesParts: the battlefield and the action bar of every
// viewer of an example say where their parts sit — each the element of its
// id — and their markup is Fragments'.
func TestRenderPartsLocatesParts(t *testing.T) {
	rs, st := startedExample(t, "sw-zones-dusty-gulch")
	for _, viewer := range []engine.Viewer{engine.GMViewer(), {}, engine.PlayerViewer("marshal-reed")} {
		v := engine.Project(rs, st, viewer)
		html, parts, err := NewSections().RenderParts(context.Background(), v, nil, true)
		if err != nil {
			t.Fatal(err)
		}
		want, err := Fragments(context.Background(), v, nil, true)
		if err != nil {
			t.Fatal(err)
		}
		for _, key := range []string{"battlefield", "actions", "order"} {
			if html[key] != want[key] {
				t.Errorf("%s: #%s differs from Fragments'", viewer.Key(), key)
			}
			ps := parts[key]
			if key != "actions" && len(ps) == 0 {
				t.Errorf("%s: no parts in #%s", viewer.Key(), key)
			}
			seen := map[string]bool{}
			for _, p := range ps {
				m := html[key][p.Start:p.End]
				if outerID(m) != p.ID || seen[p.ID] {
					t.Errorf("%s: part #%s at %d:%d is %.80q", viewer.Key(), p.ID, p.Start, p.End, m)
				}
				seen[p.ID] = true
				if start, end, ok := htmlscan.ElementByID(html[key], p.ID); !ok || start != p.Start || end != p.End {
					t.Errorf("%s: part #%s at %d:%d, its element at %d:%d", viewer.Key(), p.ID, p.Start, p.End, start, end)
				}
			}
		}
	}
}

// TestBattlefieldFilledFromItsSkeleton: a board whose tokens change but not
// where they stand (whose turn it is, a wound, a name, a tag) is filled
// from the skeleton its first render left (Sections.shell) — one skeleton
// for both renders — and is what Fragments renders, parts and all, for
// every sample board that has a skeleton (all but the grid's).
func TestBattlefieldFilledFromItsSkeleton(t *testing.T) {
	ctx := context.Background()
	for _, s := range boardtest.All() {
		if s.View.Board == nil || s.View.Board.Model == board.Grid {
			continue
		}
		t.Run(s.Name, func(t *testing.T) {
			sec := NewSections()
			if _, _, err := sec.RenderParts(ctx, s.View, nil, true); err != nil {
				t.Fatal(err)
			}
			sec.Next()
			v := s.View
			b := *v.Board
			b.Tokens = slices.Clone(b.Tokens)
			for i := range b.Tokens {
				tok := &b.Tokens[i]
				tok.Acting, tok.Down = !tok.Acting, !tok.Down
				tok.Name += " the Second"
				tok.Tags = append(slices.Clone(tok.Tags), "Changed")
				tok.Health = &board.Meter{Label: "Wounds", Value: i % 3, Max: 3, Text: "changed"}
			}
			v.Board = &b
			html, parts, err := sec.RenderParts(ctx, v, nil, true)
			if err != nil {
				t.Fatal(err)
			}
			want, err := Fragments(ctx, v, nil, true)
			if err != nil {
				t.Fatal(err)
			}
			if html["battlefield"] != want["battlefield"] {
				t.Fatalf("the battlefield differs from Fragments':\n%s\nwant\n%s", html["battlefield"], want["battlefield"])
			}
			for _, p := range parts["battlefield"] {
				if start, end, ok := htmlscan.ElementByID(html["battlefield"], p.ID); !ok || start != p.Start || end != p.End {
					t.Errorf("part #%s at %d:%d, its element at %d:%d", p.ID, p.Start, p.End, start, end)
				}
			}
			skeletons := 0
			for _, e := range sec.memo {
				if e.skeleton != nil {
					skeletons++
				}
			}
			if skeletons != 1 {
				t.Errorf("%d skeletons for two renders of one board's places", skeletons)
			}
		})
	}
}
