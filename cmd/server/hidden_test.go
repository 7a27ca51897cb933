package main

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/fray-vtt/fray/internal/engine"
	"github.com/fray-vtt/fray/internal/rules"
)

// TestHiddenCombatantsAnswerLikeUnknownIDs sweeps every command a player
// may send — each core and ruleset command kind, each action the player is
// offered with every field filled, and answers to the hidden combatant's
// pending decisions — naming a hidden combatant (or its decision) and the
// same with an id that does not exist. The two answers must be the same
// (the id itself set aside), over the websocket and over HTTP: a player
// learns nothing of a combatant they may not see, not even that it exists.
// It runs on an example of each ruleset that has a hidden combatant, at the
// start and again once the player may act.
func TestHiddenCombatantsAnswerLikeUnknownIDs(t *testing.T) {
	for _, hx := range []hiddenExample{tombCorridor, oldBridge, rooftop, kesselFord, karvostiRoad} {
		t.Run(hx.example, func(t *testing.T) { sweepHidden(t, hx) })
	}
}

// probe is one command; X stands for the id under test.
type probe struct {
	name, command string
	hidden        string // what X is for the hidden combatant
	unknown       string // what X is for something that does not exist
}

func sweepHidden(t *testing.T, hx hiddenExample) {
	at := newAccessTableOf(t, false, hx)
	rs, err := rules.Registry().Get(hx.ruleset)
	if err != nil {
		t.Fatal(err)
	}
	ws := at.a.withUser(at.player).dial(at.id, "")
	ws.read()
	n := 0
	// answer sends one probe over the websocket and over HTTP and returns
	// both answers with the id set aside.
	answer := func(p probe, id string) string {
		t.Helper()
		n++
		body := strings.ReplaceAll(p.command, `"X"`, `"`+id+`"`)
		var cmd map[string]any
		if err := json.Unmarshal([]byte(body), &cmd); err != nil {
			t.Fatalf("%s: %v", p.name, err)
		}
		ws.send(fmt.Sprint("sweep-", n), cmd)
		m := ws.read()
		for m.Type == "events" {
			m = ws.read()
		}
		if m.Type != "error" {
			t.Fatalf("%s with %s was accepted: %+v", p.name, id, m)
		}
		var e struct{ Code, Message string }
		status := at.a.withUser(at.player).do("POST", "/api/encounters/"+at.id+"/commands",
			[]byte(fmt.Sprintf(`{"id":"http-%d","command":%s}`, n, body)), &e)
		out := fmt.Sprintf("ws %s: %s | http %d %s: %s", m.Code, m.Message, status, e.Code, e.Message)
		return strings.ReplaceAll(out, id, "<id>")
	}
	sweep := func(phase string, probes []probe) {
		t.Helper()
		before := at.seq()
		for _, p := range probes {
			hidden, missing := answer(p, p.hidden), answer(p, p.unknown)
			if hidden != missing {
				t.Errorf("%s, %s: the hidden combatant's id answers\n\t%s\nbut an unknown id answers\n\t%s", phase, p.name, hidden, missing)
			}
			if strings.Contains(hidden, at.hiddenTxt) {
				t.Errorf("%s, %s: the answer names the hidden combatant: %s", phase, p.name, hidden)
			}
			if testing.Verbose() {
				t.Logf("%s, %s: %s", phase, p.name, hidden)
			}
		}
		if at.seq() != before {
			t.Fatalf("%s: a probe changed the encounter", phase)
		}
		t.Logf("%s: %d probes, each over the websocket and HTTP", phase, len(probes))
	}

	// At the start: every kind, and answers to the hidden one's decisions.
	sweep("at the start", append(kindProbes(at, rs), decisionProbes(t, at)...))

	// Once the player may act: the same, and every action they are offered.
	if hx.free != "" {
		body := fmt.Sprintf(`{"id":"free","command":%s}`, hx.free)
		if code := at.a.raw(at.gm, "POST", "/api/encounters/"+at.id+"/commands", jsonType, body); code != 200 {
			t.Fatalf("the GM's %s: %d", hx.free, code)
		}
	}
	playUntilPlayerActs(t, at)
	offered, targeted := offeredProbes(t, at)
	if len(offered) == 0 {
		t.Fatal("the player is offered no actions")
	}
	if targeted == 0 {
		t.Fatal("no offered action has a target to sweep")
	}
	sweep("when the player may act", append(append(kindProbes(at, rs), decisionProbes(t, at)...), offered...))
}

const unknownID = "no-such-foe"

// kindProbes names X as actor, target and combatant of every core and
// ruleset command kind.
func kindProbes(at *accessTable, rs engine.Ruleset) []probe {
	kinds := []string{engine.KindStart, engine.KindPause, engine.KindResume, engine.KindEnd, engine.KindReveal,
		engine.KindRewind, engine.KindRevealEvent, engine.KindAcceptDefaults, engine.KindAnswer}
	for _, spec := range rs.Commands() {
		kinds = append(kinds, spec.Kind)
	}
	var out []probe
	for _, k := range kinds {
		out = append(out,
			probe{k + " as actor", fmt.Sprintf(`{"kind":%q,"actor":"X"}`, k), at.hidden, unknownID},
			probe{k + " on target", fmt.Sprintf(`{"kind":%q,"actor":%q,"target":"X"}`, k, at.pc), at.hidden, unknownID},
			probe{k + " on combatant", fmt.Sprintf(`{"kind":%q,"combatant":"X"}`, k), at.hidden, unknownID},
		)
	}
	return out
}

// decisionProbes answer each decision pending for the hidden combatant, as
// against a decision id that does not exist.
func decisionProbes(t *testing.T, at *accessTable) []probe {
	t.Helper()
	var out []probe
	for _, d := range gmPending(t, at) {
		if d.For != at.hidden || len(d.Options) == 0 {
			continue
		}
		out = append(out, probe{"answer the hidden one's " + d.Kind,
			fmt.Sprintf(`{"kind":"answer","decision":"X","choice":%q}`, d.Options[0].Value), d.ID, "d999999"})
	}
	return out
}

func gmPending(t *testing.T, at *accessTable) []engine.Decision {
	t.Helper()
	var v struct {
		Pending []engine.Decision `json:"pending"`
	}
	_, raw := at.a.withUser(at.gm).view(at.id, "")
	if err := json.Unmarshal(raw, &v); err != nil {
		t.Fatal(err)
	}
	return v.Pending
}

// offeredProbes fills every action the player is offered, naming X as the
// actor and, where there is one, as the target.
func offeredProbes(t *testing.T, at *accessTable) ([]probe, int) {
	t.Helper()
	var pv struct {
		Actions []engine.Action `json:"actions"`
	}
	_, raw := at.a.withUser(at.player).view(at.id, "")
	if err := json.Unmarshal(raw, &pv); err != nil {
		t.Fatalf("the player's view: %v %s", err, raw)
	}
	var out []probe
	targeted := 0
	for _, a := range pv.Actions {
		cmd := map[string]any{"kind": a.Kind, "actor": a.Actor}
		hasTarget := false
		for _, f := range a.Fields {
			switch {
			case f.Target || f.Name == "target":
				cmd[f.Name], hasTarget = "X", true
			case f.Type == engine.FieldNumber:
				cmd[f.Name] = max(f.Min, 1)
			case f.Type == engine.FieldCheckbox:
				cmd[f.Name] = false
			case len(f.Options) > 0:
				cmd[f.Name] = f.Options[0].Value
			default:
				cmd[f.Name] = f.Default
			}
		}
		raw, _ := json.Marshal(cmd)
		out = append(out, probe{a.Kind + " as offered, actor X",
			strings.Replace(string(raw), `"actor":"`+at.pc+`"`, `"actor":"X"`, 1), at.hidden, unknownID})
		if hasTarget {
			targeted++
			out = append(out, probe{a.Kind + " as offered, target X", string(raw), at.hidden, unknownID})
		}
	}
	return out, targeted
}

// playUntilPlayerActs plays on as the GM — ending other combatants' turns,
// answering pending decisions with their default or first option — until
// the player is offered an action with a target.
func playUntilPlayerActs(t *testing.T, at *accessTable) {
	t.Helper()
	g := at.a.withUser(at.gm)
	for i := 0; i < 60; i++ {
		if _, targeted := offeredProbes(t, at); targeted > 0 {
			return
		}
		id := fmt.Sprint("advance-", i)
		if pending := gmPending(t, at); len(pending) > 0 {
			d := pending[0]
			choice := d.Default
			if choice == "" {
				choice = d.Options[0].Value
			}
			// The GM drives the table: the player's own decisions too,
			// deliberately (override).
			body := fmt.Sprintf(`{"id":%q,"command":{"kind":"answer","decision":%q,"choice":%q,"override":true}}`, id, d.ID, choice)
			if code := at.a.raw(at.gm, "POST", "/api/encounters/"+at.id+"/commands", jsonType, body); code != 200 {
				t.Fatalf("the GM's answer to %s: %d", d.ID, code)
			}
			continue
		}
		v, _ := g.view(at.id, "")
		if v.Current == "" {
			t.Fatalf("nothing to answer and nobody's turn at seq %d (%s)", v.Seq, v.Status)
		}
		at.gmEndsTurn(at.a, id)
	}
	t.Fatal("the player was never offered an action with a target")
}
