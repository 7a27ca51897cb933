package main

import (
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/fray-vtt/fray/internal/engine"
	"github.com/fray-vtt/fray/internal/engine/enginetest"
	"github.com/fray-vtt/fray/internal/rules/d6bands"
)

// TestD6BandsFullCombat plays a whole d6-bands fight through the API the
// browser uses: the real server in-process with reproducible dice, the GM
// and a player each on their own websocket, every command sent over it,
// every decision answered by whoever the page prompts — the player spends
// Sten's Defense Pool, the GM rules on stray shots into the market crowd.
// A bot picks among the actions each viewer is offered (every one must be
// accepted), making sure the seed's moves happen, until one side is out.
// The event log, read back through the HTTP API, must replay from the
// stored initial state to the stored final state and project to the view
// the server gives the GM.
func TestD6BandsFullCombat(t *testing.T) {
	f := startFight(t, "1", "d6-bands-lantern-market", "market", "mira", "sten")
	if r := f.gmWS.command("start", map[string]any{"kind": "start"}); r.Type != "ack" {
		t.Fatalf("start: %+v", r)
	}
	// The GM changes a square mid-fight: smoke over the fountain.
	if r := f.gmWS.command("smoke", map[string]any{"kind": d6bands.CmdSetCell, "x": 0, "y": 5, "dash": "5", "cover": "2", "label": "Smoke"}); r.Type != "ack" {
		t.Fatalf("set-cell: %+v", r)
	}
	// A player may not.
	if r := f.plWS.command("smoke2", map[string]any{"kind": d6bands.CmdSetCell, "x": 1, "y": 5, "cover": "1"}); r.Type != "error" || r.Code != "forbidden" {
		t.Fatalf("a player's set-cell: %+v", r)
	}

	rng := rand.New(rand.NewPCG(3, 5))
	done := map[string]int{}
	decisionsFor := map[string]int{}
	weights := map[string]int{
		d6bands.CmdShoot: 12, d6bands.CmdStrike: 14, d6bands.CmdAreaFire: 4, d6bands.CmdMove: 5, d6bands.CmdDash: 2,
		d6bands.CmdAim: 1, d6bands.CmdReload: 6, d6bands.CmdStealth: 1, d6bands.CmdFirstAid: 3, d6bands.CmdStand: 6, d6bands.CmdEndTurn: 2,
	}
	must := []string{d6bands.CmdDash, d6bands.CmdReload, d6bands.CmdShoot, d6bands.CmdAreaFire, d6bands.CmdStealth}
	for n, v := range f.turns(2500) {
		if len(v.Pending) > 0 {
			d := v.Pending[0]
			values := map[string]any{}
			for _, fd := range d.Fields {
				if fd.Type == "number" {
					values[fd.Name] = fd.Min + rng.IntN(fd.Max-fd.Min+1)
				}
			}
			choice := d.Options[rng.IntN(len(d.Options))].Value
			who := f.answer(fmt.Sprintf("a%d", n), d, map[string]any{"choice": choice, "values": values})
			decisionsFor[who+":"+d.Kind]++
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
		cmd := enginetest.Values(rng, a.Fields)
		cmd["kind"], cmd["actor"] = a.Kind, a.Actor
		if r := ws.command(fmt.Sprintf("c%d", n), cmd); r.Type != "ack" {
			t.Fatalf("offered %v was refused: %+v", cmd, r)
		}
		done[a.Kind]++
	}
	f.ended(done)
	t.Logf("played: %v; decisions: %v", done, decisionsFor)
	for _, k := range must {
		if done[k] == 0 {
			t.Errorf("no %s in the whole fight (%v)", k, done)
		}
	}
	if decisionsFor["player:"+d6bands.DecDefense] == 0 || decisionsFor["gm:"+d6bands.DecStray] == 0 {
		t.Errorf("decisions answered: %v; want Defense Pool answers by the player and stray rulings by the GM", decisionsFor)
	}

	// The log, read back through the API, replays to what the server stored.
	log := f.log()
	kinds := map[string]int{}
	for _, ev := range log {
		kinds[ev.Kind]++
	}
	for _, k := range []string{d6bands.KindMoved, d6bands.KindAttack, d6bands.KindHarm, d6bands.KindDefense, d6bands.KindReload,
		d6bands.KindCellChanged, engine.KindDecisionResolved, engine.KindEnded} {
		if kinds[k] == 0 {
			t.Errorf("no %s event in the log", k)
		}
	}
	if f.plWS.seen(engine.KindDecisionOpened) == 0 {
		t.Error("the player's socket never received a decision")
	}
	f.checkReplay(d6bands.New(), log)
}
