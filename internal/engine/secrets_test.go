package engine_test

import (
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/fray-vtt/fray/internal/dice"
	"github.com/fray-vtt/fray/internal/engine"
	"github.com/fray-vtt/fray/internal/engine/enginetest"
)

// teller is the toy with commands that make the events the filter for
// secrets must judge: "say" (a ruleset event with a text, data, rolls and
// involved combatants of the sender's choosing), "ask-about" (a GM question
// whose GM-only data names a combatant) and "offer" (a question to the
// hero naming one); its actions offer the hero a target list that names
// everyone, the hidden included.
type teller struct{ enginetest.Toy }

func (r teller) Commands() []engine.CommandSpec {
	return append(r.Toy.Commands(), engine.CommandSpec{Kind: "say", GM: true}, engine.CommandSpec{Kind: "ask-about", GM: true},
		engine.CommandSpec{Kind: "offer", GM: true})
}

type said struct {
	Text  string          `json:"text"`
	Data  json.RawMessage `json:"data"`
	With  []string        `json:"with"`
	Roll  string          `json:"roll"`  // a roll's owner
	Round bool            `json:"round"` // a new round instead, with Text
}

func (r teller) Decide(tx *engine.Tx, cmd engine.Command) error {
	switch cmd.Kind {
	case "say":
		var s said
		if err := cmd.Decode(&s); err != nil {
			return err
		}
		if s.Round {
			return tx.StartRound(tx.Base().Round+1, tx.Base().Order, s.Text)
		}
		ev := engine.Event{Kind: "said", Text: s.Text, Data: s.Data}
		if s.Roll != "" {
			ev.Rolls = []dice.Roll{{Label: "Luck", Who: s.Roll, Dice: []dice.Die{tx.Dice.Die(6)}}}
			ev.Rolls[0].Total = ev.Rolls[0].Dice[0].Total()
		}
		return tx.Emit(ev.With(s.With...))
	case "ask-about":
		return tx.AskWith(engine.Decision{For: engine.GM, Kind: "spot", Prompt: "Does the hero spot the lurker with its Umbrafel cloak?",
			Options: []engine.Choice{{Value: "yes", Label: "Yes"}, {Value: "no", Label: "No"}}}, map[string]string{"lurker": "spy"})
	case "offer":
		return tx.Ask(engine.Decision{For: "hero", Kind: "dodge", Prompt: "Spy throws a knife at you. Dodge towards whom?",
			Options: []engine.Choice{{Value: "orc", Label: "Orc"}, {Value: "spy", Label: "Spy"}}})
	}
	return r.Toy.Decide(tx, cmd)
}

func (r teller) Actions(st engine.State, v engine.Viewer) []engine.Action {
	out := r.Toy.Actions(st, v)
	if v.CanCommand("hero") {
		out = append(out, engine.Action{Kind: "say", Actor: "hero", Label: "Shout at Spy", Help: "Spy hears it.",
			Fields: []engine.Field{{Name: "to", Label: "To", Type: engine.FieldSelect, Target: true,
				Options: []engine.Choice{{Value: "orc", Label: "Orc"}, {Value: "spy", Label: "Spy"}}}}})
	}
	return out
}

// tellTable plays the teller through DecideWith with an in-memory history.
type tellTable struct {
	t       *testing.T
	rs      teller
	initial []byte
	st      engine.State
	log     []engine.Event
}

func newTellTable(t *testing.T, setup engine.Setup) *tellTable {
	st, err := engine.NewEncounter(teller{}, "e1", setup)
	if err != nil {
		t.Fatal(err)
	}
	tb := &tellTable{t: t, initial: []byte(snap(t, st)), st: st}
	tb.do(engine.NewCommand(engine.KindStart, "", nil))
	return tb
}

func (tb *tellTable) Events(after, upto int64) ([]engine.Event, error) {
	var out []engine.Event
	for _, ev := range tb.log {
		if ev.Seq > after && ev.Seq <= upto {
			out = append(out, ev)
		}
	}
	return out, nil
}

func (tb *tellTable) StateAt(seq int64) (engine.State, error) {
	st, err := tb.rs.Decode(tb.initial)
	if err != nil {
		return nil, err
	}
	evs, _ := tb.Events(0, seq)
	return st, engine.Replay(tb.rs, st, evs)
}

// do decides cmd as the GM and returns its events.
func (tb *tellTable) do(cmd engine.Command) []engine.Event {
	tb.t.Helper()
	events, next, err := engine.DecideWith(tb.rs, tb.st, engine.GMViewer(), fmt.Sprint("c", len(tb.log)), cmd, dice.NewRoller(dice.NewFixed(3, 3, 3)), tb)
	if err != nil {
		tb.t.Fatalf("%s: %v", cmd.Kind, err)
	}
	tb.st, tb.log = next, append(tb.log, events...)
	return events
}

func (tb *tellTable) say(s said) engine.Event {
	tb.t.Helper()
	raw, _ := json.Marshal(s)
	var args map[string]any
	_ = json.Unmarshal(raw, &args)
	evs := tb.do(engine.NewCommand("say", "", args))
	return evs[len(evs)-1]
}

// seen is what the hero's player sees of ev, judged against the table's
// state now.
func (tb *tellTable) seen(ev engine.Event) (engine.Event, bool, bool) {
	return engine.NewSight(tb.st, engine.PlayerViewer("hero")).See(ev)
}

var hero = engine.PlayerViewer("hero")

// TestSecretsFilterWithholdsWhatNamesSomeoneUnseen: a ruleset's event that
// names the hidden spy anywhere — text, data (as a value or a token inside
// a string), a roll, an involved id — never reaches a player, whatever
// the ruleset meant; one that does not is seen whole. The GM and the
// spy's own player see everything.
func TestSecretsFilterWithholdsWhatNamesSomeoneUnseen(t *testing.T) {
	setup := enginetest.Setup()
	setup.Combatants = append(setup.Combatants, engine.CombatantSetup{Combatant: engine.Combatant{ID: "hunter", Name: "Spy Hunter", Side: "a"}})
	tb := newTellTable(t, setup)
	for _, c := range []struct {
		name  string
		say   said
		shown bool
	}{
		{"a text naming the spy", said{Text: "Spy draws a knife."}, false},
		{"a possessive", said{Text: "The orc covers Spy's retreat."}, false},
		{"a name inside a word", said{Text: "The orc finds a Spyglass."}, true},
		{"a seen name containing the spy's", said{Text: "Spy Hunter sharpens a stake."}, true},
		{"both", said{Text: "Spy Hunter sees Spy."}, false},
		{"its id as a value", said{Text: "A shot.", Data: json.RawMessage(`{"target":"spy","damage":2}`)}, false},
		{"its id in a list", said{Text: "Order.", Data: json.RawMessage(`{"order":"hero,spy,orc"}`)}, false},
		{"its id in a key", said{Text: "Tie.", Data: json.RawMessage(`{"k":"tiebreak:spy"}`)}, false},
		{"an id merely starting with it", said{Text: "A trap.", Data: json.RawMessage(`{"k":"spy-trap"}`)}, true},
		{"its roll", said{Text: "Luck.", Roll: "spy"}, false},
		{"another's roll", said{Text: "Luck.", Roll: "orc"}, true},
		{"involving it", said{Text: "Something stirs.", With: []string{"spy"}}, false},
	} {
		ev := tb.say(c.say)
		seen, ok, whole := tb.seen(ev)
		if ok != c.shown || ok && (!whole || !slices.Equal(mustMarshal(t, seen), mustMarshal(t, ev))) {
			t.Errorf("%s: shown %v (whole %v) as %s, want shown %v, whole", c.name, ok, whole, mustMarshal(t, seen), c.shown)
		}
		for _, v := range []engine.Viewer{engine.GMViewer(), engine.PlayerViewer("hero", "spy")} {
			if seen, ok, whole := engine.NewSight(tb.st, v).See(ev); !ok || !whole || seen.Text != ev.Text {
				t.Errorf("%s: %v does not see it whole", c.name, v.Controls)
			}
		}
	}
}

// TestSecretsFilterRewritesTheEnginesEvents: the engine's own events lose
// the hidden combatant (orders, answers) and, when their words are about
// it, take the engine's neutral text; an answer to a question about it
// says nothing of it either.
func TestSecretsFilterRewritesTheEnginesEvents(t *testing.T) {
	tb := newTellTable(t, enginetest.Setup())
	round := tb.log[1]
	seen, ok, whole := tb.seen(round)
	if round.Kind != engine.KindRoundStarted || !ok || whole || strings.Contains(string(seen.Data), "spy") || seen.Text != round.Text {
		t.Fatalf("round order %s %q shown as %s %q (ok %v, whole %v)", round.Data, round.Text, seen.Data, seen.Text, ok, whole)
	}
	named := tb.say(said{Round: true, Text: "Round 2: Spy strikes first."})
	if seen, ok, _ := tb.seen(named); !ok || seen.Text != "Round 2 begins." || strings.Contains(string(seen.Data), "spy") {
		t.Fatalf("a round text naming the spy shown as %q %s", seen.Text, seen.Data)
	}

	// A GM's question whose GM-only data names the spy: its prompt, which
	// names its cloak, is not shown; nor is the answer, which names no one.
	opened := tb.do(engine.NewCommand("ask-about", "", nil))[0]
	seen, ok, _ = tb.seen(opened)
	if !ok || seen.Text != "Waiting for the GM." || strings.Contains(string(seen.Data), "Umbrafel") || strings.Contains(string(seen.Data), "spy") {
		t.Fatalf("the question about the spy shown as %q %s", seen.Text, seen.Data)
	}
	var d engine.DecisionOpened
	_ = opened.Decode(&d)
	answered := tb.do(engine.NewCommand(engine.KindAnswer, "", map[string]any{"decision": d.Decision.ID, "choice": "yes"}))[0]
	if !slices.Contains(answered.Involves, "spy") {
		t.Fatalf("the answer does not involve whom the question was about: %+v", answered)
	}
	if seen, ok, _ := tb.seen(answered); !ok || strings.Contains(seen.Text, "Umbrafel") || slices.Contains(seen.Involves, "spy") {
		t.Fatalf("the answer about the spy shown as %q %v", seen.Text, seen.Involves)
	}
	if seen, _, _ := engine.NewSight(tb.st, engine.GMViewer()).See(answered); !strings.Contains(seen.Text, "Umbrafel") {
		t.Fatalf("the GM's answer is %q", seen.Text)
	}
}

// TestSecretsFilterVeilsTheView: a question put to the player and the
// actions they are offered lose the options naming the hidden spy, and
// read "someone unseen" for its name.
func TestSecretsFilterVeilsTheView(t *testing.T) {
	tb := newTellTable(t, enginetest.Setup())
	tb.do(engine.NewCommand("offer", "", nil))
	v := engine.Project(tb.rs, tb.st, hero)
	if len(v.Pending) != 1 {
		t.Fatalf("pending %+v", v.Pending)
	}
	if p := v.Pending[0]; p.Prompt != "Someone unseen throws a knife at you. Dodge towards whom?" || len(p.Options) != 1 || p.Options[0].Value != "orc" {
		t.Fatalf("the question reads %q with %+v", p.Prompt, p.Options)
	}
	if raw := mustMarshal(t, v); strings.Contains(string(raw), "spy") || strings.Contains(string(raw), "Spy") {
		t.Fatalf("the view names the spy: %s", raw)
	}
	gm := engine.Project(tb.rs, tb.st, engine.GMViewer())
	if len(gm.Pending) != 1 || len(gm.Pending[0].Options) != 2 {
		t.Fatalf("the GM's view lost the spy: %+v", gm.Pending)
	}
	tb.do(engine.NewCommand(engine.KindAnswer, "", map[string]any{"decision": v.Pending[0].ID, "choice": "orc"}))
	v = engine.Project(tb.rs, tb.st, hero)
	i := slices.IndexFunc(v.Actions, func(a engine.Action) bool { return a.Kind == "say" })
	if i < 0 {
		t.Fatalf("actions %+v", v.Actions)
	}
	if a := v.Actions[i]; a.Label != "Shout at someone unseen" || a.Help != "Someone unseen hears it." || len(a.Fields[0].Options) != 1 {
		t.Fatalf("the action reads %q %q %+v", a.Label, a.Help, a.Fields)
	}
}

// TestHistoryShowsWhatWasSeenThen: every event is judged by who was hidden
// right after it — before the spy is revealed, its hit is withheld and the
// round order leaves it out; the reveal and what follows show it — and
// stays so however late it is read: with the state at its seq, or after
// the reveal, or after a rewind to before the reveal has hidden the spy
// again (what came between is shown as it was, what comes after hidden
// again).
func TestHistoryShowsWhatWasSeenThen(t *testing.T) {
	tb := newTellTable(t, enginetest.Setup())
	before := tb.say(said{Text: "Spy moves.", Data: json.RawMessage(`{"who":"spy"}`)})
	stateBefore := tb.st
	reveal := tb.do(engine.NewCommand(engine.KindReveal, "", map[string]any{"combatant": "spy"}))[0]
	after := tb.say(said{Text: "Spy moves again.", Data: json.RawMessage(`{"who":"spy"}`)})
	if h := tb.st.Core().Hiding; len(h) != 1 || h[0].Seq != reveal.Seq || !slices.Equal(h[0].Hidden, []string{"spy"}) {
		t.Fatalf("hiding %+v", h)
	}
	judge := func(when string, st engine.State, want map[int64]bool) {
		t.Helper()
		shown := map[int64]bool{}
		for _, ev := range engine.FilterEvents(st, hero, tb.log[:st.Core().Seq]) {
			shown[ev.Seq] = true
			if ev.Seq < reveal.Seq && strings.Contains(string(mustMarshal(t, ev)), "spy") {
				t.Errorf("%s: event %d names the spy: %s", when, ev.Seq, mustMarshal(t, ev))
			}
		}
		for seq, w := range want {
			if shown[seq] != w {
				t.Errorf("%s: event %d shown %v, want %v", when, seq, shown[seq], w)
			}
		}
	}
	judge("before the reveal", stateBefore, map[int64]bool{before.Seq: false})
	judge("after the reveal", tb.st, map[int64]bool{before.Seq: false, reveal.Seq: true, after.Seq: true})

	tb.do(rewind(2)) // the reveal and what followed are undone: the spy is hidden again
	again := tb.say(said{Text: "Spy moves once more.", Data: json.RawMessage(`{"who":"spy"}`)})
	if !tb.st.Core().Combatant("spy").Hidden || len(tb.st.Core().Hiding) != 2 {
		t.Fatalf("after the rewind: hidden %v, hiding %+v", tb.st.Core().Combatant("spy").Hidden, tb.st.Core().Hiding)
	}
	judge("after the rewind", tb.st, map[int64]bool{before.Seq: false, reveal.Seq: true, after.Seq: true, again.Seq: false})
	replayed, err := tb.StateAt(tb.st.Core().Seq)
	if err != nil {
		t.Fatal(err)
	}
	if snap(t, replayed) != snap(t, tb.st) {
		t.Fatalf("replay gives another record of who was hidden:\n%s\n%s", snap(t, replayed), snap(t, tb.st))
	}
}

func mustMarshal(t *testing.T, v any) []byte {
	t.Helper()
	raw, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return raw
}
