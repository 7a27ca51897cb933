package engine_test

import (
	"encoding/json"
	"testing"

	"github.com/fray-vtt/fray/internal/engine"
)

// BenchmarkProjectView is what publishing one update costs per kind of
// client: a viewer's projection of a sw-zones fight in progress, and that
// projection encoded as JSON for its frame (what the hub does for the GM's
// view=1 client and for each player character's).
func BenchmarkProjectView(b *testing.B) {
	p, st := playedExample(b, "sw-zones-dusty-gulch", 40)
	viewers := map[string]engine.Viewer{"GM": engine.GMViewer()}
	for _, c := range st.Core().Combatants {
		if c.PC {
			viewers["PC"] = engine.PlayerViewer(c.ID)
			break
		}
	}
	for name, v := range viewers {
		raw, _ := json.Marshal(engine.Project(p.Ruleset, st, v))
		b.Run(name+"/Project", func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				engine.Project(p.Ruleset, st, v)
			}
		})
		b.Run(name+"/Marshal", func(b *testing.B) {
			view := engine.Project(p.Ruleset, st, v)
			b.ReportAllocs()
			b.SetBytes(int64(len(raw)))
			for b.Loop() {
				if _, err := json.Marshal(view); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
