package realtime

import (
	"bytes"
	"encoding/json"
	"reflect"
	"testing"

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
// encoder is a faster drop-in, never another format. Each viewer's frame
// carries the event as the engine's filter leaves it for them (rewritten,
// or left out, when it names someone they may not see), the GM's the log's
// own bytes.
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
	filtered := 0 // events a viewer's frame carried rewritten, or left out
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
					// What a viewer's frame carries of the event is what the
					// log shows them (the engine's filter), encoded: the GM's
					// the encoding of the log itself, not made again.
					events, encoded, err := visibleEncoded(v, u)
					if err != nil {
						t.Fatal(err)
					}
					if !reflect.DeepEqual(events, engine.FilterEvents(st, v, u.Events)) {
						t.Fatalf("event %s for %s: frame and log show different events", ev.Kind, v.Key())
					}
					for i, seen := range events {
						if want, _ := json.Marshal(seen); !bytes.Equal(encoded[i], want) {
							t.Fatalf("event %s for %s: the frame carries\n%s\nnot what the viewer may see\n%s", ev.Kind, v.Key(), encoded[i], want)
						}
						if v.GM && &encoded[i][0] != &gm[0] {
							t.Fatalf("event %s: the GM's frame encodes it again", ev.Kind)
						}
						if !bytes.Equal(encoded[i], gm) {
							filtered++ // rewritten for this viewer
						}
					}
					if len(events) == 0 {
						filtered++ // left out for this viewer
					}
				}
			}
		})
	}
	// Some event was filtered for someone (rewritten or left out), so the
	// checks above saw the frames carry what the filter made of it.
	if filtered == 0 {
		t.Fatal("no event of any example was filtered for any viewer")
	}
	t.Logf("%d values encoded alike; %d events filtered for a viewer", checked, filtered)
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
