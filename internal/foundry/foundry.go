// Package foundry reads actors exported from Foundry VTT: one actor
// document ("Export Data"), a JSON array of them, or a compendium pack
// (one document a line). A document is {name, type, img, system, items,
// effects, _stats: {systemId}} whatever the game system; what is inside
// system and items belongs to the game system, so each ruleset whose data
// model matches a Foundry system maps it (Mapper) in its own package, and
// this package knows no ruleset.
//
// Reading is bounded like every decoder: the file's size is capped by
// the caller before reading (intake.Read), the JSON's depth and size by
// strictjson, and here the actors counted and every string capped — a
// file over a bound is refused naming the field, and nothing is taken
// from it. What a mapper does not read is listed (Unmapped), never
// dropped silently.
package foundry

import (
	"bytes"
	"fmt"
	"slices"
	"sort"
	"strconv"
	"strings"

	"github.com/fray-vtt/fray/internal/fray"
	"github.com/fray-vtt/fray/internal/statblock"
	"github.com/fray-vtt/fray/internal/strictjson"
)

// Bounds of a Foundry file.
const (
	MaxBytes  = 1 << 20
	MaxActors = 200
	MaxItems  = 500      // per actor
	MaxString = 64 << 10 // characters of any string but a portrait
	maxDepth  = 32
)

// Mapper is implemented by rulesets whose stat blocks a Foundry game
// system's actors map onto.
type Mapper interface {
	// FoundrySystem is the Foundry system's id ("_stats.systemId").
	FoundrySystem() string
	// FromFoundry fills the ruleset's stat form from an actor: each
	// field from the actor's path it read (Builder.Set with the path as
	// the note's text), values it had to assume.
	FromFoundry(a *Actor, b *statblock.Builder)
}

// Actor is one actor document as read.
type Actor struct {
	Name, Type, Img string
	// SystemID is _stats.systemId ("" in an export that lacks it).
	SystemID string
	doc      map[string]any
	used     map[string]bool
}

// Item is one of an actor's items.
type Item struct {
	Index      int
	Name, Type string
	a          *Actor
}

// Decode reads a Foundry file: one actor, an array of actors, or one
// actor a line. It refuses a file that is none of these, has no actor,
// too many, or a string over MaxString (naming its field).
func Decode(data []byte) ([]*Actor, error) {
	if len(data) > MaxBytes {
		return nil, fray.Errorf(fray.ETOOLARGE, "a Foundry file is at most %d KiB", MaxBytes>>10)
	}
	trimmed := bytes.TrimSpace(data)
	var docs []map[string]any
	switch {
	case len(trimmed) == 0:
		return nil, fray.Errorf(fray.EINVALID, "the Foundry file is empty")
	case trimmed[0] == '[':
		if err := decode(trimmed, &docs); err != nil {
			return nil, err
		}
	default:
		// One document, or one a line (a compendium pack).
		var one map[string]any
		if err := decode(trimmed, &one); err == nil {
			docs = append(docs, one)
			break
		} else if !bytes.Contains(trimmed, []byte("\n")) {
			return nil, err
		}
		for i, l := range bytes.Split(trimmed, []byte("\n")) {
			if len(bytes.TrimSpace(l)) == 0 {
				continue
			}
			if len(docs) >= MaxActors {
				return nil, fray.Errorf(fray.EINVALID, "a Foundry file holds at most %d actors", MaxActors)
			}
			var d map[string]any
			if err := decode(l, &d); err != nil {
				return nil, fray.Errorf(fray.EINVALID, "line %d: %s", i+1, fray.ErrorMessage(err))
			}
			docs = append(docs, d)
		}
	}
	if len(docs) == 0 {
		return nil, fray.Errorf(fray.EINVALID, "the Foundry file holds no actor")
	}
	if len(docs) > MaxActors {
		return nil, fray.Errorf(fray.EINVALID, "a Foundry file holds at most %d actors, not %d", MaxActors, len(docs))
	}
	var out []*Actor
	for i, d := range docs {
		a, err := actorOf(d)
		if err != nil {
			return nil, fray.Errorf(fray.EINVALID, "actor %d: %s", i+1, fray.ErrorMessage(err))
		}
		out = append(out, a)
	}
	return out, nil
}

func decode(data []byte, v any) error {
	err := strictjson.DecodeWith(data, v, strictjson.Limits{MaxDepth: maxDepth, AllowUnknown: true, File: "Foundry file"})
	if err != nil && fray.ErrorCode(err) != fray.EBUSY {
		return fray.Errorf(fray.EINVALID, "not Foundry actor JSON: %s", fray.ErrorMessage(err))
	}
	return err
}

func actorOf(d map[string]any) (*Actor, error) {
	if d == nil {
		return nil, fray.Errorf(fray.EINVALID, "not an object")
	}
	if err := capStrings("", d); err != nil {
		return nil, err
	}
	a := &Actor{doc: d, used: map[string]bool{}}
	a.Name, _ = d["name"].(string)
	a.Type, _ = d["type"].(string)
	a.Img, _ = d["img"].(string)
	if st, ok := d["_stats"].(map[string]any); ok {
		a.SystemID, _ = st["systemId"].(string)
	}
	if strings.TrimSpace(a.Name) == "" {
		return nil, fray.Errorf(fray.EINVALID, "field name: an actor needs a name")
	}
	// Exports before Foundry 10 keep the system's data under "data".
	if _, ok := d["system"]; !ok {
		if old, ok := d["data"].(map[string]any); ok {
			d["system"] = old
		}
	}
	if _, ok := d["system"].(map[string]any); !ok {
		return nil, fray.Errorf(fray.EINVALID, "field system: an actor has its game system's data there")
	}
	items, _ := d["items"].([]any)
	if len(items) > MaxItems {
		return nil, fray.Errorf(fray.EINVALID, "field items: at most %d items, not %d", MaxItems, len(items))
	}
	return a, nil
}

// capStrings refuses a string longer than MaxString, but a portrait's.
func capStrings(path string, v any) error {
	switch x := v.(type) {
	case string:
		if len(x) > MaxString && path != "img" {
			return fray.Errorf(fray.EINVALID, "field %s: %d KiB of text, more than %d KiB", path, len(x)>>10, MaxString>>10)
		}
	case map[string]any:
		for k, e := range x {
			if err := capStrings(join(path, k), e); err != nil {
				return err
			}
		}
	case []any:
		for i, e := range x {
			if err := capStrings(path+"["+strconv.Itoa(i)+"]", e); err != nil {
				return err
			}
		}
	}
	return nil
}

func join(path, k string) string {
	if path == "" {
		return k
	}
	return path + "." + k
}

// get is the value at a dot path of doc.
func get(doc map[string]any, path string) (any, bool) {
	var cur any = doc
	for _, p := range strings.Split(path, ".") {
		m, ok := cur.(map[string]any)
		if !ok {
			return nil, false
		}
		if cur, ok = m[p]; !ok {
			return nil, false
		}
	}
	return cur, true
}

// Value is the value at path ("system.attributes.agility.die.sides"),
// marked as read.
func (a *Actor) Value(path string) (any, bool) {
	v, ok := get(a.doc, path)
	if ok {
		a.used[path] = true
	}
	return v, ok
}

// Int is a whole number at path (a number or a numeric string).
func (a *Actor) Int(path string) (int, bool) {
	v, ok := a.Value(path)
	if !ok {
		return 0, false
	}
	return toInt(v)
}

func toInt(v any) (int, bool) {
	switch x := v.(type) {
	case float64:
		return int(x), x == float64(int(x))
	case string:
		n, err := strconv.Atoi(strings.TrimSpace(x))
		return n, err == nil
	}
	return 0, false
}

// String is the string at path.
func (a *Actor) String(path string) (string, bool) {
	v, ok := a.Value(path)
	s, isStr := v.(string)
	return s, ok && isStr
}

// Bool is the boolean at path.
func (a *Actor) Bool(path string) (bool, bool) {
	v, ok := a.Value(path)
	b, isBool := v.(bool)
	return b, ok && isBool
}

// Items are the actor's items of type typ ("" for all), in order.
func (a *Actor) Items(typ string) []Item {
	items, _ := a.doc["items"].([]any)
	var out []Item
	for i, it := range items {
		m, _ := it.(map[string]any)
		t, _ := m["type"].(string)
		if typ != "" && t != typ {
			continue
		}
		n, _ := m["name"].(string)
		out = append(out, Item{Index: i, Name: n, Type: t, a: a})
	}
	return out
}

// Path is the actor's path of one of the item's fields.
func (it Item) Path(field string) string {
	return "items[" + strconv.Itoa(it.Index) + "]." + field
}

func (it Item) doc() map[string]any {
	items, _ := it.a.doc["items"].([]any)
	m, _ := items[it.Index].(map[string]any)
	return m
}

// Use marks the item as mapped (its name and type; Value marks fields).
func (it Item) Use() {
	it.a.used[it.Path("name")] = true
	it.a.used[it.Path("type")] = true
}

// Value is the item's value at path ("system.damage"), marked as read.
func (it Item) Value(path string) (any, bool) {
	v, ok := get(it.doc(), path)
	if ok {
		it.a.used[it.Path(path)] = true
	}
	return v, ok
}

// Int is a whole number of the item's.
func (it Item) Int(path string) (int, bool) {
	v, ok := it.Value(path)
	if !ok {
		return 0, false
	}
	return toInt(v)
}

// String is a string of the item's.
func (it Item) String(path string) (string, bool) {
	v, ok := it.Value(path)
	s, isStr := v.(string)
	return s, ok && isStr
}

// Bool is a boolean of the item's.
func (it Item) Bool(path string) (bool, bool) {
	v, ok := it.Value(path)
	b, isBool := v.(bool)
	return b, ok && isBool
}

// Unmapped lists what the mapper did not read and that says something:
// each field under system with a value other than empty, zero or false
// (by its path), and each item not mapped (by its type and name). The
// document's own fields (name, img, folder, ownership, _stats, flags …)
// are Foundry's, not the sheet's, and are not listed.
func (a *Actor) Unmapped() []string {
	var out []string
	var walk func(path string, v any)
	walk = func(path string, v any) {
		if a.used[path] {
			return
		}
		switch x := v.(type) {
		case map[string]any:
			keys := make([]string, 0, len(x))
			for k := range x {
				keys = append(keys, k)
			}
			sort.Strings(keys)
			for _, k := range keys {
				walk(join(path, k), x[k])
			}
		case []any:
			for i, e := range x {
				walk(path+"["+strconv.Itoa(i)+"]", e)
			}
		case string:
			if x != "" {
				out = append(out, path)
			}
		case float64:
			if x != 0 {
				out = append(out, path)
			}
		case bool:
			if x {
				out = append(out, path)
			}
		}
	}
	walk("system", a.doc["system"])
	for _, it := range a.Items("") {
		if !a.used[it.Path("name")] {
			out = append(out, fmt.Sprintf("items[%d] (%s %q)", it.Index, it.Type, it.Name))
		}
	}
	if effects, _ := a.doc["effects"].([]any); len(effects) > 0 {
		out = append(out, fmt.Sprintf("effects (%d)", len(effects)))
	}
	return slices.Compact(out)
}
