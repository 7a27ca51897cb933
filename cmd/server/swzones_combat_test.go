package main

import (
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/fray-vtt/fray/internal/engine"
	"github.com/fray-vtt/fray/internal/rules/swzones"
)

// TestSwzonesFullCombat plays a whole sw-zones fight through the API the
// browser uses: the real server in-process with reproducible dice, the GM
// and a player each on their own websocket, every command sent over it,
// every decision answered by whoever the page prompts. A bot picks among the
// actions each viewer is offered, making sure the seed's moves all happen
// (a run, a disengage, a push, a burst, answered decisions), until one side
// is out. Then the event log, read back through the HTTP API, must replay
// from the stored initial state to the stored final state, and project to
// the view the server gives the GM.
func TestSwzonesFullCombat(t *testing.T) {
	f := startFight(t, "20261121", "sw-zones-warehouse-raid", "warehouse", "vance", "mara")
	if r := f.gmWS.command("start", map[string]any{"kind": "start"}); r.Type != "ack" {
		t.Fatalf("start: %+v", r)
	}

	rng := rand.New(rand.NewPCG(7, 11))
	done := map[string]int{}
	decisionsFor := map[string]int{} // who answered: "player" or "gm"
	weights := map[string]int{
		swzones.CmdFight: 12, swzones.CmdShoot: 10, swzones.CmdCast: 6, swzones.CmdArea: 3, swzones.CmdEngage: 6,
		swzones.CmdMove: 3, swzones.CmdPush: 1, swzones.CmdDisengage: 1, swzones.CmdRun: 1, swzones.CmdGrapple: 1,
		swzones.CmdEscape: 4, swzones.CmdRise: 4, swzones.CmdUnshake: 3, swzones.CmdEndTurn: 2,
	}
	// The seed's moves the bot makes sure of, first chance it gets.
	must := []string{swzones.CmdRun, swzones.CmdPush, swzones.CmdDisengage, swzones.CmdArea}
	for n, v := range f.turns(2500) {
		if len(v.Pending) > 0 {
			// Prompted to the player who owns the fighter, live: their page
			// lists it, and otherwise the player's page says it waits.
			d := v.Pending[0]
			decisionsFor[f.answer(fmt.Sprintf("a%d", n), d, map[string]any{"choice": swzChoose(rng, d)})]++
			done["answer:"+d.Kind]++
			continue
		}
		cur := v.Current
		ws, u := f.gmWS, f.gm
		if f.mine(cur) {
			ws, u = f.plWS, f.player
		}
		var offered []engine.Action
		for _, a := range f.srv.viewAs(u, f.id).Actions {
			if a.Actor == cur && weights[a.Kind] > 0 {
				offered = append(offered, a)
			}
		}
		if len(offered) == 0 {
			t.Fatalf("no action offered to %s (%s)", cur, u.Name)
		}
		a := pickMust(rng, offered, weights, must, done)
		cmd := map[string]any{"kind": a.Kind, "actor": a.Actor}
		for _, fd := range a.Fields {
			switch fd.Type {
			case "select":
				cmd[fd.Name] = fd.Options[rng.IntN(len(fd.Options))].Value
			case "number":
				cmd[fd.Name] = fd.Min
				if fd.Name == "spare" {
					cmd[fd.Name] = fd.Max
				}
			case "checkbox":
				cmd[fd.Name] = fd.Name == "run" && done[swzones.CmdRun] == 0
			}
		}
		r := ws.command(fmt.Sprintf("c%d", n), cmd)
		switch {
		case r.Type == "ack":
			done[a.Kind]++
		case r.Code == "illegal" && strings.Contains(r.Message, "out of range"):
			// A target in reach of one weapon but not the one picked.
		default:
			t.Fatalf("offered %v was refused: %+v", cmd, r)
		}
	}
	f.ended(done)
	t.Logf("played: %v; decisions answered by %v", done, decisionsFor)
	for _, k := range append(must, "answer:"+swzones.DecAim) {
		if done[k] == 0 {
			t.Errorf("no %s in the whole fight (%v)", k, done)
		}
	}
	if decisionsFor["player"] == 0 || decisionsFor["gm"] == 0 {
		t.Errorf("decisions answered: %v; want some by the player and some by the GM", decisionsFor)
	}

	// The log, read back through the API, replays to what the server stored.
	log := f.log()
	kinds := map[string]int{}
	for _, ev := range log {
		kinds[ev.Kind]++
	}
	for _, k := range []string{swzones.KindRun, swzones.KindDisengaged, swzones.KindPush, swzones.KindAreaAttack, swzones.KindAreaLanded, engine.KindDecisionResolved, engine.KindEnded} {
		if kinds[k] == 0 {
			t.Errorf("no %s event in the log", k)
		}
	}
	if f.plWS.seen(engine.KindDecisionOpened) == 0 {
		t.Error("the player's socket never received a decision")
	}
	f.checkReplay(swzones.New(), log)
}

// swzChoose answers a decision the way a keen player would.
func swzChoose(rng *rand.Rand, d engine.Decision) string {
	switch d.Kind {
	case swzones.DecSoak, swzones.DecReroll, swzones.DecDive:
		return d.Options[0].Value // soak, reroll, dive
	case swzones.DecAim:
		return d.Options[rng.IntN(len(d.Options)-1)].Value // never cancel
	}
	return d.Options[rng.IntN(len(d.Options))].Value
}
