package main

import (
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"net/http"
	"strings"
	"testing"

	"github.com/fray-vtt/fray/internal/engine"
	"github.com/fray-vtt/fray/internal/engine/enginetest"
	"github.com/fray-vtt/fray/internal/prep"
	"github.com/fray-vtt/fray/internal/rules"
	"github.com/fray-vtt/fray/internal/testdb"
)

// TestAdvertisedActionsContract plays every example encounter of every
// ruleset through the HTTP API as a client that knows no rules: it only
// ever picks among the actions and decisions the server advertises, with
// field values among those offered. Every pick must be accepted — what is
// advertised is what the rules take (see kit.Narrow) — never refused, and
// never answered with a server error; and every encounter must reach its
// end. What the fights leave is read for its notation as a player would
// (notationCheck): cards, log, export and notices.
func TestAdvertisedActionsContract(t *testing.T) {
	srv := startServerEnv(t, testdb.URL(t), map[string]string{"FRAY_DICE_SEED": "7"})
	gm := srv.signup("contract-gm")
	exs, err := prep.Examples()
	if err != nil {
		t.Fatal(err)
	}
	played := map[string]bool{}
	for i, ex := range exs {
		played[ex.Ruleset] = true
		t.Run(ex.Name, func(t *testing.T) {
			var created struct{ ID string }
			if code := srv.call(gm, "POST", "/api/encounters", ex.Data, &created); code != http.StatusCreated {
				t.Fatalf("import: %d", code)
			}
			rng := rand.New(rand.NewPCG(uint64(i), 11))
			s := *srv
			s.t = t
			nc := &notationCheck{t: t, srv: &s, gm: gm, id: created.ID}
			refused := map[string]int{}
			sealed := map[string]map[string]any{}
			for step := 0; ; step++ {
				v := srv.viewAs(gm, created.ID)
				if v.Status == engine.StatusFinished {
					t.Logf("%s finished after %d commands", ex.Name, step)
					nc.history()
					if len(refused) > 0 {
						t.Errorf("%d advertised commands refused, want none: %v", total(refused), refused)
					}
					return
				}
				if step > 2500 {
					t.Fatalf("not finished after %d commands", step)
				}
				cmd := contractPick(rng, v, sealed)
				if cmd == nil {
					t.Fatalf("nothing offered (status %s, waiting %v)", v.Status, v.Waiting)
				}
				var reply struct{ Code, Message string }
				code := srv.call(gm, "POST", "/api/encounters/"+created.ID+"/commands",
					map[string]any{"id": fmt.Sprintf("k%d", step), "command": cmd}, &reply)
				switch {
				case code == http.StatusOK:
					if step%4 == 0 {
						nc.table(step)
					}
				case code >= 400 && code < 500 && reply.Message != "" && reply.Code != "internal":
					refused[fmt.Sprintf("%v: %s", cmd["kind"], reply.Message)]++
				default:
					raw, _ := json.Marshal(cmd)
					t.Fatalf("advertised %s answered %d %s: %s", raw, code, reply.Code, reply.Message)
				}
			}
		})
	}
	for _, rs := range rules.Registry().All() {
		if !played[rs.ID()] {
			t.Errorf("no example of %s was played", rs.ID())
		}
	}
}

func total(m map[string]int) int {
	n := 0
	for _, v := range m {
		n += v
	}
	return n
}

// contractPick chooses a command among those v advertises: the reveal of
// a sealed answer committed to (kept in sealed) when the view asks for it;
// an answer to a pending decision when there is one — a sealed one, when
// sealed is not nil, half the time in two steps, a commitment now and the
// reveal later, as a player's page does; else an action, the main ones
// more often, the GM's own commands rarely, never the lifecycle controls
// that would stop the fight early.
func contractPick(rng *rand.Rand, v engine.View, sealed map[string]map[string]any) map[string]any {
	for _, c := range v.Committed {
		if unseal, ok := sealed[c.Decision]; ok && c.Reveal {
			delete(sealed, c.Decision)
			return unseal
		}
	}
	if len(v.Pending) > 0 {
		d := v.Pending[rng.IntN(len(v.Pending))]
		cmd := map[string]any{"kind": engine.KindAnswer, "decision": d.ID, "choice": d.Options[rng.IntN(len(d.Options))].Value}
		if len(d.Fields) > 0 {
			cmd["values"] = enginetest.Values(rng, d.Fields)
		}
		// A GM answers a player's decision only deliberately.
		override := v.Viewer.PlayerOwned(d.For)
		if override {
			cmd["override"] = true
		}
		if !d.Sealed || sealed == nil || rng.IntN(2) == 0 {
			return cmd
		}
		nonce := fmt.Sprintf("%016x%016x", rng.Uint64(), rng.Uint64())
		values, _ := json.Marshal(cmd["values"])
		commitment, err := engine.Commitment(d.ID, cmd["choice"].(string), values, nonce)
		if err != nil {
			panic(err)
		}
		cmd["kind"], cmd["nonce"] = engine.KindUnseal, nonce
		delete(cmd, "override")
		sealed[d.ID] = cmd
		commit := map[string]any{"kind": engine.KindAnswer, "decision": d.ID, "commitment": commitment}
		if override {
			commit["override"] = true
		}
		return commit
	}
	var pool []engine.Action
	var weights []float64
	for _, a := range v.Actions {
		switch a.Kind {
		case engine.KindEnd, engine.KindRewind, engine.KindPause, engine.KindRevealEvent, engine.KindStart, engine.KindResume:
			if !(a.Kind == engine.KindStart && v.Status == engine.StatusSetup) && !(a.Kind == engine.KindResume && v.Status == engine.StatusPaused) {
				continue
			}
		}
		if strings.HasPrefix(a.Kind, "chat") || a.Kind == "say" || a.Kind == "roll" {
			continue
		}
		w := 1.0
		switch {
		case a.Main:
			w = 4
		case a.Actor == "":
			w = 0.15
		}
		pool = append(pool, a)
		weights = append(weights, w)
	}
	if len(pool) == 0 {
		return nil
	}
	sum := 0.0
	for _, w := range weights {
		sum += w
	}
	x := rng.Float64() * sum
	a := pool[len(pool)-1]
	for i, w := range weights {
		if x < w {
			a = pool[i]
			break
		}
		x -= w
	}
	cmd := enginetest.Values(rng, a.Fields)
	cmd["kind"] = a.Kind
	if a.Actor != "" {
		cmd["actor"] = a.Actor
	}
	return cmd
}
