package swzones

import (
	"testing"

	"github.com/fray-vtt/fray/internal/engine"
)

// The skirmish used by most scenario tests, on four zones in a line
// (z1–z2–z3–z4, z3 in light cover):
//   - brak, Wild Card hero in z1: Fighting d8 (Parry 6), Strength d8,
//     Vigor d8 (Toughness 6), sword Str+d6, pistol 2d6 12/24/48 (2/4/8);
//   - lyra, Wild Card hero in z2: d6 everywhere (Parry 5, Toughness 5);
//   - gob1, gob2: Extras in z1, in melee m1 with brak (Parry 5, Toughness 5);
//   - gob3: Extra in z3, unengaged.
//
// Cards A♠ K♠ Q♠ J♠ 10♠ give the order brak, lyra, gob1, gob2, gob3.
func skirmishSetup(opts map[string]string) engine.Setup {
	return newSetup(opts, chain(4, map[string]string{"z3": "light"}, []string{"z1", "brak", "gob1", "gob2"}),
		spec{ID: "brak", Side: "heroes", Zone: "z1", WC: true, PC: true,
			Attr: map[string]string{"strength": "d8", "vigor": "d8"}, Skills: map[string]string{"fighting": "d8"}},
		spec{ID: "lyra", Side: "heroes", Zone: "z2", WC: true, PC: true},
		spec{ID: "gob1", Side: "goblins", Zone: "z1"},
		spec{ID: "gob2", Side: "goblins", Zone: "z1"},
		spec{ID: "gob3", Side: "goblins", Zone: "z3"},
	)
}

var skirmishCards = []string{"A♠", "K♠", "Q♠", "J♠", "10♠"}

// skirmish returns the skirmish started, on brak's turn.
func skirmish(t *testing.T, opts map[string]string) *State {
	t.Helper()
	_, st := startWith(t, newState(t, skirmishSetup(opts)), skirmishCards)
	if st.Current() != "brak" {
		t.Fatalf("want brak's turn, got %q", st.Current())
	}
	return st
}

// endTurns ends turns until it is id's turn (within the round).
func endTurns(t *testing.T, st *State, id string) *State {
	t.Helper()
	for st.Current() != id {
		_, st = do(t, st, gm, cmd(CmdEndTurn, st.Current()))
	}
	return st
}
