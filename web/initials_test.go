package web

import "testing"

// TestInitialsTellCopiesApart: a token's initials keep a name's number, so
// numbered copies of one stat block differ on the board.
func TestInitialsTellCopiesApart(t *testing.T) {
	for name, want := range map[string]string{
		"Ana Vega": "AV", "Goblin 2": "G2", "Dock thug 1": "D1", "Dock thug 2": "D2", "Outlaw 12": "O12",
		"Lookout": "L", "Cult grenadier": "CG", "7 Samurai": "7S", "2 4": "24",
	} {
		if got := initials(name); got != want {
			t.Errorf("initials(%q) = %q, want %q", name, got, want)
		}
	}
}
