package say

import (
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/fray-vtt/fray/internal/engine"
	"github.com/fray-vtt/fray/internal/fray"
)

// Reading is a sentence read as a command the viewer may issue now.
type Reading struct {
	// Command is ready to submit: an action with every field's value, or
	// an answer ({"decision","choice","values"}) in the clear — a sealed
	// decision's answer is the caller's to commit to (Sealed).
	Command engine.Command
	// Words is the sentence as Fray reads it back, every value named by
	// its label: "Attack Outlaw 1 (Short), Weapon Knife".
	Words string
	// Sealed is set when the command answers a sealed decision.
	Sealed bool
}

// form is one thing the viewer may say now: an action, or one option of a
// pending decision (its answer).
type form struct {
	verb      []string // the label's words
	verbHead  int
	kind      []string // the action kind's words (a hyphen between words)
	label     string
	actor     string // the acting combatant, "" for a GM command or the GM's question
	actorName string
	action    *engine.Action
	decision  *engine.Decision
	question  int // the decision's place among the pending ones, from 1
	option    engine.Choice
	fields    []engine.Field
}

// forms lists everything v may say now.
func forms(v engine.View) []form {
	names := sayNames(v)
	var out []form
	for i := range v.Actions {
		a := &v.Actions[i]
		out = append(out, form{verb: plain(a.Label), verbHead: headLength(a.Label), kind: strings.Split(a.Kind, "-"),
			label: a.Label, actor: a.Actor, actorName: names[a.Actor], action: a, fields: sayFields(a.Fields, names)})
	}
	for i := range v.Pending {
		d := &v.Pending[i]
		fields := sayFields(d.Fields, names)
		for _, o := range d.Options {
			out = append(out, form{verb: plain(o.Label), verbHead: headLength(o.Label), label: o.Label,
				actor: d.For, actorName: names[d.For], decision: d, question: i + 1, option: o, fields: fields})
		}
	}
	return out
}

// sayNames names every combatant v shows, so that each name says one:
// combatants who share a name are numbered in the order v lists them
// ("Draugr 1", "Draugr 2"). Only what v shows is counted, so a number
// tells nothing of anyone hidden.
func sayNames(v engine.View) map[string]string {
	count := map[string]int{}
	for _, c := range v.Combatants {
		count[strings.ToLower(c.Name)]++
	}
	out := make(map[string]string, len(v.Combatants))
	seen := map[string]int{}
	for _, c := range v.Combatants {
		name := c.Name
		if k := strings.ToLower(c.Name); count[k] > 1 {
			seen[k]++
			name += " " + strconv.Itoa(seen[k])
			out[numbered+c.ID] = c.Name
		}
		out[c.ID] = name
	}
	return out
}

// numbered prefixes the keys of sayNames that mark a combatant whose name
// was numbered (no combatant id holds a NUL).
const numbered = "\x00"

// sayFields returns fields whose options each say one thing: an option
// that stands for a combatant known by a numbered name is labelled with
// it, and options still alike are numbered in their order.
func sayFields(fields []engine.Field, names map[string]string) []engine.Field {
	out := slices.Clone(fields)
	for i := range out {
		if out[i].Type != engine.FieldSelect {
			continue
		}
		opts := slices.Clone(out[i].Options)
		count := map[string]int{}
		for j, o := range opts {
			if name, ok := names[o.Value]; ok {
				// A numbered name ("Draugr 2") in place of the shared one.
				if cut := strings.LastIndexByte(name, ' '); cut > 0 && names[numbered+o.Value] != "" {
					if base := name[:cut]; strings.HasPrefix(o.Label, base) && !strings.HasPrefix(o.Label, name) {
						opts[j].Label = name + strings.TrimPrefix(o.Label, base)
					}
				}
			}
			count[strings.ToLower(labels(opts[j : j+1])[0])]++
		}
		seen := map[string]int{}
		for j := range opts {
			if k := strings.ToLower(labels(opts[j : j+1])[0]); count[k] > 1 {
				seen[k]++
				opts[j].Label = labels(opts[j : j+1])[0] + " " + strconv.Itoa(seen[k])
			}
		}
		out[i].Options = opts
	}
	return out
}

// leading are words a sentence may open with before what it says: "answer
// neither", "choose Strength", "I attack".
var leading = map[string]bool{"answer": true, "choose": true, "pick": true, "i": true, "we": true, "say": true, "do": true}

// Parse reads text as a command the viewer of v may issue now. Its error
// is a clear refusal (fray.EINVALID) a player can act on: a question when
// the text could mean more than one thing ("Which Outlaw: 1 or 2?"), else
// what Fray can read there.
func Parse(v engine.View, text string) (Reading, error) {
	all := forms(v)
	if len(all) == 0 {
		return Reading{}, fray.Errorf(fray.EILLEGAL, "There is nothing you may do now.%s", waitingOn(v))
	}
	ws := words(text)
	if len(ws) > 60 {
		return Reading{}, fray.Errorf(fray.EINVALID, "That is too long: say one thing at a time.")
	}
	candidates, ws := narrow(v, all, ws)
	if len(ws) == 0 {
		return Reading{}, fray.Errorf(fray.EINVALID, "Say what to do: %s.", verbList(all))
	}
	type reading struct {
		f      form
		verb   run
		values map[string]any
		named  []string
	}
	var ok []reading
	var best *reading
	var bestErr error
	for _, f := range candidates {
		r := matchRun(f.verb, f.verbHead, ws, false)
		// The kind's words name an action too, after its label.
		if k := f.kindRun(ws); k.better(r) {
			r = k
		}
		if r.n == 0 || (r.from > 0 && !r.full) || (!r.exact && !r.full && r.n < len(ws)) {
			continue
		}
		// A verb that names only filler words ("The …") is no verb.
		if !r.full && allFiller(ws[:r.n]) {
			continue
		}
		values, named, err := f.fill(ws[r.n:])
		rd := reading{f, r, values, named}
		if err != nil {
			if best == nil || r.better(best.verb) {
				best, bestErr = &rd, err
			}
			continue
		}
		ok = append(ok, rd)
	}
	if len(ok) == 0 {
		if bestErr != nil {
			return Reading{}, bestErr
		}
		return Reading{}, fray.Errorf(fray.EINVALID, "You cannot do that now. You may: %s.", verbList(candidates))
	}
	// The best verb wins; among equals, a whole label over a part of one.
	slices.SortStableFunc(ok, func(a, b reading) int {
		switch {
		case a.verb.better(b.verb):
			return -1
		case b.verb.better(a.verb):
			return 1
		}
		return 0
	})
	top := []reading{ok[0]}
	for _, r := range ok[1:] {
		if !ok[0].verb.better(r.verb) && !sameCommand(ok[0].f, r.f, ok[0].values, r.values) {
			top = append(top, r)
		}
	}
	if len(top) > 1 {
		// Whoever has the floor first, when the rest differ only by actor.
		var acting []reading
		for _, r := range top {
			if r.f.actor != "" && slices.Contains(v.Acting, r.f.actor) {
				acting = append(acting, r)
			}
		}
		if len(acting) > 0 && len(acting) < len(top) {
			top = acting
		}
	}
	if len(top) > 1 {
		return Reading{}, fray.Errorf(fray.EINVALID, "%s", ambiguity(top[0].f, top[1:], func(r reading) form { return r.f }))
	}
	r := top[0]
	return r.f.reading(r.values, r.named), nil
}

// kindRun matches the words with the action's kind, said as words (its
// hyphens as spaces) or as it is written; it ranks below its label.
func (f form) kindRun(ws []word) run {
	if f.action == nil {
		return run{}
	}
	for _, kind := range [][]string{f.kind, {f.action.Kind}} {
		if k := matchRun(kind, len(kind), ws, false); k.exact && k.full && k.from == 0 {
			k.from = len(f.verb) + 1
			return k
		}
	}
	return run{}
}

// narrow reads who speaks and to which question, at the start of a
// sentence: "Outlaw 1: attack Sal", "question 2: neither"; it returns the
// forms left and the words after.
func narrow(v engine.View, all []form, ws []word) ([]form, []word) {
	for len(ws) > 0 && leading[ws[0].text] && !ws[0].quoted {
		ws = ws[1:]
	}
	if len(ws) >= 2 && (ws[0].text == "question" || ws[0].text == "decision") {
		if n, ok := number(ws[1]); ok {
			var out []form
			for _, f := range all {
				if f.question == n {
					out = append(out, f)
				}
			}
			if len(out) > 0 {
				return narrow(v, out, ws[2:])
			}
		}
	}
	var best run
	var who string
	for _, f := range all {
		if f.actorName == "" {
			continue
		}
		name := plain(f.actorName)
		r := matchRun(name, len(name), ws, false)
		if r.from == 0 && r.full && r.exact && r.n < len(ws) && r.better(best) {
			best, who = r, f.actor
		}
	}
	if who != "" {
		var out []form
		for _, f := range all {
			if f.actor == who {
				out = append(out, f)
			}
		}
		// Only when what follows the name is something the actor may do:
		// "Sal" may as well be whom the sentence is about.
		rest := ws[best.n:]
		for len(rest) > 0 && leading[rest[0].text] {
			rest = rest[1:]
		}
		for _, f := range out {
			if r := matchRun(f.verb, f.verbHead, rest, false); r.n > 0 && r.from == 0 {
				return out, rest
			}
			if f.kindRun(rest).n > 0 {
				return out, rest
			}
		}
	}
	return all, ws
}

func allFiller(ws []word) bool {
	for _, w := range ws {
		if !filler[w.text] {
			return false
		}
	}
	return true
}

// sameCommand reports whether two readings are one command said two
// ways (two actions of one kind whose fields came out alike).
func sameCommand(a, b form, av, bv map[string]any) bool {
	if a.action != nil && b.action != nil {
		return a.action == b.action || (a.action.Kind == b.action.Kind && a.action.Actor == b.action.Actor && fmt.Sprint(av) == fmt.Sprint(bv))
	}
	return a.decision == b.decision && a.option.Value == b.option.Value
}

// ambiguity asks which of several things a sentence meant: "Who: Sal or
// Ana?", "Which: Attack or Attack an object?".
func ambiguity[T any](first form, rest []T, f func(T) form) string {
	forms := []form{first}
	for _, r := range rest {
		forms = append(forms, f(r))
	}
	sameLabel, sameActor := true, true
	for _, o := range forms[1:] {
		sameLabel = sameLabel && o.label == first.label
		sameActor = sameActor && o.actor == first.actor
	}
	var names []string
	switch {
	case sameLabel && !sameActor:
		for _, o := range forms {
			names = appendNew(names, o.speaker())
		}
		return "Who " + strings.ToLower(first.label) + "s: " + orList(names) + "? Say the name first, as in “" + names[0] + ": " + strings.ToLower(first.label) + "”."
	case sameLabel:
		for _, o := range forms {
			if o.decision != nil {
				names = appendNew(names, fmt.Sprintf("question %d (%s)", o.question, o.decision.Prompt))
			}
		}
		if len(names) > 1 {
			return "To which question: " + orList(names) + "? Say, for example, “question " + strconv.Itoa(forms[0].question) + ": " + strings.ToLower(first.label) + "”."
		}
	}
	for _, o := range forms {
		names = appendNew(names, o.label)
	}
	return "Which: " + orList(names) + "?"
}

// speaker names who says a form: its actor, or the GM.
func (f form) speaker() string {
	if f.actorName != "" {
		return f.actorName
	}
	return "the GM"
}

func appendNew(list []string, s string) []string {
	if slices.Contains(list, s) {
		return list
	}
	return append(list, s)
}

// orList writes "A", "A or B", "A, B or C", cut at eight.
func orList(items []string) string {
	if len(items) > 8 {
		items = append(slices.Clone(items[:7]), fmt.Sprintf("%d more", len(items)-7))
	}
	if len(items) <= 1 {
		return strings.Join(items, "")
	}
	return strings.Join(items[:len(items)-1], ", ") + " or " + items[len(items)-1]
}

// verbList names what may be said now, once each.
func verbList(fs []form) string {
	var names []string
	for _, f := range fs {
		names = appendNew(names, strings.ToLower(f.label))
	}
	if len(names) > 12 {
		names = append(names[:11], "…")
	}
	return strings.Join(names, ", ")
}

// waitingOn says whom the encounter waits on, as the view names them.
func waitingOn(v engine.View) string {
	if len(v.Waiting) == 0 {
		return ""
	}
	return " Waiting on " + strings.Join(v.Waiting, ", ") + "."
}
