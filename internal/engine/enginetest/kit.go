package enginetest

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"os"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/fray-vtt/fray/internal/dice"
	"github.com/fray-vtt/fray/internal/engine"
	"github.com/fray-vtt/fray/internal/fray"
)

// Main runs a ruleset's tests with the engine checking that Apply never
// writes the engine's Base, and that every event's data it copies rather
// than decodes is what decoding gives: call it from the package's TestMain.
func Main(m *testing.M) {
	engine.SetStrictApply(true)
	engine.SetCheckDecode(true)
	os.Exit(m.Run())
}

// Kit drives one ruleset through scenario tests. S is the ruleset's state
// type, so that what a test gets back is the ruleset's own state, ready to
// inspect. Every command goes through engine.Decide with a fixed dice
// script, and every result is replayed to check that the events alone
// rebuild the state.
type Kit[S engine.State] struct {
	Rules engine.Ruleset
}

// New builds the encounter "enc-1" from setup.
func (k Kit[S]) New(t testing.TB, setup engine.Setup) S {
	t.Helper()
	st, err := engine.NewEncounter(k.Rules, "enc-1", setup)
	if err != nil {
		t.Fatalf("NewEncounter: %v", err)
	}
	return st.(S)
}

// Do decides c as v, rolling exactly the scripted faces: a refusal, or a
// face left unused, fails the test. It checks that replaying the events
// onto st gives the state decided, and returns both.
func (k Kit[S]) Do(t testing.TB, st S, v engine.Viewer, c engine.Command, faces ...int) ([]engine.Event, S) {
	t.Helper()
	fixed := dice.NewFixed(faces...)
	events, next, err := engine.Decide(k.Rules, st, v, "c1", c, dice.NewRoller(fixed))
	if err != nil {
		t.Fatalf("%s %s: %v", c.Kind, c.Actor, err)
	}
	if n := fixed.Remaining(); n != 0 {
		t.Fatalf("%s %s: %d scripted faces unused", c.Kind, c.Actor, n)
	}
	k.AssertReplay(t, st, events, next)
	return events, next.(S)
}

// Fail decides c as v expecting a refusal with code, which must leave st
// as it was and return neither events nor a state. It returns the
// refusal's message, for the test to check it reads clearly.
func (k Kit[S]) Fail(t testing.TB, st S, v engine.Viewer, c engine.Command, code string, faces ...int) string {
	t.Helper()
	before, _ := engine.Snapshot(st)
	events, next, err := engine.Decide(k.Rules, st, v, "c1", c, dice.NewRoller(dice.NewFixed(faces...)))
	if err == nil {
		t.Fatalf("%s %s: want error %s, got %d events", c.Kind, c.Actor, code, len(events))
	}
	if got := fray.ErrorCode(err); got != code {
		t.Fatalf("%s %s: want code %s, got %s (%v)", c.Kind, c.Actor, code, got, err)
	}
	if events != nil || next != nil {
		t.Fatalf("%s: an error must return no events and no state", c.Kind)
	}
	after, _ := engine.Snapshot(st)
	if !bytes.Equal(before, after) {
		t.Fatalf("%s: the state changed on error", c.Kind)
	}
	return fray.ErrorMessage(err)
}

// Answer answers decision d with choice and values (nil for none) as v,
// like Do. A player answers a sealed decision as a page does: a
// commitment, and once every party of its group has answered, the
// reveals of every answer committed to through Answer, in the order of
// the group (the faces go to the last). The events of every step are
// returned together.
func (k Kit[S]) Answer(t testing.TB, st S, v engine.Viewer, d engine.Decision, choice string, values map[string]any, faces ...int) ([]engine.Event, S) {
	t.Helper()
	args := map[string]any{"decision": d.ID, "choice": choice}
	if values != nil {
		args["values"] = values
	}
	if !d.Sealed {
		return k.Do(t, st, v, engine.NewCommand(engine.KindAnswer, "", args), faces...)
	}
	if v.GM {
		// The GM answers outright; reveals may still be due.
		if !slices.ContainsFunc(st.Core().Sealed, func(s engine.SealedAnswer) bool { return s.ID != d.ID && !s.Opened }) {
			return k.Do(t, st, v, engine.NewCommand(engine.KindAnswer, "", args), faces...)
		}
		events, next := k.Do(t, st, v, engine.NewCommand(engine.KindAnswer, "", args))
		return k.revealGroup(t, events, next, d.Group, faces)
	}
	a := sealedAnswer{viewer: v, choice: choice, values: values, nonce: kitNonce(d.ID)}
	var raw json.RawMessage
	if values != nil {
		raw, _ = json.Marshal(values)
	}
	c, err := engine.Commitment(d.ID, choice, raw, a.nonce)
	if err != nil {
		t.Fatal(err)
	}
	committedAnswers.Store(c, a)
	events, next := k.Do(t, st, v, engine.NewCommand(engine.KindAnswer, "", map[string]any{"decision": d.ID, "commitment": c}))
	return k.revealGroup(t, events, next, d.Group, faces)
}

// sealedAnswer is an answer Kit.Answer committed to, to reveal later.
type sealedAnswer struct {
	viewer engine.Viewer
	choice string
	values map[string]any
	nonce  string
}

// committedAnswers holds the answers Kit.Answer committed to, by
// commitment (which names the decision and the choice).
var committedAnswers sync.Map

// kitNonce is a nonce for decision id: tests need no secrecy.
func kitNonce(id string) string {
	h := sha256.Sum256([]byte("kit nonce " + id))
	return hex.EncodeToString(h[:16])
}

// revealGroup reveals, once every decision of group is answered, the
// answers to it committed through Answer, the last with faces (which are
// then not rolled earlier).
func (k Kit[S]) revealGroup(t testing.TB, events []engine.Event, st S, group string, faces []int) ([]engine.Event, S) {
	t.Helper()
	b := st.Core()
	var todo []engine.Command
	var who []engine.Viewer
	for _, p := range b.Pending {
		if p.Group != group {
			continue
		}
		if !p.Answered {
			if len(faces) > 0 {
				t.Fatalf("answer %s: %d faces scripted, but the group still waits for others", p.ID, len(faces))
			}
			return events, st
		}
		for _, s := range b.Sealed {
			if s.ID != p.ID || s.Opened || s.Commitment == "" {
				continue
			}
			kept, ok := committedAnswers.Load(s.Commitment)
			if !ok {
				return events, st // committed to elsewhere: the test reveals it
			}
			a := kept.(sealedAnswer)
			args := map[string]any{"decision": p.ID, "choice": a.choice, "nonce": a.nonce}
			if a.values != nil {
				args["values"] = a.values
			}
			todo, who = append(todo, engine.NewCommand(engine.KindUnseal, "", args)), append(who, a.viewer)
		}
	}
	if len(todo) == 0 {
		if len(faces) > 0 {
			t.Fatalf("%d faces scripted, but nothing is left to reveal", len(faces))
		}
		return events, st
	}
	for i, c := range todo {
		var out []engine.Event
		if i == len(todo)-1 {
			out, st = k.Do(t, st, who[i], c, faces...)
		} else {
			out, st = k.Do(t, st, who[i], c)
		}
		events = append(events, out...)
	}
	return events, st
}

// AnswerKind answers the first pending decision of kind, like Answer.
func (k Kit[S]) AnswerKind(t testing.TB, st S, v engine.Viewer, kind, choice string, values map[string]any, faces ...int) ([]engine.Event, S) {
	t.Helper()
	return k.Answer(t, st, v, PendingKind(t, st, kind), choice, values, faces...)
}

// AssertReplay checks that replaying events onto a copy of initial gives
// want, byte for byte.
func (k Kit[S]) AssertReplay(t testing.TB, initial S, events []engine.Event, want engine.State) {
	t.Helper()
	assertReplay(t, k.Rules, initial, events, want)
}

func assertReplay(t testing.TB, rs engine.Ruleset, initial engine.State, events []engine.Event, want engine.State) {
	t.Helper()
	replayed, err := engine.Clone(rs, initial)
	if err != nil {
		t.Fatal(err)
	}
	if err := engine.Replay(rs, replayed, events); err != nil {
		t.Fatalf("replay: %v", err)
	}
	a, _ := engine.Snapshot(replayed)
	b, _ := engine.Snapshot(want)
	if !bytes.Equal(a, b) {
		t.Fatalf("replayed state differs from decided state:\n%s\n%s", a, b)
	}
}

// Cmd is a command of kind by actor ("" for the GM's) with the fields
// given as name, value pairs.
func Cmd(kind, actor string, kv ...any) engine.Command {
	fields := map[string]any{}
	for i := 0; i+1 < len(kv); i += 2 {
		fields[kv[i].(string)] = kv[i+1]
	}
	return engine.NewCommand(kind, actor, fields)
}

// PendingKind returns the first pending decision of kind.
func PendingKind(t testing.TB, st engine.State, kind string) engine.Decision {
	t.Helper()
	for _, d := range st.Core().Pending {
		if d.Kind == kind {
			return d
		}
	}
	t.Fatalf("no pending %s decision (pending: %+v)", kind, st.Core().Pending)
	return engine.Decision{}
}

// PendingFor returns who's pending, unanswered decision of kind.
func PendingFor(t testing.TB, st engine.State, kind, who string) engine.Decision {
	t.Helper()
	for _, d := range st.Core().Pending {
		if d.Kind == kind && d.For == who && !d.Answered {
			return d
		}
	}
	t.Fatalf("no pending %s decision for %s (pending: %+v)", kind, who, st.Core().Pending)
	return engine.Decision{}
}

// Kinds lists the events' kinds, in order.
func Kinds(events []engine.Event) []string {
	out := make([]string, len(events))
	for i, e := range events {
		out[i] = e.Kind
	}
	return out
}

// Find returns the events of kind.
func Find(events []engine.Event, kind string) []engine.Event {
	var out []engine.Event
	for _, e := range events {
		if e.Kind == kind {
			out = append(out, e)
		}
	}
	return out
}

// DecodeOne decodes the only event of kind in events into v and returns
// the event; none, or more than one, fails the test.
func DecodeOne(t testing.TB, events []engine.Event, kind string, v any) engine.Event {
	t.Helper()
	es := Find(events, kind)
	if len(es) != 1 {
		t.Fatalf("want one %s event, got %d: %v", kind, len(es), Kinds(events))
	}
	if err := es[0].Decode(v); err != nil {
		t.Fatal(err)
	}
	return es[0]
}

// RollLabelled returns the first roll in events whose label starts with
// prefix; none fails the test.
func RollLabelled(t testing.TB, events []engine.Event, prefix string) dice.Roll {
	t.Helper()
	var labels []string
	for _, e := range events {
		for _, r := range e.Rolls {
			if strings.HasPrefix(r.Label, prefix) {
				return r
			}
			labels = append(labels, r.Label)
		}
	}
	t.Fatalf("no roll %q among %q (events %v)", prefix, labels, Kinds(events))
	return dice.Roll{}
}

// Eq reports got ≠ want as an error naming what was compared.
func Eq[T comparable](t testing.TB, what string, got, want T) {
	t.Helper()
	if got != want {
		t.Errorf("%s = %v, want %v", what, got, want)
	}
}

// MustJSON encodes v, for stats and battlefields written as Go maps.
func MustJSON(v any) json.RawMessage {
	raw, err := json.Marshal(v)
	if err != nil {
		panic(err)
	}
	return raw
}

// Options is every option of rs at its default but those of opts: what
// engine.NewEncounter puts in an encounter's Base, for a test that builds
// a Base by hand.
func Options(rs engine.Ruleset, opts map[string]string) map[string]string {
	out := map[string]string{}
	for _, o := range rs.Options() {
		out[o.Name] = o.Default
	}
	for k, v := range opts {
		out[k] = v
	}
	return out
}
