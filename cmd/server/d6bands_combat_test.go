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
	"github.com/fray-vtt/fray/internal/rules/d6bands"
	"github.com/fray-vtt/fray/internal/store"
	"github.com/fray-vtt/fray/internal/testdb"
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
	dbURL := testdb.URL(t)
	srv := swzStart(t, map[string]string{"DATABASE_URL": dbURL, "FRAY_DICE_SEED": "20261201"})

	gm := srv.signup("market-gm")
	player := srv.signup("market-player")
	setupJSON, err := prep.ExampleNamed("d6-bands-lantern-market")
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
	pcs := []string{"mira", "sten"}
	for _, pc := range pcs {
		if code := srv.call(gm, "PUT", "/api/campaigns/"+created.Campaign+"/characters/"+pc, map[string]string{"user": player.ID}, nil); code != http.StatusOK {
			t.Fatalf("assign %s: %d", pc, code)
		}
	}

	gmWS := srv.connect(gm, id)
	plWS := srv.connect(player, id)
	if r := gmWS.command("start", map[string]any{"kind": "start"}); r.Type != "ack" {
		t.Fatalf("start: %+v", r)
	}
	// The GM changes a square mid-fight: smoke over the fountain.
	if r := gmWS.command("smoke", map[string]any{"kind": d6bands.CmdSetCell, "x": 0, "y": 5, "dash": "5", "cover": "2", "label": "Smoke"}); r.Type != "ack" {
		t.Fatalf("set-cell: %+v", r)
	}
	// A player may not.
	if r := plWS.command("smoke2", map[string]any{"kind": d6bands.CmdSetCell, "x": 1, "y": 5, "cover": "1"}); r.Type != "error" || r.Code != "forbidden" {
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
	status := ""
	for n := 0; n < 2500; n++ {
		v := srv.view(gm, id)
		status = string(v.Status)
		if v.Status != engine.StatusRunning {
			break
		}
		if len(v.Pending) > 0 {
			d := v.Pending[0]
			ws := gmWS
			if slices.Contains(pcs, d.For) {
				pv := srv.view(player, id)
				if !slices.ContainsFunc(pv.Pending, func(p engine.Decision) bool { return p.ID == d.ID }) {
					t.Fatalf("decision %q for %s is not on the player's page", d.Prompt, d.For)
				}
				ws = plWS
				decisionsFor["player:"+d.Kind]++
			} else {
				if pv := srv.view(player, id); len(pv.Waiting) == 0 {
					t.Fatalf("the player's page does not say it waits (%q for %s)", d.Prompt, d.For)
				}
				decisionsFor["gm:"+d.Kind]++
			}
			values := map[string]any{}
			for _, f := range d.Fields {
				if f.Type == "number" {
					values[f.Name] = f.Min + rng.IntN(f.Max-f.Min+1)
				}
			}
			choice := d.Options[rng.IntN(len(d.Options))].Value
			if r := ws.command(fmt.Sprintf("a%d", n), map[string]any{"kind": "answer", "decision": d.ID, "choice": choice, "values": values}); r.Type != "ack" {
				t.Fatalf("answer %s %q with %q: %+v", d.Kind, d.Prompt, choice, r)
			}
			done["answer:"+d.Kind]++
			continue
		}
		cur := v.Current
		ws, u := gmWS, gm
		if slices.Contains(pcs, cur) {
			ws, u = plWS, player
		}
		var offered []engine.Action
		for _, a := range srv.view(u, id).Actions {
			if a.Actor == cur && weights[a.Kind] > 0 {
				offered = append(offered, a)
			}
		}
		if len(offered) == 0 {
			t.Fatalf("no action offered to %s (%s)", cur, u.Name)
		}
		a := swzPick(rng, offered, weights, must, done)
		cmd := map[string]any{"kind": a.Kind, "actor": a.Actor}
		for _, f := range a.Fields {
			switch f.Type {
			case "select":
				cmd[f.Name] = f.Options[rng.IntN(len(f.Options))].Value
			case "number":
				cmd[f.Name] = f.Min + rng.IntN(f.Max-f.Min+1)
			case "checkbox":
				cmd[f.Name] = rng.IntN(2) == 0
			}
		}
		if r := ws.command(fmt.Sprintf("c%d", n), cmd); r.Type != "ack" {
			t.Fatalf("offered %v was refused: %+v", cmd, r)
		}
		done[a.Kind]++
	}
	if status != string(engine.StatusFinished) {
		t.Fatalf("the fight did not end: %s after %v", status, done)
	}
	t.Logf("played: %v; decisions: %v", done, decisionsFor)
	for _, k := range must {
		if done[k] == 0 {
			t.Errorf("no %s in the whole fight (%v)", k, done)
		}
	}
	if decisionsFor["player:"+d6bands.DecDefense] == 0 || decisionsFor["gm:"+d6bands.DecStray] == 0 {
		t.Errorf("decisions answered: %v; want Defense Pool answers by the player and stray rulings by the GM", decisionsFor)
	}

	// The log, read back page by page as the GM.
	var log []engine.Event
	final := srv.view(gm, id)
	for since := int64(0); since < final.Seq; {
		var page struct {
			Seq    int64          `json:"seq"`
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
	for _, k := range []string{d6bands.KindMoved, d6bands.KindAttack, d6bands.KindHarm, d6bands.KindDefense, d6bands.KindReload,
		d6bands.KindCellChanged, engine.KindDecisionResolved, engine.KindEnded} {
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
	rs := d6bands.New()
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
