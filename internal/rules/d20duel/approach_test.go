package d20duel

import (
	"slices"
	"strings"
	"testing"

	"github.com/fray-vtt/fray/internal/engine"
	"github.com/fray-vtt/fray/internal/fray"
)

// TestApproach: fighters apart act once each — engage, shoot, test, pick
// up a weapon or wait — and then the exchange begins.
func TestApproach(t *testing.T) {
	st := approachDuel(t, nil)
	if st.Label != PhaseApproach || !slices.Equal(st.Acting, []string{"ana", "bront"}) {
		t.Fatalf("phase %q acting %v", st.Label, st.Acting)
	}
	// Both wait: no exchange, the next round's approach.
	_, waited := do(t, st, anaPl, cmd(CmdWait, "ana"))
	fail(t, waited, anaPl, cmd(CmdWait, "ana"), fray.ENOTYOURTURN)
	_, waited = do(t, waited, gm, cmd(CmdWait, "bront"))
	if waited.Round != 2 || waited.Label != PhaseApproach || len(waited.Acting) != 2 {
		t.Fatalf("round %d phase %q acting %v", waited.Round, waited.Label, waited.Acting)
	}
	// Ana engages Bront: the pair starts at Striking and chooses its
	// stances at once, Bront keeping his action for the exchange.
	events, engaged := do(t, st, anaPl, cmd(CmdEngage, "ana", "target", "bront"))
	if distanceOf(engaged, "ana", "bront") != Striking || engaged.Label != PhaseExchange || len(engaged.Pending) != 2 {
		t.Fatalf("after engaging: %v, phase %q", kinds(events), engaged.Label)
	}
	// The approach's refusals.
	fail(t, st, anaPl, cmd(CmdEngage, "ana", "target", "ana"), fray.EILLEGAL)
	fail(t, st, anaPl, cmd(CmdEngage, "ana", "target", "zed"), fray.ENOTFOUND)
	fail(t, st, anaPl, cmd(CmdEngage, "ana"), fray.EINVALID)
	fail(t, st, anaPl, cmd(CmdShoot, "ana", "target", "bront", "weapon", "sword"), fray.EILLEGAL)
	fail(t, st, anaPl, cmd(CmdShoot, "ana", "target", "bront", "weapon", "bow", "aim", "eyes"), fray.EINVALID)
	fail(t, st, anaPl, cmd(CmdRecover, "ana", "weapon", "sword"), fray.EILLEGAL)
	fail(t, st, anaPl, cmd(CmdWait, "bront"), fray.EFORBIDDEN)
	fail(t, st, anaPl, cmd(CmdWait, "ana", "extra", 1), fray.EINVALID)
	fail(t, engaged, gm, cmd(CmdWait, "ana"), fray.EPENDING)
}

// TestApproachOnTheGround: a fighter Immobilize brought down cannot close
// in; a weapon knocked away is picked up in the approach.
func TestApproachOnTheGround(t *testing.T) {
	st := approachDuel(t, nil)
	st.Fighters["ana"].Wounds = []Wound{{Penalty: 3, Location: LocLeg, Effect: EffectFallen}}
	st.Fighters["ana"].Dropped = []string{"sword"}
	if slices.ContainsFunc(ruleset.Actions(st, anaPl), func(a engine.Action) bool { return a.Kind == CmdEngage }) {
		t.Fatal("engage offered to a fighter on the ground")
	}
	fail(t, st, anaPl, cmd(CmdEngage, "ana", "target", "bront"), fray.EILLEGAL)
	_, st = do(t, st, anaPl, cmd(CmdRecover, "ana", "weapon", "sword"))
	if len(st.Fighters["ana"].Dropped) != 0 {
		t.Fatal("the sword was not picked up")
	}
}

// TestSetDistanceOffersOnlyLegalPairs: "Set a distance" offers the
// engaged pairs, "Engage two fighters" (the same command) the pairs not
// engaged, at Striking or Grappling only: a pair not engaged is never
// offered Apart.
func TestSetDistanceOffersOnlyLegalPairs(t *testing.T) {
	offers := func(st *State) map[string][]string {
		out := map[string][]string{}
		for _, a := range ruleset.Actions(st, gm) {
			if a.Kind != CmdSetDistance {
				continue
			}
			for _, f := range a.Fields {
				for _, o := range f.Options {
					out[a.Label+" "+f.Name] = append(out[a.Label+" "+f.Name], o.Value)
				}
			}
		}
		return out
	}
	st := approachDuel(t, nil)
	got := offers(st)
	eq(t, "not engaged: no set", len(got["Set a distance pair"]), 0)
	eq(t, "engage", strings.Join(got["Engage two fighters pair"], " "), "ana+bront")
	eq(t, "engage at", strings.Join(got["Engage two fighters distance"], " "), Striking+" "+Grappling)
	_, st = do(t, st, gm, cmd(CmdSetDistance, "", "pair", "ana+bront", "distance", Striking))
	got = offers(st)
	eq(t, "engaged: set", strings.Join(got["Set a distance pair"], " "), "ana+bront")
	eq(t, "set to", strings.Join(got["Set a distance distance"], " "), Striking+" "+Grappling+" "+Apart)
	eq(t, "engaged: no engage", len(got["Engage two fighters pair"]), 0)
}

// TestSetDistance: the GM engages, moves and separates fighters, also
// while the stances wait; the exchange then leaves a separated pair alone.
func TestSetDistance(t *testing.T) {
	st := approachDuel(t, nil)
	fail(t, st, gm, cmd(CmdSetDistance, "", "pair", "ana+bront", "distance", Apart), fray.EILLEGAL)
	fail(t, st, gm, cmd(CmdSetDistance, "", "pair", "ana", "distance", Striking), fray.EINVALID)
	fail(t, st, gm, cmd(CmdSetDistance, "", "pair", "ana+bront", "distance", "far"), fray.EINVALID)
	fail(t, st, anaPl, cmd(CmdSetDistance, "", "pair", "ana+bront", "distance", Striking), fray.EFORBIDDEN)
	_, st = do(t, st, gm, cmd(CmdSetDistance, "", "pair", "ana+bront", "distance", Grappling))
	eq(t, "engaged by the GM", distanceOf(st, "ana", "bront"), Grappling)
	// Settle takes the newly engaged out of the approach: the exchange opens.
	if st.Label != PhaseExchange || len(st.Pending) != 2 {
		t.Fatalf("phase %q pending %d", st.Label, len(st.Pending))
	}
	// The same distance again is the GM's ruling that they stay.
	events, same := do(t, st, gm, cmd(CmdSetDistance, "", "pair", "ana+bront", "distance", Grappling))
	eq(t, "stays", kinds(events)[0], KindDistanceStays)
	eq(t, "still grappling", distanceOf(same, "ana", "bront"), Grappling)
	_, moved := do(t, st, gm, cmd(CmdSetDistance, "", "pair", "bront+ana", "distance", Striking))
	eq(t, "moved", distanceOf(moved, "ana", "bront"), Striking)
	// Separated while the stances wait: the reveal strikes no blows.
	_, apart := do(t, st, gm, cmd(CmdSetDistance, "", "pair", "ana+bront", "distance", Apart))
	events, apart = choose(t, apart, []string{"ana", "bront"}, map[string]stance{
		"ana": {Stance: StanceDefault}, "bront": {Stance: StanceDefault}})
	if len(attacks(t, events)) != 0 || apart.Round != 2 || apart.Label != PhaseApproach {
		t.Fatalf("separated pair: %v, round %d phase %q", kinds(events), apart.Round, apart.Label)
	}
}
