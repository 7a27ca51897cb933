package engine

import (
	"encoding/json"
	"fmt"
	"regexp"
	"slices"

	"github.com/fray-vtt/fray/internal/fray"
	"github.com/fray-vtt/fray/internal/proof"
)

// Choices sealed even from the server (docs/protocol.md, "Sealed
// choices"). A player answers a sealed decision in two steps:
//
//  1. commit: {"kind":"answer","decision":"d7","commitment":"<hex>"}, the
//     SHA-256 of the canonical JSON of {"choice","decision","nonce",
//     "values"} (Commitment). The server keeps and shows only the hash:
//     nothing of the choice reaches it, its database or its logs.
//  2. once every party of the group has answered, reveal:
//     {"kind":"unseal","decision":"d7","choice":"…","values":{…},
//     "nonce":"<hex>"}. The engine checks it against the commitment (a
//     wrong nonce is refused) and keeps it secret, like a sealed answer,
//     until the whole group is revealed, when one decisions-revealed event
//     shows every answer with its nonce, so anyone can check it against
//     the commitment in the log.
//
// A party that does not reveal gets the decision's default — a sealed
// decision must have one — when the GM issues reveal-timeout, which
// forfeits every answer still unrevealed, once (decision-forfeited).
// The GM may also answer a sealed decision outright (its answer is secret
// until the group is revealed): the GM is the server's side of the table.

// Core command kinds of sealed choices.
const (
	// KindUnseal reveals a committed sealed answer.
	KindUnseal = "unseal"
	// KindRevealTimeout is the GM's fallback for answers committed but not
	// revealed: their decisions' defaults apply.
	KindRevealTimeout = "reveal-timeout"
)

// KindDecisionForfeited is the event of an answer committed and never
// revealed, whose default applied.
const KindDecisionForfeited = "decision-forfeited"

// DecisionForfeited is the data of KindDecisionForfeited.
type DecisionForfeited struct {
	ID     string `json:"id"`
	For    string `json:"for"`
	Choice string `json:"choice"`
	Values Values `json:"values,omitempty"` // the fields' defaults
}

var (
	hashPattern  = regexp.MustCompile(`^[0-9a-f]{64}$`)
	noncePattern = regexp.MustCompile(`^[0-9a-f]{32,64}$`)
)

// Commitment is the commitment to answering decision with choice and
// values (a JSON object, nil for none) under nonce: see proof.Commitment.
func Commitment(decision, choice string, values json.RawMessage, nonce string) (string, error) {
	c, err := proof.Commitment(decision, choice, values, nonce)
	if err != nil {
		return "", fray.Errorf(fray.EINVALID, "%v", err)
	}
	return c, nil
}

// SealedOf returns the sealed answer kept for decision id, or nil: what a
// server that holds a player's answer checks its commitment against.
func (b *Base) SealedOf(id string) *SealedAnswer { return b.sealedOf(id) }

// sealedOf returns the sealed answer kept for decision id, or nil.
func (b *Base) sealedOf(id string) *SealedAnswer {
	for i := range b.Sealed {
		if b.Sealed[i].ID == id {
			return &b.Sealed[i]
		}
	}
	return nil
}

// groupCommitted reports whether every decision of d's group is answered
// (committed or answered outright).
func (b *Base) groupCommitted(group string) bool {
	for _, p := range b.Pending {
		if p.Group == group && !p.Answered {
			return false
		}
	}
	return true
}

// AwaitsReveal reports whether decision d's answer is committed and must
// now be revealed: its whole group has answered and it has not. Until it
// is, the table waits on its answerer (a turn deadline's fallback then
// forfeits it: reveal-timeout).
func (b *Base) AwaitsReveal(d Decision) bool { return b.awaitsReveal(d) }

// awaitsReveal is AwaitsReveal.
func (b *Base) awaitsReveal(d Decision) bool {
	if !d.Sealed || !d.Answered || !b.groupCommitted(d.Group) {
		return false
	}
	s := b.sealedOf(d.ID)
	return s != nil && !s.Opened
}

// commit records a commitment to decision d's answer; label says on
// whose behalf, when not by whoever answers d (the GM committing for a
// player with override, a standing order).
func (tx *Tx) commit(d Decision, commitment, by string, label answerLabel) error {
	if !hashPattern.MatchString(commitment) {
		return fray.Errorf(fray.EINVALID, "a commitment is a SHA-256 hash: 64 lowercase hexadecimal digits")
	}
	b := tx.Base()
	actor := ""
	if d.For != GM {
		actor = d.For
	}
	who := b.answererName(d)
	if who == "the GM" {
		who = "The GM"
	}
	text := label.text(who + " has answered.")
	return tx.Emit(Event{Kind: KindDecisionAnswered, Actor: actor, Text: text}.withData(DecisionAnswered{ID: d.ID, By: by, DecidedFor: label.Player, Via: label.Via, Commitment: commitment}).With(d.concerns(b)...))
}

// unsealArgs are an unseal command's arguments.
type unsealArgs struct {
	Decision string          `json:"decision"`
	Choice   string          `json:"choice"`
	Values   json.RawMessage `json:"values,omitempty"`
	Nonce    string          `json:"nonce"`
}

func decideUnseal(tx *Tx, cmd Command) error {
	if cmd.Actor != "" {
		return fray.Errorf(fray.EINVALID, "an unseal names no actor: the decision says who answers")
	}
	var a unsealArgs
	if err := cmd.Decode(&a); err != nil {
		return err
	}
	b := tx.Base()
	d, err := answerable(tx, a.Decision)
	if err != nil {
		return err
	}
	s := b.sealedOf(d.ID)
	switch {
	case !d.Sealed || s == nil || s.Commitment == "":
		return fray.Errorf(fray.EILLEGAL, "no sealed answer to %q was committed: there is nothing to reveal", a.Decision)
	case s.Opened:
		return fray.Errorf(fray.EILLEGAL, "the answer to %q is already revealed or settled", a.Decision)
	case !b.groupCommitted(d.Group):
		return fray.Errorf(fray.EILLEGAL, "wait until everyone has answered before revealing your answer")
	}
	if !noncePattern.MatchString(a.Nonce) {
		return fray.Errorf(fray.EINVALID, "a nonce is 32 to 64 lowercase hexadecimal digits")
	}
	got, err := Commitment(d.ID, a.Choice, a.Values, a.Nonce)
	if err != nil {
		return err
	}
	if got != s.Commitment {
		return fray.Errorf(fray.EINVALID, "this choice, values and nonce do not match the commitment to %q: reveal exactly what was committed", d.ID)
	}
	if !d.HasOption(a.Choice) {
		return fray.Errorf(fray.EINVALID, "%q is not an option of this decision", a.Choice)
	}
	var raw map[string]json.RawMessage
	if len(a.Values) > 0 && string(a.Values) != "null" {
		if err := json.Unmarshal(a.Values, &raw); err != nil {
			return fray.Errorf(fray.EINVALID, "values must be a JSON object")
		}
	}
	values, err := CheckValues(d.Fields, raw)
	if err != nil {
		return err
	}
	committed := a.Values
	if len(committed) == 0 || string(committed) == "null" {
		committed = nil
	}
	return tx.open(*d, SealedAnswer{ID: d.ID, Choice: a.Choice, Values: values, By: s.By, Commitment: s.Commitment,
		Nonce: a.Nonce, Committed: committed}, "")
}

// open records a sealed answer whose choice is now known — revealed, given
// outright by the GM — secret until its group is revealed, and reveals the
// group once every answer of it is known. text is the secret event's
// text; empty for the usual one.
func (tx *Tx) open(d Decision, s SealedAnswer, text string) error {
	b := tx.Base()
	actor := ""
	if d.For != GM {
		actor = d.For
	}
	if text == "" {
		who := b.answererName(d)
		if who == "the GM" {
			who = "The GM"
		}
		text = fmt.Sprintf("%s answers %q: %s (sealed until everyone has answered).", who, d.Prompt, d.Label(s.Choice))
	}
	s.Opened = true
	// The answer itself: seen by the GM and whoever answered, no one else.
	if err := tx.Emit(Event{Kind: KindDecisionSealed, Actor: actor, Secret: true, Text: text}.withData(s)); err != nil {
		return err
	}
	return tx.revealIfComplete(d.Group)
}

// revealIfComplete reveals a sealed group once every answer of it is
// known.
func (tx *Tx) revealIfComplete(group string) error {
	b := tx.Base()
	var ds []Decision
	for _, p := range b.Pending {
		if p.Group != group {
			continue
		}
		if s := b.sealedOf(p.ID); !p.Answered || s == nil || !s.Opened {
			return nil // others have yet to answer or reveal
		}
		ds = append(ds, p)
	}
	if len(ds) == 0 {
		return nil
	}
	return tx.reveal(ds)
}

// decideRevealTimeout forfeits every committed answer not revealed though
// its whole group has answered: the decision's default applies.
func decideRevealTimeout(tx *Tx, cmd Command) error {
	if err := cmd.NoArgs(); err != nil {
		return err
	}
	b := tx.Base()
	if b.Status != StatusRunning {
		return fray.Errorf(fray.EILLEGAL, "the encounter is not running")
	}
	var late []string
	for _, d := range b.Pending {
		if b.awaitsReveal(d) {
			late = append(late, d.ID)
		}
	}
	if len(late) == 0 {
		return fray.Errorf(fray.EILLEGAL, "no sealed answer waits to be revealed")
	}
	var groups []string
	for _, id := range late {
		b := tx.Base()
		d := b.Decision(id)
		if d == nil || b.Status != StatusRunning {
			continue // settled meanwhile, or gone with the encounter's end
		}
		values, err := CheckValues(d.Fields, nil)
		if err != nil {
			return err
		}
		who := "The GM"
		if c := b.Combatant(d.For); c != nil {
			who = c.Name
		}
		actor := ""
		if d.For != GM {
			actor = d.For
		}
		if err := tx.Emit(Event{Kind: KindDecisionForfeited, Actor: actor,
			Text: fmt.Sprintf("%s did not reveal in time: the default applies (%s).", who, d.Label(d.Default))}.withData(DecisionForfeited{ID: d.ID, For: d.For, Choice: d.Default, Values: values}).With(d.concerns(b)...)); err != nil {
			return err
		}
		if !slices.Contains(groups, d.Group) {
			groups = append(groups, d.Group)
		}
	}
	for _, g := range groups {
		if err := tx.revealIfComplete(g); err != nil {
			return err
		}
	}
	return nil
}

// checkSealed catches a sealed decision without a default: a party that
// commits and never reveals would leave it unanswerable.
func checkSealed(d Decision) error {
	if d.Sealed && d.Default == "" {
		return fmt.Errorf("sealed decision %q needs a default: what applies to a party that does not reveal", d.Prompt)
	}
	return nil
}
