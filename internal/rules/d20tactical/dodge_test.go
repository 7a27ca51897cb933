package d20tactical

import "testing"

// TestDodge: after a hit the target rolls a d20; over its Dodge value
// (12 here) no damage. The direction and the attacks it works against are
// options.
func TestDodge(t *testing.T) {
	cases := []struct {
		name   string
		opts   map[string]string
		weapon string
		roll   int // 0: no Dodge roll
		dodged bool
	}{
		{"13 is over 12: dodged", nil, "pistol", 13, true},
		{"12 is not over 12", nil, "pistol", 12, false},
		{"under: 11 dodges", map[string]string{OptDodgeDirection: Under}, "pistol", 11, true},
		{"under: 12 does not", map[string]string{OptDodgeDirection: Under}, "pistol", 12, false},
		{"no Dodge in melee", nil, "knife", 0, false},
		{"melee too (option)", map[string]string{OptDodgeAttacks: AllAttacks}, "knife", 15, true},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			st := skirmish(t, c.opts, at(2, 3, 3), stat(2, "dodge", 12))
			faces := []int{15}
			if c.roll > 0 {
				faces = append(faces, c.roll)
			}
			if !c.dodged {
				if c.weapon == "knife" {
					faces = append(faces, 3)
				} else {
					faces = append(faces, 5, 4)
				}
			}
			events, st := do(t, st, gm, cmd(CmdAttack, "ana", "target", "cy", "weapon", c.weapon), faces...)
			eq(t, "dodge rolled", len(find(events, KindDodge)), map[bool]int{true: 1, false: 0}[c.roll > 0])
			eq(t, "unhurt", st.Fighters["cy"].HP == 20, c.dodged)
		})
	}
	// No Dodge value, no dodge.
	st := skirmish(t, nil, at(2, 3, 3))
	events, _ := do(t, st, gm, cmd(CmdAttack, "ana", "target", "cy", "weapon", "pistol"), 15, 1, 1)
	eq(t, "no roll", len(find(events, KindDodge)), 0)
}
