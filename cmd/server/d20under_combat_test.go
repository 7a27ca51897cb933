package main

import (
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/fray-vtt/fray/internal/engine"
	"github.com/fray-vtt/fray/internal/engine/enginetest"
	"github.com/fray-vtt/fray/internal/rules/d20under"
)

// TestD20UnderFullCombat plays the ford ambush through the API the
// browser uses, to the end of the fight: the real server with
// reproducible dice, the GM and a player each on their own websocket,
// every command sent over it, every question answered by whoever the page
// prompts — the player for the three fortune hunters (free attacks, feats
// when hit, traps, death tests), the GM for the bandits and its rulings
// (searching for arrows). The GM springs the ambush; later it brings
// Lysa down with an adjustment so that her death tests play out on her
// player's page. A bot picks only among the actions each viewer is
// offered; every one must be accepted or refused with a clear message.
// Then the event log, read back through the HTTP API, must replay from the
// stored initial state to the stored final state and project to the view
// the server gives the GM.
func TestD20UnderFullCombat(t *testing.T) {
	f := startFight(t, "7", "d20-under-eastern-ford", "ford", "erik", "lysa", "tobias")
	if r := f.gmWS.command("start", map[string]any{"kind": "start"}); r.Type != "ack" {
		t.Fatalf("start: %+v", r)
	}
	// The ambush: declared before the first round.
	if r := f.gmWS.command("ambush", map[string]any{"kind": d20under.GMSurprise, "ambush": "bandits>heroes"}); r.Type != "ack" {
		t.Fatalf("surprise: %+v", r)
	}
	rng := rand.New(rand.NewPCG(5, 23))
	done := map[string]int{}
	answeredBy := map[string]int{}
	weights := map[string]int{
		d20under.CmdAttack: 14, d20under.CmdShoot: 12, d20under.CmdEngage: 10, d20under.CmdMove: 4, d20under.CmdCharge: 3,
		d20under.CmdFlank: 3, d20under.CmdEndTurn: 3, d20under.CmdDeathTest: 20, d20under.CmdStand: 8, d20under.CmdSwitch: 4,
		d20under.CmdFirstAid: 3, d20under.CmdUseItem: 2, d20under.CmdDisarm: 1, d20under.CmdTackle: 1, d20under.CmdFeat: 1,
		d20under.CmdDelay: 1, d20under.CmdTakeInit: 2, d20under.CmdDeclared: 6, d20under.CmdQuickStrike: 1,
		d20under.CmdSurpriseHit: 8, d20under.CmdSurprisePass: 1, d20under.CmdBreakFree: 4, d20under.GMBegin: 1,
	}
	downed := false
	for n, v := range f.turns(3000) {
		if len(v.Pending) > 0 {
			d := v.Pending[rng.IntN(len(v.Pending))]
			answeredBy[f.answer(fmt.Sprintf("a%d", n), d, map[string]any{"choice": undChoose(d), "values": enginetest.Values(rng, d.Fields)})]++
			done["answer:"+d.Kind]++
			continue
		}
		// Once the fight is on, the GM rules Lysa down (an arrow in the
		// throat, say): her death tests are her player's to roll.
		if !downed && v.Round >= 2 && v.Current != "lysa" {
			if c := combatantOf(v, "lysa"); c != nil && c.Fighting() {
				r := f.gmWS.command("down", map[string]any{"kind": d20under.GMAdjust, "combatant": "lysa", "what": "toughness", "value": 0})
				if r.Type != "ack" {
					t.Fatalf("adjust: %+v", r)
				}
				downed = true
				continue
			}
		}
		offered, sockets := f.offered(weights)
		if len(offered) == 0 {
			t.Fatalf("nothing offered (round %d, current %q, phase %q)", v.Round, v.Current, v.Phase)
		}
		i := enginetest.PickAction(rng, offered, weights)
		a, ws := offered[i], sockets[i]
		cmd := enginetest.Values(rng, a.Fields)
		cmd["kind"] = a.Kind
		if a.Actor != "" {
			cmd["actor"] = a.Actor
		}
		r := ws.command(fmt.Sprintf("c%d", n), cmd)
		switch {
		case r.Type == "ack":
			done[a.Kind]++
		case r.Code == "illegal" || r.Code == "invalid":
			done["refused:"+a.Kind]++ // a clear refusal
		default:
			t.Fatalf("offered %v: %+v", cmd, r)
		}
	}
	f.ended(done)
	t.Logf("played: %v; answered by %v", done, answeredBy)
	for _, k := range []string{d20under.CmdSurpriseHit, d20under.CmdDeathTest, "answer:" + d20under.DecHit} {
		if done[k] == 0 {
			t.Errorf("no %s in the whole fight (%v)", k, done)
		}
	}
	if answeredBy["player"] == 0 || answeredBy["gm"] == 0 {
		t.Errorf("answers: %v; want some by the player and some by the GM", answeredBy)
	}
	if f.plWS.seen(d20under.KindDeathTest) == 0 || f.plWS.seen(engine.KindDecisionOpened) == 0 {
		t.Error("the player's socket never received a death test or a question")
	}

	// The log, read back through the API, replays to what the server stored.
	log := f.log()
	var deathRolls int
	for _, ev := range log {
		if ev.Kind == d20under.KindDeathTest {
			for _, r := range ev.Rolls {
				if r.Who == "lysa" && r.Label == "Death test" {
					deathRolls++
				}
			}
		}
	}
	if deathRolls == 0 {
		t.Error("Lysa's death tests are not on her roll card")
	}
	f.checkReplay(d20under.New(), log)
}

// combatantOf returns combatant id as v shows it, nil if v does not.
func combatantOf(v engine.View, id string) *engine.Combatant {
	for i := range v.Combatants {
		if v.Combatants[i].ID == id {
			return &v.Combatants[i]
		}
	}
	return nil
}

// undChoose answers a decision the way a keen player would: free attacks
// made, hits taken (feats are tested elsewhere), traps jumped.
func undChoose(d engine.Decision) string {
	switch d.Kind {
	case d20under.DecFreeAttack:
		return "attack"
	case d20under.DecTrap:
		return "jump"
	case d20under.DecReclaim:
		return "search"
	}
	if d.Default != "" {
		return d.Default
	}
	return d.Options[0].Value
}
