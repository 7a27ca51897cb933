package swzones

import (
	"encoding/json"
	"slices"
	"strings"
	"testing"

	"github.com/fray-vtt/fray/internal/engine"
	"github.com/fray-vtt/fray/internal/fray"
)

func TestSetupParsesStatsAndBattlefield(t *testing.T) {
	st := newState(t, skirmishSetup(nil))
	b := st.Fighters["brak"]
	eq(t, "wild card", b.WildCard, true)
	eq(t, "fighting", b.Skills["fighting"].String(), "d8")
	eq(t, "parry", b.Parry(), 6)
	eq(t, "toughness", b.Toughness(), 6)
	eq(t, "bennies (PC Wild Card)", b.Bennies, 3)
	eq(t, "extra bennies", st.Fighters["gob1"].Bennies, 0)
	pistol, _ := b.Weapon("pistol")
	if !slices.Equal(pistol.RangeInches, []int{12, 24, 48}) || !slices.Equal(pistol.Range, []int{2, 4, 8}) {
		t.Fatalf("pistol range %v / %v", pistol.RangeInches, pistol.Range)
	}
	eq(t, "melee", b.Melee, "m1")
	eq(t, "zones", len(st.Zones), 4)
	// chain() lists each border once; both ends know it.
	if !slices.Equal(st.zone("z2").Adjacent, []string{"z1", "z3"}) {
		t.Fatalf("z2 adjacent = %v", st.zone("z2").Adjacent)
	}
	eq(t, "distance z1–z4", st.Distance("z1", "z4"), 3)
	eq(t, "distance z3–z3", st.Distance("z3", "z3"), 0)
	eq(t, "deck", len(st.Deck.Remaining), 54)
	eq(t, "status", st.Status, engine.StatusSetup)
}

func TestSetupRangeRoundingOption(t *testing.T) {
	setup := skirmishSetup(map[string]string{OptRangeRounding: RoundDown})
	setup.Combatants[0].Stats = mustJSON(map[string]any{
		"wildCard":   true,
		"attributes": map[string]string{"agility": "d6", "smarts": "d6", "spirit": "d6", "strength": "d6", "vigor": "d6"},
		"weapons":    []map[string]any{{"id": "bow", "damage": "2d6", "range": "15/30/60"}},
	})
	st := newState(t, setup)
	bow, _ := st.Fighters["brak"].Weapon("bow")
	if !slices.Equal(bow.Range, []int{2, 5, 10}) {
		t.Fatalf("bow range = %v, want 2/5/10 rounding down", bow.Range)
	}
	eq(t, "name defaults to id", bow.Name, "bow")
}

func TestSetupRejects(t *testing.T) {
	goodStats := func() map[string]any {
		return map[string]any{
			"attributes": map[string]string{"agility": "d6", "smarts": "d6", "spirit": "d6", "strength": "d6", "vigor": "d6"},
			"skills":     map[string]string{"fighting": "d6"},
		}
	}
	tests := []struct {
		name   string
		mutate func(s *engine.Setup)
		want   string
	}{
		{"no battlefield", func(s *engine.Setup) { s.Battlefield = nil }, "battlefield: is required"},
		{"unknown battlefield field", func(s *engine.Setup) {
			s.Battlefield = json.RawMessage(`{"zones":[{"id":"z1"}],"terrain":"mud"}`)
		}, "unknown field"},
		{"no zones", func(s *engine.Setup) { s.Battlefield = json.RawMessage(`{"zones":[]}`) }, "needs 1–12 zones"},
		{"too many zones", func(s *engine.Setup) { s.Battlefield = chain(13, nil) }, "needs 1–12 zones"},
		{"unknown adjacent zone", func(s *engine.Setup) {
			s.Battlefield = json.RawMessage(`{"zones":[{"id":"z1","adjacent":["z9"]}]}`)
		}, `adjacent to unknown zone "z9"`},
		{"self-adjacent", func(s *engine.Setup) {
			s.Battlefield = json.RawMessage(`{"zones":[{"id":"z1","adjacent":["z1"]}]}`)
		}, "adjacent to itself"},
		{"disconnected", func(s *engine.Setup) {
			s.Battlefield = json.RawMessage(`{"zones":[{"id":"z1"},{"id":"z2"}]}`)
		}, "must be connected"},
		{"duplicate zone", func(s *engine.Setup) {
			s.Battlefield = json.RawMessage(`{"zones":[{"id":"z1"},{"id":"z1"}]}`)
		}, "used twice"},
		{"bad cover", func(s *engine.Setup) {
			s.Battlefield = json.RawMessage(`{"zones":[{"id":"z1","props":{"cover":"thick"}}]}`)
		}, "cover cannot be \"thick\""},
		{"cover armour without cover", func(s *engine.Setup) {
			s.Battlefield = json.RawMessage(`{"zones":[{"id":"z1","props":{"coverArmor":3}}]}`)
		}, "coverArmor needs a cover level"},
		{"cover the old way", func(s *engine.Setup) {
			s.Battlefield = json.RawMessage(`{"zones":[{"id":"z1","cover":"light"}]}`)
		}, "unknown field"},
		{"unknown prop", func(s *engine.Setup) {
			s.Battlefield = json.RawMessage(`{"zones":[{"id":"z1","props":{"mud":true}}]}`)
		}, `unknown property "mud"`},
		{"cover armour not a number", func(s *engine.Setup) {
			s.Battlefield = json.RawMessage(`{"zones":[{"id":"z1","props":{"cover":"light","coverArmor":"thick"}}]}`)
		}, "coverArmor must be a whole number"},
		{"grid battlefield", func(s *engine.Setup) {
			s.Battlefield = json.RawMessage(`{"model":"grid","width":4,"height":4}`)
		}, "fights in zones"},
		{"cell start", func(s *engine.Setup) { s.Combatants[0].Start = json.RawMessage(`{"zone":"z1","x":1,"y":2}`) }, "names a zone only"},
		{"unknown start zone", func(s *engine.Setup) { s.Combatants[0].Start = json.RawMessage(`{"zone":"z9"}`) }, `unknown zone "z9"`},
		{"no start", func(s *engine.Setup) { s.Combatants[0].Start = nil }, "needs a start"},
		{"no stats", func(s *engine.Setup) { s.Combatants[0].Stats = nil }, "needs stats"},
		{"die out of range", func(s *engine.Setup) {
			m := goodStats()
			m["skills"] = map[string]string{"fighting": "d20"}
			s.Combatants[0].Stats = mustJSON(m)
		}, "not a trait die"},
		{"d5", func(s *engine.Setup) {
			m := goodStats()
			m["attributes"].(map[string]string)["vigor"] = "d5"
			s.Combatants[0].Stats = mustJSON(m)
		}, "vigor"},
		{"missing attribute", func(s *engine.Setup) {
			m := goodStats()
			delete(m["attributes"].(map[string]string), "spirit")
			s.Combatants[0].Stats = mustJSON(m)
		}, "needs a spirit die"},
		{"unknown attribute", func(s *engine.Setup) {
			m := goodStats()
			m["attributes"].(map[string]string)["luck"] = "d6"
			s.Combatants[0].Stats = mustJSON(m)
		}, "not an attribute"},
		{"unknown stats field", func(s *engine.Setup) {
			m := goodStats()
			m["pace"] = 6
			s.Combatants[0].Stats = mustJSON(m)
		}, "unknown field"},
		{"bad damage", func(s *engine.Setup) {
			m := goodStats()
			m["weapons"] = []map[string]any{{"id": "club", "damage": "Str+d7"}}
			s.Combatants[0].Stats = mustJSON(m)
		}, "weapon club"},
		{"bad range", func(s *engine.Setup) {
			m := goodStats()
			m["weapons"] = []map[string]any{{"id": "bow", "damage": "2d6", "range": "24/12/48"}}
			s.Combatants[0].Stats = mustJSON(m)
		}, "must not decrease"},
		{"Str on a gun", func(s *engine.Setup) {
			m := goodStats()
			m["weapons"] = []map[string]any{{"id": "gun", "damage": "Str+d6", "range": "12/24/48"}}
			s.Combatants[0].Stats = mustJSON(m)
		}, "only melee and thrown"},
		{"duplicate weapon", func(s *engine.Setup) {
			m := goodStats()
			m["weapons"] = []map[string]any{{"id": "club", "damage": "Str+d4"}, {"id": "club", "damage": "Str+d6"}}
			s.Combatants[0].Stats = mustJSON(m)
		}, "used twice"},
		{"melee member elsewhere", func(s *engine.Setup) {
			s.Battlefield = chain(4, nil, []string{"z1", "brak", "gob3"})
		}, "gob3 starts in zone z3"},
		{"melee of one side", func(s *engine.Setup) {
			s.Battlefield = chain(4, nil, []string{"z1", "gob1", "gob2"})
		}, "at least two sides"},
		{"melee unknown member", func(s *engine.Setup) {
			s.Battlefield = chain(4, nil, []string{"z1", "brak", "troll"})
		}, `unknown combatant "troll"`},
		{"two melees", func(s *engine.Setup) {
			s.Battlefield = chain(4, nil, []string{"z1", "brak", "gob1"}, []string{"z1", "brak", "gob2"})
		}, "in two melees"},
		{"one side only", func(s *engine.Setup) {
			for i := range s.Combatants {
				s.Combatants[i].Side = "heroes"
			}
			s.Battlefield = chain(4, nil)
		}, "at least two sides"},
		{"bad option", func(s *engine.Setup) { s.Options = map[string]string{OptEdition: "1e"} }, "cannot be"},
		{"bad template", weapons(map[string]any{"id": "nade", "damage": "3d6", "range": "5/10/20", "template": "huge"}), "template"},
		{"burst without range", weapons(map[string]any{"id": "nade", "damage": "3d6", "template": "medium"}), "needs a range"},
		{"Str on a grenade", weapons(map[string]any{"id": "nade", "damage": "Str+d6", "range": "5/10/20", "template": "small", "thrown": true}), "only melee and thrown"},
		{"ranged garrotte", weapons(map[string]any{"id": "wire", "damage": "Str", "range": "5/10/20", "garrotte": true}), "melee weapon"},
		{"power without range", powers(map[string]any{"id": "bolt", "damage": "2d6"}), "needs a range"},
		{"power range kind", powers(map[string]any{"id": "bolt", "damage": "2d6", "range": "smarts-x4"}), "unknown power range"},
		{"cone with a range", powers(map[string]any{"id": "breath", "damage": "2d6", "range": "smarts", "template": "cone"}), "has no range"},
		{"relief with damage", powers(map[string]any{"id": "relief", "damage": "2d6", "range": "smarts", "template": "small", "effect": "relief"}), "no damage"},
		{"relief without template", powers(map[string]any{"id": "relief", "range": "smarts", "effect": "relief"}), "needs a template"},
		{"unknown effect", powers(map[string]any{"id": "glow", "range": "smarts", "effect": "light"}), "effect"},
		{"power id taken", powers(map[string]any{"id": "sword", "damage": "2d6", "range": "smarts"}), "used twice"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			setup := skirmishSetup(nil)
			tc.mutate(&setup)
			_, err := engine.NewEncounter(New(), "enc", setup)
			if fray.ErrorCode(err) != fray.EINVALID || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("err = %v, want EINVALID containing %q", err, tc.want)
			}
		})
	}
}

func TestSetupAdjacencyMadeSymmetric(t *testing.T) {
	setup := skirmishSetup(nil)
	// The hub lists every border; the spokes list none or some twice.
	setup.Battlefield = json.RawMessage(`{"zones":[
		{"id":"hub","adjacent":["a","b","c"]},
		{"id":"a"},{"id":"b","adjacent":["hub"]},{"id":"c"}]}`)
	for i, z := range []string{"hub", "a", "b", "c", "hub"} {
		setup.Combatants[i].Start = mustJSON(map[string]string{"zone": z})
	}
	st := newState(t, setup)
	if !slices.Equal(st.zone("a").Adjacent, []string{"hub"}) || !slices.Equal(st.zone("b").Adjacent, []string{"hub"}) {
		t.Fatalf("a %v, b %v", st.zone("a").Adjacent, st.zone("b").Adjacent)
	}
	eq(t, "a–c", st.Distance("a", "c"), 2)
	eq(t, "zone name defaults to id", st.zone("a").Name, "a")
}

func TestOptionsListInterpretations(t *testing.T) {
	specs := New().Options()
	want := map[string]string{
		OptEdition: EditionSWADE, OptRecoveryPenalty: PenaltyAll, OptRangeRounding: RoundNearest,
		OptCoverObstacle: CoverArmor, OptShootInMelee: ShootNo, OptMultiAction: MultiDeclare,
		OptRunRefund: RefundFirstRoll, OptRiseCost: "0", OptEngageFreeAttacks: EngageEdges,
		OptPowerRangeGaps: GapsInterpolate, OptConeJet: ConeUnion, OptScatterDodge: "-2",
		OptScatterPlacement: PlaceGM, OptScatterThrower: ThrowerCaught, OptNPCDive: DiveAuto, OptGMBennyLimit: LimitRaise,
		OptPushFreeAttacks: PushNone, OptSoakOffers: OffersAll, OptRerollOffers: OffersPCs,
		OptExtrasBennies: No, OptGMBennies: GMBenniesPerPC, OptBleedingOut: BleedSuccess,
		OptInterruptWindows: On, OptInterruptContest: ContestAgility, OptProneShots: ProneOtherZones,
	}
	eq(t, "options", len(specs), len(want))
	for _, o := range specs {
		if want[o.Name] != o.Default {
			t.Errorf("option %s default %q, want %q", o.Name, o.Default, want[o.Name])
		}
		if !slices.ContainsFunc(o.Choices, func(c engine.Choice) bool { return c.Value == o.Default }) {
			t.Errorf("option %s: default is not a choice", o.Name)
		}
	}
}

// weapons and powers replace brak's weapons or powers in a bad-setup case.
func weapons(ws ...map[string]any) func(*engine.Setup) {
	return func(s *engine.Setup) {
		var m map[string]any
		_ = json.Unmarshal(s.Combatants[0].Stats, &m)
		m["weapons"] = ws
		s.Combatants[0].Stats = mustJSON(m)
	}
}

func powers(ps ...map[string]any) func(*engine.Setup) {
	return func(s *engine.Setup) {
		var m map[string]any
		_ = json.Unmarshal(s.Combatants[0].Stats, &m)
		m["powers"] = ps
		s.Combatants[0].Stats = mustJSON(m)
	}
}
