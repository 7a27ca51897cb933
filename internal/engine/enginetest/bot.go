package enginetest

import (
	"bytes"
	"encoding/json"
	"io/fs"
	"math/rand/v2"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/fray-vtt/fray/examples"
	"github.com/fray-vtt/fray/internal/dice"
	"github.com/fray-vtt/fray/internal/engine"
	"github.com/fray-vtt/fray/internal/fray"
	"github.com/fray-vtt/fray/internal/proof"
)

// Bot plays an encounter to its end as the GM, the way a client that knows
// no rules would: each step it answers one of the decisions the GM's view
// lists, or takes one of the actions the view offers, with field values
// among those offered. It checks the contract every ruleset keeps: every
// advertised action is accepted or refused with a clear error (never an
// internal one), the fight ends, the log replays to the live state, and
// every viewer's view encodes.
type Bot struct {
	// Weights says how often the bot picks each action kind, relative to
	// the others; kinds not listed weigh Default (0: never picked). The
	// engine's lifecycle controls (pause, resume, end, rewind) are never
	// picked.
	Weights map[string]int
	Default int
	// ActWhilePending is the chance, in tenths, that the bot takes an
	// action (a GM ruling while sealed choices wait, say) rather than
	// answering when the view offers both. At 0 it always answers first.
	ActWhilePending int
	// Texts are the values free-text fields get, one at random; with none,
	// the field's default.
	Texts []string
	// Fixed pins some fields of some action kinds: kind → field → value.
	Fixed map[string]map[string]any
	// Refusable reports whether a clear refusal of c is to be expected;
	// nil expects any. Another refusal, or any internal error, fails the
	// test.
	Refusable func(c engine.Command, err error) bool
	// MaxCommands bounds the fight (4000 if 0); MaxRefusals the refusals
	// (0: no bound).
	MaxCommands, MaxRefusals int
	// ViewsEachStep encodes the GM's and every player's view after every
	// command, not only at the end.
	ViewsEachStep bool
	// Players makes the bot play each player character's actions and
	// answers as its player would, from the player's view and with the
	// entropy a page contributes to the dice; the GM plays the rest. (The
	// engine leaves the GM's entropy out.)
	Players bool
	// Words, when set, sends every command the bot picks (but the reveal
	// of a sealed answer, which a page sends by itself) as words: given
	// the issuer's view and the command, it returns the command those
	// words were read as (package say), or their refusal, which counts
	// as one.
	Words func(v engine.View, c engine.Command) (engine.Command, error)
}

// Played is what a Bot's fight left.
type Played struct {
	Initial, Final engine.State
	Log            []engine.Event
	// Done counts what happened: accepted actions by kind, answers as
	// "answer:"+decision kind, refusals as "refused:"+kind, and the log's
	// events as "event:"+event kind.
	Done map[string]int
	// Refusals counts the refusals by kind and message.
	Refusals map[string]int
}

// lifecycle are the engine's controls a fight-playing bot leaves alone:
// they pause, stop or undo the fight rather than play it.
var lifecycle = map[string]bool{engine.KindStart: true, engine.KindPause: true, engine.KindResume: true,
	engine.KindEnd: true, engine.KindRewind: true, engine.KindRevealEvent: true}

// Play starts setup and plays it to its end, picking with a generator
// seeded with seed and rolling provable dice from a secret made from the
// same seed. Sealed decisions are answered in two steps, a commitment
// and, once every party has committed, the reveal, as pages do. At the end
// every die of the log must recompute from the seed it publishes and every
// revealed answer must match its commitment (package proof).
func (b Bot) Play(t testing.TB, rs engine.Ruleset, setup engine.Setup, seed uint64) Played {
	t.Helper()
	pick := rand.New(rand.NewPCG(seed, 7))
	roller := dice.NewRoller(dice.NewDerived(dice.TestSeed(seed)))
	kept := map[string]keptAnswer{}
	maxCommands := b.MaxCommands
	if maxCommands == 0 {
		maxCommands = 4000
	}
	initial, err := engine.NewEncounter(rs, "enc", setup)
	if err != nil {
		t.Fatal(err)
	}
	p := Played{Initial: initial, Done: map[string]int{}, Refusals: map[string]int{}}
	events, st, err := engine.Decide(rs, initial, engine.GMViewer(), "start", engine.NewCommand(engine.KindStart, "", nil), roller)
	if err != nil {
		t.Fatal(err)
	}
	p.Log = append(p.Log, events...)
	refused := 0
	for i := 0; i < maxCommands && st.Core().Status == engine.StatusRunning; i++ {
		c, what, viewer, ok, unsaid := b.next(pick, rs, st, kept)
		if !ok {
			t.Fatalf("nothing offered (round %d, acting %v, phase %q)", st.Core().Round, st.Core().Acting, st.Core().Label)
		}
		if unsaid != nil {
			refused++
			p.Done["refused:"+what]++
			p.Refusals[what+": words: "+fray.ErrorMessage(unsaid)]++
			if b.MaxRefusals > 0 && refused > b.MaxRefusals {
				t.Fatalf("too many refusals; the last: %s: %v", what, unsaid)
			}
			continue
		}
		private, err := engine.Copy(st)
		if err != nil {
			t.Fatal(err)
		}
		events, next, err := engine.DecideOwned(rs, private, viewer, "c"+strconv.Itoa(i), c, roller, nil)
		if err != nil {
			if private.Core().Seq == st.Core().Seq {
				assertUntouched(t, st, private, c)
			}
			code := fray.ErrorCode(err)
			if code == fray.EINTERNAL || b.Refusable != nil && !b.Refusable(c, err) {
				raw, _ := json.Marshal(c)
				t.Fatalf("offered %s %s was refused: %v", what, raw, err)
			}
			refused++
			p.Done["refused:"+what]++
			p.Refusals[what+": "+fray.ErrorMessage(err)]++
			if b.MaxRefusals > 0 && refused > b.MaxRefusals {
				t.Fatalf("too many refusals; the last: %s %s: %v", what, c.Args, err)
			}
			continue
		}
		p.Done[what]++
		p.Log = append(p.Log, events...)
		st = next
		if b.ViewsEachStep {
			encodeViews(t, rs, st)
		}
	}
	if st.Core().Status != engine.StatusFinished {
		t.Fatalf("not finished after %d commands (round %d): %v", maxCommands, st.Core().Round, p.Done)
	}
	assertReplay(t, rs, initial, p.Log, st)
	AssertProvable(t, p.Log)
	encodeViews(t, rs, st)
	for _, ev := range p.Log {
		p.Done["event:"+ev.Kind]++
	}
	p.Final = st
	return p
}

// assertUntouched fails the test when a command refused before any event
// of it was applied changed the state it was decided on: owners decide in
// place on their live state and keep it after such a refusal.
func assertUntouched(t testing.TB, before, after engine.State, c engine.Command) {
	t.Helper()
	b, err := engine.Snapshot(before)
	if err != nil {
		t.Fatal(err)
	}
	a, err := engine.Snapshot(after)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(a, b) {
		raw, _ := json.Marshal(c)
		t.Fatalf("refused %s changed the state without an event:\nbefore: %s\nafter:  %s", raw, b, a)
	}
}

// keptAnswer is a sealed answer the bot committed to and will reveal.
type keptAnswer struct {
	viewer engine.Viewer
	choice string
	values map[string]any
	nonce  string
}

// next picks the bot's next command, and who issues it, and names it for
// the counts: the action's kind, or "answer:" and the decision's kind. It
// reveals a sealed answer it committed to as soon as it may; otherwise it
// picks from the GM's view, and, with Players, plays a player character's
// action or answer from its player's view instead.
func (b Bot) next(pick *rand.Rand, rs engine.Ruleset, st engine.State, kept map[string]keptAnswer) (_ engine.Command, _ string, _ engine.Viewer, _ bool, unsaid error) {
	gm := engine.GMViewer()
	v := engine.Project(rs, st, gm)
	for _, c := range v.Committed {
		if k, ok := kept[c.Decision]; ok && c.Reveal {
			args := map[string]any{"decision": c.Decision, "choice": k.choice, "nonce": k.nonce}
			if k.values != nil {
				args["values"] = k.values
			}
			delete(kept, c.Decision)
			return b.withEntropy(pick, engine.NewCommand(engine.KindUnseal, "", args), k.viewer), "unseal", k.viewer, true, nil
		}
	}
	var actions []engine.Action
	var weights []int
	for _, a := range v.Actions {
		w, ok := b.Weights[a.Kind]
		if !ok {
			w = b.Default
		}
		if w > 0 && !lifecycle[a.Kind] {
			actions, weights = append(actions, a), append(weights, w)
		}
	}
	if len(v.Pending) > 0 && (len(actions) == 0 || b.ActWhilePending == 0 || pick.IntN(10) >= b.ActWhilePending) {
		d := v.Pending[pick.IntN(len(v.Pending))]
		who := b.playerOf(st, d.For, gm)
		args := map[string]any{"decision": d.ID, "choice": d.Options[pick.IntN(len(d.Options))].Value}
		if len(d.Fields) > 0 {
			args["values"] = Values(pick, d.Fields, b.Texts...)
		}
		if b.Words != nil {
			said, err := b.Words(engine.Project(rs, st, who), engine.NewCommand(engine.KindAnswer, "", args))
			if err != nil {
				return engine.Command{}, "answer:" + d.Kind, who, true, err
			}
			args = map[string]any{}
			if err := json.Unmarshal(said.Args, &args); err != nil {
				panic(err)
			}
		}
		if d.Sealed {
			k := keptAnswer{viewer: who, choice: args["choice"].(string), nonce: hexOf(pick, 16)}
			if vs, ok := args["values"].(map[string]any); ok {
				k.values = vs
			}
			raw, _ := json.Marshal(k.values)
			if k.values == nil {
				raw = nil
			}
			commitment, err := engine.Commitment(d.ID, k.choice, raw, k.nonce)
			if err != nil {
				panic(err)
			}
			kept[d.ID] = k
			args = map[string]any{"decision": d.ID, "commitment": commitment}
		}
		return b.withEntropy(pick, engine.NewCommand(engine.KindAnswer, "", args), who), "answer:" + d.Kind, who, true, nil
	}
	i := Weighted(pick, weights)
	if i < 0 {
		return engine.Command{}, "", gm, false, nil
	}
	a := actions[i]
	who := b.playerOf(st, a.Actor, gm)
	seen := v
	if !who.GM {
		// The player's own view offers the action, or the GM plays it.
		pv := engine.Project(rs, st, who)
		j := slices.IndexFunc(pv.Actions, func(p engine.Action) bool { return p.Kind == a.Kind && p.Actor == a.Actor })
		if j < 0 {
			who = gm
		} else {
			a, seen = pv.Actions[j], pv
		}
	}
	fields := Values(pick, a.Fields, b.Texts...)
	for k, v := range b.Fixed[a.Kind] {
		fields[k] = v
	}
	c := engine.NewCommand(a.Kind, a.Actor, fields)
	if b.Words != nil {
		said, err := b.Words(seen, c)
		if err != nil {
			return engine.Command{}, a.Kind, who, true, err
		}
		c = said
	}
	return b.withEntropy(pick, c, who), a.Kind, who, true, nil
}

// playerOf is who plays combatant id: its player, with Players and when
// it is a player character, else the GM.
func (b Bot) playerOf(st engine.State, id string, gm engine.Viewer) engine.Viewer {
	if c := st.Core().Combatant(id); b.Players && c != nil && c.PC {
		return engine.PlayerViewer(c.ID)
	}
	return gm
}

// withEntropy gives a player's command the entropy a page sends.
func (b Bot) withEntropy(pick *rand.Rand, c engine.Command, who engine.Viewer) engine.Command {
	if !who.GM {
		c.Entropy = hexOf(pick, 16)
	}
	return c
}

// hexOf is n random bytes in hexadecimal.
func hexOf(pick *rand.Rand, n int) string {
	const digits = "0123456789abcdef"
	out := make([]byte, 2*n)
	for i := range out {
		out[i] = digits[pick.IntN(16)]
	}
	return string(out)
}

// AssertProvable checks a finished fight's log as a third party would
// (package proof): every die recomputes from the seeds the log publishes,
// each matching its commitment, and every sealed answer revealed matches
// the commitment made to it.
func AssertProvable(t testing.TB, log []engine.Event) {
	t.Helper()
	bodies := make([]json.RawMessage, len(log))
	for i, ev := range log {
		raw, err := json.Marshal(ev)
		if err != nil {
			t.Fatal(err)
		}
		bodies[i] = raw
	}
	rep, f := proof.CheckDice(bodies, true)
	if f != nil {
		t.Fatalf("the dice do not check: %v", f)
	}
	if rep.Pending > 0 || rep.Unprovable > 0 || rep.Epochs == 0 || rep.Published != rep.Epochs {
		t.Fatalf("dice left unchecked: %+v", rep)
	}
	if _, f := proof.CheckSealed(bodies); f != nil {
		t.Fatalf("the sealed answers do not check: %v", f)
	}
}

// encodeViews checks that the GM's view, and every combatant's player's,
// encodes.
func encodeViews(t testing.TB, rs engine.Ruleset, st engine.State) {
	t.Helper()
	viewers := []engine.Viewer{engine.GMViewer()}
	for _, c := range st.Core().Combatants {
		viewers = append(viewers, engine.PlayerViewer(c.ID))
	}
	for _, v := range viewers {
		if _, err := json.Marshal(engine.Project(rs, st, v)); err != nil {
			t.Fatalf("the view for %+v does not encode: %v", v, err)
		}
	}
}

// Values fills fields with values among those offered, at random: one of
// a select's options (its default when it offers none), a number in range,
// a checkbox either way, and for a free-text field one of texts (its
// default when there are none).
func Values(rng *rand.Rand, fields []engine.Field, texts ...string) map[string]any {
	out := map[string]any{}
	for _, f := range fields {
		switch f.Type {
		case engine.FieldSelect:
			out[f.Name] = f.Default
			if len(f.Options) > 0 {
				out[f.Name] = f.Options[rng.IntN(len(f.Options))].Value
			}
		case engine.FieldNumber:
			out[f.Name] = f.Min
			if f.Max >= f.Min {
				out[f.Name] = f.Min + rng.IntN(f.Max-f.Min+1)
			}
		case engine.FieldCheckbox:
			out[f.Name] = rng.IntN(2) == 0
		default:
			switch len(texts) {
			case 0:
				out[f.Name] = f.Default
			case 1:
				out[f.Name] = texts[0]
			default:
				out[f.Name] = texts[rng.IntN(len(texts))]
			}
		}
	}
	return out
}

// Weighted picks an index at random, each with a chance in proportion to
// its weight; -1 when no weight is above 0.
func Weighted(rng *rand.Rand, weights []int) int {
	total := 0
	for _, w := range weights {
		total += max(w, 0)
	}
	if total == 0 {
		return -1
	}
	n := rng.IntN(total)
	for i, w := range weights {
		if n -= max(w, 0); n < 0 {
			return i
		}
	}
	return len(weights) - 1
}

// PickAction picks one of actions at random by the weight of its kind
// (kinds not in weights weigh nothing); -1 when none weighs anything.
func PickAction(rng *rand.Rand, actions []engine.Action, weights map[string]int) int {
	ws := make([]int, len(actions))
	for i, a := range actions {
		ws[i] = weights[a.Kind]
	}
	return Weighted(rng, ws)
}

// Examples loads the example encounters whose file names start with
// prefix (e.g. "d6-bands-"), by file name; decode reads one (nil: plain
// JSON). A ruleset with fewer than three examples fails the test.
func Examples(t testing.TB, prefix string, decode func([]byte) (engine.Setup, error)) map[string]engine.Setup {
	t.Helper()
	names, err := fs.Glob(examples.Encounters, "encounters/"+prefix+"*.json")
	if err != nil || len(names) < 3 {
		t.Fatalf("want at least 3 %s examples, got %v (%v)", strings.TrimSuffix(prefix, "-"), names, err)
	}
	if decode == nil {
		decode = func(raw []byte) (engine.Setup, error) {
			var s engine.Setup
			return s, json.Unmarshal(raw, &s)
		}
	}
	out := map[string]engine.Setup{}
	for _, name := range names {
		raw, err := fs.ReadFile(examples.Encounters, name)
		if err != nil {
			t.Fatal(err)
		}
		s, err := decode(raw)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		out[name] = s
	}
	return out
}
