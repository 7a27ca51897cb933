package d6bands

import (
	"encoding/json"
	"net/url"
	"reflect"
	"strings"
	"testing"

	"github.com/fray-vtt/fray/internal/engine"
	"github.com/fray-vtt/fray/internal/fray"
	"github.com/fray-vtt/fray/internal/sheet"
)

func TestCarryDeclaration(t *testing.T) {
	fs := New().(sheet.Carrier).CarryFields()
	if err := sheet.CheckCarryFields(fs); err != nil {
		t.Fatal(err)
	}
	schema := New().(sheet.Schemaer).Schema()
	for _, f := range fs {
		found := false
		for _, sf := range schema.Fields {
			found = found || (sf.Name == f.Name && sf.Type == f.Type)
		}
		if !found {
			t.Errorf("the schema lacks carried %q", f.Name)
		}
	}
}

// What a fight does to ana is what the ruleset carries out, and what the
// next fight starts with.
func TestCarryOutOfAFight(t *testing.T) {
	setup := func() engine.Setup {
		return newSetup(nil, grid(6, 6),
			spec{ID: "orc", Side: "foes", X: 2, Y: 0, Init: 30},
			spec{ID: "ana", Side: "heroes", X: 0, Y: 0, Group: "g", PC: true, Init: 20},
			spec{ID: "bram", Side: "heroes", X: 0, Y: 0, Group: "g", PC: true, Init: 10},
		)
	}
	st := start(t, newState(t, setup()))
	// Two Serious wounds on ana (snapshots by 9: 1+1+2+9 = 13), then bram bandages one.
	_, st = do(t, st, gm, cmd(CmdShoot, "orc", "target", "ana", "weapon", "bow", "mode", "snapshot"), 1, 1, 1, 1, 1, 1, 1)
	_, st = do(t, st, gm, cmd(CmdReload, "orc", "weapon", "bow"))
	_, st = do(t, st, gm, cmd(CmdShoot, "orc", "target", "ana", "weapon", "bow", "mode", "snapshot"), 1, 1, 1, 1, 1, 1, 1)
	_, st = do(t, st, gm, cmd(CmdEndTurn, "ana"))
	_, st = do(t, st, gm, cmd(CmdFirstAid, "bram", "target", "ana"), 4, 4, 3)
	_, st = do(t, st, gm, engine.NewCommand(engine.KindEnd, "", map[string]any{"winner": "heroes"}))
	stats := setup().Combatants[1].Stats
	got, err := sheet.CarryOutOf(New().(sheet.Carrier), st, "ana", stats)
	if err != nil {
		t.Fatal(err)
	}
	want := sheet.CarryValues{"wounds.light": 0, "wounds.serious": 2, "wounds.lethal": 0, "wounds.bleeding": 1, "bloodLoss": 0, "dead": false}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("carried %v, want %v", got, want)
	}
	next, err := sheet.WriteCarried(carryFields(), stats, got)
	if err != nil {
		t.Fatal(err)
	}
	s2 := setup()
	s2.Combatants[1].Stats = next
	st2 := newState(t, s2)
	ana := st2.Fighters["ana"]
	eq(t, "wounds next fight", len(ana.Wounds), 2)
	eq(t, "penalty next fight", woundPenalty(&st2.Base, ana), 4)
	eq(t, "bleeding next fight", bleeding(ana), 1)
	again, _ := sheet.CarryOutOf(New().(sheet.Carrier), st2, "ana", next)
	if !reflect.DeepEqual(again, got) {
		t.Fatalf("a fight that changed nothing carries %v, want %v", again, got)
	}
}

// A character who died, or lies unconscious from blood loss, cannot join
// the next encounter; the sheet may still record it.
func TestCarriedStats(t *testing.T) {
	r := New().(Ruleset)
	for _, extra := range []string{`{}`, `{"wounds":{"serious":2,"bleeding":1}}`, `{"bloodLoss":12}`, `{"dead":true,"wounds":{"lethal":2}}`} {
		if _, err := r.Derive(json.RawMessage(extra)); err != nil {
			t.Errorf("sheet %s: %v", extra, err)
		}
	}
	for _, extra := range []string{`{"wounds":{"light":-1}}`, `{"wounds":{"serious":21}}`, `{"bloodLoss":"lots"}`, `{"dead":"yes"}`, `{"wounds":{"grazes":1}}`} {
		if _, err := r.Derive(json.RawMessage(extra)); fray.ErrorCode(err) != fray.EINVALID {
			t.Errorf("sheet %s accepted: %v", extra, err)
		}
	}
	for _, tc := range []struct{ stats, msg string }{
		{`{"dead":true}`, "is dead"},
		{`{"wounds":{"lethal":2}}`, "is dead"},
		{`{"bloodLoss":10}`, "unconscious from blood loss"},
	} {
		s := newSetup(nil, grid(4, 4), spec{ID: "ana", Side: "heroes", X: 0, Y: 0}, spec{ID: "orc", Side: "foes", X: 3, Y: 3})
		s.Combatants[0].Stats = json.RawMessage(tc.stats)
		if _, err := engine.NewEncounter(New(), "e", s); fray.ErrorCode(err) != fray.EINVALID || !strings.Contains(err.Error(), tc.msg) {
			t.Errorf("%s: %v", tc.stats, err)
		}
	}
	// The editor's form keeps the carried values through a save.
	schema := r.Schema()
	values, _, err := schema.FormValues(json.RawMessage(`{"wounds":{"serious":2,"bleeding":1},"bloodLoss":3}`))
	if err != nil {
		t.Fatal(err)
	}
	form := url.Values{}
	for k, v := range values {
		form.Set(k, v)
	}
	saved, err := schema.ParseForm(form)
	if err != nil {
		t.Fatal(err)
	}
	got, _ := sheet.ReadCarried(carryFields(), saved)
	want := sheet.CarryValues{"wounds.light": 0, "wounds.serious": 2, "wounds.lethal": 0, "wounds.bleeding": 1, "bloodLoss": 3, "dead": false}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("after a save through the form: %v (%s)", got, saved)
	}
}
