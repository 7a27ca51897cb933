package d20duel

import (
	"bytes"
	"encoding/json"
	"testing"

	"github.com/fray-vtt/fray/internal/engine"
	"github.com/fray-vtt/fray/internal/fray"
)

// TestCinematic: seed "the GM could rule that the first few successful
// attacks do not hit, but cinematically drive the victim backwards. The
// character may then choose to retreat, or to keep trying. The GM will,
// of course, not tell the player how many chances the character gets."
func TestCinematic(t *testing.T) {
	off := duel(t, nil, "striking")
	fail(t, off, gm, cmd(CmdDriveBack, "", "fighter", "ana", "blows", 2), fray.EILLEGAL)

	st := duel(t, map[string]string{OptCinematic: On}, "striking")
	fail(t, st, anaPl, cmd(CmdDriveBack, "", "fighter", "ana", "blows", 2), fray.EFORBIDDEN)
	fail(t, st, gm, cmd(CmdDriveBack, "", "fighter", "ana", "blows", 9), fray.EINVALID)
	// While the stances wait, the GM sets Ana's count: secret.
	log, st := do(t, st, gm, cmd(CmdDriveBack, "", "fighter", "ana", "blows", 2))
	if !log[0].Secret || len(engine.FilterEvents(st, anaPl, log)) != 0 {
		t.Fatalf("the count reached a player: %+v", log)
	}
	if v := statOf(tokenOf(engine.Project(New(), st, anaPl).Board.Tokens, "ana"), "Drive back"); v != "" {
		t.Fatal("Ana's own view shows her count")
	}
	if v := statOf(tokenOf(engine.Project(New(), st, gm).Board.Tokens, "ana"), "Drive back"); v != "2" {
		t.Fatalf("the GM's view shows %s", v)
	}
	// Bront's 10 hits Ana (Guard 7 < 10 ≤ 13), but only drives her back.
	events, st := choose(t, st, []string{"ana", "bront"}, map[string]stance{
		"ana": {Stance: StanceDefault}, "bront": {Stance: StanceDefault}}, missB, missW, 10, 3)
	log = append(log, events...)
	b := attackBy(t, events, "bront")
	if !b.Hit || !b.DrivenBack || b.Wound != nil || len(st.Fighters["ana"].Wounds) != 0 {
		t.Fatalf("bront's blow %+v", b)
	}
	eq(t, "count left", st.Fighters["ana"].DriveBack, 1)
	seen, _ := json.Marshal(engine.FilterEvents(st, anaPl, log))
	if bytes.Contains(seen, []byte("driveBack")) || bytes.Contains(seen, []byte("next 2")) {
		t.Fatalf("Ana's log tells the count: %s", seen)
	}
	// Ana chooses: keep trying, or retreat and end the engagement.
	d := pendingFor(t, st, DecRetreat, "ana")
	eq(t, "default", d.Default, KeepFighting)
	_, kept := answer(t, st, anaPl, DecRetreat, "ana", KeepFighting, nil)
	eq(t, "kept fighting", distanceOf(kept, "ana", "bront"), Striking)
	_, gone := answer(t, st, anaPl, DecRetreat, "ana", Retreat, nil)
	eq(t, "retreated", distanceOf(gone, "ana", "bront"), Apart)
	if gone.Label != PhaseApproach || !gone.IsActing("ana") || !gone.IsActing("bront") {
		t.Fatalf("after the retreat the next round opens with both apart: %q %v", gone.Label, gone.Acting)
	}
}
