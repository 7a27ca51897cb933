package say

import (
	"encoding/json"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/fray-vtt/fray/internal/engine"
	"github.com/fray-vtt/fray/internal/fray"
)

// Sentence writes command c, one the viewer of v may issue now, as words
// Parse reads back as c: the action's label, then each field's value — a
// target by its name alone, anything else after its field's label ("Attack
// Outlaw 1, Weapon Knife"); an answer as its option's label. The speaker
// opens the sentence when the view has more than one ("Sal: attack …"), the
// question's number when more than one waits ("question 2: neither"). It is
// the grammar's generator: what a bot says, and how the player docs show
// each ruleset's words.
func Sentence(v engine.View, c engine.Command) (string, error) {
	var args map[string]json.RawMessage
	if len(c.Args) > 0 {
		if err := json.Unmarshal(c.Args, &args); err != nil {
			return "", fray.Errorf(fray.EINVALID, "command arguments: %v", err)
		}
	}
	all := forms(v)
	speakers := map[string]bool{}
	for _, f := range all {
		speakers[f.actor] = true
	}
	if c.Kind == engine.KindAnswer {
		var id, choice string
		_ = json.Unmarshal(args["decision"], &id)
		_ = json.Unmarshal(args["choice"], &choice)
		var values map[string]json.RawMessage
		_ = json.Unmarshal(args["values"], &values)
		for _, f := range all {
			if f.decision == nil || f.decision.ID != id || f.option.Value != choice {
				continue
			}
			s := f.label + f.values(values)
			if len(v.Pending) > 1 {
				s = fmt.Sprintf("question %d: %s", f.question, s)
			}
			return s, nil
		}
		return "", fray.Errorf(fray.EINVALID, "no question %q with the answer %q waits on you", id, choice)
	}
	for _, f := range all {
		if f.action == nil || f.action.Kind != c.Kind || f.action.Actor != c.Actor || !f.takes(args) {
			continue
		}
		s := f.label + f.values(args)
		if len(speakers) > 1 && f.actorName != "" {
			s = f.actorName + ": " + s
		}
		return s, nil
	}
	return "", fray.Errorf(fray.EILLEGAL, "that action is not available now")
}

// takes reports whether the form's fields take args: each a field of it,
// each choice one of its field's options.
func (f form) takes(args map[string]json.RawMessage) bool {
	for name, raw := range args {
		i := slices.IndexFunc(f.fields, func(fd engine.Field) bool { return fd.Name == name })
		if i < 0 {
			return false
		}
		if fd := f.fields[i]; fd.Type == engine.FieldSelect {
			var s string
			if json.Unmarshal(raw, &s) != nil || !slices.ContainsFunc(fd.Options, func(o engine.Choice) bool { return o.Value == s }) {
				return false
			}
		}
	}
	return true
}

// values writes the fields' values as words.
func (f form) values(args map[string]json.RawMessage) string {
	var b strings.Builder
	for i := range f.fields {
		fd := &f.fields[i]
		raw, ok := args[fd.Name]
		if !ok {
			continue
		}
		switch fd.Type {
		case engine.FieldSelect:
			var s string
			_ = json.Unmarshal(raw, &s)
			for _, o := range fd.Options {
				if o.Value != s {
					continue
				}
				if fd.Target && b.Len() == 0 {
					b.WriteString(" " + labels([]engine.Choice{o})[0])
				} else {
					b.WriteString(", " + fieldName(fd) + " " + labels([]engine.Choice{o})[0])
				}
			}
		case engine.FieldNumber:
			var n json.Number
			if json.Unmarshal(raw, &n) == nil {
				if x, err := n.Int64(); err == nil {
					b.WriteString(", " + fieldName(fd) + " " + strconv.FormatInt(x, 10))
				}
			}
		case engine.FieldCheckbox:
			var on bool
			_ = json.Unmarshal(raw, &on)
			if on {
				b.WriteString(", " + fieldName(fd))
			} else {
				b.WriteString(", no " + fieldName(fd))
			}
		case engine.FieldString:
			var s string
			_ = json.Unmarshal(raw, &s)
			s = strings.NewReplacer(`"`, "'", "“", "'", "”", "'").Replace(s)
			b.WriteString(", " + fieldName(fd) + " \"" + s + "\"")
		}
	}
	return b.String()
}
