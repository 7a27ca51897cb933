package main

import (
	"context"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"net/http"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/fray-vtt/fray/internal/deadlines"
	"github.com/fray-vtt/fray/internal/engine"
	"github.com/fray-vtt/fray/internal/patience"
	"github.com/fray-vtt/fray/internal/prep"
	"github.com/fray-vtt/fray/internal/rules"
	"github.com/fray-vtt/fray/internal/testdb"
)

// testClock is the clock deadlines and clocks run on in a test: it moves
// only when the test moves it, so no test sleeps through a wait.
type testClock struct {
	mu sync.Mutex
	at time.Time
}

func newTestClock() *testClock {
	return &testClock{at: time.Date(2030, 1, 1, 12, 0, 0, 0, time.UTC)}
}

func (c *testClock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.at
}

func (c *testClock) Advance(d time.Duration) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.at = c.at.Add(d)
}

// clocked is an in-process server whose deadlines run on a test clock,
// with its deadlines worker, which the test ticks in step with the clock
// (the server ticks it too, when woken: ticks take turns).
type clocked struct {
	*testServer
	clock  *testClock
	worker *deadlines.Worker
}

func startClocked(t *testing.T, dbURL string, env map[string]string) *clocked {
	t.Helper()
	c := &clocked{clock: newTestClock()}
	got := make(chan *deadlines.Worker, 1)
	c.testServer = startServerHooked(t, dbURL, env, hooks{now: c.clock.Now, worker: func(w *deadlines.Worker) { got <- w }})
	c.worker = <-got
	return c
}

// tick runs the deadlines worker once, now.
func (c *clocked) tick() {
	c.t.Helper()
	ctx, cancel := patience.Context(context.Background())
	defer cancel()
	if err := c.worker.Tick(ctx); err != nil {
		c.t.Fatalf("deadlines tick: %v", err)
	}
}

// fivePlayerSetup is the shipped example of ruleset with the most
// combatants, everyone shown, the first five made player characters.
func fivePlayerSetup(t *testing.T, ruleset string) (setup []byte, pcs []string) {
	t.Helper()
	exs, err := prep.Examples()
	if err != nil {
		t.Fatal(err)
	}
	var best map[string]any
	for _, ex := range exs {
		var doc map[string]any
		if err := json.Unmarshal(ex.Data, &doc); err != nil {
			t.Fatal(err)
		}
		if doc["ruleset"] != ruleset {
			continue
		}
		if best == nil || len(doc["combatants"].([]any)) > len(best["combatants"].([]any)) {
			best = doc
		}
	}
	if best == nil || len(best["combatants"].([]any)) < 5 {
		t.Fatalf("%s has no example with five combatants", ruleset)
	}
	for i, c := range best["combatants"].([]any) {
		cm := c.(map[string]any)
		delete(cm, "hidden")
		cm["pc"] = i < 5
		if i < 5 {
			pcs = append(pcs, cm["id"].(string))
		}
	}
	setup, err = json.Marshal(best)
	if err != nil {
		t.Fatal(err)
	}
	return setup, pcs
}

// TestFivePlayersTableNeverStalls plays a five-player fight in every
// ruleset through the HTTP API under a clock of minutes (5 min each, 1 min
// a turn) on a moved clock. Each round one player, at random, is absent:
// they send nothing; every other round they marked themselves away
// beforehand (their standing orders answer at once). The present players
// and the GM act as soon as anything is theirs; when no one present has
// anything to do, the clock is moved to the earliest time left and the
// worker ticked. It checks that:
//   - no turn waits past its clock: once the clock reaches the time left
//     of whoever is waited on, the encounter moves on;
//   - no off-turn prompt blocks the acting player: only the absent
//     player's clock runs while the table waits on their prompt, and an
//     away player's prompt that their orders answer never waits;
//   - every answer not given by its player is labelled as a standing
//     order or a fallback, and every turn passed for lack of time too;
//   - the GM never answers for a player ("decided for" without a label).
func TestFivePlayersTableNeverStalls(t *testing.T) {
	var standing, fallbacks, passed int
	for _, rs := range rules.Registry().All() {
		t.Run(rs.ID(), func(t *testing.T) {
			s, f, p := fivePlayerFight(t, rs.ID(), uint64(len(rs.ID())))
			standing, fallbacks, passed = standing+s, fallbacks+f, passed+p
			if rs.ID() == "d20-duel" && s == 0 {
				// Its exchanges are all questions: an absent fighter's
				// stance comes of their standing order, not a pause.
				t.Error("no stance in d20-duel came of a standing order")
			}
		})
	}
	t.Logf("in all: %d answers by standing order, %d by fallback, %d turns passed", standing, fallbacks, passed)
	if !t.Failed() && (standing == 0 || passed == 0) {
		t.Fatalf("%d answers by standing order and %d turns passed: the fights never got there", standing, passed)
	}
}

// fivePlayerFight plays ruleset's fight and returns how many answers its
// log labels a standing order's and a fallback's, and how many turns it
// passed.
func fivePlayerFight(t *testing.T, ruleset string, seed uint64) (standing, fallbacks, passed int) {
	const maxSteps, maxRounds = 600, 8
	srv := startClocked(t, testdb.URL(t), map[string]string{"FRAY_DICE_SEED": fmt.Sprint(seed + 11)})
	setup, pcs := fivePlayerSetup(t, ruleset)
	gm := srv.signup("gamemaster")
	var players []*apiUser
	for _, n := range []string{"sam", "kim", "lee", "max", "joy"} {
		players = append(players, srv.signup(n))
	}
	var created struct{ ID, Campaign string }
	if code := srv.call(gm, "POST", "/api/encounters", setup, &created); code != http.StatusCreated {
		t.Fatalf("import: %d", code)
	}
	id := created.ID
	owner := map[string]int{}
	for i, p := range players {
		srv.join(gm, created.Campaign, p, pcs[i])
		owner[pcs[i]] = i
	}

	// Every player's standing orders: for each prompt, its first
	// condition's answer, else the last answer (or always the first).
	var decl struct {
		Prompts []engine.PromptSpec `json:"prompts"`
	}
	if code := srv.call(players[0], "GET", "/api/encounters/"+id+"/orders", nil, &decl); code != http.StatusOK || len(decl.Prompts) == 0 {
		t.Fatalf("orders: %d, %d prompts", code, len(decl.Prompts))
	}
	orders := engine.StandingOrders{}
	for _, q := range decl.Prompts {
		o := engine.StandingOrder{When: engine.Always, Then: q.Answers[0].Value}
		if len(q.Conditions) > 0 {
			o = engine.StandingOrder{When: q.Conditions[0].Value, Then: q.Answers[0].Value, Else: q.Answers[len(q.Answers)-1].Value}
		}
		orders[q.Kind] = o
	}
	setOrders := func(i int, away bool) {
		t.Helper()
		if code := srv.call(players[i], "PUT", "/api/encounters/"+id+"/orders", map[string]any{"character": pcs[i], "away": away, "orders": orders}, nil); code != http.StatusOK {
			t.Fatalf("%s's orders: %d", players[i].Name, code)
		}
	}
	for i := range players {
		setOrders(i, false)
	}
	if code := srv.call(gm, "PUT", "/api/encounters/"+id+"/deadline", map[string]any{"bank": "5m", "increment": "1m", "remindBefore": "1m", "fallback": "next-turn"}, nil); code != http.StatusOK {
		t.Fatalf("clock: %d", code)
	}

	rng := rand.New(rand.NewPCG(seed, 45))
	sent := map[string]int{}
	send := func(u *apiUser, cmd map[string]any) bool {
		t.Helper()
		sent[u.Name]++
		var e struct{ Code, Message string }
		code := srv.call(u, "POST", "/api/encounters/"+id+"/commands", map[string]any{"id": fmt.Sprintf("%s-%d", u.Name, sent[u.Name]), "command": cmd}, &e)
		if code >= 500 {
			t.Fatalf("%s sent %v: %d %s", u.Name, cmd, code, e.Message)
		}
		return code == http.StatusOK
	}
	if !send(gm, map[string]any{"kind": engine.KindStart}) {
		t.Fatal("start refused")
	}
	sealed := make([]map[string]map[string]any, 6)
	for i := range sealed {
		sealed[i] = map[string]map[string]any{}
	}
	moves := make([]int, 5) // each player's actions this turn
	absent, away, round := -1, false, 0
	waits := 0
	for step := 0; step < maxSteps; step++ {
		srv.tick()
		gv := srv.viewAs(gm, id)
		if gv.Status == engine.StatusFinished {
			break
		}
		if gv.Round != round && gv.Round > 0 {
			round = gv.Round
			if round > maxRounds {
				break
			}
			if absent >= 0 && away {
				setOrders(absent, false)
			}
			absent, away = rng.IntN(5), round%2 == 0
			if away {
				setOrders(absent, true)
			}
			srv.tick()
		}
		acted := false
		for _, i := range rng.Perm(5) {
			if i == absent {
				continue
			}
			v := srv.viewAs(players[i], id)
			if !slices.ContainsFunc(v.Acting, func(a string) bool { return a == pcs[i] }) {
				moves[i] = 0
			}
			for try := 0; try < 4 && !acted; try++ {
				cmd := contractPick(rng, v, sealed[i])
				if cmd == nil {
					break
				}
				if cmd["kind"] != engine.KindAnswer && cmd["kind"] != engine.KindUnseal {
					if moves[i]++; moves[i] > 2 {
						if a := endsTurn(v); a != nil {
							cmd = map[string]any{"kind": a.Kind, "actor": a.Actor}
						}
					}
				}
				if absent >= 0 {
					aimAt(v, cmd, pcs[absent])
				}
				acted = send(players[i], cmd)
			}
			if acted {
				break
			}
		}
		if !acted {
			if cmd := gmPick(rng, gv, sealed[5]); cmd != nil {
				if absent >= 0 {
					aimAt(gv, cmd, pcs[absent])
				}
				acted = send(gm, cmd)
			}
		}
		if acted {
			continue
		}

		// No one present has anything to do: the table waits on the
		// absent player's clock.
		var st deadlines.Status
		if code := srv.call(gm, "GET", "/api/encounters/"+id+"/clock", nil, &st); code != http.StatusOK || !st.On {
			t.Fatalf("clock status: %d %+v", code, st)
		}
		if len(st.Waiting) == 0 {
			t.Fatalf("round %d: no one acts and the table waits on no clock (waiting on %v)", round, gv.Waiting)
		}
		left := time.Duration(st.Waiting[0].Remaining) * time.Millisecond
		for _, w := range st.Waiting {
			if i, ok := owner[w.Character]; !ok || i != absent {
				t.Logf("round %d: %s's clock runs though they are here (%s has nothing offered)", round, w.Player, w.Name)
			}
			left = min(left, time.Duration(w.Remaining)*time.Millisecond)
			if left > 6*time.Minute+time.Duration(round)*time.Minute {
				t.Fatalf("%s has %s left: more than the bank and the increments", w.Name, left)
			}
		}
		if away {
			for _, a := range gv.Awaiting {
				if owner[a.Decision.For] == absent && answers(orders[a.Decision.Kind], a.Decision) {
					t.Fatalf("away %s's prompt %q waits though their standing order answers it", a.Player, a.Decision.Prompt)
				}
			}
		}
		srv.clock.Advance(left + time.Second)
		srv.tick()
		if after := srv.viewAs(gm, id); after.Seq == gv.Seq {
			t.Fatalf("round %d: the clock ran out (%s) and the table still waits on %v", round, left, gv.Waiting)
		}
		waits++
	}

	// The log: every answer to a player's decision is the player's own,
	// or labelled; the GM decided for no one.
	for _, ev := range allEvents(t, srv.testServer, gm, id) {
		switch ev.Kind {
		case engine.KindDecisionResolved, engine.KindDecisionAnswered:
			var d struct {
				DecidedFor, Via string
			}
			_ = json.Unmarshal(ev.Data, &d)
			i, theirs := owner[ev.Actor]
			switch {
			case d.DecidedFor != "" && d.Via == "":
				t.Errorf("seq %d: the GM decided for %s: %s", ev.Seq, d.DecidedFor, ev.Text)
			case d.Via == engine.AgentStanding:
				standing++
				if !strings.Contains(ev.Text, "by "+players[i].Name+"'s standing order") {
					t.Errorf("seq %d: a standing order's answer reads %q", ev.Seq, ev.Text)
				}
			case d.Via == engine.AgentFallback:
				fallbacks++
				if !strings.HasPrefix(ev.Text, "Time ran out for ") {
					t.Errorf("seq %d: a fallback's answer reads %q", ev.Seq, ev.Text)
				}
			case theirs && !strings.HasPrefix(ev.Command, players[i].Name+"-"):
				t.Errorf("seq %d: %s's decision answered by %q, unlabelled: %s", ev.Seq, players[i].Name, ev.Command, ev.Text)
			}
		case engine.KindTurnPassed:
			passed++
			if !strings.HasPrefix(ev.Command, "deadline-") || !strings.HasPrefix(ev.Text, "Time ran out for ") {
				t.Errorf("seq %d: a turn passed by %q: %s", ev.Seq, ev.Command, ev.Text)
			}
		}
	}
	t.Logf("%s: %d commands, round %d, %d waits ran out; %d answers by standing order, %d by fallback, %d turns passed", ruleset, sent["sam"]+sent["kim"]+sent["lee"]+sent["max"]+sent["joy"]+sent[gm.Name], round, waits, standing, fallbacks, passed)
	return standing, fallbacks, passed
}

// answers reports whether order o answers decision d whatever its
// condition: every answer it may give is one of d's options.
func answers(o engine.StandingOrder, d engine.Decision) bool {
	if o.When == "" || !d.HasOption(o.Then) {
		return false
	}
	return o.When == engine.Always || d.HasOption(o.Else)
}

// aimAt makes cmd, an action of view v, target the absent player's
// character when it may: the prompts that come of it (a Soak, a defense,
// a free attack) are theirs to answer off their turn.
func aimAt(v engine.View, cmd map[string]any, absent string) {
	for _, a := range v.Actions {
		if a.Kind != cmd["kind"] || a.Actor != cmd["actor"] {
			continue
		}
		for _, f := range a.Fields {
			if f.Target && slices.ContainsFunc(f.Options, func(c engine.Choice) bool { return c.Value == absent }) {
				cmd[f.Name] = absent
			}
		}
	}
}

// endsTurn is the action of v that ends its actor's turn, if offered.
func endsTurn(v engine.View) *engine.Action {
	for i := range v.Actions {
		if v.Actions[i].EndsTurn {
			return &v.Actions[i]
		}
	}
	return nil
}

// gmPick is the GM's next move: only for what is the GM's — the
// decisions no player owns and the actions of the combatants no player
// owns, starting and resuming — never a player's.
func gmPick(rng *rand.Rand, v engine.View, sealed map[string]map[string]any) map[string]any {
	fv := v
	fv.Pending = slices.DeleteFunc(slices.Clone(v.Pending), func(d engine.Decision) bool { return v.Viewer.PlayerOwned(d.For) })
	fv.Actions = slices.DeleteFunc(slices.Clone(v.Actions), func(a engine.Action) bool {
		if a.Actor == "" {
			return a.Kind != engine.KindStart && a.Kind != engine.KindResume
		}
		return v.Viewer.PlayerOwned(a.Actor)
	})
	return contractPick(rng, fv, sealed)
}

// allEvents is encounter id's whole log as u sees it.
func allEvents(t *testing.T, srv *testServer, u *apiUser, id string) []engine.Event {
	t.Helper()
	var all []engine.Event
	for {
		var page struct {
			Events []engine.Event `json:"events"`
		}
		since := int64(0)
		if len(all) > 0 {
			since = all[len(all)-1].Seq
		}
		if code := srv.call(u, "GET", fmt.Sprintf("/api/encounters/%s/events?since=%d&limit=1000", id, since), nil, &page); code != http.StatusOK {
			t.Fatalf("events: %d", code)
		}
		if len(page.Events) == 0 {
			return all
		}
		all = append(all, page.Events...)
	}
}
