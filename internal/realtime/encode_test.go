package realtime

import (
	"bytes"
	"encoding/json"
	"reflect"
	"slices"
	"testing"

	"github.com/fray-vtt/fray/internal/dice"
	"github.com/fray-vtt/fray/internal/engine"
	"github.com/fray-vtt/fray/internal/engine/enginetest"
	"github.com/fray-vtt/fray/internal/play"
	"github.com/fray-vtt/fray/internal/prep"
	"github.com/fray-vtt/fray/internal/rules"
)

// TestFramesEncodeAsEncodingJSON plays every example encounter with a bot
// and checks, at every event of the fight, that marshal (and appendJSON,
// which encodes views into frames) writes exactly the bytes encoding/json
// writes for the GM's view, every player's view and the event: the frames'
// encoder is a faster drop-in, never another format.
func TestFramesEncodeAsEncodingJSON(t *testing.T) {
	if raceDetector {
		// One goroutine encoding every frame of every example: nothing for
		// the race detector to find, and ten times slower under it.
		t.Skip("pure encoding; runs without -race")
	}
	exs, err := prep.Examples()
	if err != nil {
		t.Fatal(err)
	}
	reg := rules.Registry()
	checked := 0
	same := func(t *testing.T, what string, v any) {
		t.Helper()
		want, wantErr := json.Marshal(v)
		got, gotErr := marshal(v)
		if (wantErr != nil) != (gotErr != nil) || !bytes.Equal(got, want) {
			t.Fatalf("%s: marshal wrote\n%s (%v)\nencoding/json wrote\n%s (%v)", what, got, gotErr, want, wantErr)
		}
		prefix := []byte(`{"x":`)
		appended, appendErr := appendJSON(bytes.Clone(prefix), v)
		if (wantErr != nil) != (appendErr != nil) || wantErr == nil && !bytes.Equal(appended, append(prefix, want...)) {
			t.Fatalf("%s: appendJSON wrote\n%s (%v)\nencoding/json wrote\n%s (%v)", what, appended, appendErr, want, wantErr)
		}
		checked++
	}
	for _, ex := range exs {
		t.Run(ex.Name, func(t *testing.T) {
			p, err := prep.Prepare(reg, ex.Data)
			if err != nil {
				t.Fatal(err)
			}
			played := enginetest.Bot{Default: 1}.Play(t, p.Ruleset, p.Setup, 3)
			st, err := engine.Copy(played.Initial)
			if err != nil {
				t.Fatal(err)
			}
			viewers := []engine.Viewer{engine.GMViewer()}
			for _, c := range st.Core().Combatants {
				viewers = append(viewers, engine.PlayerViewer(c.ID))
			}
			for _, ev := range played.Log {
				if err := engine.Apply(p.Ruleset, st, ev); err != nil {
					t.Fatal(err)
				}
				same(t, "event "+ev.Kind, ev)
				gm, _ := marshal(ev)
				u := play.Update{State: st, Events: []engine.Event{ev}, Encoded: [][]byte{gm}}
				for _, v := range viewers {
					same(t, "view for "+v.Key(), engine.Project(p.Ruleset, st, v))
					// What a viewer's frame carries of the event, reused
					// from the GM's encoding or not, is the event it may see.
					events, encoded, err := visibleEncoded(v, u)
					if err != nil {
						t.Fatal(err)
					}
					for i, seen := range events {
						if want, _ := json.Marshal(seen); !bytes.Equal(encoded[i], want) {
							t.Fatalf("event %s for %s: the frame carries\n%s\nnot what the viewer may see\n%s", ev.Kind, v.Key(), encoded[i], want)
						}
						if i > 0 || !reflect.DeepEqual(seen, engine.FilterEvents(st, v, u.Events)[0]) {
							t.Fatalf("event %s for %s: frame and log show different events", ev.Kind, v.Key())
						}
					}
				}
			}
		})
	}
	t.Logf("%d values encoded alike", checked)
}

// BenchmarkMarshalView compares the frames' encoder with encoding/json on
// the GM's view of a sw-zones fight in progress (the state after half the
// commands recordFight plays).
func BenchmarkMarshalView(b *testing.B) {
	fight := recordFight(b, "sw-zones-dusty-gulch", 60)
	u := fight.list[len(fight.list)/2]
	view := engine.Project(u.Ruleset, u.State, engine.GMViewer())
	raw, _ := json.Marshal(view)
	for name, enc := range map[string]func(any) ([]byte, error){"encoding-json": json.Marshal, "frames": marshal} {
		b.Run(name, func(b *testing.B) {
			b.ReportAllocs()
			b.SetBytes(int64(len(raw)))
			for b.Loop() {
				if _, err := enc(view); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// TestFramesCarryEventsAsFiltered: an event that names a combatant the
// viewer may not see is never sent as the log stored it — the round order
// that holds the toy's hidden spy reaches the hero's player without it,
// and a ruleset's event about the spy not at all — while the GM's frame
// reuses the stored bytes.
func TestFramesCarryEventsAsFiltered(t *testing.T) {
	rs := enginetest.Toy{}
	st, err := engine.NewEncounter(rs, "e1", enginetest.Setup())
	if err != nil {
		t.Fatal(err)
	}
	events, st, err := engine.Decide(rs, st, engine.GMViewer(), "c1", engine.NewCommand(engine.KindStart, "", nil), dice.NewRoller(dice.NewFixed()))
	if err != nil {
		t.Fatal(err)
	}
	about := engine.NewEvent("note", "", "The spy waits.", map[string]string{"who": "spy"})
	about.Seq, about.Round = st.Core().Seq+1, st.Core().Round
	if err := engine.Apply(rs, st, about); err != nil {
		t.Fatal(err)
	}
	events = append(events, about)
	var encoded [][]byte
	for _, ev := range events {
		raw, _ := marshal(ev)
		encoded = append(encoded, raw)
	}
	u := play.Update{State: st, Events: events, Encoded: encoded}
	seen, frames, err := visibleEncoded(engine.PlayerViewer("hero"), u)
	if err != nil {
		t.Fatal(err)
	}
	if len(seen) != len(events)-1 || slices.ContainsFunc(seen, func(ev engine.Event) bool { return ev.Seq == about.Seq }) {
		t.Fatalf("the player's frame holds %d of %d events", len(seen), len(events))
	}
	for i, raw := range frames {
		if bytes.Contains(raw, []byte("spy")) {
			t.Fatalf("the player's frame names the spy: %s", raw)
		}
		if seen[i].Kind == engine.KindRoundStarted && bytes.Equal(raw, encoded[slices.IndexFunc(events, func(ev engine.Event) bool { return ev.Seq == seen[i].Seq })]) {
			t.Fatal("the round order was sent as stored")
		}
	}
	_, gm, _ := visibleEncoded(engine.GMViewer(), u)
	for i := range gm {
		if &gm[i][0] != &encoded[i][0] {
			t.Fatalf("the GM's frame encodes event %d again", events[i].Seq)
		}
	}
}
