package main

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/fray-vtt/fray/internal/engine"
	"github.com/fray-vtt/fray/internal/engine/enginetest"
	"github.com/fray-vtt/fray/internal/rules/d20tactical"
)

// TestD20TacticalFullCombat plays a whole d20-tactical fight through the
// API the browser uses: the real server in-process with reproducible dice,
// the GM and a player each on their own websocket, every command sent over
// it, every decision answered by whoever the page prompts (the player for
// the player characters' reactions and criticals, the GM for the rest).
// A bot picks among the actions each viewer is offered — on the grid's
// squares as the selects list them — making sure of a move, a charge, a
// burst and an aimed shot, until one side is down. Every offered action is
// accepted or refused with a clear error. Then the event log, read back
// through the HTTP API, must replay from the stored initial state to the
// stored final state and project to the view the server gives the GM.
func TestD20TacticalFullCombat(t *testing.T) {
	f := startFight(t, "1", "d20-tactical-warehouse-raid", "raid", "reyes", "okafor")
	// Before the start nothing but the GM's start is possible.
	if r := f.plWS.command("early", map[string]any{"kind": d20tactical.CmdEndTurn, "actor": "reyes"}); r.Type != "error" {
		t.Fatalf("a command before the start: %+v", r)
	}
	if r := f.gmWS.command("start", map[string]any{"kind": "start"}); r.Type != "ack" {
		t.Fatalf("start: %+v", r)
	}
	// A player may not act for the GM's fighters, nor issue GM rulings.
	if r := f.plWS.command("not-mine", map[string]any{"kind": d20tactical.CmdEndTurn, "actor": "kessler"}); r.Type != "error" || r.Code != "forbidden" {
		t.Fatalf("acting for kessler: %+v", r)
	}
	if r := f.plWS.command("not-gm", map[string]any{"kind": d20tactical.CmdDamage, "combatant": "kessler", "amount": 5}); r.Type != "error" || r.Code != "forbidden" {
		t.Fatalf("a player's GM ruling: %+v", r)
	}

	rng := rand.New(rand.NewPCG(3, 9))
	done := map[string]int{}
	decisionsBy := map[string]int{}
	refused := 0
	weights := map[string]int{
		d20tactical.CmdAttack: 20, d20tactical.CmdCharge: 6, d20tactical.CmdFullAttack: 4, d20tactical.CmdMove: 6,
		d20tactical.CmdStep: 1, d20tactical.CmdRun: 1, d20tactical.CmdPosture: 2, d20tactical.CmdJump: 1,
		d20tactical.CmdReload: 8, d20tactical.CmdClearJam: 8, d20tactical.CmdPickUp: 8, d20tactical.CmdTreat: 6,
		d20tactical.CmdReady: 1, d20tactical.CmdDelay: 1, d20tactical.CmdEndTurn: 2,
	}
	for n, v := range f.turns(3000) {
		if len(v.Pending) > 0 {
			// Prompted on the player's page, live; otherwise it says it waits.
			d := v.Pending[0]
			args := map[string]any{"choice": d.Options[rng.IntN(len(d.Options))].Value}
			if len(d.Fields) > 0 {
				args["values"] = enginetest.Values(rng, d.Fields, "something")
			}
			decisionsBy[f.answer(fmt.Sprintf("a%d", n), d, args)]++
			done["answer:"+d.Kind]++
			continue
		}
		// Whoever has the floor: the player's characters or the GM's.
		ws, u := f.gmWS, f.gm
		if slices.ContainsFunc(v.Acting, f.mine) && (rng.IntN(2) == 0 || !slices.ContainsFunc(v.Acting, func(a string) bool { return !f.mine(a) })) {
			ws, u = f.plWS, f.player
		}
		var offered []engine.Action
		for _, a := range f.srv.viewAs(u, f.id).Actions {
			if a.Actor != "" && slices.Contains(v.Acting, a.Actor) && weights[a.Kind] > 0 {
				offered = append(offered, a)
			}
		}
		if len(offered) == 0 {
			t.Fatalf("nothing offered to %s (acting %v)", u.Name, v.Acting)
		}
		a := offered[enginetest.PickAction(rng, offered, weights)]
		cmd := enginetest.Values(rng, a.Fields, "something")
		cmd["kind"], cmd["actor"] = a.Kind, a.Actor
		if tacMust(a.Kind, done) {
			tacSteer(a, cmd, done) // a burst, an aimed shot
		}
		r := ws.command(fmt.Sprintf("c%d", n), cmd)
		switch {
		case r.Type == "ack":
			done[a.Kind]++
			if s, _ := cmd["shots"].(string); s != "" && s != "1" {
				done["burst"]++
			}
			if aim, _ := cmd["aim"].(string); aim != "" && aim != "none" {
				done["aimed"]++
			}
		case r.Code == "illegal" || r.Code == "invalid":
			refused++ // a field that fits another choice (a weapon out of reach …)
			if r.Message == "" {
				t.Fatalf("refused without a message: %+v", r)
			}
		default:
			t.Fatalf("offered %v was refused: %+v", cmd, r)
		}
	}
	f.ended(done)
	t.Logf("played: %v; decisions answered by %v; %d refused", done, decisionsBy, refused)
	for _, k := range []string{d20tactical.CmdAttack, d20tactical.CmdMove, "burst", "aimed"} {
		if done[k] == 0 {
			t.Errorf("no %s in the whole fight (%v)", k, done)
		}
	}
	if decisionsBy["player"] == 0 || decisionsBy["gm"] == 0 {
		t.Errorf("decisions answered: %v; want some by the player and some by the GM", decisionsBy)
	}

	// The log, read back through the API, replays to what the server stored.
	log := f.log()
	kinds := map[string]int{}
	for _, ev := range log {
		kinds[ev.Kind]++
	}
	for _, k := range []string{d20tactical.KindInitiative, d20tactical.KindSurprise, d20tactical.KindAttack, d20tactical.KindMoved,
		engine.KindDecisionResolved, engine.KindEnded} {
		if kinds[k] == 0 {
			t.Errorf("no %s event in the log", k)
		}
	}
	if f.plWS.seen(engine.KindDecisionOpened) == 0 {
		t.Error("the player's socket never received a decision")
	}
	f.checkReplay(d20tactical.New(), log)
}

// tacMust reports whether an attack should be steered towards a burst or
// an aimed shot the fight has not seen yet.
func tacMust(kind string, done map[string]int) bool {
	return kind == d20tactical.CmdAttack && (done["burst"] == 0 || done["aimed"] == 0)
}

// tacSteer turns an attack into a burst (if the weapon picked can) or an
// aimed shot at an arm.
func tacSteer(a engine.Action, cmd map[string]any, done map[string]int) {
	for _, f := range a.Fields {
		if f.Name == "shots" && done["burst"] == 0 {
			cmd["shots"], cmd["aim"] = "3", "none"
			return
		}
	}
	if done["aimed"] == 0 {
		cmd["aim"], cmd["shots"] = d20tactical.LocLeftArm, "1"
	}
}
