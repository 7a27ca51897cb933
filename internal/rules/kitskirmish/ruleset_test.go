package kitskirmish

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/fray-vtt/fray/internal/engine"
	"github.com/fray-vtt/fray/internal/engine/enginetest"
	"github.com/fray-vtt/fray/internal/fray"
	"github.com/fray-vtt/fray/internal/sheet"
)

func TestMain(m *testing.M) { enginetest.Main(m) }

var scenario = enginetest.Kit[*State]{Rules: New()}

func example(t *testing.T) *State {
	t.Helper()
	setup, err := engine.DecodeSetup(Example)
	if err != nil {
		t.Fatal(err)
	}
	_, st := scenario.Do(t, scenario.New(t, setup), engine.GMViewer(), engine.NewCommand(engine.KindStart, "", nil))
	return st
}

// TestPlays: a bot plays the example to its end through every action it is
// offered; the log replays to the same state.
func TestPlays(t *testing.T) {
	setup, err := engine.DecodeSetup(Example)
	if err != nil {
		t.Fatal(err)
	}
	for seed := range uint64(5) {
		p := enginetest.Bot{Default: 1, Weights: map[string]int{CmdHeal: 0, CmdStrike: 3}, ViewsEachStep: true}.Play(t, New(), setup, seed)
		if p.Done[CmdStrike] == 0 || p.Done["event:"+KindStruck] == 0 {
			t.Errorf("seed %d: %v", seed, p.Done)
		}
	}
}

// TestStrikeAndParry: a hit asks the one struck whether to parry — its
// player, or the GM for one the GM keeps hidden.
func TestStrikeAndParry(t *testing.T) {
	st := example(t)
	ana := engine.PlayerViewer("ana")
	scenario.Fail(t, st, ana, engine.NewCommand(CmdStrike, "ana", map[string]any{"target": "sneak"}), fray.ENOTFOUND)
	scenario.Fail(t, st, ana, engine.NewCommand(CmdStrike, "ana", map[string]any{"target": "bo"}), fray.EILLEGAL)
	events, st2 := scenario.Do(t, st, engine.GMViewer(), engine.NewCommand(CmdStrike, "ana", map[string]any{"target": "sneak"}), 4)
	d := st2.Pending[0]
	enginetest.AssertGMAnswers(t, New(), st2, events, d, ana, engine.PlayerViewer("bo"))
	_, st2 = scenario.Answer(t, st2, engine.GMViewer(), d, "take", nil)
	if st2.Fighters["sneak"].HP != 1 {
		t.Fatalf("sneak has %d hit points", st2.Fighters["sneak"].HP)
	}
	// Bo, a player character in sight, answers for himself.
	_, st = scenario.Do(t, st, ana, engine.NewCommand(CmdEndTurn, "ana", nil))
	_, st = scenario.Do(t, st, engine.PlayerViewer("bo"), engine.NewCommand(CmdEndTurn, "bo", nil))
	_, st = scenario.Do(t, st, engine.GMViewer(), engine.NewCommand(CmdStrike, "gob", map[string]any{"target": "bo"}), 6)
	d = st.Pending[0]
	if st.Answerer(d) != "bo" {
		t.Fatalf("asked of %s", st.Answerer(d))
	}
	_, st = scenario.Answer(t, st, engine.PlayerViewer("bo"), d, "parry", nil, 5)
	if st.Fighters["bo"].HP != 2 {
		t.Fatalf("bo parried, yet has %d hit points", st.Fighters["bo"].HP)
	}
}

// TestOneFieldOnly: a setup that draws zones or squares, or starts a
// fighter somewhere, is refused with the reason — the field is the whole
// battlefield, and nothing drawn would be kept — while an empty
// battlefield, as a draft writes one, is not.
func TestOneFieldOnly(t *testing.T) {
	for _, c := range []struct {
		battlefield, start, want string
	}{
		{`{"zones":[{"id":"yard","name":"Yard"}]}`, ``, "one field: it takes no zones"},
		{`{"width":4,"height":4}`, ``, "one field: it takes no zones"},
		{``, `{"zone":"yard"}`, `combatant "ana": kit-skirmish is fought in one field: it takes no start`},
		{`{}`, ``, ""},
		{`{"model":"zones"}`, `null`, ""},
	} {
		setup, err := engine.DecodeSetup(Example)
		if err != nil {
			t.Fatal(err)
		}
		setup.Battlefield = json.RawMessage(c.battlefield)
		setup.Combatants[0].Start = json.RawMessage(c.start)
		_, err = engine.NewEncounter(New(), "e", setup)
		if c.want == "" && err != nil || c.want != "" && (fray.ErrorCode(err) != fray.EINVALID || !strings.Contains(fray.ErrorMessage(err), c.want)) {
			t.Errorf("battlefield %s, start %s: %v, want %q", c.battlefield, c.start, err, c.want)
		}
	}
}

// TestOneStrikeATurn: after a strike, hit or miss, a fighter is offered
// only the end of its turn and a second strike is refused by name; its
// next turn it strikes again.
func TestOneStrikeATurn(t *testing.T) {
	ana, gm := engine.PlayerViewer("ana"), engine.GMViewer()
	strike := engine.NewCommand(CmdStrike, "ana", map[string]any{"target": "gob"})
	for _, die := range []int{1, 6} {
		_, st := scenario.Do(t, example(t), ana, strike, die)
		if st.Waiting() {
			_, st = scenario.Answer(t, st, gm, st.Pending[0], "take", nil)
		}
		var kinds []string
		for _, a := range New().Actions(st, ana) {
			kinds = append(kinds, a.Kind)
		}
		if len(kinds) != 1 || kinds[0] != CmdEndTurn {
			t.Errorf("after a strike rolling %d, Ana is offered %v", die, kinds)
		}
		if msg := scenario.Fail(t, st, ana, strike, fray.EILLEGAL); !strings.Contains(msg, "Ana has struck this turn") {
			t.Errorf("a second strike: %q", msg)
		}
		for _, id := range []string{"ana", "bo", "gob", "sneak"} {
			_, st = scenario.Do(t, st, gm, engine.NewCommand(CmdEndTurn, id, nil))
		}
		if st.Round != 2 || st.Current() != "ana" || st.Fighters["ana"].Struck {
			t.Fatalf("round %d, %s acts, Ana has struck: %v", st.Round, st.Current(), st.Fighters["ana"].Struck)
		}
		scenario.Do(t, st, ana, strike, die)
	}
}

// TestHealAsFarAsTheStart: the GM heals a wounded fighter a hit point, is
// offered only the wounded, and is refused one at full hit points by
// name, with nothing changed.
func TestHealAsFarAsTheStart(t *testing.T) {
	st := example(t)
	gm := engine.GMViewer()
	heal := func(id string) engine.Command { return engine.NewCommand(CmdHeal, "", map[string]any{"combatant": id}) }
	offered := func(st *State) []string {
		var ids []string
		for _, a := range New().Actions(st, gm) {
			if a.Kind == CmdHeal {
				for _, c := range a.Fields[0].Options {
					ids = append(ids, c.Value)
				}
			}
		}
		return ids
	}
	if got := offered(st); len(got) != 0 {
		t.Fatalf("no one is wounded, yet Heal offers %v", got)
	}
	if msg := scenario.Fail(t, st, gm, heal("ana"), fray.EILLEGAL); !strings.Contains(msg, "Ana is not wounded") {
		t.Errorf("healing the unhurt: %q", msg)
	}
	st.Fighters["ana"].HP = 1
	if got := offered(st); len(got) != 1 || got[0] != "ana" {
		t.Fatalf("Ana is wounded; Heal offers %v", got)
	}
	_, st = scenario.Do(t, st, gm, heal("ana"))
	if hp := st.Fighters["ana"].HP; hp != 2 {
		t.Fatalf("healed to %d hit points, want 2", hp)
	}
	scenario.Fail(t, st, gm, heal("ana"), fray.EILLEGAL)
}

// TestOneSetOfMessages: the kit resolves actors, targets and the
// combatants a GM command names the same way in every ruleset — the same
// codes and words for no target, an unseen or unknown one, oneself, an
// ally, and one out of the fight.
func TestOneSetOfMessages(t *testing.T) {
	st := example(t)
	ana, gm := engine.PlayerViewer("ana"), engine.GMViewer()
	strike := func(target string) engine.Command {
		return engine.NewCommand(CmdStrike, "ana", map[string]any{"target": target})
	}
	heal := func(id string) engine.Command { return engine.NewCommand(CmdHeal, "", map[string]any{"combatant": id}) }
	for _, c := range []struct {
		v          engine.Viewer
		cmd        engine.Command
		code, text string
	}{
		{ana, strike(""), fray.EINVALID, "choose a target"},
		{ana, strike("sneak"), fray.ENOTFOUND, `no combatant "sneak"`},
		{ana, strike("nobody"), fray.ENOTFOUND, `no combatant "nobody"`},
		{ana, strike("ana"), fray.EILLEGAL, "choose someone else"},
		{ana, strike("bo"), fray.EILLEGAL, "Bo is on your side"},
		{engine.PlayerViewer("bo"), engine.NewCommand(CmdStrike, "bo", map[string]any{"target": "gob"}), fray.ENOTYOURTURN, "not Bo's turn"},
		{gm, heal("nobody"), fray.ENOTFOUND, `no combatant "nobody" in the fight`},
		{gm, heal(""), fray.ENOTFOUND, `no combatant "" in the fight`},
	} {
		if msg := scenario.Fail(t, st, c.v, c.cmd, c.code); !strings.Contains(msg, c.text) {
			t.Errorf("%s %s: %q, want %q", c.cmd.Kind, c.cmd.Args, msg, c.text)
		}
	}
	// One out of the fight is no target, and no longer named by the GM:
	// each is told so by name.
	st.Combatants[2].Out = true
	if msg := scenario.Fail(t, st, ana, strike("gob"), fray.EILLEGAL); !strings.Contains(msg, "Gob is out of the fight") {
		t.Errorf("strike the fallen: %q", msg)
	}
	if msg := scenario.Fail(t, st, gm, heal("gob"), fray.EILLEGAL); !strings.Contains(msg, "Gob is out of the fight") {
		t.Errorf("heal the fallen: %q, want the reason by name", msg)
	}
}

// TestAParryCostsTheNextStrike: a fighter who tries to parry — held (5)
// or not (1) — has no strike on its next turn: none is offered, one is
// refused by name, its sheet says why; the turn after, it strikes again.
// One who takes the blow keeps its strike.
func TestAParryCostsTheNextStrike(t *testing.T) {
	gm, bo := engine.GMViewer(), engine.PlayerViewer("bo")
	strike := engine.NewCommand(CmdStrike, "bo", map[string]any{"target": "gob"})
	offered := func(st *State) bool {
		for _, a := range New().Actions(st, bo) {
			if a.Kind == CmdStrike {
				return true
			}
		}
		return false
	}
	endTurns := func(st *State, ids ...string) *State {
		for _, id := range ids {
			_, st = scenario.Do(t, st, gm, engine.NewCommand(CmdEndTurn, id, nil))
		}
		return st
	}
	for _, c := range []struct {
		answer string
		dice   []int
		winded bool
		hp     int
	}{
		{"parry", []int{5}, true, 2},
		{"parry", []int{1}, true, 1},
		{"take", nil, false, 1},
	} {
		st := endTurns(example(t), "ana", "bo")
		events, st := scenario.Do(t, st, gm, engine.NewCommand(CmdStrike, "gob", map[string]any{"target": "bo"}), 6)
		events2, st := scenario.Answer(t, st, bo, st.Pending[0], c.answer, nil, c.dice...)
		events = append(events, events2...)
		if got := len(enginetest.Find(events, KindGuarded)) > 0; got != c.winded || st.Fighters["bo"].HP != c.hp {
			t.Errorf("%s %v: guarded event %v, %d hit points; want %v, %d", c.answer, c.dice, got, st.Fighters["bo"].HP, c.winded, c.hp)
		}
		st = endTurns(st, "gob", "sneak", "ana")
		if st.Current() != "bo" || offered(st) == c.winded {
			t.Fatalf("%s %v: %s's turn, Bo is offered Strike: %v", c.answer, c.dice, st.Current(), offered(st))
		}
		if c.winded {
			if msg := scenario.Fail(t, st, bo, strike, fray.EILLEGAL); !strings.Contains(msg, "Bo parried since the last turn and has no strike this turn") {
				t.Errorf("a strike after a parry: %q", msg)
			}
			if sheet := sheetOf(t, st, bo, "bo"); !strings.Contains(sheet, "none this turn: parried") {
				t.Errorf("Bo's sheet after a parry: %s", sheet)
			}
			st = endTurns(st, "bo", "gob", "sneak", "ana")
			if !offered(st) {
				t.Fatalf("%s %v: the turn after, Bo is not offered Strike", c.answer, c.dice)
			}
		}
		scenario.Do(t, st, bo, strike, 1)
	}
}

// sheetOf is id's sheet as v sees it, its stats written out.
func sheetOf(t *testing.T, st *State, v engine.Viewer, id string) string {
	t.Helper()
	for _, tok := range project(st, v).Tokens {
		if tok.ID == id {
			return fmt.Sprint(tok.Sheet)
		}
	}
	t.Fatalf("no token %s", id)
	return ""
}

// TestFighterStats: a fighter's stats may give it its own hit points —
// it starts with them, its meter counts to them, a heal stops at them —
// and stats that are not a fighter's are refused with the reason, as the
// stat editor's Derive refuses them.
func TestFighterStats(t *testing.T) {
	setup, err := engine.DecodeSetup(Example)
	if err != nil {
		t.Fatal(err)
	}
	setup.Combatants[2].Stats = json.RawMessage(`{"hp":4}`)
	setup.Combatants[3].Stats = json.RawMessage(`{}`)
	gm := engine.GMViewer()
	_, st := scenario.Do(t, scenario.New(t, setup), gm, engine.NewCommand(engine.KindStart, "", nil))
	if gob, sneak := st.Fighters["gob"].HP, st.Fighters["sneak"].HP; gob != 4 || sneak != 2 {
		t.Fatalf("Gob starts with %d hit points, Sneak %d; want 4 and 2", gob, sneak)
	}
	for _, tok := range project(st, gm).Tokens {
		if tok.ID == "gob" && tok.Health.Text != "4 of 4 hit points" {
			t.Errorf("Gob's meter: %q", tok.Health.Text)
		}
	}
	st.Fighters["gob"].HP = 2
	heal := engine.NewCommand(CmdHeal, "", map[string]any{"combatant": "gob"})
	_, st = scenario.Do(t, st, gm, heal)
	_, st = scenario.Do(t, st, gm, heal)
	if msg := scenario.Fail(t, st, gm, heal, fray.EILLEGAL); st.Fighters["gob"].HP != 4 || !strings.Contains(msg, "Gob is not wounded") {
		t.Errorf("healed to %d, then %q; want 4 and not wounded", st.Fighters["gob"].HP, msg)
	}
	for _, c := range []struct{ stats, want string }{
		{`{"hp":0}`, "hit points are 1 to 10, not 0"},
		{`{"hp":11}`, "hit points are 1 to 10, not 11"},
		{`{"hp":"x"}`, "stats:"},
		{`{"strength":3}`, "strength"},
	} {
		setup.Combatants[2].Stats = json.RawMessage(c.stats)
		_, err := engine.NewEncounter(New(), "e", setup)
		_, derr := New().(sheet.Deriver).Derive(json.RawMessage(c.stats))
		for _, e := range []error{err, derr} {
			if fray.ErrorCode(e) != fray.EINVALID || !strings.Contains(fray.ErrorMessage(e), c.want) {
				t.Errorf("stats %s: %v, want %q", c.stats, e, c.want)
			}
		}
	}
}
