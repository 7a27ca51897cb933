package deadlines_test

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/fray-vtt/fray/internal/deadlines"
	"github.com/fray-vtt/fray/internal/dice"
	"github.com/fray-vtt/fray/internal/engine"
	"github.com/fray-vtt/fray/internal/play"
	"github.com/fray-vtt/fray/internal/prep"
	"github.com/fray-vtt/fray/internal/rules"
	"github.com/fray-vtt/fray/internal/rules/kitskirmish"
	"github.com/fray-vtt/fray/internal/store"
	"github.com/fray-vtt/fray/internal/testdb"
)

// clockTable is a kit-skirmish encounter (Ana and Bo, players' heroes;
// Gob and Sneak, the GM's goblins) under a clock, with every die a 6:
// every strike hits, every parry holds.
type clockTable struct {
	t       *testing.T
	ctx     context.Context
	db      *store.DB
	svc     *play.Service
	w       *deadlines.Worker
	clocks  *deadlines.Service
	id      string
	camp    string
	sam     store.User // owns Ana
	kim     store.User // owns Bo
	mu      sync.Mutex
	at      time.Time
	n       int
	players map[string]string
}

func newClockTable(t *testing.T) *clockTable {
	t.Helper()
	ct := &clockTable{t: t, ctx: context.Background(), at: time.Date(2030, 1, 1, 9, 0, 0, 0, time.UTC)}
	db, err := store.Open(ct.ctx, testdb.URL(t))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(db.Close)
	ct.db = db
	reg := rules.Registry()
	c, err := db.CreateCampaign(ct.ctx, "clocks")
	if err != nil {
		t.Fatal(err)
	}
	ct.camp = c.ID
	for who, u := range map[string]*store.User{"ana": &ct.sam, "bo": &ct.kim} {
		name := map[string]string{"ana": "sam", "bo": "kim"}[who]
		if *u, err = db.CreateUser(ct.ctx, name, "not-a-real-hash"); err != nil {
			t.Fatal(err)
		}
		if err := db.SetMember(ct.ctx, c.ID, u.ID, store.RolePlayer); err != nil {
			t.Fatal(err)
		}
		if err := db.AssignCharacter(ct.ctx, c.ID, who, u.ID); err != nil {
			t.Fatal(err)
		}
	}
	enc, err := prep.Import(ct.ctx, db, reg, c.ID, kitskirmish.Example)
	if err != nil {
		t.Fatal(err)
	}
	ct.id = enc.ID
	sixes := make([]int, 200)
	for i := range sixes {
		sixes[i] = 6
	}
	ct.svc = play.New(play.Config{Store: db, Rulesets: reg, NewSource: func() dice.Source { return dice.NewFixed(sixes...) }})
	t.Cleanup(ct.svc.Close)
	ct.w = &deadlines.Worker{Store: db, Table: ct.svc, Now: ct.now}
	ct.clocks = &deadlines.Service{Store: db, Now: ct.now}
	ct.players = map[string]string{"ana": "sam", "bo": "kim"}
	return ct
}

func (ct *clockTable) now() time.Time {
	ct.mu.Lock()
	defer ct.mu.Unlock()
	return ct.at
}

func (ct *clockTable) advance(d time.Duration) {
	ct.mu.Lock()
	ct.at = ct.at.Add(d)
	ct.mu.Unlock()
}

func (ct *clockTable) tick() {
	ct.t.Helper()
	if err := ct.w.Tick(ct.ctx); err != nil {
		ct.t.Fatal(err)
	}
}

// as sends cmd as who: "gm", or the player of a hero.
func (ct *clockTable) as(who string, cmd engine.Command) {
	ct.t.Helper()
	v, user := engine.Viewer{GM: true, Players: ct.players}, ""
	switch who {
	case "ana":
		v, user = engine.PlayerViewer("ana"), ct.sam.ID
	case "bo":
		v, user = engine.PlayerViewer("bo"), ct.kim.ID
	}
	ct.n++
	if _, err := ct.svc.Submit(ct.ctx, ct.id, play.Sender{User: user, Viewer: v}, fmt.Sprint(who, "-", ct.n), cmd); err != nil {
		ct.t.Fatalf("%s: %+v: %v", who, cmd, err)
	}
}

func (ct *clockTable) state() *engine.Base {
	ct.t.Helper()
	_, st, err := ct.svc.Current(ct.ctx, ct.id)
	if err != nil {
		ct.t.Fatal(err)
	}
	return st.Core()
}

// left is what the clock status says of who: time left, and whether the
// table waits on them.
func (ct *clockTable) left(who string) (time.Duration, bool) {
	ct.t.Helper()
	_, st, err := ct.svc.Current(ct.ctx, ct.id)
	if err != nil {
		ct.t.Fatal(err)
	}
	s, err := ct.clocks.ClockStatus(ct.ctx, st, engine.GMViewer())
	if err != nil {
		ct.t.Fatal(err)
	}
	waited := slices.ContainsFunc(s.Waiting, func(l deadlines.Left) bool { return l.Character == who })
	for _, l := range s.Banks {
		if l.Character == who {
			return time.Duration(l.Remaining) * time.Millisecond, waited
		}
	}
	ct.t.Fatalf("no bank for %s: %+v", who, s)
	return 0, false
}

func (ct *clockTable) log() []engine.Event {
	ct.t.Helper()
	evs, err := ct.db.Events(ct.ctx, ct.id, 0, 1000)
	if err != nil {
		ct.t.Fatal(err)
	}
	return evs
}

func (ct *clockTable) logHas(kind, text string) engine.Event {
	ct.t.Helper()
	for _, ev := range ct.log() {
		if ev.Kind == kind && strings.Contains(ev.Text, text) {
			return ev
		}
	}
	ct.t.Fatalf("no %s %q in the log", kind, text)
	return engine.Event{}
}

// TestClockRunsForWhomTheTableWaitsOn: under a clock of 10 minutes plus 2
// a turn, a bank runs only while the table waits on its character — its
// turn, or its own decision, never another's: Ana's stands still while
// the GM answers a question of the goblin's — and gains the increment once
// a turn. When Bo's runs out on Bo's turn, the turn passes, labelled;
// when it runs out on a question put to Bo off his turn, Kim's standing
// order answers it, labelled, and the goblin's turn goes on. Switched off
// (live play) nothing runs out and the banks keep what is left; Kim, away,
// has his orders answer at once; switched on again, the banks go on from
// where they were.
func TestClockRunsForWhomTheTableWaitsOn(t *testing.T) {
	ct := newClockTable(t)
	if err := ct.clocks.SetDeadline(ct.ctx, ct.id, "", store.DeadlineSetting{Bank: 10 * time.Minute, Increment: 2 * time.Minute,
		RemindBefore: time.Minute, Fallback: store.FallbackNextTurn}); err != nil {
		t.Fatal(err)
	}
	orders := engine.StandingOrders{kitskirmish.DecParry: {When: "last", Then: "parry", Else: "take"}}
	if err := ct.db.SetStanding(ct.ctx, ct.camp, "bo", kitskirmish.ID, ct.kim.ID, store.Standing{Orders: orders}); err != nil {
		t.Fatal(err)
	}
	if err := ct.db.SetStanding(ct.ctx, ct.camp, "bo", kitskirmish.ID, ct.sam.ID, store.Standing{Orders: orders}); err == nil {
		t.Fatal("Sam set the orders of Kim's character")
	}
	ct.as("gm", engine.NewCommand(engine.KindStart, "", nil))
	ct.tick()
	if ct.state().Current() != "ana" {
		t.Fatalf("Ana does not act first: %s", ct.state().Current())
	}
	if left, waited := ct.left("ana"); left != 12*time.Minute || !waited {
		t.Fatalf("Ana's first turn: %s left (waited %v), want the bank and the increment, 12m", left, waited)
	}

	ct.advance(3 * time.Minute)
	ct.as("ana", engine.NewCommand(kitskirmish.CmdStrike, "ana", map[string]any{"target": "gob"}))
	ct.tick() // the goblin's parry: the GM's, no one's clock runs
	if left, waited := ct.left("ana"); left != 9*time.Minute || waited {
		t.Fatalf("while the GM decides: Ana has %s (waited %v), want 9m standing still", left, waited)
	}
	ct.advance(20 * time.Minute)
	ct.tick()
	if left, _ := ct.left("ana"); left != 9*time.Minute {
		t.Fatalf("after the GM took 20 minutes: Ana has %s", left)
	}
	ct.as("gm", engine.NewCommand(engine.KindAnswer, "", map[string]any{"decision": ct.state().Pending[0].ID, "choice": "take"}))
	ct.tick()
	ct.advance(time.Minute)
	ct.as("ana", engine.NewCommand(kitskirmish.CmdEndTurn, "ana", nil))
	ct.tick()
	if left, _ := ct.left("ana"); left != 8*time.Minute {
		t.Fatalf("after the turn: Ana has %s, want 8m", left)
	}
	if left, waited := ct.left("bo"); left != 12*time.Minute || !waited {
		t.Fatalf("Bo's turn: %s (waited %v)", left, waited)
	}

	// Kim is not there: his clock runs out, his turn passes.
	seq := ct.state().Seq
	ct.advance(12*time.Minute - time.Second)
	ct.tick()
	if ct.state().Seq != seq {
		t.Fatal("the turn passed before its clock ran out")
	}
	ct.advance(time.Second)
	ct.tick()
	if b := ct.state(); b.Current() != "gob" {
		t.Fatalf("Bo's clock ran out and %s acts", b.Current())
	}
	passed := ct.logHas(engine.KindTurnPassed, "Time ran out for kim: Bo's turn passes.")
	if !strings.HasPrefix(passed.Command, "deadline-") {
		t.Fatalf("the turn passed by %q", passed.Command)
	}

	// The goblin strikes Bo: Bo's question, off his turn, with his bank
	// dry, is answered at once by his standing order (he has 2 hit
	// points: not the last blow, so he takes it).
	ct.tick()
	ct.as("gm", engine.NewCommand(kitskirmish.CmdStrike, "gob", map[string]any{"target": "bo"}))
	ct.tick()
	took := ct.logHas(engine.KindDecisionResolved, "(by kim's standing order)")
	var d engine.DecisionResolved
	if err := took.Decode(&d); err != nil || d.Choice != "take" || d.Via != engine.AgentStanding || d.DecidedFor != "kim" {
		t.Fatalf("Kim's order answered %+v (%v)", d, err)
	}
	if b := ct.state(); b.Waiting() || b.Current() != "gob" {
		t.Fatalf("after the order: waiting %v, %s acts", b.Waiting(), b.Current())
	}

	// Live play: switched off, nothing runs out; Kim marks himself away,
	// and his order answers the next blow — the hidden goblin's, the first
	// having struck its once this turn — at once: his last hit point, he
	// parries.
	anaLeft, _ := ct.left("ana")
	if err := ct.clocks.SwitchDeadline(ct.ctx, ct.id, false); err != nil {
		t.Fatal(err)
	}
	if err := ct.db.SetStanding(ct.ctx, ct.camp, "bo", kitskirmish.ID, ct.kim.ID, store.Standing{Orders: orders, Away: true}); err != nil {
		t.Fatal(err)
	}
	ct.as("gm", engine.NewCommand(kitskirmish.CmdEndTurn, "gob", nil))
	ct.as("gm", engine.NewCommand(kitskirmish.CmdStrike, "sneak", map[string]any{"target": "bo"}))
	ct.advance(48 * time.Hour)
	ct.tick()
	var parried bool
	for _, ev := range ct.log() {
		var d engine.DecisionResolved
		if ev.Kind == engine.KindDecisionResolved && ev.Decode(&d) == nil && d.Choice == "parry" && d.Via == engine.AgentStanding {
			parried = true
		}
	}
	if !parried {
		t.Fatal("away Kim's order did not parry the last blow")
	}
	ct.tick()
	ct.advance(48 * time.Hour)
	ct.tick()
	if b := ct.state(); b.Current() != "sneak" {
		t.Fatalf("switched off, a turn passed: %s acts", b.Current())
	}
	ct.as("gm", engine.NewCommand(kitskirmish.CmdEndTurn, "sneak", nil)) // round 2: Ana
	if err := ct.clocks.SwitchDeadline(ct.ctx, ct.id, true); err != nil {
		t.Fatal(err)
	}
	ct.tick()
	if left, waited := ct.left("ana"); left != anaLeft+2*time.Minute || !waited {
		t.Fatalf("switched on again at Ana's turn: %s (waited %v), want %s and the increment", left, waited, anaLeft)
	}
	for _, ev := range ct.log() {
		var d engine.DecisionResolved
		if ev.Decode(&d) == nil && d.DecidedFor != "" && d.Via == "" {
			t.Fatalf("the GM decided for %s: %s", d.DecidedFor, ev.Text)
		}
	}
}
