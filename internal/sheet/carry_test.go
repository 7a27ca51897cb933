package sheet_test

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

// carried is a declaration like a d20 ruleset's: a number at the top, a
// nested number with a default, a flag and a note.
var carried = []sheet.CarryField{
	{Field: sheet.Field{Name: "hp", Label: "Hit points", Type: sheet.FieldInt}},
	{Field: sheet.Field{Name: "resources.xp", Label: "XP", Type: sheet.FieldInt, Default: "10"}},
	{Field: sheet.Field{Name: "dying", Label: "Dying", Type: sheet.FieldBool}},
	{Field: sheet.Field{Name: "note", Label: "Note", Type: sheet.FieldText}},
}

func field(name, typ string) sheet.CarryField {
	return sheet.CarryField{Field: sheet.Field{Name: name, Type: typ}}
}

func TestCheckCarryFields(t *testing.T) {
	if err := sheet.CheckCarryFields(carried); err != nil {
		t.Fatal(err)
	}
	withDefault := field("hp", sheet.FieldInt)
	withDefault.Default = "many"
	upsideDown := field("hp", sheet.FieldInt)
	upsideDown.Min, upsideDown.Max = 3, 1
	boundedFlag := field("dying", sheet.FieldBool)
	boundedFlag.Max = 1
	bad := map[string][]sheet.CarryField{
		"duplicate":          {field("hp", sheet.FieldInt), field("hp", sheet.FieldInt)},
		"die":                {field("agility", sheet.FieldDie)},
		"list":               {field("weapons", sheet.FieldList)},
		"empty path":         {field("", sheet.FieldInt)},
		"double dot":         {field("a..b", sheet.FieldInt)},
		"bad default":        {withDefault},
		"upside-down bounds": {upsideDown},
		"bounds on a flag":   {boundedFlag},
	}
	for name, fs := range bad {
		if err := sheet.CheckCarryFields(fs); err == nil {
			t.Errorf("%s: accepted", name)
		}
	}
}

func TestReadAndWriteCarried(t *testing.T) {
	stats := json.RawMessage(`{"name":"Kara","hp":7,"resources":{"gold":3},"skills":{"melee":"12"}}`)
	got, err := sheet.ReadCarried(carried, stats)
	if err != nil {
		t.Fatal(err)
	}
	want := sheet.CarryValues{"hp": 7, "resources.xp": 10, "dying": false, "note": ""}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("read %v, want %v", got, want)
	}
	// Writing keeps everything else, nests new paths, and leaves defaults out.
	out, err := sheet.WriteCarried(carried, stats, sheet.CarryValues{"hp": 3, "resources.xp": 8, "dying": true, "note": ""})
	if err != nil {
		t.Fatal(err)
	}
	var doc map[string]any
	_ = json.Unmarshal(out, &doc)
	if doc["name"] != "Kara" || doc["hp"] != 3.0 || doc["dying"] != true || doc["resources"].(map[string]any)["gold"] != 3.0 ||
		doc["resources"].(map[string]any)["xp"] != 8.0 || doc["skills"].(map[string]any)["melee"] != "12" {
		t.Fatalf("written %s", out)
	}
	if _, ok := doc["note"]; ok {
		t.Fatalf("an empty note was written: %s", out)
	}
	back, _ := sheet.ReadCarried(carried, out)
	if !reflect.DeepEqual(back, sheet.CarryValues{"hp": 3, "resources.xp": 8, "dying": true, "note": ""}) {
		t.Fatalf("read back %v", back)
	}
	// Back to the defaults: the paths go, and an object left empty with them.
	healed, err := sheet.WriteCarried(carried, json.RawMessage(`{"hp":3,"resources":{"xp":8},"dying":true}`),
		sheet.CarryValues{"hp": 0, "resources.xp": 10, "dying": false})
	if err != nil || string(healed) != `{}` {
		t.Fatalf("healed %s, %v", healed, err)
	}
	// Undeclared paths, wrong types and stats in the way are refused.
	for name, tc := range map[string]struct {
		stats  string
		values sheet.CarryValues
	}{
		"undeclared": {`{}`, sheet.CarryValues{"gold": 1}},
		"wrong type": {`{}`, sheet.CarryValues{"hp": "lots"}},
		"not whole":  {`{}`, sheet.CarryValues{"hp": 2.5}},
		"in the way": {`{"resources":3}`, sheet.CarryValues{"resources.xp": 1}},
		"not stats":  {`[1]`, sheet.CarryValues{"hp": 1}},
	} {
		if _, err := sheet.WriteCarried(carried, json.RawMessage(tc.stats), tc.values); fray.ErrorCode(err) != fray.EINVALID {
			t.Errorf("%s: %v", name, err)
		}
	}
	if _, err := sheet.ReadCarried(carried, json.RawMessage(`{"hp":"seven"}`)); fray.ErrorCode(err) != fray.EINVALID {
		t.Errorf("a text hp was read: %v", err)
	}
}

// TestProposeCarry: an encounter's change lands on the character as it is
// now, and a second carry-over of the same encounter replaces the first.
func TestProposeCarry(t *testing.T) {
	fs := carried[:3] // hp, xp, dying
	v := func(hp, xp int, dying bool) sheet.CarryValues {
		return sheet.CarryValues{"hp": hp, "resources.xp": xp, "dying": dying}
	}
	tests := []struct {
		name                   string
		current, before, after sheet.CarryValues
		prev                   sheet.CarryApplied
		wantBase, wantProposal sheet.CarryValues
	}{
		{"prepared from the sheet as it is: the result is the end state",
			v(10, 10, false), v(10, 10, false), v(4, 9, true), nil,
			v(10, 10, false), v(4, 9, true)},
		{"healed meanwhile: the fight's loss lands on the healed sheet",
			v(12, 10, false), v(10, 10, false), v(4, 10, false), nil,
			v(12, 10, false), v(6, 10, false)},
		{"another fight carried meanwhile: both spends count",
			v(10, 7, false), v(10, 10, false), v(10, 9, false), nil,
			v(10, 7, false), v(10, 6, false)},
		{"again after a rewind and a new end: the first result is undone",
			v(4, 9, true), v(10, 10, false), v(7, 10, false),
			sheet.CarryApplied{"hp": {From: 10, To: 4}, "resources.xp": {From: 10, To: 9}, "dying": {From: false, To: true}},
			v(10, 10, false), v(7, 10, false)},
		{"again with the same result: nothing moves",
			v(4, 9, true), v(10, 10, false), v(4, 9, true),
			sheet.CarryApplied{"hp": {From: 10, To: 4}, "resources.xp": {From: 10, To: 9}, "dying": {From: false, To: true}},
			v(10, 10, false), v(4, 9, true)},
		{"steps read back from JSON (numbers as float64) undo the same",
			v(4, 9, false), v(10, 10, false), v(4, 9, false),
			sheet.CarryApplied{"hp": {From: 10.0, To: 4.0}, "resources.xp": {From: 10.0, To: 9.0}},
			v(10, 10, false), v(4, 9, false)},
		{"a flag the GM cleared since is not set back by the undo",
			v(4, 9, false), v(10, 10, false), v(4, 9, false),
			sheet.CarryApplied{"hp": {From: 10, To: 4}, "resources.xp": {From: 10, To: 9}, "dying": {From: false, To: true}},
			v(10, 10, false), v(4, 9, false)},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			base, proposal := sheet.ProposeCarry(fs, tc.current, tc.before, tc.after, tc.prev)
			if !reflect.DeepEqual(base, tc.wantBase) || !reflect.DeepEqual(proposal, tc.wantProposal) {
				t.Fatalf("base %v proposal %v, want %v %v", base, proposal, tc.wantBase, tc.wantProposal)
			}
		})
	}
	// Bounds: a result worked out beyond them is brought back within; a
	// value the GM gives beyond them is refused.
	wounds := sheet.CarryField{Field: sheet.Field{Name: "wounds", Label: "Wounds", Type: sheet.FieldInt}, Min: 0, Max: 3}
	w := func(n int) sheet.CarryValues { return sheet.CarryValues{"wounds": n} }
	// 2 carried, healed to 1 since; the fight, reopened, now ends at 3:
	// −1 + 3 = 2. Skipped instead, the base −1 is 0.
	bounded := []sheet.CarryField{wounds}
	base, proposal := sheet.ProposeCarry(bounded, w(1), w(0), w(3), sheet.CarryApplied{"wounds": {From: 0, To: 2}})
	if base["wounds"] != -1 || proposal["wounds"] != 2 || sheet.ClampCarried(bounded, base)["wounds"] != 0 {
		t.Fatalf("bounded: base %v proposal %v", base, proposal)
	}
	_, proposal = sheet.ProposeCarry(bounded, w(3), w(0), w(3), nil)
	if proposal["wounds"] != 3 {
		t.Fatalf("3 + 3 wounds: %v", proposal)
	}
	if raw, _ := json.Marshal(bounded[0]); string(raw) != `{"name":"wounds","label":"Wounds","type":"int","min":0,"max":3}` {
		t.Fatalf("a bounded field in JSON: %s", raw)
	}
	if raw, _ := json.Marshal(carried[2]); strings.Contains(string(raw), "min") {
		t.Fatalf("an unbounded field in JSON: %s", raw)
	}
	if _, err := sheet.ParseCarried(bounded, map[string]any{"wounds": 4}); fray.ErrorCode(err) != fray.EINVALID || !strings.Contains(err.Error(), "0–3") {
		t.Fatalf("4 wounds given: %v", err)
	}
	steps := sheet.StepsBetween(fs, v(10, 10, false), v(4, 10, true))
	if !reflect.DeepEqual(steps, sheet.CarryApplied{"hp": {From: 10, To: 4}, "dying": {From: false, To: true}}) {
		t.Fatalf("steps %v", steps)
	}
	changes := sheet.CarryChanges(fs, v(10, 10, false), v(4, 10, true))
	want := []sheet.Change{{Path: "hp", Label: "Hit points", Before: "10", After: "4"}, {Path: "dying", Label: "Dying", Before: "no", After: "yes"}}
	if !reflect.DeepEqual(changes, want) {
		t.Fatalf("changes %v", changes)
	}
}

func TestCarriedFromForm(t *testing.T) {
	got, err := sheet.CarriedFromForm(carried, url.Values{"c.hp": {"5"}, "c.resources.xp": {" 9 "}, "c.note": {"limps"}}, "c.")
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(got, sheet.CarryValues{"hp": 5, "resources.xp": 9, "dying": false, "note": "limps"}) {
		t.Fatalf("form read %v", got)
	}
	if _, err := sheet.CarriedFromForm(carried, url.Values{"c.hp": {"5"}, "c.note": {""}}, "c."); fray.ErrorCode(err) != fray.EINVALID || !strings.Contains(err.Error(), "XP") {
		t.Fatalf("missing XP: %v", err)
	}
	if _, err := sheet.CarriedFromForm(carried, url.Values{"c.hp": {"five"}, "c.resources.xp": {"1"}, "c.note": {""}}, "c."); fray.ErrorCode(err) != fray.EINVALID || !strings.Contains(err.Error(), "Hit points") {
		t.Fatalf("a word for hp: %v", err)
	}
	if _, err := sheet.ParseCarried(carried, map[string]any{"gold": 1}); fray.ErrorCode(err) != fray.EINVALID {
		t.Fatalf("undeclared path: %v", err)
	}
}

func TestCarryOutOf(t *testing.T) {
	ok := fakeCarrier{out: sheet.CarryValues{"hp": int64(3), "resources.xp": 9.0, "dying": true, "note": "x"}}
	got, err := sheet.CarryOutOf(ok, nil, "kara", nil)
	if err != nil || !reflect.DeepEqual(got, sheet.CarryValues{"hp": 3, "resources.xp": 9, "dying": true, "note": "x"}) {
		t.Fatalf("got %v, %v", got, err)
	}
	for name, out := range map[string]sheet.CarryValues{
		"missing":    {"hp": 3, "resources.xp": 9, "dying": true},
		"extra":      {"hp": 3, "resources.xp": 9, "dying": true, "note": "", "gold": 1},
		"wrong type": {"hp": "3", "resources.xp": 9, "dying": 1, "note": ""},
	} {
		if _, err := sheet.CarryOutOf(fakeCarrier{out: out}, nil, "kara", nil); err == nil {
			t.Errorf("%s: accepted", name)
		}
	}
}

type fakeCarrier struct{ out sheet.CarryValues }

func (fakeCarrier) CarryFields() []sheet.CarryField { return carried }
func (f fakeCarrier) CarryOut(engine.State, string, json.RawMessage) (sheet.CarryValues, error) {
	return f.out, nil
}

func TestSchemaDiff(t *testing.T) {
	schema := sheet.Schema{Fields: []sheet.Field{
		{Name: "wildCard", Label: "Wild Card", Type: sheet.FieldBool},
		{Name: "attributes.agility", Label: "Agility", Type: sheet.FieldDie},
		{Name: "wounds", Label: "Wounds", Type: sheet.FieldInt},
		{Name: "weapons", Label: "Weapon", Type: sheet.FieldList},
	}}
	before := json.RawMessage(`{"wildCard":true,"attributes":{"agility":"d6","smarts":"d6"},"weapons":[{"id":"axe","name":"Axe"}],"powers":[]}`)
	after := json.RawMessage(`{"wildCard":true,"attributes":{"agility":"d8","smarts":"d6"},"wounds":2,"weapons":[{"id":"axe","name":"Axe"},{"id":"bow","name":"Bow"}],"powers":[{"id":"bolt"}]}`)
	got, err := schema.Diff(before, after)
	if err != nil {
		t.Fatal(err)
	}
	want := []sheet.Change{
		{Path: "attributes.agility", Label: "Agility", Before: "d6", After: "d8"},
		{Path: "wounds", Label: "Wounds", Before: "—", After: "2"},
		{Path: "weapons", Label: "Weapon", Before: "Axe", After: "Axe, Bow"},
		{Path: "powers", Label: "powers", Before: "none", After: "bolt"},
	}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("diff\n%v\nwant\n%v", got, want)
	}
	if same, _ := schema.Diff(after, after); len(same) != 0 {
		t.Fatalf("a block differs from itself: %v", same)
	}
}
