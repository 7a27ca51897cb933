package d20under

import (
	"encoding/json"
	"net/url"
	"slices"
	"strings"
	"testing"

	"github.com/fray-vtt/fray/internal/board"
	"github.com/fray-vtt/fray/internal/engine"
	"github.com/fray-vtt/fray/internal/fray"
	"github.com/fray-vtt/fray/internal/sheet"
)

// What each viewer sees and may do; hidden combatants; bad input.

func hiddenFight(t *testing.T) *State {
	t.Helper()
	return begin(t, newState(t, gridSetup(noCrit, 10, 4, nil,
		spec{ID: "ana", Side: "heroes", PC: true, X: 1, Y: 1, Attr: map[string]int{Quick: 14}},
		spec{ID: "bo", Side: "heroes", PC: true, X: 1, Y: 2, Attr: map[string]int{Quick: 12}},
		spec{ID: "orc", Side: "foes", X: 5, Y: 1, Attr: map[string]int{Quick: 13}},
		spec{ID: "spy", Side: "foes", Hidden: true, X: 2, Y: 1, Attr: map[string]int{Quick: 11, Accurate: 15},
			Weapons: []map[string]any{{"id": "knife", "name": "Knife", "type": "short"}}},
	)))
}

func TestProjectionPerViewer(t *testing.T) {
	st := hiddenFight(t)
	ana := engine.PlayerViewer("ana")
	view := engine.Project(New(), st, ana)
	v := view.Board
	if _, ok := tokenOf(v, "spy"); ok {
		t.Fatal("a player never learns of a hidden combatant")
	}
	if slices.Contains(view.Order, "spy") {
		t.Fatal("nor in the order")
	}
	if tokenSheet(v, "ana") == nil || tokenSheet(v, "bo") != nil || tokenSheet(v, "orc") != nil {
		t.Fatalf("only one's own sheet is full: %+v", v.Tokens)
	}
	if bo, _ := tokenOf(v, "bo"); bo.Health == nil {
		t.Error("a player character's Toughness is public")
	}
	if orc, _ := tokenOf(v, "orc"); orc.Health != nil {
		t.Error("an NPC's Toughness is the GM's")
	}
	b := v
	for _, tk := range b.Tokens {
		if tk.ID == "spy" {
			t.Fatal("no token for the hidden")
		}
		if tk.ID == "orc" && tk.Health != nil {
			t.Error("no health meter for an NPC")
		}
	}
	for _, p := range b.Grid.Places {
		if p.Token == "spy" {
			t.Fatal("no place for the hidden")
		}
	}
	gv := engine.Project(New(), st, gm).Board
	if orc, _ := tokenOf(gv, "orc"); tokenSheet(gv, "spy") == nil || orc.Health == nil {
		t.Fatal("the GM sees everything")
	}
	// The page can draw the board without knowing the ruleset.
	raw, _ := json.Marshal(engine.Project(New(), st, ana))
	if strings.Contains(string(raw), "spy") || strings.Contains(string(raw), "Spy") {
		t.Fatalf("the view leaks the hidden combatant: %s", raw)
	}
}

func TestHiddenCombatantsAnswerLikeUnknown(t *testing.T) {
	st := hiddenFight(t)
	ana := engine.PlayerViewer("ana")
	// Ana, next to the unseen spy, cannot target it: "no combatant".
	msg := fail(t, st, ana, cmd(CmdAttack, "ana", "target", "spy"), fray.ENOTFOUND)
	if !strings.Contains(msg, "no combatant") {
		t.Errorf("message %q", msg)
	}
	fail(t, st, ana, cmd(CmdAttack, "ana", "target", "nobody"), fray.ENOTFOUND)
	for _, a := range New().Actions(st, ana) {
		for _, f := range a.Fields {
			for _, o := range f.Options {
				if o.Value == "spy" || strings.Contains(o.Label, "Spy") {
					t.Fatalf("%s offers the hidden spy", a.Kind)
				}
			}
		}
	}
	// The spy stabs ana: the event is secret to players, and a free
	// attack it earns is the GM's to decide.
	st = endTurns(t, st, "spy")
	events, _ := do(t, st, gm, cmd(CmdAttack, "spy", "target", "ana"), 20)
	for _, e := range events {
		if e.Actor == "spy" && !e.Secret {
			t.Fatalf("the hidden actor's %s is not secret", e.Kind)
		}
	}
	if got := engine.FilterEvents(st, ana, events); slices.ContainsFunc(got, func(e engine.Event) bool {
		return strings.Contains(e.Text, "Spy")
	}) {
		t.Fatal("a player reads the hidden spy's name")
	}
}

func TestPlayersActOnlyForTheirCharacters(t *testing.T) {
	st := hiddenFight(t)
	fail(t, st, engine.PlayerViewer("bo"), cmd(CmdEndTurn, "ana"), fray.EFORBIDDEN)
	fail(t, st, engine.PlayerViewer("bo"), cmd(CmdEndTurn, "bo"), fray.ENOTYOURTURN)
	fail(t, st, engine.PlayerViewer("ana"), cmd(GMAdjust, "", "combatant", "ana", "what", "xp", "value", 9), fray.EFORBIDDEN)
	for _, a := range New().Actions(st, engine.PlayerViewer("bo")) {
		t.Errorf("bo is offered %s out of turn", a.Kind)
	}
	acts := New().Actions(st, engine.PlayerViewer("ana"))
	mains := 0
	for _, a := range acts {
		if a.Actor != "ana" {
			t.Errorf("ana's player is offered %s for %q", a.Kind, a.Actor)
		}
		if a.Main {
			mains++
		}
	}
	if mains < 2 || mains > 4 {
		t.Errorf("%d main actions", mains)
	}
}

func TestBadArgumentsAreRefused(t *testing.T) {
	st := hiddenFight(t)
	for _, tc := range []struct {
		c    engine.Command
		code string
	}{
		{cmd(CmdAttack, "ana", "target", "orc", "oops", 1), fray.EINVALID},
		{cmd(CmdAttack, "ana", "target", 7), fray.EINVALID},
		{cmd(CmdAttack, "ana", "target", "orc", "aim", "knee"), fray.EINVALID},
		{cmd(CmdAttack, "ana", "target", "orc"), fray.EILLEGAL}, // not engaged
		{cmd(CmdAttack, "ana", "target", "bo"), fray.EILLEGAL},  // an ally
		{cmd(CmdMove, "ana", "to", "nowhere"), fray.EINVALID},
		{cmd(CmdMove, "ana", "to", "1,2"), fray.EILLEGAL}, // bo stands there
		{cmd(CmdMove, "ana", "to", "2,1", "actions", 3), fray.EINVALID},
		{cmd(CmdShoot, "ana", "target", "orc"), fray.EILLEGAL},
		{cmd(CmdFeat, "ana", "feat", "fly", "pay", "xp"), fray.EINVALID},
		{cmd(CmdFeat, "ana", "feat", FeatResilience, "pay", "gold"), fray.EINVALID},
		{cmd(CmdEndTurn, "ana", "next", "sleep"), fray.EINVALID},
		{cmd(CmdDeathTest, "ana"), fray.EILLEGAL},
		{cmd(CmdAdvance, "ana", "side", "foes"), fray.EILLEGAL}, // a grid
		{cmd(GMCondition, "", "combatant", "ana", "condition", "invisible", "on", true), fray.EINVALID},
		{cmd(GMAdjust, "", "combatant", "ana", "what", "ammo:bow", "value", 2), fray.EILLEGAL},
		{cmd(GMPlaceTrap, "", "square", "99,1", "trap", TrapMechanical, "discreet", 10, "cunning", 10), fray.EILLEGAL},
		{cmd("fly", "ana"), fray.EINVALID},
	} {
		fail(t, st, gm, tc.c, tc.code)
	}
}

func TestEditorAndRegistry(t *testing.T) {
	rs := New()
	bd, ok := rs.(engine.Boarder)
	if !ok {
		t.Fatal("a Boarder")
	}
	e := bd.Editor()
	if e.Model != board.Grid || len(e.Models) != 2 || e.Scale != "2 m" || strings.Join(e.Distances, ",") != "Close,Short,Medium,Long,Extreme" {
		t.Fatalf("editor %+v", e)
	}
	if _, ok := rs.(engine.Settler); !ok {
		t.Fatal("a Settler")
	}
	if _, ok := rs.(engine.Stepper); !ok {
		t.Fatal("a Stepper")
	}
	for _, o := range rs.Options() {
		if err := o.Check(o.Default); err != nil {
			t.Errorf("option %s: default %q: %v", o.Name, o.Default, err)
		}
	}
	// The battlefield model is chosen per encounter; anything else is refused.
	s := gridSetup(nil, 6, 3, nil, spec{ID: "a", Side: "heroes", X: 0, Y: 0}, spec{ID: "b", Side: "foes", X: 5, Y: 0})
	s.Battlefield = json.RawMessage(`{"model":"zones"}`)
	if _, err := engine.NewEncounter(New(), "x", s); fray.ErrorCode(err) != fray.EINVALID {
		t.Errorf("zones: %v", err)
	}
	s.Battlefield = json.RawMessage(`{"model":"grid","width":6,"height":3}`)
	s.Combatants[1].Start = json.RawMessage(`{"x":0,"y":0}`)
	if _, err := engine.NewEncounter(New(), "x", s); fray.ErrorCode(err) != fray.EINVALID {
		t.Errorf("two on one square: %v", err)
	}
}

func TestSchemaRoundTrips(t *testing.T) {
	sc := New().(sheet.Schemaer).Schema()
	form := url.Values{}
	for _, f := range sc.Fields {
		switch f.Type {
		case sheet.FieldInt:
			v := "10"
			switch {
			case strings.HasPrefix(f.Name, "traits."):
				v = "1"
			case strings.HasPrefix(f.Name, "items."), f.Name == "xp", strings.HasPrefix(f.Name, "corruption."), f.Name == "damage":
				v = "2"
			case f.Name == "painThreshold", f.Name == "toughness", f.Name == "armour.die", f.Name == "armour.impeding":
				v = ""
			}
			form.Set(f.Name, v)
		case sheet.FieldDie:
			form.Set(f.Name, f.Choices[len(f.Choices)-1].Value)
		case sheet.FieldBool:
			form.Set(f.Name, "on")
		case sheet.FieldText:
			switch f.Name {
			case "powers":
				form.Set(f.Name, "curse")
			case "armour.segments":
				form.Set(f.Name, "cuirass")
			}
		case sheet.FieldList:
			form.Set(f.Name+".0.name", "Bow")
			form.Set(f.Name+".0.type", "bow")
			form.Set(f.Name+".0.ammo", "3")
			form.Set(f.Name+".0.projectiles", ProjQuality)
		}
	}
	form.Set("armour.type", "medium")
	form.Set("undead", "")
	raw, err := sc.ParseForm(form)
	if err != nil {
		t.Fatal(err)
	}
	got, err := New().(sheet.Deriver).Derive(raw)
	if err != nil {
		t.Fatalf("%s: %v", raw, err)
	}
	eq(t, "toughness", got["Toughness"], "8 of 10")
}

// A sheet lists abilities, traits and items by name, sorted, each with its
// level or count; a fighter without any gets no empty section.
func TestSheetListsAbilitiesTraitsAndItems(t *testing.T) {
	st := begin(t, newState(t, gridSetup(noCrit, 10, 4, nil,
		spec{ID: "ana", Side: "heroes", PC: true, X: 1, Y: 1, Stats: map[string]any{
			"abilities": map[string]string{"rapid-fire": "adept", "acrobatics": "novice"},
			"traits":    map[string]int{TrRobust: 2, TrArmoured: 1},
			"items":     map[string]int{ItemHerbalCure: 2}}},
		spec{ID: "orc", Side: "foes", X: 5, Y: 1},
	)))
	b := engine.Project(New(), st, gm).Board
	listed := func(id string) map[string][]string {
		out := map[string][]string{}
		for _, sec := range tokenSheet(b, id) {
			out[sec.Title] = nil
			for _, s := range sec.Stats {
				out[sec.Title] = append(out[sec.Title], s.Label+"="+s.Value)
			}
		}
		return out
	}
	ana := listed("ana")
	for title, want := range map[string]string{
		"Abilities": "Acrobatics=Novice Rapid fire=Adept",
		"Traits":    label(TrArmoured) + "=1 " + label(TrRobust) + "=2",
		"Items":     label(ItemHerbalCure) + "=2",
	} {
		if got := strings.Join(ana[title], " "); got != want {
			t.Errorf("%s: %q, want %q", title, got, want)
		}
	}
	for _, title := range []string{"Abilities", "Traits", "Items", "Powers"} {
		if _, ok := listed("orc")[title]; ok {
			t.Errorf("an empty %s section", title)
		}
	}
}
