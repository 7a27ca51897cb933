package sheet

import (
	"encoding/json"
	"slices"
	"strconv"
	"strings"
)

// Change is one difference between two versions of a stat block, in
// words for people: the field's label and its value before and after ("—"
// when absent).
type Change struct {
	Path   string `json:"path"`
	Label  string `json:"label"`
	Before string `json:"before"`
	After  string `json:"after"`
}

// Diff lists what changed between two versions of a stat block, in the
// schema's words: each scalar field whose value differs, each list as a
// whole (its items' names), and any other part of the stats by its path.
// Values are shown as in the stats ("yes"/"no" for bools, "—" when absent).
func (s Schema) Diff(before, after json.RawMessage) ([]Change, error) {
	a, err := statsDoc(before)
	if err != nil {
		return nil, err
	}
	b, err := statsDoc(after)
	if err != nil {
		return nil, err
	}
	fa, fb := map[string]any{}, map[string]any{}
	flatten(a, "", s, fa)
	flatten(b, "", s, fb)
	labels := map[string]string{}
	order := map[string]int{}
	for i, f := range s.Fields {
		labels[f.Name], order[f.Name] = f.Label, i
	}
	var paths []string
	for p := range fa {
		paths = append(paths, p)
	}
	for p := range fb {
		if _, ok := fa[p]; !ok {
			paths = append(paths, p)
		}
	}
	slices.SortFunc(paths, func(x, y string) int {
		ox, okx := order[x]
		oy, oky := order[y]
		switch {
		case okx && oky:
			return ox - oy
		case okx:
			return -1
		case oky:
			return 1
		}
		return strings.Compare(x, y)
	})
	var out []Change
	for _, p := range paths {
		va, vb := fa[p], fb[p]
		if jsonText(va) == jsonText(vb) {
			continue
		}
		label := labels[p]
		if label == "" {
			label = p
		}
		out = append(out, Change{Path: p, Label: label, Before: showStat(va), After: showStat(vb)})
	}
	return out, nil
}

// flatten maps doc's leaves to dot paths; lists (and the schema's list
// fields) stay whole.
func flatten(doc map[string]any, prefix string, s Schema, out map[string]any) {
	for k, v := range doc {
		path := prefix + k
		if m, ok := v.(map[string]any); ok && !isListField(s, path) {
			flatten(m, path+".", s, out)
			continue
		}
		out[path] = v
	}
}

func isListField(s Schema, path string) bool {
	for _, f := range s.Fields {
		if f.Name == path {
			return f.Type == FieldList
		}
	}
	return false
}

// showStat shows a stats value: lists of named items by their names,
// other composites as JSON cut to 80 characters.
func showStat(v any) string {
	switch x := v.(type) {
	case nil:
		return "—"
	case bool:
		if x {
			return "yes"
		}
		return "no"
	case string:
		if x == "" {
			return "—"
		}
		return x
	case float64:
		return strconv.FormatFloat(x, 'f', -1, 64)
	case []any:
		if len(x) == 0 {
			return "none"
		}
		var names []string
		for _, it := range x {
			m, _ := it.(map[string]any)
			n, _ := m["name"].(string)
			if n == "" {
				n, _ = m["id"].(string)
			}
			if n == "" {
				names = nil
				break
			}
			names = append(names, n)
		}
		if names != nil {
			return strings.Join(names, ", ")
		}
	}
	s := jsonText(v)
	if r := []rune(s); len(r) > 80 {
		s = string(r[:79]) + "…"
	}
	return s
}
