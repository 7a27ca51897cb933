package d6bands

import (
	"testing"

	"github.com/fray-vtt/fray/internal/engine"
)

// Missing sums against ana's Archery 14 on 4D.
var (
	missBy3 = []int{5, 5, 5, 2}
	missBy4 = []int{5, 5, 5, 3}
	missBy5 = []int{5, 5, 5, 4}
	missBy6 = []int{5, 5, 5, 5}
)

// range of ana (Archery 14, a bow) at (0,0) shooting at orc at (2,0),
// Distant, with others around.
func strayRange(t *testing.T, opts map[string]string, cells []cellAt, others ...spec) *State {
	t.Helper()
	specs := []spec{{ID: "ana", Side: "heroes", X: 0, Y: 0, PC: true, Init: 30}}
	specs = append(specs, others...)
	return start(t, newState(t, newSetup(opts, grid(6, 6, cells...), specs...)))
}

func shootOrc(t *testing.T, st *State, faces ...int) ([]engine.Event, *State) {
	t.Helper()
	return do(t, st, gm, cmd(CmdShoot, "ana", "target", "orc", "weapon", "bow", "mode", "aimed"), faces...)
}

// A shot that misses a rider by 3 or less hits the mount; a Serious wound
// brings it down and the rider falls prone.
func TestStrayMount(t *testing.T) {
	horse := map[string]any{"name": "Horse", "toughness": 12}
	rider := spec{ID: "orc", Side: "foes", X: 2, Y: 0, Init: 10, Mount: horse}
	st := strayRange(t, nil, nil, rider)
	events, st := shootOrc(t, st, append(missBy3, 5, 5)...) // the bow's 2D+2: 12, no margin
	var s Stray
	decodeOne(t, events, KindStray, &s)
	eq(t, "the mount", s.Mount, true)
	var h Harmed
	decodeOne(t, events, KindHarm, &h)
	eq(t, "mount damage", h.Damage, 12)
	eq(t, "mount level", h.Level, WoundSerious)
	orc := st.Fighters["orc"]
	eq(t, "dismounted", orc.Mounted, false)
	eq(t, "prone", orc.Prone, true)
	eq(t, "the rider unhurt", len(orc.Wounds), 0)

	st = strayRange(t, nil, nil, rider)
	events, _ = shootOrc(t, st, missBy4...)
	eq(t, "a miss by 4 hits nothing", len(find(events, KindStray))+len(find(events, KindHarm)), 0)
}

// Fired into close contact, a miss by 3 or less hits one of the others,
// picked by a die.
func TestStrayIntoCloseContact(t *testing.T) {
	others := []spec{
		{ID: "orc", Side: "foes", X: 2, Y: 0, Group: "g", Init: 10},
		{ID: "bram", Side: "heroes", X: 2, Y: 0, Group: "g", Init: 20},
		{ID: "cid", Side: "heroes", X: 2, Y: 0, Group: "g", Init: 15},
	}
	st := strayRange(t, map[string]string{OptWrestling: "4"}, nil, others...)
	events, st := shootOrc(t, st, append(missBy3, 2, 1, 1)...) // the die picks the 2nd of bram and cid
	r := rollOf(t, events, "Stray shot")
	eq(t, "die sides", r.Dice[0].Sides, 2)
	var s Stray
	decodeOne(t, events, KindStray, &s)
	eq(t, "victim", s.Victim, "cid")
	eq(t, "cid hurt", len(st.Fighters["cid"].Wounds), 1)

	st = strayRange(t, map[string]string{OptWrestling: "4"}, nil, others...)
	events, _ = shootOrc(t, st, missBy4...)
	eq(t, "a miss by 4 into close contact", len(find(events, KindStray)), 0)
}

// Into a wrestling match (a contact group of wrestling-size, 3) or a
// crowd, a miss by 6 or less hits a random body.
func TestStrayWrestlingAndCrowd(t *testing.T) {
	wrestlers := []spec{
		{ID: "orc", Side: "foes", X: 2, Y: 0, Group: "g", Init: 10},
		{ID: "bram", Side: "heroes", X: 2, Y: 0, Group: "g", Init: 20},
		{ID: "cid", Side: "heroes", X: 2, Y: 0, Group: "g", Init: 15},
	}
	st := strayRange(t, nil, nil, wrestlers...)
	events, _ := shootOrc(t, st, append(missBy6, 1, 1, 1)...)
	var s Stray
	decodeOne(t, events, KindStray, &s)
	eq(t, "wrestling match: bram", s.Victim, "bram")

	crowd := []cellAt{{2, 0, map[string]any{"crowd": true}}}
	st = strayRange(t, nil, crowd, spec{ID: "orc", Side: "foes", X: 2, Y: 0, Init: 10}, spec{ID: "bram", Side: "heroes", X: 2, Y: 0, Init: 20})
	events, _ = shootOrc(t, st, append(missBy5, 1, 1)...)
	decodeOne(t, events, KindStray, &s)
	eq(t, "crowd: the only other body", s.Victim, "bram")

	st = strayRange(t, nil, crowd, spec{ID: "orc", Side: "foes", X: 2, Y: 0, Init: 10})
	events, _ = shootOrc(t, st, missBy6...)
	decodeOne(t, events, KindStray, &s)
	eq(t, "crowd: a bystander", s.Bystander, true)
}

// With stray-ruling "ask" the GM confirms what the stray shot hits.
func TestStrayRuling(t *testing.T) {
	others := []spec{
		{ID: "orc", Side: "foes", X: 2, Y: 0, Group: "g", Init: 10},
		{ID: "bram", Side: "heroes", X: 2, Y: 0, Group: "g", Init: 20},
	}
	for _, tc := range []struct {
		choice string
		faces  []int
		hurt   bool
	}{{"hit", []int{1, 1}, true}, {"none", nil, false}} {
		t.Run(tc.choice, func(t *testing.T) {
			st := strayRange(t, map[string]string{OptStrayRuling: StrayAsk}, nil, others...)
			_, st = shootOrc(t, st, missBy3...)
			d := pendingKind(t, st, DecStray)
			eq(t, "asked of", d.For, engine.GM)
			eq(t, "default", d.Default, "hit")
			eq(t, "prompt", d.Prompt, "Ana's shot misses by 3 and strays. The die picked Bram.")
			_, st = answer(t, st, gm, DecStray, tc.choice, nil, tc.faces...)
			eq(t, "bram hurt", len(st.Fighters["bram"].Wounds) > 0, tc.hurt)
		})
	}
}

// A stray shot at a body the GM keeps hidden is ruled in secret.
func TestStrayAtTheHidden(t *testing.T) {
	crowd := []cellAt{{2, 0, map[string]any{"crowd": true}}}
	st := strayRange(t, map[string]string{OptStrayRuling: StrayAsk}, crowd,
		spec{ID: "orc", Side: "foes", X: 2, Y: 0, Init: 10}, spec{ID: "spy", Side: "foes", X: 2, Y: 0, Init: 5, Hidden: true})
	events, st := shootOrc(t, st, missBy5...)
	d := pendingKind(t, st, DecStray)
	eq(t, "put to the spy", d.For, "spy")
	player := engine.PlayerViewer("ana")
	if seen := engine.FilterEvents(st, player, events); mentions(t, seen, "spy") || mentions(t, seen, "unseen") {
		t.Fatalf("the player reads of the spy: %+v", seen)
	}
	events, st = answer(t, st, gm, DecStray, "hit", nil, 1, 1)
	if seen := engine.FilterEvents(st, player, events); mentions(t, seen, "spy") {
		t.Fatalf("the player reads of the spy: %+v", seen)
	}
	eq(t, "the spy is hurt", len(st.Fighters["spy"].Wounds), 1)
}
