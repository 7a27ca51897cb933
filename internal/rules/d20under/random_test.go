package d20under

import (
	"encoding/json"
	"math/rand/v2"
	"strconv"
	"testing"

	"github.com/fray-vtt/fray/internal/dice"
	"github.com/fray-vtt/fray/internal/engine"
	"github.com/fray-vtt/fray/internal/fray"
)

// seeded is a reproducible dice source for play-throughs.
type seeded struct{ r *rand.Rand }

func (s seeded) Face(sides int) int { return s.r.IntN(sides) + 1 }

// playOut plays st to its end picking among the advertised actions (and
// answering every decision) at random, as the GM (who may do everything).
// Every advertised action must be accepted or refused with a clear code;
// the log must replay to the same state. It returns what was done.
func playOut(t *testing.T, setup engine.Setup, seed uint64, weights map[string]int, maxCommands int) (map[string]int, []engine.Event, engine.State) {
	t.Helper()
	pick := rand.New(rand.NewPCG(seed, 7))
	roller := dice.NewRoller(seeded{rand.New(rand.NewPCG(seed, 11))})
	st0, err := engine.NewEncounter(New(), "enc", setup)
	if err != nil {
		t.Fatal(err)
	}
	done := map[string]int{}
	var log []engine.Event
	events, st, err := engine.Decide(New(), st0, gm, "start", engine.NewCommand(engine.KindStart, "", nil), roller)
	if err != nil {
		t.Fatal(err)
	}
	log = append(log, events...)
	refused := 0
	for i := 0; i < maxCommands && st.Core().Status == engine.StatusRunning; i++ {
		if pending := st.Core().Pending; len(pending) > 0 {
			d := pending[pick.IntN(len(pending))]
			values := map[string]any{}
			for _, f := range d.Fields {
				values[f.Name] = randomValue(pick, f)
			}
			c := engine.NewCommand(engine.KindAnswer, "", map[string]any{"decision": d.ID, "choice": d.Options[pick.IntN(len(d.Options))].Value, "values": values})
			events, next, err := engine.Decide(New(), st, gm, "a"+strconv.Itoa(i), c, roller)
			if err != nil {
				t.Fatalf("answer %s %q refused: %v", d.Kind, d.Prompt, err)
			}
			done["answer:"+d.Kind]++
			log = append(log, events...)
			st = next
			continue
		}
		actions := New().Actions(st, gm)
		total := 0
		for _, a := range actions {
			total += weight(weights, a.Kind)
		}
		if total == 0 {
			t.Fatalf("nothing to do (round %d, current %q, phase %q)", st.Core().Round, st.Core().Current(), st.(*State).Phase)
		}
		n := pick.IntN(total)
		var a engine.Action
		for _, a = range actions {
			if n -= weight(weights, a.Kind); n < 0 {
				break
			}
		}
		fields := map[string]any{}
		for _, f := range a.Fields {
			fields[f.Name] = randomValue(pick, f)
		}
		c := engine.NewCommand(a.Kind, a.Actor, fields)
		events, next, err := engine.Decide(New(), st, gm, "c"+strconv.Itoa(i), c, roller)
		if err != nil {
			code := fray.ErrorCode(err)
			if code == fray.EINTERNAL || code == "" {
				t.Fatalf("offered %s %s %v: internal error: %v", a.Kind, a.Actor, fields, err)
			}
			refused++
			done["refused:"+a.Kind]++
			if refused > maxCommands/4 {
				t.Fatalf("too many refusals; last: %s %v: %v", a.Kind, fields, err)
			}
			continue
		}
		done[a.Kind]++
		log = append(log, events...)
		st = next
	}
	if st.Core().Status != engine.StatusFinished {
		t.Fatalf("not finished after %d commands (round %d): %v", maxCommands, st.Core().Round, done)
	}
	replayed, err := engine.Clone(New(), st0)
	if err != nil {
		t.Fatal(err)
	}
	if err := engine.Replay(New(), replayed, log); err != nil {
		t.Fatal(err)
	}
	a, _ := engine.Snapshot(replayed)
	b, _ := engine.Snapshot(st)
	if string(a) != string(b) {
		t.Fatalf("the replayed log differs from the live state")
	}
	for _, c := range st.Core().Combatants {
		if _, err := json.Marshal(engine.Project(New(), st, engine.PlayerViewer(c.ID))); err != nil {
			t.Fatal(err)
		}
	}
	return done, log, st
}

func weight(w map[string]int, kind string) int {
	if n, ok := w[kind]; ok {
		return n
	}
	return 2
}

func randomValue(pick *rand.Rand, f engine.Field) any {
	switch f.Type {
	case engine.FieldSelect:
		return f.Options[pick.IntN(len(f.Options))].Value
	case engine.FieldNumber:
		if f.Max > f.Min {
			return f.Min + pick.IntN(f.Max-f.Min+1)
		}
		return f.Min
	case engine.FieldCheckbox:
		return pick.IntN(2) == 0
	case engine.FieldString:
		return f.Default
	}
	return nil
}

// The GM's rulings are rare at the table.
var botWeights = map[string]int{
	CmdAttack: 14, CmdShoot: 12, CmdEngage: 8, CmdMove: 5, CmdCharge: 3, CmdEndTurn: 3, CmdDeathTest: 5, CmdStand: 6,
	CmdAdvance: 6, CmdBreakFree: 4, CmdDeclared: 6, CmdSurpriseHit: 6, CmdFeat: 1, CmdSteelyGaze: 1,
	GMCondition: 0, GMAdjust: 0, GMAdvantage: 1, GMPlaceTrap: 1, GMDistance: 0, GMSurprise: 2, GMBegin: 1, GMEndSurpise: 1,
}

func TestRandomPlaySmoke(t *testing.T) {
	specs := []spec{
		{ID: "ana", Side: "heroes", PC: true, X: 1, Y: 1, Stats: map[string]any{"xp": 3, "items": map[string]int{"herbal-cure": 2}},
			Weapons: []map[string]any{{"id": "spear", "name": "Spear", "type": "long"}, {"id": "bow", "name": "Bow", "type": "bow"}},
			Armour:  map[string]any{"type": "light"}},
		{ID: "bo", Side: "heroes", PC: true, X: 2, Y: 1, Stats: map[string]any{"abilities": map[string]string{"medicus": "novice"}}},
		{ID: "orc", Side: "foes", X: 6, Y: 5, Armour: map[string]any{"type": "medium"}},
		{ID: "gob", Side: "foes", X: 7, Y: 6, Weapons: []map[string]any{{"id": "sling", "name": "Knives", "type": "thrown", "count": 4}, {"id": "knife", "name": "Knife", "type": "short"}}},
	}
	for seed := uint64(1); seed <= 6; seed++ {
		t.Run("grid/"+strconv.FormatUint(seed, 10), func(t *testing.T) {
			done, _, _ := playOut(t, gridSetup(map[string]string{OptFreeAttackOffers: OffersPCs, OptFeatOffers: OffersPCs}, 10, 8, nil, specs...), seed, botWeights, 3000)
			t.Logf("%v", done)
		})
		t.Run("ladder/"+strconv.FormatUint(seed, 10), func(t *testing.T) {
			done, _, _ := playOut(t, ladderSetup(map[string]string{OptFreeAttackOffers: OffersPCs, OptFeatOffers: OffersPCs}, "Medium", specs...), seed, botWeights, 3000)
			t.Logf("%v", done)
		})
	}
}
