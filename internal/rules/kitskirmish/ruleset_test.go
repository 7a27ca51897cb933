package kitskirmish

import (
	"strings"
	"testing"

	"github.com/fray-vtt/fray/internal/engine"
	"github.com/fray-vtt/fray/internal/engine/enginetest"
	"github.com/fray-vtt/fray/internal/fray"
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
