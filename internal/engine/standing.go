package engine

import (
	"fmt"
	"slices"

	"github.com/fray-vtt/fray/internal/fray"
)

// Standing orders: how a player's character answers the prompts its
// ruleset asks it off its turn (spend a resource against harm, react to a
// foe, a sealed choice) while its player is away or out of time.
//
// A ruleset declares the prompts a standing order may answer — a kind of
// decision, the answers an order may give and the conditions it may test
// (PromptSpec) — by being a Prompter; nothing else about a prompt is known
// outside the ruleset. An order is chosen from that declaration by the
// character's player alone: "when <condition>, <answer>; otherwise
// <answer>" (StandingOrder). The server keeps orders apart from the
// encounter (no one else, the GM included, ever sees one) and sends the
// answer it gives with the owner's viewer and AgentStanding, so the log
// says "by Sam's standing order"; a timer's fallback answers with
// AgentFallback ("Time ran out for Sam: …"). Neither is the GM deciding.

// Always is the condition every prompt has: the order's Then applies.
const Always = "always"

// PromptSpec declares a kind of decision a ruleset asks a combatant that a
// standing order may answer.
type PromptSpec struct {
	// Kind is the decision's kind (Decision.Kind).
	Kind string `json:"kind"`
	// Label names the prompt for the player ("Spend a point to avoid the
	// harm").
	Label string `json:"label"`
	Help  string `json:"help,omitempty"`
	// Answers are the options an order may give: values of the decision's
	// options. An answer the decision does not offer when it is asked
	// gives nothing (the deadline's fallback then applies).
	Answers []Choice `json:"answers"`
	// Conditions are what an order may test besides Always, each with the
	// words the player reads ("the hit would take me out").
	Conditions []Choice `json:"conditions,omitempty"`
}

// Prompter is a ruleset that declares the prompts standing orders answer.
type Prompter interface {
	Prompts() []PromptSpec
	// Holds reports whether condition, one of the Conditions of d's
	// prompt, holds for decision d in st.
	Holds(st State, d Decision, condition string) bool
}

// Passer is a ruleset whose combatant may pass its turn doing nothing with
// a command of its own (one that ends the turn, or the one thing a
// combatant in a bad way may still do): what a timer sends when a
// player's time runs out on their turn.
type Passer interface {
	// Pass is the command kind (with no arguments) by which combatant
	// actor passes its turn in st; "" when it cannot.
	Pass(st State, actor string) string
}

// PassKind is how actor passes its turn in st under rs; "" when it cannot.
func PassKind(rs Ruleset, st State, actor string) string {
	if p, ok := rs.(Passer); ok {
		return p.Pass(st, actor)
	}
	return ""
}

// Agents: who, besides the viewer's person, sends a command for them.
// Viewer.Agent is set by the server only, never from a request.
const (
	// AgentStanding answers with the owner's viewer by the owner's
	// standing order.
	AgentStanding = "standing-order"
	// AgentFallback is a timer's fallback, sent with a GM viewer: the
	// player's time ran out.
	AgentFallback = "fallback"
)

// StandingOrder answers one kind of prompt: When (Always or one of the
// prompt's conditions) holds, Then; otherwise Else, or nothing when Else
// is empty.
type StandingOrder struct {
	When string `json:"when"`
	Then string `json:"then"`
	Else string `json:"else,omitempty"`
}

// StandingOrders are a character's orders by prompt kind.
type StandingOrders map[string]StandingOrder

// Prompts is what rs declares standing orders may answer; nil when none.
func Prompts(rs Ruleset) []PromptSpec {
	if p, ok := rs.(Prompter); ok {
		return p.Prompts()
	}
	return nil
}

// PromptOf is rs's declaration of prompt kind.
func PromptOf(rs Ruleset, kind string) (PromptSpec, bool) {
	for _, p := range Prompts(rs) {
		if p.Kind == kind {
			return p, true
		}
	}
	return PromptSpec{}, false
}

// CheckOrders validates orders against what rs declares: a known prompt,
// a condition it has, answers it may give.
func CheckOrders(rs Ruleset, orders StandingOrders) error {
	for kind, o := range orders {
		p, ok := PromptOf(rs, kind)
		if !ok {
			return fray.Errorf(fray.EINVALID, "%s asks no prompt %q that a standing order answers", rs.ID(), kind)
		}
		if o.When != Always && !slices.ContainsFunc(p.Conditions, func(c Choice) bool { return c.Value == o.When }) {
			return fray.Errorf(fray.EINVALID, "%s: no condition %q", p.Label, o.When)
		}
		answer := func(v string) bool {
			return slices.ContainsFunc(p.Answers, func(c Choice) bool { return c.Value == v })
		}
		if !answer(o.Then) {
			return fray.Errorf(fray.EINVALID, "%s: %q is not an answer", p.Label, o.Then)
		}
		if o.Else != "" && (!answer(o.Else) || o.When == Always) {
			return fray.Errorf(fray.EINVALID, "%s: %q cannot be the answer otherwise", p.Label, o.Else)
		}
	}
	return nil
}

// StandingAnswer is the answer order o gives decision d in st: false when
// it gives none (its condition fails and it has no Else, or the decision
// does not offer the answer now).
func StandingAnswer(rs Ruleset, st State, d Decision, o StandingOrder) (string, bool) {
	if _, ok := PromptOf(rs, d.Kind); !ok {
		return "", false
	}
	choice := o.Then
	if o.When != Always {
		p, _ := rs.(Prompter)
		if !p.Holds(st, d, o.When) {
			choice = o.Else
		}
	}
	if choice == "" || !d.HasOption(choice) {
		return "", false
	}
	return choice, true
}

// CheckPrompts catches a declaration that cannot work: a prompt without
// answers, a kind or condition declared twice, a condition named Always.
func CheckPrompts(ps []PromptSpec) error {
	seen := map[string]bool{}
	for _, p := range ps {
		if p.Kind == "" || p.Label == "" || len(p.Answers) == 0 || seen[p.Kind] {
			return fmt.Errorf("prompt %q needs a kind of its own, a label and answers", p.Kind)
		}
		seen[p.Kind] = true
		conds := map[string]bool{Always: true}
		for _, c := range p.Conditions {
			if c.Value == "" || c.Label == "" || conds[c.Value] {
				return fmt.Errorf("prompt %q: condition %q is empty, %q or declared twice", p.Kind, c.Value, Always)
			}
			conds[c.Value] = true
		}
	}
	return nil
}

// answerLabel says on whose behalf an answer was given, when not by the
// one who answers it: the player the GM decided for (Via ""), the
// player whose standing order answered (AgentStanding) or whose time ran
// out (AgentFallback).
type answerLabel struct {
	Player, Via string
}

// label is what the viewer sending an answer to d says of it.
func (v Viewer) label(d Decision) answerLabel {
	switch {
	case v.Agent == AgentStanding && !v.GM:
		return answerLabel{Player: v.Name, Via: AgentStanding}
	case v.Agent == AgentFallback && v.playerOf(d) != "":
		return answerLabel{Player: v.playerOf(d), Via: AgentFallback}
	}
	return answerLabel{Player: v.playerOf(d)}
}

// text is how the log says it.
func (l answerLabel) text(text string) string {
	switch {
	case l.Player == "":
		return text
	case l.Via == AgentStanding:
		return text + " (by " + l.Player + "'s standing order)"
	case l.Via == AgentFallback:
		return "Time ran out for " + l.Player + ": " + text
	}
	return decidedForText(l.Player, text)
}

// KindPassTurn passes the turn of a combatant whose player's time ran
// out: {"kind":"pass-turn","actor":"ana"}. Only a timer's fallback sends
// it (AgentFallback); anyone else is told there is no such command.
const KindPassTurn = "pass-turn"

// KindTurnPassed is the event that says a turn passed for lack of time,
// before the ruleset's own pass (Passer).
const KindTurnPassed = "turn-passed"

// TurnPassed is the data of KindTurnPassed.
type TurnPassed struct {
	Combatant string `json:"combatant"`
	Player    string `json:"player,omitempty"`
}

func decidePassTurn(tx *Tx, cmd Command) error {
	b := tx.Base()
	pass := PassKind(tx.rs, tx.st, cmd.Actor)
	switch {
	case pass == "":
		return fray.Errorf(fray.EILLEGAL, "%s has no command that passes a turn", tx.rs.ID())
	case b.Status != StatusRunning:
		return fray.Errorf(fray.EILLEGAL, "the encounter is not running")
	case b.Waiting():
		return fray.Errorf(fray.EPENDING, "waiting for %s", waitingText(tx.st, tx.viewer))
	case !b.IsActing(cmd.Actor):
		return fray.Errorf(fray.ENOTYOURTURN, "it is not %s's turn", b.NameOf(cmd.Actor))
	}
	if err := cmd.NoArgs(); err != nil {
		return err
	}
	player := tx.viewer.Players[cmd.Actor]
	text := b.NameOf(cmd.Actor) + "'s turn passes: time ran out."
	if player != "" {
		text = "Time ran out for " + player + ": " + b.NameOf(cmd.Actor) + "'s turn passes."
	}
	if err := tx.Emits(KindTurnPassed, cmd.Actor, text, TurnPassed{Combatant: cmd.Actor, Player: player}); err != nil {
		return err
	}
	if err := tx.rs.Decide(tx, NewCommand(pass, cmd.Actor, nil)); err != nil {
		return err
	}
	return settle(tx)
}
