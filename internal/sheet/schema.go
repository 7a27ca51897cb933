package sheet

import (
	"encoding/json"
	"net/url"
	"sort"
	"strconv"
	"strings"

	"github.com/fray-vtt/fray/internal/engine"
	"github.com/fray-vtt/fray/internal/fray"
)

// Stat field types a Schema may use.
const (
	FieldDie  = "die"  // a trait die, chosen from Choices
	FieldInt  = "int"  // a whole number
	FieldBool = "bool" // a checkbox
	FieldText = "text" // free text
	FieldList = "list" // a list of objects described by Items
)

// Schema describes a ruleset's stat block (a combatant's "stats" in the
// setup document) so that pages can render and read it without
// ruleset-specific code.
type Schema struct {
	Fields []Field `json:"fields"`
}

// Field is one input of a stat block. Name is its path in the stats
// JSON, dot-separated for nested objects ("attributes.agility"). Empty
// values are left out of the stats, so the ruleset's defaults apply.
type Field struct {
	Name    string          `json:"name"`
	Label   string          `json:"label"`
	Type    string          `json:"type"`
	Choices []engine.Choice `json:"choices,omitempty"`
	Default string          `json:"default,omitempty"`
	// PCDefault is the value a new player character's form starts with,
	// where it differs from Default (a rule that makes every hero
	// special: a Wild Card, a named character). A bestiary entry starts
	// with Default.
	PCDefault string  `json:"pcDefault,omitempty"`
	Group     string  `json:"group,omitempty"`
	Help      string  `json:"help,omitempty"`
	Items     []Field `json:"items,omitempty"` // a list's item fields
	// IDFrom names, for a list, the item field an empty "id" item field is
	// derived from (lower-case, dashes, unique within the list).
	IDFrom string `json:"idFrom,omitempty"`
}

// Schemaer is implemented by rulesets that describe their stat blocks.
type Schemaer interface {
	Schema() Schema
}

// Deriver is implemented by rulesets that compute derived values (a
// defence, a speed …) from a stat block, keyed by label.
type Deriver interface {
	Derive(stats json.RawMessage) (map[string]string, error)
}

// NewPC is the stat block a new player character starts with: each
// field's PCDefault, the rest left to the ruleset's defaults.
func (s Schema) NewPC() (json.RawMessage, error) {
	form := url.Values{}
	for _, f := range s.Fields {
		if f.PCDefault != "" {
			form.Set(f.Name, f.PCDefault)
		}
	}
	return s.ParseForm(form)
}

// ListRows is how many blank rows a form offers after a list's items.
const ListRows = 2

// Groups returns the schema's groups in order of first appearance.
func (s Schema) Groups() []string {
	var out []string
	seen := map[string]bool{}
	for _, f := range s.Fields {
		if !seen[f.Group] {
			seen[f.Group] = true
			out = append(out, f.Group)
		}
	}
	return out
}

// FormValues flattens stats into form values keyed by input name: a field's
// Name, or "list.N.item" for list items. Values absent from stats are "".
func (s Schema) FormValues(stats json.RawMessage) (map[string]string, int, error) {
	out := map[string]string{}
	var doc map[string]any
	if len(stats) > 0 {
		if err := json.Unmarshal(stats, &doc); err != nil {
			return nil, 0, fray.Errorf(fray.EINVALID, "stats are not a JSON object: %v", err)
		}
	}
	rows := 0
	for _, f := range s.Fields {
		v, ok := lookup(doc, f.Name)
		if !ok {
			continue
		}
		if f.Type == FieldList {
			items, _ := v.([]any)
			rows = max(rows, len(items))
			for i, it := range items {
				obj, _ := it.(map[string]any)
				for _, sub := range f.Items {
					if sv, ok := obj[sub.Name]; ok {
						out[f.Name+"."+strconv.Itoa(i)+"."+sub.Name] = scalar(sv)
					}
				}
			}
			continue
		}
		out[f.Name] = scalar(v)
	}
	return out, rows, nil
}

func lookup(doc map[string]any, path string) (any, bool) {
	var cur any = doc
	for _, part := range strings.Split(path, ".") {
		m, ok := cur.(map[string]any)
		if !ok {
			return nil, false
		}
		if cur, ok = m[part]; !ok {
			return nil, false
		}
	}
	return cur, true
}

func scalar(v any) string {
	switch x := v.(type) {
	case string:
		return x
	case bool:
		if x {
			return "on"
		}
		return ""
	case float64:
		return strconv.FormatFloat(x, 'f', -1, 64)
	case nil:
		return ""
	}
	b, _ := json.Marshal(v)
	return string(b)
}

// ParseForm reads posted form values back into stats JSON: the inverse of
// FormValues. Empty values are left out; list rows whose inputs are all
// empty are dropped.
func (s Schema) ParseForm(form url.Values) (json.RawMessage, error) {
	doc := map[string]any{}
	for _, f := range s.Fields {
		if f.Type == FieldList {
			items, err := parseList(f, form)
			if err != nil {
				return nil, err
			}
			if len(items) > 0 {
				set(doc, f.Name, items)
			}
			continue
		}
		v, ok, err := parseValue(f, form.Get(f.Name))
		if err != nil {
			return nil, err
		}
		if ok {
			set(doc, f.Name, v)
		}
	}
	return json.Marshal(doc)
}

func parseValue(f Field, raw string) (any, bool, error) {
	raw = strings.TrimSpace(raw)
	switch f.Type {
	case FieldBool:
		if raw == "" || raw == "false" {
			return nil, false, nil
		}
		return true, true, nil
	case FieldInt:
		if raw == "" {
			return nil, false, nil
		}
		n, err := strconv.Atoi(raw)
		if err != nil {
			return nil, false, fray.Errorf(fray.EINVALID, "%s must be a whole number, not %q", f.Label, raw)
		}
		return n, true, nil
	case FieldDie:
		if raw == "" {
			return nil, false, nil
		}
		if len(f.Choices) > 0 && !hasChoice(f.Choices, raw) {
			return nil, false, fray.Errorf(fray.EINVALID, "%s: %q is not one of the offered dice", f.Label, raw)
		}
		return raw, true, nil
	default:
		if raw == "" {
			return nil, false, nil
		}
		return raw, true, nil
	}
}

func hasChoice(cs []engine.Choice, v string) bool {
	for _, c := range cs {
		if c.Value == v {
			return true
		}
	}
	return false
}

// parseList reads the rows "name.N.item" in order of N.
func parseList(f Field, form url.Values) ([]any, error) {
	idx := map[int]bool{}
	prefix := f.Name + "."
	for k := range form {
		rest, ok := strings.CutPrefix(k, prefix)
		if !ok {
			continue
		}
		n, _, _ := strings.Cut(rest, ".")
		if i, err := strconv.Atoi(n); err == nil && i >= 0 && i < 100 {
			idx[i] = true
		}
	}
	order := make([]int, 0, len(idx))
	for i := range idx {
		order = append(order, i)
	}
	sort.Ints(order)
	var out []any
	used := map[string]bool{}
	for _, i := range order {
		obj := map[string]any{}
		for _, sub := range f.Items {
			v, ok, err := parseValue(sub, form.Get(prefix+strconv.Itoa(i)+"."+sub.Name))
			if err != nil {
				return nil, fray.Errorf(fray.EINVALID, "%s %d: %s", f.Label, len(out)+1, fray.ErrorMessage(err))
			}
			if ok {
				obj[sub.Name] = v
			}
		}
		if len(obj) == 0 {
			continue
		}
		if f.IDFrom != "" {
			id, _ := obj["id"].(string)
			if id == "" {
				src, _ := obj[f.IDFrom].(string)
				id = UniqueSlug(src, used)
			}
			used[id] = true
			obj["id"] = id
		}
		out = append(out, obj)
	}
	return out, nil
}

func set(doc map[string]any, path string, v any) {
	parts := strings.Split(path, ".")
	cur := doc
	for _, p := range parts[:len(parts)-1] {
		next, ok := cur[p].(map[string]any)
		if !ok {
			next = map[string]any{}
			cur[p] = next
		}
		cur = next
	}
	cur[parts[len(parts)-1]] = v
}

// Slug turns a name into an id: lower-case letters and digits joined by
// single dashes, at most 32 characters; "x" when nothing is left.
func Slug(name string) string {
	var b strings.Builder
	dash := false
	for _, r := range strings.ToLower(name) {
		switch {
		case r >= 'a' && r <= 'z' || r >= '0' && r <= '9':
			if dash && b.Len() > 0 {
				b.WriteByte('-')
			}
			dash = false
			b.WriteRune(r)
		default:
			dash = true
		}
		if b.Len() >= 32 {
			break
		}
	}
	s := strings.TrimRight(b.String(), "-")
	if len(s) > 32 {
		s = strings.TrimRight(s[:32], "-")
	}
	if s == "" {
		return "x"
	}
	return s
}

// UniqueSlug is Slug(name), suffixed "-2", "-3" … until it is not in used.
func UniqueSlug(name string, used map[string]bool) string {
	base := Slug(name)
	id := base
	for n := 2; used[id]; n++ {
		id = base + "-" + strconv.Itoa(n)
	}
	return id
}
