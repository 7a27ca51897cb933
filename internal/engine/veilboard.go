package engine

import (
	"encoding"
	"encoding/json"
	"reflect"
	"strings"
	"sync"

	"github.com/fray-vtt/fray/internal/board"
)

// The board's check for secrets without encoding it. veilView must know
// whether a viewer's board names a combatant the viewer may not see; it
// used to encode the whole board as JSON per view and search the text.
// Every byte of that text that can name someone is either inside one of
// the board's strings (a field's value, a map key) or is the encoding's
// own: the field names, the numbers, true, false and null. So the board's
// strings are searched where they stand, and the encoding's own bytes
// once per veil (boardSkeleton): when a hidden combatant's id or name
// could be read there too, the board takes the encoded path as before.
// What the strings' search finds is a superset of what the encoded search
// found in them (a name escaped in JSON is still itself in its string),
// and whatever it finds goes through the same scrub as before.

// boardNames reports whether bd names a combatant the viewer may not see,
// as json.Marshal(bd) searched with namesJSON would, without encoding it.
// ok is false when it cannot tell: then the caller encodes.
func (vl *veil) boardNames(bd *board.Board) (names, ok bool) {
	w := boardWalker()
	if w.walk == nil || vl.ambiguous(w.skeleton) {
		return false, false
	}
	return w.walk(vl, reflect.ValueOf(bd).Elem()), true
}

// ambiguous reports whether an unseen combatant's id or name could stand
// in a board's encoding outside its strings: in a field name (skeleton),
// or as a number or a literal.
func (vl *veil) ambiguous(skeleton string) bool {
	for _, s := range vl.ids {
		if numberish(s) {
			return true
		}
	}
	for _, s := range vl.hiddenNames {
		if numberish(s) {
			return true
		}
	}
	return vl.names(skeleton)
}

// numberish reports whether s is made only of what JSON numbers and
// literals are made of: it could be read in one.
func numberish(s string) bool {
	return strings.Trim(s, "0123456789+-.eE") == "" || strings.Contains("true false null", s)
}

// stringWalker reports whether a value of one type holds a string that
// names an unseen combatant.
type stringWalker func(vl *veil, v reflect.Value) bool

type boardWalk struct {
	walk     stringWalker // nil: the board's type cannot be walked (it encodes itself, say)
	skeleton string       // every field name the encoding can hold, quoted as it writes them
}

var boardWalker = sync.OnceValue(func() boardWalk {
	c := walkCompiler{building: map[reflect.Type]bool{}, fields: map[string]bool{}}
	walk, ok := c.compile(reflect.TypeFor[board.Board]())
	if !ok {
		return boardWalk{}
	}
	var sk strings.Builder
	sk.WriteString("true false null")
	for name := range c.fields {
		sk.WriteString(`,"` + name + `":`)
	}
	return boardWalk{walk: walk, skeleton: sk.String()}
})

type walkCompiler struct {
	building map[reflect.Type]bool // types being compiled: a recursive type is not walked
	fields   map[string]bool
}

var (
	jsonMarshaler = reflect.TypeFor[json.Marshaler]()
	textMarshaler = reflect.TypeFor[encoding.TextMarshaler]()
)

// compile returns the walker for values of t (nil: t holds no string);
// false when t encodes in ways a walk cannot follow.
func (c *walkCompiler) compile(t reflect.Type) (stringWalker, bool) {
	if t.Implements(jsonMarshaler) || t.Implements(textMarshaler) ||
		reflect.PointerTo(t).Implements(jsonMarshaler) || reflect.PointerTo(t).Implements(textMarshaler) {
		return nil, false
	}
	if c.building[t] {
		return nil, false
	}
	c.building[t] = true
	defer delete(c.building, t)
	switch t.Kind() {
	case reflect.Bool, reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
		reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr,
		reflect.Float32, reflect.Float64:
		return nil, true
	case reflect.String:
		return func(vl *veil, v reflect.Value) bool { return vl.names(v.String()) }, true
	case reflect.Pointer:
		elem, ok := c.compile(t.Elem())
		if !ok || elem == nil {
			return nil, ok
		}
		return func(vl *veil, v reflect.Value) bool { return !v.IsNil() && elem(vl, v.Elem()) }, true
	case reflect.Slice, reflect.Array:
		if t.Elem().Kind() == reflect.Uint8 {
			return nil, false // bytes encode as base64 text, which could spell an id
		}
		elem, ok := c.compile(t.Elem())
		if !ok || elem == nil {
			return nil, ok
		}
		return func(vl *veil, v reflect.Value) bool {
			for i := range v.Len() {
				if elem(vl, v.Index(i)) {
					return true
				}
			}
			return false
		}, true
	case reflect.Map:
		if t.Key().Kind() != reflect.String {
			return nil, false
		}
		elem, ok := c.compile(t.Elem())
		if !ok {
			return nil, false
		}
		return func(vl *veil, v reflect.Value) bool {
			for it := v.MapRange(); it.Next(); {
				if vl.names(it.Key().String()) || elem != nil && elem(vl, it.Value()) {
					return true
				}
			}
			return false
		}, true
	case reflect.Struct:
		type field struct {
			index int
			walk  stringWalker
		}
		var fields []field
		for i := range t.NumField() {
			f := t.Field(i)
			tag := f.Tag.Get("json")
			if tag == "-" || !f.IsExported() && !f.Anonymous {
				continue // never encoded
			}
			name, _, _ := strings.Cut(tag, ",")
			if name == "" {
				name = f.Name
			}
			c.fields[name] = true
			walk, ok := c.compile(f.Type)
			if !ok {
				return nil, false
			}
			if walk != nil {
				fields = append(fields, field{i, walk})
			}
		}
		if len(fields) == 0 {
			return nil, true
		}
		return func(vl *veil, v reflect.Value) bool {
			for _, f := range fields {
				if f.walk(vl, v.Field(f.index)) {
					return true
				}
			}
			return false
		}, true
	}
	return nil, false // interfaces, channels, functions: not followed
}
