package rules_test

import (
	"context"
	"maps"
	"os"
	"slices"
	"strings"
	"testing"

	"github.com/fray-vtt/fray/internal/foundry"
	"github.com/fray-vtt/fray/internal/rules"
	"github.com/fray-vtt/fray/internal/sheet"
	"github.com/fray-vtt/fray/internal/simulate"
	"github.com/fray-vtt/fray/internal/statblock"
)

// TestFoundryActors: actor files written from the Foundry systems' data
// models (one actor, an array, a compendium pack of one document a line)
// map to the expected sheets, list what they do not map, and play a
// fight.
func TestFoundryActors(t *testing.T) {
	type want struct {
		values   map[string]string
		unmapped []string // each must be listed
		assumed  []string
	}
	for _, c := range []struct {
		file, ruleset, example, foe string
		actors                      map[string]want
	}{
		{"swade-character.json", "sw-zones", "sw-zones-goblin-ford", "goblin-1", map[string]want{
			"Kara Vance": {values: map[string]string{"wildCard": "on", "attributes.agility": "d8", "attributes.smarts": "d6", "attributes.spirit": "d6",
				"attributes.strength": "d12+1", "attributes.vigor": "d8", "bennies": "3", "wounds": "1", "armor": "2",
				"skills.fighting": "d10", "skills.athletics": "d6",
				"weapons.0.name": "Long Sword", "weapons.0.damage": "Str+d8",
				"weapons.1.name": "Throwing Knife", "weapons.1.damage": "Str+d4", "weapons.1.range": "3/6/12", "weapons.1.thrown": "on"},
				unmapped: []string{"system.details.biography.value", "system.details.archetype", "system.stats.parry.value", `items[2] (skill "Academics")`, `items[6] (edge "Brawny")`},
				assumed:  []string{"weapons.1.thrown"}},
		}},
		{"swade-npcs.json", "sw-zones", "sw-zones-goblin-ford", "goblin-1", map[string]want{
			"Bandit": {values: map[string]string{"wildCard": "", "attributes.agility": "d8", "attributes.smarts": "d6", "attributes.spirit": "d6",
				"attributes.strength": "d6", "attributes.vigor": "d6", "armor": "1", "skills.fighting": "d6", "skills.shooting": "d6",
				"weapons.0.name": "Short Sword", "weapons.0.damage": "Str+d6", "weapons.1.name": "Bow", "weapons.1.damage": "2d6", "weapons.1.range": "12/24/48"},
				unmapped: []string{"system.stats.toughness.value"}},
			"Bandit Chief": {values: map[string]string{"wildCard": "on", "attributes.agility": "d8", "attributes.smarts": "d8", "attributes.spirit": "d8",
				"attributes.strength": "d8", "attributes.vigor": "d8", "bennies": "2", "skills.fighting": "d8", "skills.intimidation": "d8",
				"weapons.0.name": "Axe", "weapons.0.damage": "Str+d6"},
				unmapped: []string{`items[3] (gear "Whistle")`, "system.bennies.value"}},
		}},
		{"symbaroum-pack.db", "d20-under", "d20-under-crypt", "draugr-1", map[string]want{
			"Corrupted Wolf": {values: map[string]string{"attributes.accurate": "13", "attributes.cunning": "5", "attributes.discreet": "11",
				"attributes.persuasive": "5", "attributes.quick": "15", "attributes.resolute": "9", "attributes.strong": "12", "attributes.vigilant": "10",
				"toughness": "12", "painThreshold": "6", "traits.terrify": "1",
				"weapons.0.name": "Bite", "weapons.0.type": "natural", "weapons.0.bonus": "1"},
				unmapped: []string{"system.bio.resistance", "system.bio.tactics"}},
			"Sigrid": {values: map[string]string{"attributes.accurate": "15", "attributes.cunning": "10", "attributes.discreet": "7",
				"attributes.persuasive": "5", "attributes.quick": "13", "attributes.resolute": "10", "attributes.strong": "11", "attributes.vigilant": "9",
				"toughness": "11", "damage": "3", "painThreshold": "6", "corruption.permanent": "1", "corruption.temporary": "2",
				"abilities.acrobatics": "adept",
				"weapons.0.name":       "Sword", "weapons.0.type": "one-handed", "weapons.0.qualities": "precise",
				"weapons.1.name": "Longbow", "weapons.1.type": "bow",
				"armour.name": "Chain mail", "armour.type": "medium"},
				unmapped: []string{"system.experience.total", `items[4] (ability "Iron Fist")`}},
		}},
	} {
		t.Run(c.file, func(t *testing.T) {
			data, err := os.ReadFile("testdata/foundry/" + c.file)
			if err != nil {
				t.Fatal(err)
			}
			rs, err := rules.Registry().Get(c.ruleset)
			if err != nil {
				t.Fatal(err)
			}
			m := rs.(foundry.Mapper)
			actors, err := foundry.Decode(data)
			if err != nil {
				t.Fatal(err)
			}
			if len(actors) != len(c.actors) {
				t.Fatalf("%d actors, want %d", len(actors), len(c.actors))
			}
			setup := exampleSetup(t, c.example)
			for _, a := range actors {
				w, ok := c.actors[a.Name]
				if !ok {
					t.Fatalf("unexpected actor %q", a.Name)
				}
				if a.SystemID != m.FoundrySystem() {
					t.Errorf("%s: system %q", a.Name, a.SystemID)
				}
				b := statblock.NewBuilder(a.Name)
				m.FromFoundry(a, b)
				r := b.Report()
				got := map[string]string{}
				for k := range r.Values {
					got[k] = r.Values.Get(k)
				}
				if !maps.Equal(got, w.values) {
					t.Errorf("%s: values\n got %v\nwant %v", a.Name, got, w.values)
				}
				var assumed []string
				for _, n := range r.Assumed {
					assumed = append(assumed, n.Field)
				}
				if !slices.Equal(assumed, w.assumed) {
					t.Errorf("%s: assumed %v, want %v", a.Name, assumed, w.assumed)
				}
				un := a.Unmapped()
				for _, u := range w.unmapped {
					if !slices.Contains(un, u) {
						t.Errorf("%s: %q is not listed as not mapped: %v", a.Name, u, un)
					}
				}
				for _, u := range un {
					if strings.HasPrefix(u, "system.attributes.") {
						t.Errorf("%s: %s is mapped, yet listed", a.Name, u)
					}
				}
				stats, err := rs.(sheet.Schemaer).Schema().ParseForm(r.Values)
				if err != nil {
					t.Fatalf("%s: %v", a.Name, err)
				}
				fight := setup
				fight.Combatants = slices.Clone(setup.Combatants)
				for i := range fight.Combatants {
					if fight.Combatants[i].ID == c.foe {
						fight.Combatants[i].Stats = stats
					}
				}
				if _, err := simulate.Run(context.Background(), rs, fight, simulate.Options{Runs: 2, Seed: 3}); err != nil {
					t.Errorf("%s does not play: %v", a.Name, err)
				}
			}
		})
	}
}

// TestFoundryBadFiles: a file that is not Foundry actors, or is over a
// bound, is refused naming what is wrong.
func TestFoundryBadFiles(t *testing.T) {
	for _, c := range []struct{ name, data, want string }{
		{"empty", "", "empty"},
		{"not JSON", "Orc: Agility d6", "not Foundry actor JSON"},
		{"no name", `{"type":"npc","system":{}}`, "field name"},
		{"no system", `{"name":"Orc","type":"npc"}`, "field system"},
		{"long string", `{"name":"Orc","system":{"details":{"notes":"` + strings.Repeat("x", foundry.MaxString+1) + `"}}}`, "field system.details.notes"},
		{"a bad line of a pack", "{\"name\":\"A\",\"system\":{}}\n{\"name\":", "line 2"},
		{"empty array", `[]`, "no actor"},
	} {
		_, err := foundry.Decode([]byte(c.data))
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: %v, want %q", c.name, err, c.want)
		}
	}
}
