package d20duel

import (
	"bytes"
	"encoding/json"
	"regexp"
	"strings"
	"testing"

	"github.com/fray-vtt/fray/internal/dice"
	"github.com/fray-vtt/fray/internal/engine"
	"github.com/fray-vtt/fray/internal/fray"
)

var brontPl = engine.PlayerViewer("bront")

// pvp is ana against bront, both player characters, started.
func pvp(t *testing.T) (*State, []engine.Event) {
	t.Helper()
	st := newState(t, newSetup(nil, []pair{{"ana", "bront", "striking"}},
		spec{ID: "ana", Side: "heroes", PC: true, Stats: anaStats},
		spec{ID: "bront", Side: "foes", PC: true, Stats: brontStats}))
	events, st := do(t, st, gm, engine.NewCommand(engine.KindStart, "", nil))
	return st, events
}

// opponentSees is everything Bront's player can read: the projection and
// the filtered log.
func opponentSees(t *testing.T, st *State, log []engine.Event) []byte {
	t.Helper()
	view, err := json.Marshal(engine.Project(New(), st, brontPl))
	if err != nil {
		t.Fatal(err)
	}
	events, err := json.Marshal(engine.FilterEvents(st, brontPl, log))
	if err != nil {
		t.Fatal(err)
	}
	return append(append(view, '\n'), events...)
}

// TestSealedStances: seed "If two players are fighting each other, they
// reveal their disposition simultaneously: Default, Reckless, or
// Defensive." Ana's player commits to a stance (engine: sealed choices):
// what Bront's player can read is then byte for byte the same whatever she
// chose, but for the commitment's hash; not even the server — the state,
// the GM's log — holds her choice; and once Bront has answered too, the
// reveal shows both.
func TestSealedStances(t *testing.T) {
	var seen [][]byte
	var states []*State
	var logs [][]engine.Event
	for _, choice := range []stance{{Stance: StanceReckless, Aim: AimWeakness, Weapon: "dagger"}, {Stance: StanceDefensive}} {
		st, log := pvp(t)
		d := pendingFor(t, st, DecStance, "ana")
		if !d.Sealed {
			t.Fatal("the stance is not sealed")
		}
		if !strings.Contains(d.Options[1].Label, "black die") || !strings.Contains(d.Options[2].Label, "white die") {
			t.Errorf("options %+v: want the black die for Reckless, the white for Defensive", d.Options)
		}
		events, next := answer(t, st, anaPl, DecStance, "ana", choice.Stance, choice.values())
		log = append(log, events...)
		seen = append(seen, opponentSees(t, next, log))
		states, logs = append(states, next), append(logs, log)

		// Ana's view holds her commitment; nothing the server keeps or
		// shows the GM holds her choice.
		av := engine.Project(New(), next, anaPl)
		if len(av.Committed) != 1 || av.Committed[0].Commitment == "" || av.Committed[0].Choice != "" {
			t.Fatalf("ana's committed %+v", av.Committed)
		}
		gmLog, _ := json.Marshal(engine.FilterEvents(next, gm, log))
		state, _ := engine.Snapshot(next)
		for _, kept := range [][]byte{gmLog, state} {
			if bytes.Contains(kept, []byte(`"choice":"`+choice.Stance+`"`)) || bytes.Contains(kept, []byte(stanceLabelOf(d, choice.Stance)+" —")) {
				t.Fatalf("the server holds Ana's choice before the reveal: %s", kept)
			}
		}
		// Bront's player sees that Ana answered, not what.
		bv := engine.Project(New(), next, brontPl)
		if len(bv.Pending) != 1 || len(bv.Waiting) != 0 {
			t.Fatalf("bront's view: pending %d, waiting %v", len(bv.Pending), bv.Waiting)
		}
	}
	hashes := regexp.MustCompile(`[0-9a-f]{64}`)
	seen[0], seen[1] = hashes.ReplaceAll(seen[0], []byte("<commitment>")), hashes.ReplaceAll(seen[1], []byte("<commitment>"))
	if !bytes.Equal(seen[0], seen[1]) {
		t.Fatalf("Bront's player can tell Ana's stance apart:\n%s\n%s", seen[0], seen[1])
	}
	for _, word := range []string{"Reckless —", "Defensive —", `"choice":"reckless"`, `"choice":"defensive"`, `"aim":"find-weakness"`} {
		if bytes.Contains(seen[0], []byte(word)) {
			t.Errorf("Bront's player can read %q before committing", word)
		}
	}

	// Bront commits: one event reveals both, and the exchange resolves.
	st, log := states[0], logs[0]
	events, st := answer(t, st, brontPl, DecStance, "bront", StanceDefault, nil, 9, 12, 20, 20)
	log = append(log, events...)
	var rev engine.DecisionsRevealed
	if err := find(events, engine.KindDecisionsRevealed)[0].Decode(&rev); err != nil || len(rev.Answers) != 2 {
		t.Fatalf("reveal %+v %v", rev, err)
	}
	var sr StancesRevealed
	if err := find(events, KindStances)[0].Decode(&sr); err != nil {
		t.Fatal(err)
	}
	if d := sr.Declared["ana"]; d.Stance != StanceReckless || d.Weapon != "dagger" || d.Aim != AimWeakness || d.Target != "bront" {
		t.Fatalf("ana's declaration %+v", d)
	}
	if !bytes.Contains(opponentSees(t, st, log), []byte("Reckless")) {
		t.Fatal("after the reveal Bront's player does not see Ana's stance")
	}
}

func stanceLabelOf(d engine.Decision, choice string) string { return d.Label(choice) }

// TestStanceAnswersAreGuarded: a player answers only their own fighter's
// stance, once; the GM answers for the fighters players do not run.
func TestStanceAnswersAreGuarded(t *testing.T) {
	st := duel(t, nil, "striking")
	bd := pendingFor(t, st, DecStance, "bront")
	answerCmd := func(id, choice string) engine.Command {
		return engine.NewCommand(engine.KindAnswer, "", map[string]any{"decision": id, "choice": choice})
	}
	fail(t, st, anaPl, answerCmd(bd.ID, StanceDefault), fray.EFORBIDDEN)
	ad := pendingFor(t, st, DecStance, "ana")
	fail(t, st, anaPl, answerCmd(ad.ID, "berserk"), fray.EINVALID)
	fail(t, st, anaPl, engine.NewCommand(engine.KindAnswer, "", map[string]any{"decision": ad.ID, "choice": StanceDefault,
		"values": map[string]any{"weapon": "axe"}}), fray.EINVALID)
	_, st = answer(t, st, anaPl, DecStance, "ana", StanceDefault, nil)
	fail(t, st, anaPl, answerCmd(ad.ID, StanceReckless), fray.EILLEGAL)
	// Nothing but answers and the GM's rulings while the exchange waits.
	fail(t, st, gm, cmd(CmdWait, "bront"), fray.EPENDING)
	_, _, err := engine.Decide(New(), st, gm, "c", answerCmd(bd.ID, StanceDefault), dice.NewRoller(dice.NewFixed(3, 3, 3, 3)))
	if err != nil {
		t.Fatalf("the GM answering for Bront: %v", err)
	}
}
