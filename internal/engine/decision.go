package engine

import (
	"encoding/json"
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/fray-vtt/fray/internal/fray"
)

// Decision is a question the encounter waits on: a GM ruling, an ally's
// reaction, a sealed choice. While any decision waits for an answer, only
// answers (and the GM's encounter controls) are accepted.
//
// A decision may carry Fields the answer fills in (a cover percentage, a
// duration) besides the chosen option. A Sealed decision is answered in
// secret: nothing of the answer reaches anyone but the GM and whoever
// answered until every decision of its Group is answered, when the engine
// reveals them all in one event and hands them to the ruleset together.
type Decision struct {
	ID     string `json:"id"`
	For    string `json:"for"` // GM, or the combatant whose controller answers
	Kind   string `json:"kind"`
	Prompt string `json:"prompt"`
	// Options are the answers to choose from (at least one).
	Options []Choice `json:"options"`
	// Fields are inputs every answer carries, validated by the engine.
	Fields []Field `json:"fields,omitempty"`
	// Default is the option the GM's "accept defaults" picks; empty when
	// the decision needs a real answer.
	Default string `json:"default,omitempty"`
	Sealed  bool   `json:"sealed,omitempty"`
	// Group joins the decisions asked together (AskAll); set by the engine.
	Group string `json:"group,omitempty"`
	// Answered marks a sealed decision whose answer waits for its group.
	Answered bool `json:"answered,omitempty"`
	// Data is the ruleset's context, GM-only in projections.
	Data json.RawMessage `json:"data,omitempty"`
}

// Choice is one option in a Decision or in an action's select field.
type Choice struct {
	Value string `json:"value"`
	Label string `json:"label"`
}

// HasOption reports whether value is one of the decision's options.
func (d Decision) HasOption(value string) bool {
	return slices.ContainsFunc(d.Options, func(o Choice) bool { return o.Value == value })
}

// Label is the label of option value.
func (d Decision) Label(value string) string {
	for _, o := range d.Options {
		if o.Value == value && o.Label != "" {
			return o.Label
		}
	}
	return value
}

// Decode reads the decision's context into v.
func (d Decision) Decode(v any) error {
	if len(d.Data) == 0 {
		return fmt.Errorf("decision %s has no data", d.ID)
	}
	return json.Unmarshal(d.Data, v)
}

// KindAnswer is the command kind that answers a pending decision:
// {"kind":"answer","decision":"<id>","choice":"<value>","values":{…}}.
const KindAnswer = "answer"

// KindAcceptDefaults is the GM command that answers every pending decision
// that has a default with it: {"kind":"accept-defaults"}.
const KindAcceptDefaults = "accept-defaults"

// Answered is an answer as the ruleset receives it.
type Answered struct {
	Decision Decision `json:"decision"`
	Choice   string   `json:"choice"`
	Values   Values   `json:"values,omitempty"`
	By       string   `json:"by"` // GM, or the combatant whose controller answered
}

// SealedAnswer is a sealed decision's answer kept in Base until its group
// is revealed.
type SealedAnswer struct {
	ID     string `json:"id"`
	Choice string `json:"choice"`
	Values Values `json:"values,omitempty"`
	By     string `json:"by"`
	// Commitment is the answer's commitment (sealed.go), when it was
	// committed to; the choice is known once Opened: revealed with Nonce
	// and the values as Committed, or Forfeited (not revealed in time: the
	// default), or given outright by the GM.
	Commitment string          `json:"commitment,omitempty"`
	Nonce      string          `json:"nonce,omitempty"`
	Committed  json.RawMessage `json:"committed,omitempty"`
	Opened     bool            `json:"opened,omitempty"`
	Forfeited  bool            `json:"forfeited,omitempty"`
}

// Values are the filled-in fields of an answer: numbers, strings and
// booleans, every field of the decision present after validation.
type Values map[string]any

// Int returns a number field's value.
func (v Values) Int(name string) int {
	switch x := v[name].(type) {
	case int:
		return x
	case float64:
		return int(x)
	case json.Number:
		n, _ := x.Int64()
		return int(n)
	}
	return 0
}

// String returns a select or text field's value.
func (v Values) String(name string) string {
	s, _ := v[name].(string)
	return s
}

// Bool returns a checkbox field's value.
func (v Values) Bool(name string) bool {
	b, _ := v[name].(bool)
	return b
}

// CheckValues validates raw answer values against fields and returns them
// complete: every field present, defaults filled in, numbers as int.
func CheckValues(fields []Field, raw map[string]json.RawMessage) (Values, error) {
	for name := range raw {
		if !slices.ContainsFunc(fields, func(f Field) bool { return f.Name == name }) {
			return nil, fray.Errorf(fray.EINVALID, "no field %q", name)
		}
	}
	out := Values{}
	for _, f := range fields {
		v, err := checkValue(f, raw[f.Name])
		if err != nil {
			return nil, err
		}
		out[f.Name] = v
	}
	return out, nil
}

func checkValue(f Field, raw json.RawMessage) (any, error) {
	label := f.Label
	if label == "" {
		label = f.Name
	}
	missing := len(raw) == 0 || string(raw) == "null"
	switch f.Type {
	case FieldNumber:
		if missing {
			if f.Default != "" {
				n, err := strconv.Atoi(f.Default)
				if err != nil {
					return nil, fmt.Errorf("field %s: default %q is not a number", f.Name, f.Default)
				}
				return n, nil
			}
			return max(f.Min, min(0, f.Max)), nil
		}
		var x any
		if err := json.Unmarshal(raw, &x); err != nil {
			return nil, fray.Errorf(fray.EINVALID, "%s must be a whole number", label)
		}
		var n float64
		switch v := x.(type) {
		case float64:
			n = v
		case string:
			p, err := strconv.Atoi(strings.TrimSpace(v))
			if err != nil {
				return nil, fray.Errorf(fray.EINVALID, "%s must be a whole number, not %q", label, v)
			}
			n = float64(p)
		default:
			return nil, fray.Errorf(fray.EINVALID, "%s must be a whole number", label)
		}
		if n != math.Trunc(n) || math.Abs(n) > 1e9 {
			return nil, fray.Errorf(fray.EINVALID, "%s must be a whole number", label)
		}
		if (f.Min != 0 || f.Max != 0) && (int(n) < f.Min || int(n) > f.Max) {
			return nil, fray.Errorf(fray.EINVALID, "%s must be between %d and %d", label, f.Min, f.Max)
		}
		return int(n), nil
	case FieldCheckbox:
		if missing {
			return f.Default == "true" || f.Default == "on", nil
		}
		var b bool
		if err := json.Unmarshal(raw, &b); err != nil {
			var s string
			if json.Unmarshal(raw, &s) != nil || (s != "on" && s != "true" && s != "false" && s != "") {
				return nil, fray.Errorf(fray.EINVALID, "%s must be true or false", label)
			}
			b = s == "on" || s == "true"
		}
		return b, nil
	case FieldSelect:
		var s string
		if missing {
			s = f.Default
			if s == "" && len(f.Options) > 0 {
				s = f.Options[0].Value
			}
		} else if err := json.Unmarshal(raw, &s); err != nil {
			return nil, fray.Errorf(fray.EINVALID, "%s must be one of the options", label)
		}
		if !slices.ContainsFunc(f.Options, func(c Choice) bool { return c.Value == s }) {
			return nil, fray.Errorf(fray.EINVALID, "%s: %q is not one of the options", label, s)
		}
		return s, nil
	case FieldString:
		var s string
		if missing {
			s = f.Default
		} else if err := json.Unmarshal(raw, &s); err != nil {
			return nil, fray.Errorf(fray.EINVALID, "%s must be text", label)
		}
		if utf8.RuneCountInString(s) > 200 {
			return nil, fray.Errorf(fray.EINVALID, "%s is longer than 200 characters", label)
		}
		return strings.TrimSpace(s), nil
	}
	return nil, fmt.Errorf("field %s has unknown type %q", f.Name, f.Type)
}

// checkDecision catches a ruleset asking a question no one can answer.
func checkDecision(d Decision) error {
	if len(d.Options) == 0 {
		return fmt.Errorf("decision %q has no options", d.Prompt)
	}
	if d.Default != "" && !d.HasOption(d.Default) {
		return fmt.Errorf("decision %q: default %q is not an option", d.Prompt, d.Default)
	}
	if _, err := CheckValues(d.Fields, nil); err != nil {
		return fmt.Errorf("decision %q: %v", d.Prompt, err)
	}
	return checkSealed(d)
}

// Who answers a question. A question to a combatant (Decision.For) is
// answered by its controller: the player who commands it, or the GM when
// no player does. A question to a combatant the GM keeps hidden is the
// GM's alone, even when a player commands it: its events are secret (the
// hidden combatant is their actor, see Tx.Emit) and every text names "the
// GM" as the one who answers. Rulesets ask the combatant a question
// concerns and never redirect it themselves: this is the one place the
// policy lives.

// Answerer returns GM when the GM alone answers d, else d.For: the
// combatant whose controller answers.
func (b *Base) Answerer(d Decision) string {
	if c := b.Combatant(d.For); c != nil && !c.Hidden {
		return d.For
	}
	return GM
}

// mayAnswer reports whether v answers d.
func (b *Base) mayAnswer(v Viewer, d Decision) bool {
	return v.GM || (b.Answerer(d) != GM && v.CanCommand(d.For))
}

// answererName names who answers d, as any viewer may read it.
func (b *Base) answererName(d Decision) string {
	if a := b.Answerer(d); a != GM {
		return b.NameOf(a)
	}
	return "the GM"
}

// answerArgs are an answer command's arguments.
type answerArgs struct {
	Decision string                     `json:"decision"`
	Choice   string                     `json:"choice"`
	Values   map[string]json.RawMessage `json:"values,omitempty"`
	// Commitment commits to a sealed decision's answer without giving it
	// (sealed.go).
	Commitment string `json:"commitment,omitempty"`
	// Override is the GM deciding for a player: without it the GM cannot
	// answer a decision a player owns (owner.go).
	Override bool `json:"override,omitempty"`
}

// answerable is the pending decision id, when the command's sender may see
// and answer it: an unknown or unseen one is not found, another's refused.
func answerable(tx *Tx, id string) (*Decision, error) {
	b := tx.Base()
	d := b.Decision(id)
	if d == nil || (!tx.viewer.GM && d.For != GM && !Visible(tx.st, tx.viewer, d.For)) {
		return nil, fray.Errorf(fray.ENOTFOUND, "no pending decision %q", id)
	}
	if !b.mayAnswer(tx.viewer, *d) {
		return nil, fray.Errorf(fray.EFORBIDDEN, "this decision is not yours to make")
	}
	return d, nil
}

func decideAnswer(tx *Tx, cmd Command) error {
	if cmd.Actor != "" {
		return fray.Errorf(fray.EINVALID, "an answer names no actor: the decision says who answers")
	}
	var a answerArgs
	if err := cmd.Decode(&a); err != nil {
		return err
	}
	d, err := answerable(tx, a.Decision)
	if err != nil {
		return err
	}
	if a.Override && !tx.viewer.GM {
		return fray.Errorf(fray.EFORBIDDEN, "only the GM may decide for another")
	}
	if player := tx.viewer.playerOf(*d); player != "" && !a.Override {
		return fray.Errorf(fray.EFORBIDDEN, "this decision is %s's to make: decide for %s only deliberately (override)", player, player)
	}
	label := tx.viewer.label(*d)
	if d.Answered {
		return fray.Errorf(fray.EILLEGAL, "this decision is already answered")
	}
	by := GM
	if !tx.viewer.GM {
		by = d.For
	}
	switch {
	case a.Commitment != "" && !d.Sealed:
		return fray.Errorf(fray.EINVALID, "only a sealed decision is answered with a commitment")
	case a.Commitment != "" && (a.Choice != "" || a.Values != nil):
		return fray.Errorf(fray.EINVALID, "a commitment goes alone: the choice and its values are revealed later (unseal)")
	case a.Commitment != "":
		return tx.commit(*d, a.Commitment, by, label)
	case d.Sealed && !tx.viewer.GM:
		return fray.Errorf(fray.EINVALID, "this decision is sealed: commit to your answer (answer with a commitment), then reveal it (unseal) once everyone has answered")
	}
	if !d.HasOption(a.Choice) {
		return fray.Errorf(fray.EINVALID, "%q is not an option of this decision", a.Choice)
	}
	values, err := CheckValues(d.Fields, a.Values)
	if err != nil {
		return err
	}
	return tx.answer(*d, a.Choice, values, by, label)
}

// decideAcceptDefaults answers, as the GM, every decision waiting that has
// a default, but for the decisions players own: those are left to their
// players (or to "Decide for", one at a time).
//
// With {"override": true} it answers the players' decisions too, each
// logged as the GM deciding for its player: what a turn deadline's
// fallback sends when the wait runs out.
func decideAcceptDefaults(tx *Tx, cmd Command) error {
	var args struct {
		Override bool `json:"override"`
	}
	if err := cmd.Decode(&args); err != nil {
		return err
	}
	var ids []string
	players := 0
	for _, d := range tx.Base().Pending {
		switch {
		case d.Answered || d.Default == "":
		case tx.viewer.playerOf(d) != "" && !args.Override:
			players++
		default:
			ids = append(ids, d.ID)
		}
	}
	if len(ids) == 0 && players > 0 {
		return fray.Errorf(fray.EILLEGAL, "only players' decisions wait: they are theirs to make (decide for a player one at a time)")
	}
	if len(ids) == 0 {
		return fray.Errorf(fray.EILLEGAL, "no pending decision has a default")
	}
	for _, id := range ids {
		d := tx.Base().Decision(id)
		if d == nil || d.Answered || tx.Base().Status != StatusRunning {
			continue // answered meanwhile, or gone with the encounter's end
		}
		values, err := CheckValues(d.Fields, nil)
		if err != nil {
			return err
		}
		if err := tx.answer(*d, d.Default, values, GM, tx.viewer.label(*d)); err != nil {
			return err
		}
	}
	return nil
}

// answer records an answer. An open decision is resolved at once and
// handed to the ruleset; a sealed one is kept secret until its group is
// complete. When no decision is left waiting, the parked work resumes.
// label says on whose behalf it was given (the GM deciding for a player,
// a standing order, a fallback), when not by whoever answers d.
func (tx *Tx) answer(d Decision, choice string, values Values, by string, label answerLabel) error {
	b := tx.Base()
	actor := ""
	if d.For != GM {
		actor = d.For
	}
	if !d.Sealed {
		steps := tx.stepsAfter([]string{d.ID})
		prompt := d.Prompt
		if c := b.Combatant(actor); c != nil && !strings.Contains(prompt, c.Name) {
			prompt = c.Name + ": " + prompt // the log says whose answer it is
		}
		text := label.text(prompt + ": " + d.Label(choice))
		if err := tx.Emit(Event{Kind: KindDecisionResolved, Actor: actor, Text: text}.withData(DecisionResolved{ID: d.ID, Choice: choice, Values: values, By: by, DecidedFor: label.Player, Via: label.Via}).With(d.concerns(b)...)); err != nil {
			return err
		}
		return tx.resume([]Answered{{Decision: d, Choice: choice, Values: values, By: by}}, steps)
	}
	who := b.answererName(d)
	if who == "the GM" {
		who = "The GM"
	}
	// (Concatenated rather than formatted: every sealed answer's text,
	// and fmt was a visible share of a simulation.)
	answered, sealed := label.text(who+" has answered."), label.text(who+" answers "+strconv.Quote(d.Prompt)+": "+d.Label(choice)+" (sealed until everyone has answered).")
	if err := tx.Emit(Event{Kind: KindDecisionAnswered, Actor: actor, Text: answered}.withData(DecisionAnswered{ID: d.ID, By: by, DecidedFor: label.Player, Via: label.Via}).With(d.concerns(b)...)); err != nil {
		return err
	}
	return tx.open(d, SealedAnswer{ID: d.ID, Choice: choice, Values: values, By: by}, sealed)
}

// reveal shows every answer of a complete sealed group in one event and
// hands them to the ruleset together.
func (tx *Tx) reveal(group []Decision) error {
	b := tx.Base()
	ids := make([]string, len(group))
	answers := make([]Answered, len(group))
	shown := make([]RevealedAnswer, len(group))
	var texts []string
	for i, d := range group {
		ids[i] = d.ID
		j := slices.IndexFunc(b.Sealed, func(s SealedAnswer) bool { return s.ID == d.ID })
		if j < 0 {
			return fmt.Errorf("sealed decision %s has no answer", d.ID)
		}
		s := b.Sealed[j]
		answers[i] = Answered{Decision: d, Choice: s.Choice, Values: s.Values, By: s.By}
		shown[i] = RevealedAnswer{ID: d.ID, For: d.For, Choice: s.Choice, Label: d.Label(s.Choice), Values: s.Values,
			Nonce: s.Nonce, Committed: s.Committed, Forfeited: s.Forfeited}
		who := b.answererName(d)
		texts = append(texts, fmt.Sprintf("%s — %s", who, d.Label(s.Choice)))
	}
	steps := tx.stepsAfter(ids)
	text := "Revealed: " + strings.Join(texts, "; ") + "."
	if err := tx.Emit(Event{Kind: KindDecisionsRevealed, Text: text, Involves: involvedIn(b, group)}.withData(DecisionsRevealed{Group: group[0].Group, Answers: shown})); err != nil {
		return err
	}
	return tx.resume(answers, steps)
}

func involvedIn(b *Base, ds []Decision) []string {
	var ids []string
	for _, d := range ds {
		for _, id := range d.concerns(b) {
			if !slices.Contains(ids, id) {
				ids = append(ids, id)
			}
		}
	}
	return ids
}

// concerns returns the combatants decision d is about: whom it is for, and
// every combatant its prompt, options or data name by id. The events that
// answer it involve them, so that the filter for secrets (secrets.go) knows
// an answer to a question about a hidden combatant for what it is, though
// the answer's own data names no one.
func (d Decision) concerns(b *Base) []string {
	var ids []string
	if d.For != GM && d.For != "" {
		ids = append(ids, d.For)
	}
	for _, c := range b.Combatants {
		if slices.Contains(ids, c.ID) {
			continue
		}
		if idToken(d.Prompt, c.ID) || idToken(string(d.Data), c.ID) ||
			slices.ContainsFunc(d.Options, func(o Choice) bool { return idToken(o.Value, c.ID) }) {
			ids = append(ids, c.ID)
		}
	}
	return ids
}

// stepsAfter is the parked work that resumes once the decisions ids are
// resolved: the queue, when no other decision waits.
func (tx *Tx) stepsAfter(ids []string) []Step {
	for _, p := range tx.Base().Pending {
		if !slices.Contains(ids, p.ID) {
			return nil
		}
	}
	return slices.Clone(tx.Base().Queue)
}

// resume hands answers to the ruleset, then runs the parked work unless
// the ruleset parked it again behind a new decision.
func (tx *Tx) resume(answers []Answered, steps []Step) error {
	parked := tx.parked
	tx.rest = steps
	err := tx.rs.Answer(tx, answers)
	tx.rest = nil
	if err != nil || tx.parked != parked || len(steps) == 0 {
		return err
	}
	return tx.Run(steps...)
}

func mustJSON(v any) json.RawMessage {
	raw, err := json.Marshal(v)
	if err != nil {
		panic("engine: " + err.Error())
	}
	return raw
}
