package swzones

import (
	"slices"
	"testing"

	"github.com/fray-vtt/fray/internal/engine"
)

func TestHarm(t *testing.T) {
	tests := []struct {
		name          string
		wildCard      bool
		shaken        bool
		wounds        int
		total         int
		wantShaken    bool // newly Shaken
		wantWounds    int  // inflicted
		woundsAfter   int
		incapacitated bool
	}{
		{"below Toughness", true, false, 0, 4, false, 0, 0, false},
		{"equal to Toughness: Shaken", true, false, 0, 5, true, 0, 0, false},
		{"3 over: still only Shaken", true, false, 0, 8, true, 0, 0, false},
		{"a raise: a wound", true, false, 0, 9, false, 1, 1, false},
		{"two raises: two wounds", true, false, 0, 13, false, 2, 2, false},
		{"Shaken twice: a wound", true, true, 0, 5, false, 1, 1, false},
		{"Shaken and a raise: one wound, not two", true, true, 0, 9, false, 1, 1, false},
		{"Shaken, below Toughness: nothing", true, true, 1, 4, false, 0, 1, false},
		{"Wild Card reaches 3 wounds", true, false, 2, 9, false, 1, 3, false},
		{"Wild Card's fourth wound incapacitates", true, false, 3, 9, false, 1, 3, true},
		{"Wild Card, three wounds, Shaken twice", true, true, 3, 5, false, 1, 3, true},
		{"Wild Card overwhelmed", true, false, 0, 21, false, 4, 3, true},
		{"Extra Shaken", false, false, 0, 6, true, 0, 0, false},
		{"Extra out at one wound", false, false, 0, 9, false, 1, 1, true},
		{"Extra Shaken twice: out", false, true, 0, 5, false, 1, 1, true},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			f := &Fighter{WildCard: tc.wildCard, Shaken: tc.shaken, Wounds: tc.wounds}
			h := harm(f, tc.total, 5)
			eq(t, "shaken", h.Shaken, tc.wantShaken)
			eq(t, "wounds", h.Wounds, tc.wantWounds)
			eq(t, "wounds after", h.WoundsAfter, tc.woundsAfter)
			eq(t, "incapacitated", h.Incapacitated, tc.incapacitated)
			eq(t, "shaken after", h.ShakenAfter, tc.shaken || tc.total >= 5)
			applyHarm(f, h)
			eq(t, "applied wounds", f.Wounds, tc.woundsAfter)
			eq(t, "applied incapacitated", f.Incapacitated, tc.incapacitated)
		})
	}
}

func TestWildCardIncapacitationRoll(t *testing.T) {
	tests := []struct {
		vigor  []int // brak's Vigor d8, then the Wild Die; −3 for wounds
		status string
	}{
		{[]int{3, 2}, "bleeding out"}, // 3 −3 = 0
		{[]int{1, 1}, "dead"},         // critical failure
		{[]int{7, 2}, "stable"},       // 7 −3 = 4
	}
	for _, tc := range tests {
		t.Run(tc.status, func(t *testing.T) {
			st := endTurns(t, skirmish(t, nil), "gob1")
			st.Fighters["brak"].Wounds = 3
			// gob1: 5 +1 gang-up = 6 vs Parry 6: hit. Damage 6+4 (Str d6 aces)
			// + sword 1 = 11 vs Toughness 6: 5 over, one raise: a wound, the fourth.
			faces := append([]int{5, 6, 4, 1}, tc.vigor...)
			events, st := do(t, st, gm, cmd(CmdFight, "gob1", "target", "brak", "weapon", "sword"), faces...)
			if got, want := kinds(events), []string{KindAttack, KindIncapacitation, engine.KindCombatantOut}; !slices.Equal(got, want) {
				t.Fatalf("events = %v, want %v", got, want)
			}
			roll := events[1].Rolls[0]
			eq(t, "vigor label", roll.Label, "Vigor")
			eq(t, "vigor mod", roll.Mod, -3)
			b := st.Fighters["brak"]
			eq(t, "status", b.Status, tc.status)
			eq(t, "wounds", b.Wounds, 3)
			eq(t, "incapacitated", b.Incapacitated, true)
			eq(t, "out", st.Combatant("brak").Out, true)
			var out engine.CombatantOut
			if err := events[2].Decode(&out); err != nil || out.Reason != "incapacitated, "+tc.status {
				t.Fatalf("out = %+v, %v", out, err)
			}
			eq(t, "encounter goes on (lyra stands)", st.Status, engine.StatusRunning)
			eq(t, "gob1 still acting", st.Current(), "gob1")
		})
	}
}

func TestDamageAcesAndStrength(t *testing.T) {
	st := skirmish(t, nil)
	// Fighting 5, Wild 2: hit. Damage Str d8 8+8+1 = 17 + sword d6 6+2 = 8:
	// 25 vs Toughness 5 = 5 raises: gob1 (an Extra) is out.
	events, _ := do(t, st, gm, cmd(CmdFight, "brak", "target", "gob1", "weapon", "sword"), 5, 2, 8, 8, 1, 6, 2)
	a := one(t, events)
	eq(t, "damage", a.Damage.Total, 25)
	eq(t, "raises", a.Damage.Raises, 5)
	roll := events[0].Rolls[1]
	eq(t, "str die", roll.Dice[0].Sides, 8)
	eq(t, "str faces", len(roll.Dice[0].Faces), 3)
	eq(t, "roll result", roll.Result, "incapacitated")
}
