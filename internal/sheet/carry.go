package sheet

import (
	"encoding/json"
	"fmt"
	"math"
	"net/url"
	"sort"
	"strconv"
	"strings"

	"github.com/fray-vtt/fray/internal/engine"
	"github.com/fray-vtt/fray/internal/fray"
)

// Carry-over: what a campaign's character keeps from one encounter to the
// next.
//
// A character is a stat block (a CombatantSetup's Stats). Preparing an
// encounter copies the character's stats into the setup; when the encounter
// ends, the ruleset reads the values that outlive the fight out of the final
// state (Carrier), and the GM confirms, edits or skips them. Confirmed values
// are written back into the character's stats (WriteCarried), so the stats
// stay the character's one truth between fights and the next encounter
// starts from them. Everything here is pure; the campaign's bookkeeping
// (revisions, which encounter was carried) lives in package carry.

// Carrier is implemented by rulesets whose combatants keep values from one
// encounter to the next: wounds, spent XP, ammunition, a lasting taint, the
// points of a worn armour …
//
// CarryFields declares those values (see CarryField).
//
// A value that resets between encounters (a per-fight counter, a pool that
// refills every session, the turn ledger) is simply not declared: the next
// encounter starts it from the stats as they are.
//
// CarryOut returns every declared value of combatant id (int, bool or
// string, as its field's Type says) as it stands in st, the state the
// encounter ended in (Fray asks it for player characters only). stats is the combatant's "stats" in the setup the
// encounter was prepared from, for values the state keeps relative to it
// (for example XP spent during the fight, subtracted from the stats' XP).
//
// The ruleset's New (and Derive, when it has one) must read every declared
// path from the stats, so that an encounter prepared from stats holding a
// carried value starts with it; its Schema should list them too, so the
// stat editor keeps them. CarryOut is pure like the rest of a Ruleset.
type Carrier interface {
	CarryFields() []CarryField
	CarryOut(st engine.State, id string, stats json.RawMessage) (CarryValues, error)
}

// CarryField declares one carried value. Its Field's Name is the
// value's path in the stats JSON, dot-separated like a Schema's
// ("wounds", "resources.xp"); Type is FieldInt, FieldBool or FieldText;
// Label and Help are shown to the GM; Default is the value when the stats
// leave the path out ("" means 0, false or "").
//
// Min and Max bound a number when Max > Min: a carry-over worked out
// beyond them (after a GM's edit between fights, say) is brought back
// within, and a value the GM gives outside them is refused. Bounds that
// depend on the character (maximum hit points) are the ruleset's to check
// in Derive and New.
type CarryField struct {
	Field
	Min int `json:"min,omitempty"`
	Max int `json:"max,omitempty"`
}

// MarshalJSON writes the stat field with "min" and "max" when the field
// is bounded (a bound of 0 included).
func (f CarryField) MarshalJSON() ([]byte, error) {
	raw, err := json.Marshal(f.Field)
	if err != nil || !f.Bounded() {
		return raw, err
	}
	// Field always writes name, label and type: raw is "{…}".
	return fmt.Appendf(raw[:len(raw)-1], `,"min":%d,"max":%d}`, f.Min, f.Max), nil
}

// Bounded reports whether the field is a number with bounds.
func (f CarryField) Bounded() bool { return f.Type == FieldInt && f.Max > f.Min }

// clamp brings a number within the field's bounds.
func (f CarryField) clamp(v any) any {
	n, ok := v.(int)
	if !ok || !f.Bounded() {
		return v
	}
	return min(max(n, f.Min), f.Max)
}

// CarryValues are carried values by path: int for FieldInt, bool for
// FieldBool, string for FieldText.
type CarryValues map[string]any

// CarryStep is what one encounter did to one carried value of a character:
// the value went From → To (both typed like CarryValues).
type CarryStep struct {
	From any `json:"from"`
	To   any `json:"to"`
}

// CarryApplied is what one encounter's carry-over did to a character, by
// path: the steps of the values it changed. Replacing the carry-over (after
// a rewind and a new end) first undoes these steps, so nothing is applied
// twice.
type CarryApplied map[string]CarryStep

// CheckCarryFields reports whether fields are a valid declaration: paths
// well formed and unique, types int, bool or text, defaults of their type.
func CheckCarryFields(fields []CarryField) error {
	seen := map[string]bool{}
	for _, f := range fields {
		if f.Name == "" || strings.HasPrefix(f.Name, ".") || strings.HasSuffix(f.Name, ".") || strings.Contains(f.Name, "..") {
			return fmt.Errorf("carried field %q: malformed path", f.Name)
		}
		if seen[f.Name] {
			return fmt.Errorf("carried field %q is declared twice", f.Name)
		}
		seen[f.Name] = true
		switch f.Type {
		case FieldInt, FieldBool, FieldText:
		default:
			return fmt.Errorf("carried field %q: type %q (want int, bool or text)", f.Name, f.Type)
		}
		if _, err := carryDefault(f); err != nil {
			return fmt.Errorf("carried field %q: default: %v", f.Name, err)
		}
		if (f.Min != 0 || f.Max != 0) && !f.Bounded() {
			return fmt.Errorf("carried field %q: bounds %d–%d (want a number with min < max)", f.Name, f.Min, f.Max)
		}
	}
	return nil
}

// carryDefault is a field's value when the stats leave it out.
func carryDefault(f CarryField) (any, error) {
	if f.Default == "" {
		return zeroOf(f), nil
	}
	return CarryValue(f, f.Default)
}

func zeroOf(f CarryField) any {
	switch f.Type {
	case FieldInt:
		return 0
	case FieldBool:
		return false
	}
	return ""
}

// CarryValue converts v (from JSON, a form or Go) to f's type: an int from
// a whole number or its text; a bool from a bool or "on"/"true"/"1" (""
// /"off"/"false"/"0" are false); a string from a string. Anything else is
// EINVALID, naming the field.
func CarryValue(f CarryField, v any) (any, error) {
	bad := func() (any, error) {
		return nil, fray.Errorf(fray.EINVALID, "%s: %v is not %s", labelOf(f), jsonText(v), typeWords(f.Type))
	}
	switch f.Type {
	case FieldInt:
		switch x := v.(type) {
		case int:
			return x, nil
		case int64:
			if x >= math.MinInt32 && x <= math.MaxInt32 {
				return int(x), nil
			}
		case float64:
			if x == math.Trunc(x) && x >= math.MinInt32 && x <= math.MaxInt32 {
				return int(x), nil
			}
		case json.Number:
			if n, err := strconv.Atoi(x.String()); err == nil {
				return n, nil
			}
		case string:
			s := strings.TrimSpace(x)
			if s == "" {
				return zeroOf(f), nil
			}
			if n, err := strconv.Atoi(s); err == nil && n >= math.MinInt32 && n <= math.MaxInt32 {
				return n, nil
			}
		}
		return bad()
	case FieldBool:
		switch x := v.(type) {
		case bool:
			return x, nil
		case string:
			switch strings.ToLower(strings.TrimSpace(x)) {
			case "on", "true", "1", "yes":
				return true, nil
			case "", "off", "false", "0", "no":
				return false, nil
			}
		}
		return bad()
	case FieldText:
		if s, ok := v.(string); ok {
			if len(s) > 1000 {
				return nil, fray.Errorf(fray.EINVALID, "%s: at most 1000 characters", labelOf(f))
			}
			return s, nil
		}
		return bad()
	}
	return nil, fray.Errorf(fray.EINVALID, "%s cannot be carried (type %q)", labelOf(f), f.Type)
}

func labelOf(f CarryField) string {
	if f.Label != "" {
		return f.Label
	}
	return f.Name
}

func typeWords(t string) string {
	switch t {
	case FieldInt:
		return "a whole number"
	case FieldBool:
		return "true or false"
	}
	return "text"
}

func jsonText(v any) string {
	b, err := json.Marshal(v)
	if err != nil {
		return fmt.Sprint(v)
	}
	return string(b)
}

// ReadCarried returns the declared values as stats hold them: a path the
// stats leave out has its field's default.
func ReadCarried(fields []CarryField, stats json.RawMessage) (CarryValues, error) {
	doc, err := statsDoc(stats)
	if err != nil {
		return nil, err
	}
	out := CarryValues{}
	for _, f := range fields {
		raw, ok := lookup(doc, f.Name)
		if !ok || raw == nil {
			if out[f.Name], err = carryDefault(f); err != nil {
				return nil, err
			}
			continue
		}
		if out[f.Name], err = CarryValue(f, raw); err != nil {
			return nil, err
		}
	}
	return out, nil
}

func statsDoc(stats json.RawMessage) (map[string]any, error) {
	doc := map[string]any{}
	if len(stats) == 0 || string(stats) == "null" {
		return doc, nil
	}
	if err := json.Unmarshal(stats, &doc); err != nil || doc == nil {
		return nil, fray.Errorf(fray.EINVALID, "stats are not a JSON object")
	}
	return doc, nil
}

// WriteCarried returns stats with values written at their paths; every
// other part of the stats is kept. A value equal to its field's default is
// removed from the stats rather than written (reading it back gives the
// same), so a healed character's stats look like a fresh one's. Values for
// paths that are not declared are EINVALID.
func WriteCarried(fields []CarryField, stats json.RawMessage, values CarryValues) (json.RawMessage, error) {
	doc, err := statsDoc(stats)
	if err != nil {
		return nil, err
	}
	byName := map[string]CarryField{}
	for _, f := range fields {
		byName[f.Name] = f
	}
	for _, path := range sortedKeys(values) {
		f, ok := byName[path]
		if !ok {
			return nil, fray.Errorf(fray.EINVALID, "%q is not a carried value", path)
		}
		v, err := CarryValue(f, values[path])
		if err != nil {
			return nil, err
		}
		def, _ := carryDefault(f)
		if v == def {
			remove(doc, path)
			continue
		}
		if err := setPath(doc, path, v); err != nil {
			return nil, err
		}
	}
	return json.Marshal(doc)
}

// setPath is set, refusing to replace a value that is not an object on the
// way (a carried path "a.b" where the stats hold "a": 3).
func setPath(doc map[string]any, path string, v any) error {
	parts := strings.Split(path, ".")
	cur := doc
	for _, p := range parts[:len(parts)-1] {
		next, ok := cur[p]
		if !ok || next == nil {
			m := map[string]any{}
			cur[p], cur = m, m
			continue
		}
		m, ok := next.(map[string]any)
		if !ok {
			return fray.Errorf(fray.EINVALID, "stats hold %q where %q needs an object", p, path)
		}
		cur = m
	}
	cur[parts[len(parts)-1]] = v
	return nil
}

// remove deletes path from doc, and objects on the way that it leaves empty.
func remove(doc map[string]any, path string) {
	parts := strings.Split(path, ".")
	var walk func(m map[string]any, i int)
	walk = func(m map[string]any, i int) {
		if i == len(parts)-1 {
			delete(m, parts[i])
			return
		}
		next, ok := m[parts[i]].(map[string]any)
		if !ok {
			return
		}
		walk(next, i+1)
		if len(next) == 0 {
			delete(m, parts[i])
		}
	}
	walk(doc, 0)
}

func sortedKeys[V any](m map[string]V) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}

// ParseCarried reads values given by path (a JSON object decoded into
// map[string]any, or form values), converting each to its field's type.
// Paths that are not declared are EINVALID; paths left out are left out.
func ParseCarried(fields []CarryField, raw map[string]any) (CarryValues, error) {
	byName := map[string]CarryField{}
	for _, f := range fields {
		byName[f.Name] = f
	}
	out := CarryValues{}
	for _, path := range sortedKeys(raw) {
		f, ok := byName[path]
		if !ok {
			return nil, fray.Errorf(fray.EINVALID, "%q is not a carried value (carried: %s)", path, strings.Join(fieldNames(fields), ", "))
		}
		v, err := CarryValue(f, raw[path])
		if err != nil {
			return nil, err
		}
		if f.clamp(v) != v {
			return nil, fray.Errorf(fray.EINVALID, "%s must be %d–%d", labelOf(f), f.Min, f.Max)
		}
		out[path] = v
	}
	return out, nil
}

func fieldNames(fields []CarryField) []string {
	out := make([]string, len(fields))
	for i, f := range fields {
		out[i] = f.Name
	}
	return out
}

// CarriedFromForm reads every declared value from form inputs named
// prefix+path. A checkbox that is absent is false (browsers send nothing
// for an unticked box); an absent number or text is EINVALID.
func CarriedFromForm(fields []CarryField, form url.Values, prefix string) (CarryValues, error) {
	raw := map[string]any{}
	for _, f := range fields {
		vs, ok := form[prefix+f.Name]
		switch {
		case ok && len(vs) > 0:
			raw[f.Name] = vs[len(vs)-1]
		case f.Type == FieldBool:
			raw[f.Name] = false
		default:
			return nil, fray.Errorf(fray.EINVALID, "%s is missing", labelOf(f))
		}
	}
	return ParseCarried(fields, raw)
}

// ProposeCarry works out what an encounter's carry-over does to a
// character whose declared values are now current. before are the values
// in the stats the encounter was prepared from, after those it ended with
// (CarryOut); prev is what an earlier carry-over of the same encounter
// applied (nil when none).
//
// The encounter's own change is applied on top of the character as it is
// now, so that edits made since (a healing between fights, another fight
// carried meanwhile) are kept: a number moves by after − before; a bool or
// text that changed in the fight becomes its value after, else it stays.
// An earlier carry-over of the same encounter is undone first (numbers move
// back by its To − From; a bool or text it changed goes back to From when it
// still holds To), so carrying an encounter again after a rewind and a new
// end replaces its result instead of adding to it.
//
// It returns base, the current values with prev undone (possibly beyond
// the fields' bounds: ClampCarried it to show or write it), and proposal,
// base with the encounter's change applied, within the bounds. The steps
// to record are StepsBetween(fields, base, confirmed): measured from the
// unbounded base, they undo exactly.
func ProposeCarry(fields []CarryField, current, before, after CarryValues, prev CarryApplied) (base, proposal CarryValues) {
	base, proposal = CarryValues{}, CarryValues{}
	for _, f := range fields {
		cur := current[f.Name]
		if step, ok := prev[f.Name]; ok {
			cur = undoStep(f, cur, step)
		}
		base[f.Name] = cur
		proposal[f.Name] = f.clamp(applyChange(f, cur, before[f.Name], after[f.Name]))
	}
	return base, proposal
}

// ClampCarried brings numbers within their fields' bounds.
func ClampCarried(fields []CarryField, v CarryValues) CarryValues {
	out := CarryValues{}
	for k, x := range v {
		out[k] = x
	}
	for _, f := range fields {
		if x, ok := out[f.Name]; ok {
			out[f.Name] = f.clamp(x)
		}
	}
	return out
}

func undoStep(f CarryField, cur any, step CarryStep) any {
	from, err1 := CarryValue(f, step.From)
	to, err2 := CarryValue(f, step.To)
	if err1 != nil || err2 != nil {
		return cur
	}
	if f.Type == FieldInt {
		c, _ := cur.(int)
		return c - (to.(int) - from.(int))
	}
	if cur == to {
		return from
	}
	return cur
}

func applyChange(f CarryField, cur, before, after any) any {
	if f.Type == FieldInt {
		c, _ := cur.(int)
		b, _ := before.(int)
		a, _ := after.(int)
		return c + (a - b)
	}
	if after != before {
		return after
	}
	return cur
}

// StepsBetween returns the steps from → to of the values that differ.
func StepsBetween(fields []CarryField, from, to CarryValues) CarryApplied {
	out := CarryApplied{}
	for _, f := range fields {
		if from[f.Name] != to[f.Name] {
			out[f.Name] = CarryStep{From: from[f.Name], To: to[f.Name]}
		}
	}
	return out
}

// CarryChanges lists the declared values that differ between from and to.
func CarryChanges(fields []CarryField, from, to CarryValues) []Change {
	var out []Change
	for _, f := range fields {
		if from[f.Name] != to[f.Name] {
			out = append(out, Change{Path: f.Name, Label: labelOf(f), Before: FormatCarried(f, from[f.Name]), After: FormatCarried(f, to[f.Name])})
		}
	}
	return out
}

// FormatCarried shows a carried value to people: "yes"/"no" for bools,
// "—" for empty text.
func FormatCarried(f CarryField, v any) string {
	switch x := v.(type) {
	case bool:
		if x {
			return "yes"
		}
		return "no"
	case int:
		return strconv.Itoa(x)
	case string:
		if x == "" {
			return "—"
		}
		return x
	case nil:
		return "—"
	}
	return jsonText(v)
}

// FormValue is a carried value as a form input holds it ("on" for a
// ticked box), like Schema.FormValues.
func FormValue(v any) string {
	switch x := v.(type) {
	case bool:
		if x {
			return "on"
		}
		return ""
	case int:
		return strconv.Itoa(x)
	case string:
		return x
	}
	return ""
}

// CarryOutOf calls c.CarryOut and checks its answer against the
// declaration: every declared path present, typed as declared (numbers
// that arrive as int64 or float64 are converted), nothing undeclared.
func CarryOutOf(c Carrier, st engine.State, id string, stats json.RawMessage) (CarryValues, error) {
	fields := c.CarryFields()
	got, err := c.CarryOut(st, id, stats)
	if err != nil {
		return nil, err
	}
	out := CarryValues{}
	for _, f := range fields {
		v, ok := got[f.Name]
		if !ok {
			return nil, fmt.Errorf("carry-over of %s: the ruleset gave no value for %q", id, f.Name)
		}
		if out[f.Name], err = CarryValue(f, v); err != nil {
			return nil, fmt.Errorf("carry-over of %s: %v", id, err)
		}
	}
	if len(got) != len(out) {
		return nil, fmt.Errorf("carry-over of %s: the ruleset gave values it does not declare", id)
	}
	return out, nil
}
