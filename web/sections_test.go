package web

import (
	"context"
	"reflect"
	"strings"
	"testing"

	"github.com/a-h/templ"

	"github.com/fray-vtt/fray/internal/engine"
	"github.com/fray-vtt/fray/internal/tabletest"
)

// TestSectionInputsMatter is the guard of the sections' inputs: over every
// example played with its stage and talk (tabletest.Play), it records every
// distinct input of every section and list of entries, for every kind of
// viewer (the GM, each player, a spectator; and the GM's as a ruleset
// without a board would show it); then for each field of each
// input type it looks for a recorded input where the field is set and
// rendering the input with that field zeroed changes the markup. A field
// that is never set (its input function dropped it) or never changes what
// is shown (its template no longer reads it) fails the test; so does a
// section that holds a comment or raw text (see htmlscan's parts). That a
// section reads nothing but its input the compiler says: its template
// takes that input and nothing else (sections.go).
func TestSectionInputsMatter(t *testing.T) {
	renderers := map[string]func(any) templ.Component{
		"cards": func(in any) templ.Component { return rollCards(in.(cardsIn)) },
	}
	for _, s := range sections {
		renderers[s.key] = s.render
	}
	for key, r := range entryLists {
		renderers[key] = func(in any) templ.Component { return r(in.(entriesIn)) }
	}
	inputs := map[string][]any{}
	seen := map[string]bool{}
	add := func(kind string, in any) {
		if k := inputKey(kind, in); !seen[k] {
			seen[k] = true
			inputs[kind] = append(inputs[kind], in)
		}
	}
	for _, tb := range tabletest.Tables(t) {
		viewers := tb.Viewers()
		var log []engine.Event
		record := func(events []engine.Event, st engine.State) {
			log = append(log, events...)
			for _, viewer := range viewers {
				v := engine.Project(tb.RS, st, viewer)
				for _, s := range sections {
					add(s.key, s.input(v, "/act", true))
					add(s.key, s.input(v, "/act", false))
				}
				for _, full := range []bool{false, true} {
					evs := engine.FilterEvents(st, viewer, events)
					if full {
						evs = engine.FilterEvents(st, viewer, log)
					}
					game, talk := SplitTalk(evs)
					add("log", entriesIn{full, game, v.Combatants})
					add("chat", entriesIn{full, talk, v.Combatants})
				}
				add("cards", cardsIn{cast{v.Sides, v.Combatants}, engine.FilterEvents(st, viewer, events)})
			}
			// As a ruleset that draws no board shows it.
			v := engine.Project(tb.RS, st, viewers[0])
			v.Board = nil
			for _, s := range sections {
				add(s.key, s.input(v, "/act", true))
			}
		}
		record(nil, tb.St)
		tabletest.Play(t, tb, 40, record)
	}
	render := func(kind string, in any) string {
		var b strings.Builder
		if err := renderers[kind](in).Render(context.Background(), &b); err != nil {
			t.Fatal(err)
		}
		return b.String()
	}
	// The hub finds a section's parts by their attribute (htmlscan.Diff),
	// reading every raw '<' as a tag's start: no section holds a comment
	// or raw text.
	for kind, ins := range inputs {
		for _, in := range ins {
			if h := render(kind, in); strings.Contains(h, "<!--") || strings.Contains(h, "<script") || strings.Contains(h, "<style") {
				t.Fatalf("#%s holds a comment or raw text:\n%s", kind, h)
			}
		}
	}
	for kind, ins := range inputs {
		typ := reflect.TypeOf(ins[0])
		for _, sf := range reflect.VisibleFields(typ) {
			if sf.Anonymous && sf.Type.Kind() == reflect.Struct {
				continue // its fields are visible in its place
			}
			f, name := sf.Index, typ.Name()+"."+sf.Name
			set, matters := false, false
			for _, in := range ins {
				v := reflect.ValueOf(in)
				if v.FieldByIndex(f).IsZero() {
					continue
				}
				set = true
				zeroed := reflect.New(typ).Elem()
				zeroed.Set(v)
				field := zeroed.FieldByIndex(f)
				field.Set(reflect.Zero(field.Type()))
				if render(kind, in) != render(kind, zeroed.Interface()) {
					matters = true
					break
				}
			}
			switch {
			case !set:
				t.Errorf("%s (#%s) is never set in %d inputs: its input function does not fill it", name, kind, len(ins))
			case !matters:
				t.Errorf("%s (#%s) changes nothing shown in %d inputs: its template does not read it", name, kind, len(ins))
			}
		}
	}
	if len(inputs) != len(renderers) {
		t.Errorf("inputs of %d kinds recorded, %d rendered", len(inputs), len(renderers))
	}
}
