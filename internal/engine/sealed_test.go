package engine_test

import (
	"bytes"
	"encoding/json"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/fray-vtt/fray/internal/engine"
	"github.com/fray-vtt/fray/internal/engine/enginetest"
	"github.com/fray-vtt/fray/internal/fray"
	"github.com/fray-vtt/fray/internal/proof"
)

const (
	heroNonce = "0123456789abcdef0123456789abcdef"
	orcNonce  = "fedcba9876543210fedcba9876543210"
)

// commit answers sealed decision id as v with a commitment to choice, the
// way a page does, and returns the events.
func (g *game) commit(v engine.Viewer, id, choice, nonce string) []engine.Event {
	g.t.Helper()
	c, err := engine.Commitment(id, choice, nil, nonce)
	if err != nil {
		g.t.Fatal(err)
	}
	return g.do(v, "answer", "", map[string]any{"decision": id, "commitment": c})
}

func (g *game) unseal(v engine.Viewer, id, choice, nonce string) ([]engine.Event, error) {
	return g.try(v, "unseal", "", map[string]any{"decision": id, "choice": choice, "nonce": nonce})
}

// duel starts the toy's sealed duel: hero and orc choose in secret.
func duel(t *testing.T) (*game, string, string) {
	g := newGame(t, enginetest.Setup())
	g.do(gm, "start", "", nil)
	g.do(heroPl, "duel", "hero", map[string]any{"target": "orc"})
	b := g.st.Core()
	if len(b.Pending) != 2 || !b.Pending[0].Sealed || b.Pending[0].Group != b.Pending[1].Group {
		t.Fatalf("pending = %+v", b.Pending)
	}
	return g, b.Pending[0].ID, b.Pending[1].ID
}

// TestSealedChoiceCommitReveal: a player commits to a sealed answer; the
// server keeps the commitment only, nothing of the choice, so nothing of
// it reaches the other party or even the GM until everyone has committed
// and revealed; a reveal is checked against the commitment; then one event
// reveals every answer with what opens its commitment, and the ruleset
// resolves them together.
func TestSealedChoiceCommitReveal(t *testing.T) {
	g, heroD, orcD := duel(t)
	hv := engine.Project(enginetest.Toy{}, g.st, heroPl)
	if len(hv.Pending) != 1 || hv.Pending[0].For != "hero" || !slices.Equal(hv.Waiting, []string{"Orc"}) {
		t.Fatalf("hero's view: pending %+v waiting %v", hv.Pending, hv.Waiting)
	}
	// A player's plain answer to a sealed question is refused: the
	// server must not learn it.
	if _, err := g.try(heroPl, "answer", "", map[string]any{"decision": heroD, "choice": "bold"}); fray.ErrorCode(err) != fray.EINVALID ||
		!strings.Contains(err.Error(), "commit") {
		t.Fatalf("a plain answer to a sealed question: %v", err)
	}
	for _, bad := range []map[string]any{
		{"decision": heroD, "commitment": "abc"},
		{"decision": heroD, "commitment": strings.Repeat("A", 64)},
		{"decision": heroD, "commitment": strings.Repeat("a", 64), "choice": "bold"},
	} {
		if _, err := g.try(heroPl, "answer", "", bad); fray.ErrorCode(err) != fray.EINVALID {
			t.Fatalf("answer %v: %v", bad, err)
		}
	}
	answered := g.commit(heroPl, heroD, "bold", heroNonce)
	if got := kinds(answered); !slices.Equal(got, []string{engine.KindDecisionAnswered}) {
		t.Fatalf("a commitment emitted %v", got)
	}
	// The state and the log — what the database keeps — and what anyone
	// reads hold the commitment and nothing of the choice: the same as had
	// the hero chosen the other option, but for the hash.
	other, _, _ := duel(t)
	other.commit(heroPl, heroD, "careful", heroNonce)
	mine, _ := engine.Commitment(heroD, "bold", nil, heroNonce)
	theirs, _ := engine.Commitment(heroD, "careful", nil, heroNonce)
	// Command ids differ: the first game tried more commands.
	ids := regexp.MustCompile(`"command":"c[0-9]+"`)
	same := func(a, b []byte) bool {
		return bytes.Equal(ids.ReplaceAll(bytes.ReplaceAll(a, []byte(mine), []byte(theirs)), nil), ids.ReplaceAll(b, nil))
	}
	if a, b := snap(t, g.st), snap(t, other.st); !same([]byte(a), []byte(b)) || !strings.Contains(a, mine) {
		t.Fatalf("the state tells the choice:\n%s\n%s", a, b)
	}
	for _, v := range []engine.Viewer{gm, heroPl, orcPl, engine.PlayerViewer()} {
		a, _ := json.Marshal(engine.FilterEvents(g.st, v, g.log))
		b, _ := json.Marshal(engine.FilterEvents(other.st, v, other.log))
		if !same(a, b) {
			t.Fatalf("the log tells %+v the choice:\n%s\n%s", v, a, b)
		}
		a, _ = json.Marshal(engine.Project(enginetest.Toy{}, g.st, v))
		b, _ = json.Marshal(engine.Project(enginetest.Toy{}, other.st, v))
		if !same(a, b) {
			t.Fatalf("the view tells %+v the choice:\n%s\n%s", v, a, b)
		}
	}
	hv = engine.Project(enginetest.Toy{}, g.st, heroPl)
	if len(hv.Committed) != 1 || hv.Committed[0].Commitment != mine || hv.Committed[0].Choice != "" || hv.Committed[0].Reveal ||
		len(hv.Pending) != 0 || !slices.Equal(hv.Waiting, []string{"Orc"}) {
		t.Fatalf("hero after committing: %+v", hv)
	}
	if shown := engine.FilterEvents(g.st, orcPl, answered); len(shown) != 1 || !strings.Contains(shown[0].Text, "Hero has answered") {
		t.Fatalf("orc sees %+v", shown)
	}
	if _, err := g.unseal(heroPl, heroD, "bold", heroNonce); fray.ErrorCode(err) != fray.EILLEGAL {
		t.Fatalf("a reveal before everyone committed: %v", err)
	}
	if _, err := g.try(heroPl, "end-turn", "hero", nil); fray.ErrorCode(err) != fray.EPENDING || !strings.Contains(err.Error(), "Orc") {
		t.Fatalf("acting while the orc decides: %v", err)
	}

	g.commit(orcPl, orcD, "careful", orcNonce)
	for _, v := range []engine.Viewer{heroPl, orcPl} {
		view := engine.Project(enginetest.Toy{}, g.st, v)
		if len(view.Committed) != 1 || !view.Committed[0].Reveal {
			t.Fatalf("%v is not asked to reveal: %+v", v.Controls, view.Committed)
		}
	}
	if !slices.ContainsFunc(engine.Project(enginetest.Toy{}, g.st, gm).Actions, func(a engine.Action) bool { return a.Kind == engine.KindRevealTimeout }) {
		t.Fatal("the GM is not offered the reveal timeout")
	}
	// The reveal must open the commitment: a wrong nonce, choice or value
	// is refused, and changes nothing.
	before := snap(t, g.st)
	for _, bad := range []struct{ choice, nonce string }{{"bold", orcNonce}, {"careful", heroNonce}, {"bold", heroNonce[:30]}} {
		_, err := g.unseal(heroPl, heroD, bad.choice, bad.nonce)
		if fray.ErrorCode(err) != fray.EINVALID {
			t.Fatalf("reveal %+v: %v", bad, err)
		}
	}
	if _, err := g.try(heroPl, "unseal", "", map[string]any{"decision": heroD, "choice": "bold", "nonce": heroNonce, "values": map[string]any{"x": 1}}); fray.ErrorCode(err) != fray.EINVALID ||
		!strings.Contains(err.Error(), "commitment") {
		t.Fatalf("a reveal with values not committed to: %v", err)
	}
	if _, err := g.unseal(orcPl, heroD, "bold", heroNonce); fray.ErrorCode(err) != fray.EFORBIDDEN {
		t.Fatalf("the orc reveals the hero's answer: %v", err)
	}
	if snap(t, g.st) != before {
		t.Fatal("a refused reveal changed the state")
	}
	opened, err := g.unseal(heroPl, heroD, "bold", heroNonce)
	if err != nil || !slices.Equal(kinds(opened), []string{engine.KindDecisionSealed}) || !opened[0].Secret {
		t.Fatalf("the hero's reveal: %v %+v", err, opened)
	}
	if shown := engine.FilterEvents(g.st, orcPl, opened); len(shown) != 0 {
		t.Fatalf("the orc reads the hero's reveal before its own: %+v", shown)
	}
	if _, err := g.unseal(heroPl, heroD, "bold", heroNonce); fray.ErrorCode(err) != fray.EILLEGAL {
		t.Fatalf("a second reveal: %v", err)
	}
	revealed, err := g.unseal(orcPl, orcD, "careful", orcNonce)
	if err != nil || !slices.Equal(kinds(revealed), []string{engine.KindDecisionSealed, engine.KindDecisionsRevealed, "clash"}) {
		t.Fatalf("the last reveal: %v %v", err, kinds(revealed))
	}
	var d engine.DecisionsRevealed
	if err := revealed[1].Decode(&d); err != nil || len(d.Answers) != 2 || d.Answers[0].Label != "Bold" || d.Answers[1].Label != "Careful" ||
		d.Answers[0].Nonce != heroNonce {
		t.Fatalf("reveal = %+v (%v)", d, err)
	}
	if hp := g.toy().HP; hp["hero"] != 1 || hp["orc"] != 2 || len(g.st.Core().Pending) != 0 || len(g.st.Core().Sealed) != 0 {
		t.Fatalf("after the clash: hp %v pending %v sealed %v", hp, g.st.Core().Pending, g.st.Core().Sealed)
	}
	// Anyone can check every revealed answer against its commitment.
	var bodies []json.RawMessage
	for _, ev := range engine.FilterEvents(g.st, orcPl, g.log) {
		raw, _ := json.Marshal(ev)
		bodies = append(bodies, raw)
	}
	if rep, f := proof.CheckSealed(bodies); f != nil || rep.Revealed != 2 || rep.Waiting != 0 {
		t.Fatalf("checking the orc's log: %+v %v", rep, f)
	}
	g.replayMatches()
}

// TestRevealTimeout: a party that committed and does not reveal gets the
// decision's default when the GM calls time, once.
func TestRevealTimeout(t *testing.T) {
	g, heroD, orcD := duel(t)
	g.commit(heroPl, heroD, "bold", heroNonce)
	if _, err := g.try(gm, engine.KindRevealTimeout, "", nil); fray.ErrorCode(err) != fray.EILLEGAL {
		t.Fatalf("a timeout while the orc has not answered: %v", err)
	}
	g.commit(orcPl, orcD, "bold", orcNonce)
	if _, err := g.unseal(heroPl, heroD, "bold", heroNonce); err != nil {
		t.Fatal(err)
	}
	if _, err := g.try(orcPl, engine.KindRevealTimeout, "", nil); fray.ErrorCode(err) != fray.EFORBIDDEN {
		t.Fatalf("a player's timeout: %v", err)
	}
	out := g.do(gm, engine.KindRevealTimeout, "", nil)
	if !slices.Equal(kinds(out), []string{engine.KindDecisionForfeited, engine.KindDecisionsRevealed, "clash"}) ||
		!strings.Contains(out[0].Text, "Orc did not reveal") {
		t.Fatalf("the timeout: %+v", out)
	}
	var d engine.DecisionsRevealed
	if err := out[1].Decode(&d); err != nil || d.Answers[1].Choice != "careful" || !d.Answers[1].Forfeited || d.Answers[0].Choice != "bold" {
		t.Fatalf("revealed %+v", d)
	}
	if slices.ContainsFunc(engine.Project(enginetest.Toy{}, g.st, gm).Actions, func(a engine.Action) bool { return a.Kind == engine.KindRevealTimeout }) {
		t.Fatal("the timeout is still offered")
	}
	if _, err := g.try(gm, engine.KindRevealTimeout, "", nil); fray.ErrorCode(err) != fray.EILLEGAL {
		t.Fatalf("a second timeout: %v", err)
	}
	if _, err := g.unseal(orcPl, orcD, "bold", orcNonce); fray.ErrorCode(err) != fray.ENOTFOUND {
		t.Fatalf("a reveal after the timeout: %v", err)
	}
	var bodies []json.RawMessage
	for _, ev := range g.log {
		raw, _ := json.Marshal(ev)
		bodies = append(bodies, raw)
	}
	if rep, f := proof.CheckSealed(bodies); f != nil || rep.Revealed != 1 || rep.Forfeited != 1 {
		t.Fatalf("check: %+v %v", rep, f)
	}
	g.replayMatches()
}

// TestGMAnswersSealedOutright: the GM, the server's side of the table,
// may answer a sealed decision without a commitment; the answer stays
// secret from players until the group is revealed.
func TestGMAnswersSealedOutright(t *testing.T) {
	g, heroD, orcD := duel(t)
	g.commit(heroPl, heroD, "careful", heroNonce)
	out := g.do(gm, "answer", "", map[string]any{"decision": orcD, "choice": "bold"})
	if !slices.Equal(kinds(out), []string{engine.KindDecisionAnswered, engine.KindDecisionSealed}) {
		t.Fatalf("the GM's answer: %v", kinds(out))
	}
	if shown := engine.FilterEvents(g.st, heroPl, out); len(shown) != 1 {
		t.Fatalf("the hero reads the GM's answer: %+v", shown)
	}
	out, err := g.unseal(heroPl, heroD, "careful", heroNonce)
	if err != nil || !slices.Equal(kinds(out), []string{engine.KindDecisionSealed, engine.KindDecisionsRevealed, "clash"}) {
		t.Fatalf("the reveal: %v %v", err, kinds(out))
	}
	g.replayMatches()
}
