package kitskirmish

import (
	"strings"
	"testing"

	"github.com/fray-vtt/fray/internal/engine"
	"github.com/fray-vtt/fray/internal/fray"
)

// TestStandingOrders: the ruleset's declaration is what orders are
// checked against, and an order's answer follows its condition on the
// state (the blow that would take Bo out: two hit points, then one), with
// the dice the rules roll.
func TestStandingOrders(t *testing.T) {
	rs := New()
	good := engine.StandingOrders{DecParry: {When: "last", Then: "parry", Else: "take"}}
	if err := engine.CheckOrders(rs, good); err != nil {
		t.Fatal(err)
	}
	for name, bad := range map[string]engine.StandingOrders{
		"an unknown prompt":          {"dodge": {When: engine.Always, Then: "parry"}},
		"an unknown condition":       {DecParry: {When: "hurt", Then: "parry"}},
		"an answer not declared":     {DecParry: {When: engine.Always, Then: "flee"}},
		"an otherwise to always":     {DecParry: {When: engine.Always, Then: "parry", Else: "take"}},
		"an otherwise not an answer": {DecParry: {When: "last", Then: "parry", Else: "flee"}},
	} {
		if err := engine.CheckOrders(rs, bad); fray.ErrorCode(err) != fray.EINVALID {
			t.Errorf("%s: %v", name, err)
		}
	}
	st := example(t)
	_, st = scenario.Do(t, st, engine.PlayerViewer("ana"), engine.NewCommand(CmdEndTurn, "ana", nil))
	_, st = scenario.Do(t, st, engine.PlayerViewer("bo"), engine.NewCommand(CmdEndTurn, "bo", nil))
	for _, tc := range []struct {
		hp   int
		want string
	}{{2, "take"}, {1, "parry"}} {
		st.Fighters["bo"].HP = tc.hp
		_, struck := scenario.Do(t, st, engine.GMViewer(), engine.NewCommand(CmdStrike, "gob", map[string]any{"target": "bo"}), 6)
		d := struck.Pending[0]
		if got, ok := engine.StandingAnswer(rs, struck, d, good[DecParry]); !ok || got != tc.want {
			t.Errorf("Bo at %d hit points: the order answers %q (%v), want %q", tc.hp, got, ok, tc.want)
		}
		if _, ok := engine.StandingAnswer(rs, struck, d, engine.StandingOrder{When: "last", Then: "parry"}); ok == (tc.hp == 2) {
			t.Errorf("Bo at %d hit points: an order without otherwise answers %v", tc.hp, ok)
		}
	}
}

// TestAnswersSayOnWhoseBehalf: the log says who answered a player's
// decision when the player did not — the player's standing order, a
// timer's fallback, or the GM deciding deliberately — and a timer passes
// a turn only as itself: no one else may send pass-turn.
func TestAnswersSayOnWhoseBehalf(t *testing.T) {
	st := example(t)
	_, st = scenario.Do(t, st, engine.PlayerViewer("ana"), engine.NewCommand(CmdEndTurn, "ana", nil))
	_, st = scenario.Do(t, st, engine.PlayerViewer("bo"), engine.NewCommand(CmdEndTurn, "bo", nil))
	_, struck := scenario.Do(t, st, engine.GMViewer(), engine.NewCommand(CmdStrike, "gob", map[string]any{"target": "bo"}), 6)
	d := struck.Pending[0]
	players := map[string]string{"ana": "Sam", "bo": "Kim"}
	for _, tc := range []struct {
		name      string
		v         engine.Viewer
		override  bool
		text, via string
	}{
		{"Kim", engine.PlayerViewer("bo"), false, "Bo is struck: parry?: Take the blow", ""},
		{"Kim's standing order", engine.Viewer{Controls: []string{"bo"}, Name: "Kim", Agent: engine.AgentStanding}, false,
			"Bo is struck: parry?: Take the blow (by Kim's standing order)", engine.AgentStanding},
		{"a fallback", engine.Viewer{GM: true, Players: players, Agent: engine.AgentFallback}, true,
			"Time ran out for Kim: Bo is struck: parry?: Take the blow", engine.AgentFallback},
		{"the GM", engine.Viewer{GM: true, Players: players}, true, "The GM decided for Kim: Bo is struck: parry?: Take the blow", ""},
	} {
		args := map[string]any{"decision": d.ID, "choice": "take"}
		if tc.override {
			args["override"] = true
		}
		events, _ := scenario.Do(t, struck, tc.v, engine.NewCommand(engine.KindAnswer, "", args))
		var r engine.DecisionResolved
		if err := events[0].Decode(&r); err != nil || events[0].Text != tc.text || r.Via != tc.via {
			t.Errorf("%s: %q %+v (%v), want %q via %q", tc.name, events[0].Text, r, err, tc.text, tc.via)
		}
	}

	// Bo's turn, passed by the timer: labelled, then the ruleset's own end
	// of the turn; anyone else is told there is no such command.
	st = example(t)
	_, st = scenario.Do(t, st, engine.PlayerViewer("ana"), engine.NewCommand(CmdEndTurn, "ana", nil))
	pass := engine.NewCommand(engine.KindPassTurn, "bo", nil)
	for _, v := range []engine.Viewer{engine.GMViewer(), {GM: true, Players: players}, engine.PlayerViewer("bo"),
		{Controls: []string{"bo"}, Agent: engine.AgentFallback}, {Controls: []string{"bo"}, Agent: engine.AgentStanding}} {
		if msg := scenario.Fail(t, st, v, pass, fray.EINVALID); !strings.Contains(msg, "unknown command") {
			t.Errorf("%+v: %s", v, msg)
		}
	}
	timer := engine.Viewer{GM: true, Players: players, Agent: engine.AgentFallback}
	scenario.Fail(t, st, timer, engine.NewCommand(engine.KindPassTurn, "gob", nil), fray.ENOTYOURTURN)
	events, after := scenario.Do(t, st, timer, pass)
	if events[0].Kind != engine.KindTurnPassed || events[0].Text != "Time ran out for Kim: Bo's turn passes." ||
		events[1].Kind != KindTurnEnded || after.Current() != "gob" {
		t.Fatalf("passed: %v, then %s acts", events, after.Current())
	}
}
