package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"net/http"
	"regexp"
	"slices"
	"testing"

	"github.com/fray-vtt/fray/internal/engine"
	"github.com/fray-vtt/fray/internal/engine/enginetest"
	"github.com/fray-vtt/fray/internal/prep"
	"github.com/fray-vtt/fray/internal/rules/d20duel"
	"github.com/fray-vtt/fray/internal/testdb"
)

// TestD20DuelStanceStaysSealed plays the start of a duel between two
// players over real websockets, twice: in one run Ana's player — here
// Sir Aldric's — commits to Reckless with Find Weakness and his dagger, in
// the other to Defensive; in both the GM secretly sets how many blows only
// drive Lady Mirela back (1, then 3). Until Mirela's player commits,
// everything she can read — every frame her socket received (with the
// projection and the page's HTML), the API view, the log API, the
// replay, both exports, the log page and the encounter page — must be
// byte for byte the same in the two runs (once the encounter's own ids,
// clock times and the commitments' hashes are set aside). So must
// Aldric's own socket: the server never had his choice, only its
// commitment, which his socket shows. Once Mirela commits, both reveal
// and she sees the stance.
func TestD20DuelStanceStaysSealed(t *testing.T) {
	srv := startServerEnv(t, testdb.URL(t), map[string]string{"FRAY_DICE_SEED": "3"})
	gm, pa, pb := srv.signup("duel-gm"), srv.signup("aldric-player"), srv.signup("mirela-player")
	ex, err := prep.ExampleNamed("d20-duel-dawn-duel")
	if err != nil {
		t.Fatal(err)
	}
	var first, second struct{ ID, Campaign string }
	if code := srv.call(gm, "POST", "/api/encounters", ex.Data, &first); code != http.StatusCreated {
		t.Fatalf("import: %d", code)
	}
	if code := srv.call(gm, "POST", "/api/campaigns/"+first.Campaign+"/encounters", ex.Data, &second); code != http.StatusCreated {
		t.Fatalf("second import: %d", code)
	}
	srv.join(gm, first.Campaign, pa, "aldric")
	srv.join(gm, first.Campaign, pb, "mirela")

	type run struct {
		choice   map[string]any
		blows    int
		opponent [][]byte // what Mirela's player can read
		own      []byte   // Aldric's socket
		id       string
		aSocket  *fightSocket
		bSocket  *fightSocket
		unseal   map[string]any
		seq      int64
	}
	runs := []*run{
		{choice: map[string]any{"choice": "reckless", "values": map[string]any{"aim": "find-weakness", "weapon": "dagger"}}, blows: 1, id: first.ID},
		{choice: map[string]any{"choice": "defensive"}, blows: 3, id: second.ID},
	}
	for _, r := range runs {
		gmWS := srv.connect(gm, r.id, "")
		aWS := srv.connect(pa, r.id, "view=1&html=1")
		bWS := srv.connect(pb, r.id, "view=1&html=1")
		start := gmWS.command("start", map[string]any{"kind": "start"})
		if start.Type != "ack" {
			t.Fatalf("start: %+v", start)
		}
		// The GM's secret count, while the stances wait.
		if rep := gmWS.command("drive", map[string]any{"kind": "drive-back", "fighter": "mirela", "blows": r.blows}); rep.Type != "ack" {
			t.Fatalf("drive-back: %+v", rep)
		}
		av := srv.viewAs(pa, r.id)
		if len(av.Pending) != 1 || av.Pending[0].Kind != "stance" || !av.Pending[0].Sealed {
			t.Fatalf("aldric's pending %+v", av.Pending)
		}
		// The page commits to the answer; it keeps the answer and the
		// nonce to reveal them once everyone has answered.
		r.unseal = map[string]any{"kind": "unseal", "decision": av.Pending[0].ID, "nonce": "0123456789abcdef0123456789abcdef"}
		var values json.RawMessage
		for k, v := range r.choice {
			r.unseal[k] = v
			if k == "values" {
				values, _ = json.Marshal(v)
			}
		}
		commitment, err := engine.Commitment(av.Pending[0].ID, r.choice["choice"].(string), values, r.unseal["nonce"].(string))
		if err != nil {
			t.Fatal(err)
		}
		ack := aWS.command("commit", map[string]any{"kind": "answer", "decision": av.Pending[0].ID, "commitment": commitment})
		if ack.Type != "ack" {
			t.Fatalf("commit: %+v", ack)
		}
		r.seq = ack.Seq
		bWS.waitSeq(ack.Seq)
		aWS.waitSeq(ack.Seq)
		norm := duelNormalizer(r.id, first.Campaign)
		r.opponent = append(r.opponent, norm(bytes.Join(bWS.all(), []byte("\n"))))
		own := bytes.Join(aWS.all(), []byte("\n"))
		if !bytes.Contains(own, []byte(commitment)) {
			t.Fatal("Aldric's socket does not show his commitment")
		}
		r.own = norm(own)
		for _, path := range []string{
			"/api/encounters/" + r.id,
			"/api/encounters/" + r.id + "/events?since=0",
			fmt.Sprintf("/api/encounters/%s/replay?seq=%d", r.id, ack.Seq),
			"/api/encounters/" + r.id + "/export.json",
			"/encounters/" + r.id + "/export.md",
			"/encounters/" + r.id + "/log",
			"/encounters/" + r.id,
		} {
			p := srv.get(pb, path)
			if p.code != http.StatusOK {
				t.Fatalf("%s as Mirela's player: %d", path, p.code)
			}
			r.opponent = append(r.opponent, norm(p.body))
		}
		bv := srv.viewAs(pb, r.id)
		if len(bv.Pending) != 1 || len(bv.Committed) != 0 || len(bv.Waiting) != 0 {
			t.Fatalf("mirela's view: pending %d committed %d waiting %v", len(bv.Pending), len(bv.Committed), bv.Waiting)
		}
		r.aSocket, r.bSocket = aWS, bWS
	}
	what := []string{"socket frames", "API view", "events API", "replay", "export.json", "export.md", "log page", "encounter page"}
	for i := range runs[0].opponent {
		if a, b := runs[0].opponent[i], runs[1].opponent[i]; !bytes.Equal(a, b) {
			t.Errorf("Mirela's player can tell the runs apart in the %s:\n%s", what[i], firstDifference(a, b))
		}
	}
	for _, secret := range []string{`"choice":"reckless"`, `"choice":"defensive"`, `"aim":"find-weakness"`, "Stances:", "stances-revealed",
		"driveBack", "drive-back-set", "next 1 ", "next 3 "} {
		for i, seen := range runs[0].opponent {
			if bytes.Contains(seen, []byte(secret)) {
				t.Errorf("the %s holds %q before Mirela commits", what[i], secret)
			}
		}
	}
	if !bytes.Equal(runs[0].own, runs[1].own) {
		t.Errorf("Aldric's socket tells his choice apart — the server had it:\n%s", firstDifference(runs[0].own, runs[1].own))
	}

	// Mirela commits in the first run, both reveal: the reveal reaches her
	// socket.
	r := runs[0]
	bv := srv.viewAs(pb, r.id)
	const nonce = "fedcba9876543210fedcba9876543210"
	commitment, _ := engine.Commitment(bv.Pending[0].ID, "default", nil, nonce)
	ack := r.bSocket.command("commit-b", map[string]any{"kind": "answer", "decision": bv.Pending[0].ID, "commitment": commitment})
	if ack.Type != "ack" {
		t.Fatalf("mirela's commit: %+v", ack)
	}
	if av := srv.viewAs(pa, r.id); len(av.Committed) != 1 || !av.Committed[0].Reveal {
		t.Fatalf("Aldric is not asked to reveal: %+v", av.Committed)
	}
	if ack := r.aSocket.command("reveal-a", r.unseal); ack.Type != "ack" {
		t.Fatalf("aldric's reveal: %+v", ack)
	}
	ack = r.bSocket.command("reveal-b", map[string]any{"kind": "unseal", "decision": bv.Pending[0].ID, "choice": "default", "nonce": nonce})
	if ack.Type != "ack" {
		t.Fatalf("mirela's reveal: %+v", ack)
	}
	r.bSocket.waitSeq(ack.Seq)
	after := bytes.Join(r.bSocket.all(), []byte("\n"))
	if !bytes.Contains(after, []byte(`"choice":"reckless"`)) || !bytes.Contains(after, []byte("stances-revealed")) {
		t.Fatal("after both committed, Mirela's socket does not show the reveal")
	}
	if bytes.Contains(after, []byte("drive-back-set")) {
		t.Fatal("the GM's secret count reached Mirela's socket")
	}
}

// duelNormalizer sets aside what differs between two encounters of the
// same campaign: their ids and clock times.
func duelNormalizer(id, campaign string) func([]byte) []byte {
	times := regexp.MustCompile(`\d{4}-\d{2}-\d{2}[T ]\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:?\d{2}| [A-Z]{3,4})?`)
	hashes := regexp.MustCompile(`[0-9a-f]{12,64}`) // commitments (and their short forms), nonces, the chain's salts, digests and links
	return func(b []byte) []byte {
		b = bytes.ReplaceAll(b, []byte(id), []byte("ENCOUNTER"))
		b = bytes.ReplaceAll(b, []byte(campaign), []byte("CAMPAIGN"))
		b = hashes.ReplaceAll(b, []byte("HASH"))
		return times.ReplaceAll(b, []byte("TIME"))
	}
}

func firstDifference(a, b []byte) string {
	n := 0
	for n < len(a) && n < len(b) && a[n] == b[n] {
		n++
	}
	from := max(n-200, 0)
	return fmt.Sprintf("…%s\n—— versus ——\n…%s", a[from:min(n+200, len(a))], b[from:min(n+200, len(b))])
}

// TestD20DuelFullCombat plays the two-duel example through the API the
// browser uses until one side is out: the real server with reproducible
// dice, the GM and a player each on their own websocket, every command
// sent over it, every question answered by whoever the page prompts — the
// player for the caravan guards, the GM for the toll gang, the hidden
// crossbowman and its own rulings. A bot picks only among the actions each
// viewer is offered; every one must be accepted or refused with a clear
// message. Then the event log, read back through the HTTP API, must replay
// from the stored initial state to the stored final state and project to
// the view the server gives the GM.
func TestD20DuelFullCombat(t *testing.T) {
	f := startFight(t, "20260203", "d20-duel-old-bridge", "bridge", "tove", "henrik")
	if r := f.gmWS.command("start", map[string]any{"kind": "start"}); r.Type != "ack" {
		t.Fatalf("start: %+v", r)
	}
	rng := rand.New(rand.NewPCG(3, 17))
	done := map[string]int{}
	answeredBy := map[string]int{}
	weights := map[string]int{d20duel.CmdEngage: 10, d20duel.CmdShoot: 6, d20duel.CmdWait: 2, d20duel.CmdTest: 2,
		d20duel.CmdRecover: 4, d20duel.CmdRollTest: 1, d20duel.CmdSetDistance: 1, engine.KindReveal: 1}
	for n, v := range f.turns(3000) {
		if len(v.Pending) > 0 && rng.IntN(12) > 0 {
			d := v.Pending[rng.IntN(len(v.Pending))]
			answeredBy[f.answer(fmt.Sprintf("a%d", n), d, map[string]any{"choice": duelChoose(rng, d), "values": enginetest.Values(rng, d.Fields, duelText)})]++
			done["answer:"+d.Kind]++
			continue
		}
		// An action: a fighter's in the approach, or a GM ruling (also
		// while questions wait).
		offered, sockets := f.offered(weights)
		if len(offered) == 0 {
			continue
		}
		// The moves the bot makes sure of, first chance it gets: reveal the
		// crossbowman lying in wait, and shoot.
		i := slices.IndexFunc(offered, func(a engine.Action) bool {
			return (a.Kind == engine.KindReveal || a.Kind == d20duel.CmdShoot) && done[a.Kind] == 0
		})
		if i < 0 {
			i = enginetest.PickAction(rng, offered, weights)
		}
		a, ws := offered[i], sockets[i]
		cmd := enginetest.Values(rng, a.Fields, duelText)
		cmd["kind"] = a.Kind
		if a.Actor != "" {
			cmd["actor"] = a.Actor
		}
		r := ws.command(fmt.Sprintf("c%d", n), cmd)
		switch {
		case r.Type == "ack":
			done[a.Kind]++
		case r.Code == "illegal" && a.Kind == d20duel.CmdSetDistance:
			done["refused:"+a.Kind]++ // every pair and distance is offered
		default:
			t.Fatalf("offered %v was refused: %+v", cmd, r)
		}
	}
	f.ended(done)
	t.Logf("played: %v; answered by %v", done, answeredBy)
	for _, k := range []string{"answer:" + d20duel.DecStance, d20duel.CmdShoot, engine.KindReveal, "answer:" + d20duel.DecHurt} {
		if done[k] == 0 {
			t.Errorf("no %s in the whole fight (%v)", k, done)
		}
	}
	if answeredBy["player"] == 0 || answeredBy["gm"] == 0 {
		t.Errorf("answers: %v; want some by the player and some by the GM", answeredBy)
	}
	if f.plWS.seen(d20duel.KindStances) == 0 || f.plWS.seen(engine.KindDecisionsRevealed) == 0 {
		t.Error("the player's socket never received a reveal")
	}

	// The log, read back through the API, replays to what the server stored.
	f.checkReplay(d20duel.New(), f.log())
}

// duelChoose answers a decision the way an eager player would: mostly
// moving, never vetoing (a veto is tested elsewhere).
func duelChoose(rng *rand.Rand, d engine.Decision) string {
	switch d.Kind {
	case d20duel.DecManeuver:
		if rng.IntN(3) > 0 {
			return d20duel.ManeuverChange
		}
	case d20duel.DecVeto, d20duel.DecHurt:
		return d.Default
	}
	return d.Options[rng.IntN(len(d.Options))].Value
}

// duelText is what the bot writes in free-text fields.
const duelText = "climb the parapet"
