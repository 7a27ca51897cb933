package say

import (
	"strconv"
	"strings"

	"github.com/fray-vtt/fray/internal/engine"
	"github.com/fray-vtt/fray/internal/fray"
)

// negations turn the checkbox named next off: "no herbal cure".
var negations = map[string]bool{"no": true, "not": true, "without": true, "don't": true, "dont": true}

// fill reads the words after a form's verb as its fields' values: a
// field's label may introduce its value ("weapon knife"); a choice may
// stand alone ("Sal"); a number goes to the field its label named, or the
// first number field; a checkbox is on when its label is said ("no …"
// turns it off); a text field takes the quoted words, or every word after
// its label. Fields not said take their defaults, but a target or a
// place with more than one option, which is asked back.
func (f form) fill(ws []word) (map[string]any, []string, error) {
	values := map[string]any{}
	var named []string
	var pending *engine.Field
	negate := false
	set := func(fd *engine.Field, val any, shown string) {
		values[fd.Name] = val
		named = append(named, fieldName(fd)+" "+shown)
		pending, negate = nil, false
	}
	for i := 0; i < len(ws); {
		w := ws[i]
		if w.quoted {
			fd := pending
			if fd == nil || fd.Type != engine.FieldString {
				fd = f.firstOpen(values, engine.FieldString)
			}
			if fd == nil {
				return nil, nil, f.notRead(named)
			}
			set(fd, w.text, "“"+w.text+"”")
			i++
			continue
		}
		// A field's label, or a choice: the longer run wins; a label on a tie.
		kf, kr := f.keyword(values, ws[i:])
		cf, choice, cr, tie := f.choice(values, pending, ws[i:])
		switch {
		case cf != nil && cr.n > kr.n && (cr.full || !allFiller(ws[i:i+cr.n])):
			if len(tie) > 1 {
				return nil, nil, fray.Errorf(fray.EINVALID, "%s", whichOf(ws[i:i+cr.n], tie))
			}
			set(cf, choice.Value, choice.Label)
			i += cr.n
			continue
		case kf != nil:
			i += kr.n
			switch kf.Type {
			case engine.FieldCheckbox:
				set(kf, !negate, onOff(!negate))
			case engine.FieldString:
				if i < len(ws) && ws[i].quoted {
					pending = kf
					continue
				}
				var rest []string
				for ; i < len(ws); i++ {
					rest = append(rest, ws[i].text)
				}
				text := strings.Join(rest, " ")
				set(kf, text, "“"+text+"”")
			default:
				pending = kf
			}
			continue
		}
		if n, ok := number(w); ok && !negations[w.text] {
			fd := pending
			if fd == nil || fd.Type != engine.FieldNumber {
				fd = f.firstOpen(values, engine.FieldNumber)
			}
			if fd != nil {
				// Out of bounds, the ruleset refuses it as it does a form's.
				set(fd, n, strconv.Itoa(n))
				i++
				continue
			}
		}
		if negations[w.text] {
			negate = true
			i++
			continue
		}
		if filler[w.text] {
			i++
			continue
		}
		if pending != nil && pending.Type == engine.FieldSelect {
			return nil, nil, fray.Errorf(fray.EINVALID, "%s: %s is one of %s.", f.label, fieldName(pending), orList(labels(pending.Options)))
		}
		return nil, nil, f.notRead(named)
	}
	for i := range f.fields {
		fd := &f.fields[i]
		if _, ok := values[fd.Name]; ok {
			continue
		}
		switch fd.Type {
		case engine.FieldSelect:
			switch {
			case fd.Default != "":
				values[fd.Name] = fd.Default
			case len(fd.Options) == 1 || (len(fd.Options) > 1 && !fd.Target && !fd.Place):
				values[fd.Name] = fd.Options[0].Value
			case len(fd.Options) == 0:
				return nil, nil, fray.Errorf(fray.EINVALID, "%s: there is no %s to choose now.", f.label, fieldName(fd))
			default:
				return nil, nil, fray.Errorf(fray.EINVALID, "%s — which %s: %s?", f.label, fieldName(fd), orList(labels(fd.Options)))
			}
		case engine.FieldNumber:
			n, err := strconv.Atoi(fd.Default)
			if err != nil {
				n = max(fd.Min, min(0, fd.Max))
			}
			values[fd.Name] = n
		case engine.FieldCheckbox:
			values[fd.Name] = fd.Default == "true" || fd.Default == "on"
		case engine.FieldString:
			values[fd.Name] = fd.Default
		}
	}
	return values, named, nil
}

// notRead refuses words that name nothing of the form, without repeating
// them (they may be a guess at something the viewer may not see).
func (f form) notRead(named []string) error {
	what := f.label
	if len(named) > 0 {
		what += ", " + strings.Join(named, ", ")
	}
	if len(f.fields) == 0 {
		return fray.Errorf(fray.EINVALID, "“%s” takes nothing more: say just “%s”.", f.label, strings.ToLower(f.label))
	}
	var say []string
	for i := range f.fields {
		say = append(say, fieldName(&f.fields[i]))
	}
	return fray.Errorf(fray.EINVALID, "After “%s”, the rest names nothing I know. %s takes: %s.", what, f.label, strings.Join(say, ", "))
}

// keyword finds the field whose label the words begin with, among those
// not yet filled.
func (f form) keyword(values map[string]any, ws []word) (*engine.Field, run) {
	var best run
	var out *engine.Field
	for i := range f.fields {
		fd := &f.fields[i]
		if _, done := values[fd.Name]; done || fd.Label == "" {
			continue
		}
		label := plain(fd.Label)
		r := matchRun(label, headLength(fd.Label), ws, false)
		if r.from == 0 && r.full && r.n > 0 && r.better(best) {
			best, out = r, fd
		}
	}
	return out, best
}

// choice finds the option the words begin with naming, in the field a
// label named (pending) or any select not yet filled; tie lists the
// options named as well as the best one is, when that is more than one.
func (f form) choice(values map[string]any, pending *engine.Field, ws []word) (*engine.Field, engine.Choice, run, []engine.Choice) {
	var best run
	var out *engine.Field
	var pick engine.Choice
	var tie []engine.Choice
	for i := range f.fields {
		fd := &f.fields[i]
		if fd.Type != engine.FieldSelect {
			continue
		}
		if _, done := values[fd.Name]; done || (pending != nil && pending != fd) {
			continue
		}
		for _, o := range fd.Options {
			label := plain(o.Label)
			r := matchRun(label, headLength(o.Label), ws, false)
			if r.n == 0 {
				continue
			}
			switch {
			case out == nil || r.better(best):
				best, out, pick, tie = r, fd, o, []engine.Choice{o}
			case !best.better(r) && fd == out:
				tie = append(tie, o)
			}
		}
	}
	return out, pick, best, tie
}

// whichOf asks which of the options the words named: "Which Outlaw: 1 or
// 2?" — the words the options share are said once.
func whichOf(said []word, options []engine.Choice) string {
	ls := labels(options)
	common := ls[0]
	for _, l := range ls[1:] {
		for !strings.HasPrefix(l, common) {
			common = common[:len(common)-1]
		}
	}
	if i := strings.LastIndexByte(common, ' '); i > 0 && i < len(common) {
		common = common[:i+1]
	} else if i < 0 {
		common = ""
	}
	if common != "" {
		for i := range ls {
			ls[i] = strings.TrimPrefix(ls[i], common)
		}
		return "Which " + strings.TrimSpace(common) + ": " + orList(ls) + "?"
	}
	return "Which one: " + orList(ls) + "?"
}

func labels(cs []engine.Choice) []string {
	out := make([]string, len(cs))
	for i, c := range cs {
		out[i] = c.Label
		if out[i] == "" {
			out[i] = c.Value
		}
	}
	return out
}

func fieldName(fd *engine.Field) string {
	if fd.Label != "" {
		return fd.Label
	}
	return fd.Name
}

func onOff(b bool) string {
	if b {
		return "yes"
	}
	return "no"
}

// firstOpen is the first field of type t not yet filled.
func (f form) firstOpen(values map[string]any, t string) *engine.Field {
	for i := range f.fields {
		if _, done := values[f.fields[i].Name]; !done && f.fields[i].Type == t {
			return &f.fields[i]
		}
	}
	return nil
}

// reading builds the command a form filled with values stands for.
func (f form) reading(values map[string]any, named []string) Reading {
	said := f.label
	if f.decision != nil {
		said = "Answer “" + f.decision.Prompt + "”: " + f.label
	}
	if f.actorName != "" && f.action != nil {
		said = f.actorName + ": " + said
	}
	if len(named) > 0 {
		said += ", " + strings.Join(named, ", ")
	}
	if f.decision != nil {
		args := map[string]any{"decision": f.decision.ID, "choice": f.option.Value}
		if len(f.decision.Fields) > 0 {
			args["values"] = values
		}
		return Reading{Command: engine.NewCommand(engine.KindAnswer, "", args), Words: said, Sealed: f.decision.Sealed}
	}
	return Reading{Command: engine.NewCommand(f.action.Kind, f.action.Actor, values), Words: said}
}
