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
// may send — each core and ruleset command kind, and each action the player
// is offered with every field filled — naming the hidden barrow-wight as the
// actor and as the target, and the same with an id that does not exist. The
// two answers must be the same (with the id itself set aside), over the
// websocket and over HTTP: a player learns nothing of a combatant they may
// not see, not even that it exists.
func TestHiddenCombatantsAnswerLikeUnknownIDs(t *testing.T) {
	at := newAccessTable(t, false)
	const unknown = "no-such-foe"
	// Play on until it is the player's turn, so that their commands get
	// past the turn check to the ids they name.
	for i := 0; ; i++ {
		v, _ := at.a.withUser(at.gm).view(at.id, "")
		if v.Current == at.pc {
			break
		}
		if i == 40 {
			t.Fatal("the player's turn never came")
		}
		at.gmEndsTurn(at.a, fmt.Sprint("skip-", i))
	}
	before := at.seq()

	// The commands, with X standing for the id under test.
	type probe struct{ name, command string }
	var probes []probe
	rs, _ := rules.Registry().Get("sw-zones")
	kinds := []string{engine.KindStart, engine.KindPause, engine.KindResume, engine.KindEnd, engine.KindReveal,
		engine.KindRewind, engine.KindRevealEvent, engine.KindAcceptDefaults, engine.KindAnswer}
	for _, spec := range rs.Commands() {
		kinds = append(kinds, spec.Kind)
	}
	for _, k := range kinds {
		probes = append(probes,
			probe{k + " as actor", fmt.Sprintf(`{"kind":%q,"actor":"X"}`, k)},
			probe{k + " on target", fmt.Sprintf(`{"kind":%q,"actor":%q,"target":"X"}`, k, at.pc)},
			probe{k + " on combatant", fmt.Sprintf(`{"kind":%q,"combatant":"X"}`, k)},
		)
	}
	var pv struct {
		Actions []engine.Action `json:"actions"`
	}
	_, raw := at.a.withUser(at.player).view(at.id, "")
	if err := json.Unmarshal(raw, &pv); err != nil || len(pv.Actions) == 0 {
		t.Fatalf("the player is offered no actions: %v %s", err, raw)
	}
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
		probes = append(probes, probe{a.Kind + " as offered, actor X", strings.Replace(string(raw), `"actor":"`+at.pc+`"`, `"actor":"X"`, 1)})
		if hasTarget {
			targeted++
			probes = append(probes, probe{a.Kind + " as offered, target X", string(raw)})
		}
	}
	if targeted < 2 {
		t.Fatalf("only %d offered actions have a target to sweep", targeted)
	}

	ws := at.a.withUser(at.player).dial(at.id, "")
	ws.read()
	// answer sends one probe over the websocket and over HTTP and returns
	// both answers with the id set aside.
	n := 0
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
	for _, p := range probes {
		hidden, missing := answer(p, at.hidden), answer(p, unknown)
		if hidden != missing {
			t.Errorf("%s: the hidden combatant's id answers\n\t%s\nbut an unknown id answers\n\t%s", p.name, hidden, missing)
		}
		if testing.Verbose() {
			t.Logf("%s: %s", p.name, hidden)
		}
		if strings.Contains(hidden, at.hiddenTxt) {
			t.Errorf("%s: the answer names the hidden combatant: %s", p.name, hidden)
		}
	}
	if at.seq() != before {
		t.Fatal("a probe changed the encounter")
	}
	t.Logf("%d probes, each over the websocket and HTTP", len(probes))
}
