package prep_test

import (
	"encoding/json"
	"errors"
	"testing"

	"github.com/fray-vtt/fray/internal/board"
	"github.com/fray-vtt/fray/internal/engine"
	"github.com/fray-vtt/fray/internal/fray"
	"github.com/fray-vtt/fray/internal/prep"
	"github.com/fray-vtt/fray/internal/prep/preptest"
	"github.com/fray-vtt/fray/internal/rules"
	"github.com/fray-vtt/fray/internal/sheet"
	"github.com/fray-vtt/fray/internal/strictjson"
)

// clientError fails t unless err is nil or a fray error a client caused.
func clientError(t *testing.T, what string, err error) {
	t.Helper()
	var fe *fray.Error
	if err != nil && (!errors.As(err, &fe) || fe.Code == fray.EINTERNAL) {
		t.Fatalf("%s: not a client's error: %v", what, err)
	}
}

func TestReadSetupRefusesHostileDocuments(t *testing.T) {
	reg := rules.Registry()
	for name, data := range preptest.HostileSetups() {
		_, err := prep.ReadSetup(reg, data)
		code := fray.ErrorCode(err)
		if code != fray.EINVALID && code != fray.ETOOLARGE {
			t.Errorf("%s: %v, want a clear refusal", name, err)
			continue
		}
		if msg := fray.ErrorMessage(err); len(msg) > 300 || msg == "" {
			t.Errorf("%s: message of %d bytes: %.300s", name, len(msg), msg)
		}
		t.Logf("%s: %s", name, fray.ErrorMessage(err))
	}
	exs, err := prep.Examples()
	if err != nil {
		t.Fatal(err)
	}
	for _, ex := range exs {
		if _, err := prep.ReadSetup(reg, ex.Data); err != nil {
			t.Errorf("example %s: %v", ex.Name, err)
		}
	}
}

// FuzzReadSetup: whatever a setup document holds, reading it answers a
// setup within every limit or a clear refusal; an accepted one makes an
// encounter or is refused clearly by its ruleset, and its battlefield
// previews within the board's limits.
func FuzzReadSetup(f *testing.F) {
	exs, err := prep.Examples()
	if err != nil {
		f.Fatal(err)
	}
	for _, ex := range exs {
		f.Add(ex.Data)
	}
	for name, data := range preptest.HostileSetups() {
		if len(data) < 64<<10 && name != "101 combatants" {
			f.Add(data)
		}
	}
	reg := rules.Registry()
	f.Fuzz(func(t *testing.T, data []byte) {
		s, err := prep.ReadSetup(reg, data)
		if err != nil {
			if code := fray.ErrorCode(err); code != fray.EINVALID && code != fray.ETOOLARGE {
				t.Fatalf("ReadSetup: %v", err)
			}
			return
		}
		if err := prep.CheckSetup(reg, s); err != nil {
			t.Fatalf("accepted, then CheckSetup: %v", err)
		}
		if len(s.Combatants) > prep.MaxCombatants || len(s.Sides) > prep.MaxSides {
			t.Fatalf("accepted %d combatants and %d sides", len(s.Combatants), len(s.Sides))
		}
		rs, _ := reg.Get(s.Ruleset)
		if e, ok := prep.EditorOf(rs); ok {
			bf, err := prep.ReadBattlefield(s)
			if err != nil {
				t.Fatalf("accepted, then ReadBattlefield: %v", err)
			}
			starts := map[string]board.Start{}
			var tokens []board.Token
			for _, c := range s.Combatants {
				starts[c.ID] = prep.StartOf(c)
				tokens = append(tokens, board.Token{ID: c.ID, Name: c.Name})
			}
			b := board.Preview(e, bf, tokens, starts)
			if g := b.Grid; g != nil && (g.Width > board.MaxGridSide || g.Height > board.MaxGridSide) {
				t.Fatalf("preview of %d × %d", g.Width, g.Height)
			}
		}
		_, err = prep.Prepare(reg, data)
		clientError(t, "Prepare", err)
	})
}

// FuzzStatBlocks: a bestiary or characters file's entries are checked
// (prep.CheckStatBlock) and their stats read by the ruleset (Derive), with
// a clear refusal at worst, never a panic or an internal error.
func FuzzStatBlocks(f *testing.F) {
	exs, err := prep.Examples()
	if err != nil {
		f.Fatal(err)
	}
	reg := rules.Registry()
	for _, ex := range exs {
		s, err := engine.DecodeSetup(ex.Data)
		if err != nil {
			f.Fatal(err)
		}
		var entries []map[string]any
		for _, c := range s.Combatants {
			entries = append(entries, map[string]any{"id": c.ID, "name": c.Name, "ruleset": s.Ruleset, "stats": c.Stats})
		}
		raw, _ := json.Marshal(entries)
		f.Add(raw)
	}
	f.Add([]byte(`[{"id":"a\u0000","name":"x","ruleset":"sw-zones","stats":{}}]`))
	f.Add([]byte(`[{"id":"a","name":"x","ruleset":"sw-zones","stats":[]}]`))
	f.Add([]byte(`[{"id":"a","name":"x","ruleset":"sw-zones","stats":{"traits":{"agility":"d4000000000"}}}]`))
	f.Fuzz(func(t *testing.T, data []byte) {
		var entries []struct {
			ID      string          `json:"id"`
			Name    string          `json:"name"`
			Ruleset string          `json:"ruleset"`
			Stats   json.RawMessage `json:"stats"`
		}
		if err := strictjson.DecodeWith(data, &entries, strictjson.Limits{MaxBytes: prep.MaxSetupBytes, MaxDepth: prep.MaxDepth}); err != nil {
			clientError(t, "decode", err)
			return
		}
		for _, e := range entries {
			if err := prep.CheckStatBlock(e.ID, e.Name, e.Stats); err != nil {
				clientError(t, "CheckStatBlock", err)
				continue
			}
			rs, err := reg.Get(e.Ruleset)
			if err != nil {
				continue
			}
			if d, ok := rs.(sheet.Deriver); ok {
				_, err := d.Derive(e.Stats)
				clientError(t, "Derive", err)
			}
		}
	})
}
