package main

import (
	"context"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"net/http"
	"slices"
	"strings"
	"testing"

	"github.com/fray-vtt/fray/internal/engine"
	"github.com/fray-vtt/fray/internal/prep"
	"github.com/fray-vtt/fray/internal/rules/d20tactical"
	"github.com/fray-vtt/fray/internal/store"
	"github.com/fray-vtt/fray/internal/testdb"
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
	dbURL := testdb.URL(t)
	srv := swzStart(t, map[string]string{"DATABASE_URL": dbURL, "FRAY_DICE_SEED": "20261204"})

	gm := srv.signup("raid-gm")
	player := srv.signup("raid-player")
	setupJSON, err := prep.ExampleNamed("d20-tactical-warehouse-raid")
	if err != nil {
		t.Fatal(err)
	}
	var created struct{ ID, Campaign string }
	if code := srv.call(gm, "POST", "/api/encounters", setupJSON.Data, &created); code != http.StatusCreated {
		t.Fatalf("import: %d", code)
	}
	id := created.ID
	var inv struct{ URL string }
	srv.call(gm, "POST", "/api/campaigns/"+created.Campaign+"/invites", nil, &inv)
	if code := srv.call(player, "POST", "/api/join/"+inv.URL[strings.LastIndex(inv.URL, "/")+1:], nil, nil); code != http.StatusOK {
		t.Fatalf("join: %d", code)
	}
	pcs := []string{"reyes", "okafor"}
	for _, pc := range pcs {
		if code := srv.call(gm, "PUT", "/api/campaigns/"+created.Campaign+"/characters/"+pc, map[string]string{"user": player.ID}, nil); code != http.StatusOK {
			t.Fatalf("assign %s: %d", pc, code)
		}
	}

	gmWS := srv.connect(gm, id)
	plWS := srv.connect(player, id)
	// Before the start nothing but the GM's start is possible.
	if r := plWS.command("early", map[string]any{"kind": d20tactical.CmdEndTurn, "actor": "reyes"}); r.Type != "error" {
		t.Fatalf("a command before the start: %+v", r)
	}
	if r := gmWS.command("start", map[string]any{"kind": "start"}); r.Type != "ack" {
		t.Fatalf("start: %+v", r)
	}
	// A player may not act for the GM's fighters, nor issue GM rulings.
	if r := plWS.command("not-mine", map[string]any{"kind": d20tactical.CmdEndTurn, "actor": "kessler"}); r.Type != "error" || r.Code != "forbidden" {
		t.Fatalf("acting for kessler: %+v", r)
	}
	if r := plWS.command("not-gm", map[string]any{"kind": d20tactical.CmdDamage, "combatant": "kessler", "amount": 5}); r.Type != "error" || r.Code != "forbidden" {
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
	status := ""
	for n := 0; n < 3000; n++ {
		v := srv.view(gm, id)
		status = string(v.Status)
		if v.Status != engine.StatusRunning {
			break
		}
		if len(v.Pending) > 0 {
			d := v.Pending[0]
			ws := gmWS
			if slices.Contains(pcs, d.For) {
				// Prompted on the player's page, live; the GM's says it waits.
				pv := srv.view(player, id)
				if !slices.ContainsFunc(pv.Pending, func(p engine.Decision) bool { return p.ID == d.ID }) {
					t.Fatalf("decision %q for %s is not on the player's page", d.Prompt, d.For)
				}
				ws = plWS
				decisionsBy["player"]++
			} else {
				if pv := srv.view(player, id); len(pv.Waiting) == 0 {
					t.Fatalf("the player's page does not say it waits (%q for %s)", d.Prompt, d.For)
				}
				decisionsBy["gm"]++
			}
			cmd := map[string]any{"kind": "answer", "decision": d.ID, "choice": d.Options[rng.IntN(len(d.Options))].Value}
			if len(d.Fields) > 0 {
				cmd["values"] = tacValues(rng, d.Fields)
			}
			if r := ws.command(fmt.Sprintf("a%d", n), cmd); r.Type != "ack" {
				t.Fatalf("answer %s %q: %+v", d.Kind, d.Prompt, r)
			}
			done["answer:"+d.Kind]++
			continue
		}
		// Whoever has the floor: the player's characters or the GM's.
		ws, u := gmWS, gm
		if slices.ContainsFunc(v.Acting, func(a string) bool { return slices.Contains(pcs, a) }) && (rng.IntN(2) == 0 || !slices.ContainsFunc(v.Acting, func(a string) bool { return !slices.Contains(pcs, a) })) {
			ws, u = plWS, player
		}
		var offered []engine.Action
		for _, a := range srv.view(u, id).Actions {
			if a.Actor != "" && slices.Contains(v.Acting, a.Actor) && weights[a.Kind] > 0 {
				offered = append(offered, a)
			}
		}
		if len(offered) == 0 {
			t.Fatalf("nothing offered to %s (acting %v)", u.Name, v.Acting)
		}
		a := tacPick(rng, offered, weights, done)
		cmd := map[string]any{"kind": a.Kind, "actor": a.Actor}
		for k, val := range tacValues(rng, a.Fields) {
			cmd[k] = val
		}
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
	if status != string(engine.StatusFinished) {
		t.Fatalf("the fight did not end: %s after %v", status, done)
	}
	t.Logf("played: %v; decisions answered by %v; %d refused", done, decisionsBy, refused)
	for _, k := range []string{d20tactical.CmdAttack, d20tactical.CmdMove, "burst", "aimed"} {
		if done[k] == 0 {
			t.Errorf("no %s in the whole fight (%v)", k, done)
		}
	}
	if decisionsBy["player"] == 0 || decisionsBy["gm"] == 0 {
		t.Errorf("decisions answered: %v; want some by the player and some by the GM", decisionsBy)
	}

	// The log, read back page by page as the GM.
	var log []engine.Event
	final := srv.view(gm, id)
	for since := int64(0); since < final.Seq; {
		var page struct {
			Events []engine.Event `json:"events"`
		}
		srv.call(gm, "GET", fmt.Sprintf("/api/encounters/%s/events?since=%d&limit=200", id, since), nil, &page)
		if len(page.Events) == 0 {
			t.Fatalf("no events after %d of %d", since, final.Seq)
		}
		log = append(log, page.Events...)
		since = page.Events[len(page.Events)-1].Seq
	}
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
	if plWS.seen(engine.KindDecisionOpened) == 0 {
		t.Error("the player's socket never received a decision")
	}

	// Replay the log from the stored initial state.
	ctx := context.Background()
	db, err := store.Open(ctx, dbURL)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	enc, err := db.Encounter(ctx, id)
	if err != nil {
		t.Fatal(err)
	}
	rs := d20tactical.New()
	st, err := rs.Decode(enc.Initial)
	if err != nil {
		t.Fatal(err)
	}
	if err := engine.Replay(rs, st, log); err != nil {
		t.Fatal(err)
	}
	replayed, _ := engine.Snapshot(st)
	if !swzSameJSON(t, replayed, enc.State) {
		t.Fatalf("the replayed state differs from the stored one:\n%s\n%s", replayed, enc.State)
	}
	setup, err := prep.DecodeSetup(setupJSON.Data)
	if err != nil {
		t.Fatal(err)
	}
	fresh, err := engine.NewEncounter(rs, id, setup)
	if err != nil {
		t.Fatal(err)
	}
	freshRaw, _ := engine.Snapshot(fresh)
	if !swzSameJSON(t, freshRaw, enc.Initial) {
		t.Fatal("the example's setup does not build the stored initial state")
	}
	projected, _ := json.Marshal(engine.Project(rs, st, engine.GMViewer()))
	var served json.RawMessage
	srv.call(gm, "GET", "/api/encounters/"+id, nil, &served)
	if !swzSameJSON(t, projected, served) {
		t.Fatalf("the replayed projection differs from the served view:\n%s\n%s", projected, served)
	}
}

// tacValues fills fields at random within what they offer.
func tacValues(rng *rand.Rand, fields []engine.Field) map[string]any {
	out := map[string]any{}
	for _, f := range fields {
		switch f.Type {
		case engine.FieldSelect:
			out[f.Name] = f.Options[rng.IntN(len(f.Options))].Value
		case engine.FieldNumber:
			out[f.Name] = f.Min + rng.IntN(f.Max-f.Min+1)
		case engine.FieldCheckbox:
			out[f.Name] = rng.IntN(2) == 0
		case engine.FieldString:
			out[f.Name] = "something"
		}
	}
	return out
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

// tacPick takes a weighted random action among those offered.
func tacPick(rng *rand.Rand, offered []engine.Action, weights map[string]int, done map[string]int) engine.Action {
	total := 0
	for _, a := range offered {
		total += weights[a.Kind]
	}
	n := rng.IntN(total)
	for _, a := range offered {
		if n -= weights[a.Kind]; n < 0 {
			return a
		}
	}
	return offered[len(offered)-1]
}
