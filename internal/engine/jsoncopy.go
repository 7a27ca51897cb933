package engine

import (
	"encoding/json"
	"math"
	"reflect"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"unicode/utf8"
)

// An event's data is JSON, and every applier decodes it: that gives the
// state its own copies of the data's slices and maps, whatever the
// emitter keeps. Decoding is costly, though, and a simulation applies
// every event as it is emitted. So an event built from a value keeps a
// copy of that value, made as JSON would make it, while it is being
// emitted, and Decode into a zero value of the same type copies that
// copy instead of parsing the JSON. The copy mirrors encoding/json rule
// for rule, so the applier gets exactly what json.Unmarshal of Data
// would give it:
//
//   - only the exported fields JSON encodes are copied, and a field
//     omitted by omitempty or omitzero stays zero (an empty slice or map
//     so omitted is nil, not empty);
//   - nil slices, maps and pointers stay nil, empty ones stay empty, and
//     everything else is copied afresh: the copy shares no slice, map or
//     pointer with the emitter's value;
//   - a json.RawMessage is what encoding makes of it (compacted,
//     HTML-escaped, "null" when nil);
//   - an interface holds what decoding into one gives: float64 for every
//     number, []any, map[string]any, string, bool or nil.
//
// Whatever the copy cannot mirror exactly makes it give up, and Decode
// decodes the JSON as before: types with their own JSON or text
// encoding, embedded pointers or tagged embedded structs, clashing
// names, the ",string" option, invalid UTF-8, NaN
// and infinities, float32, []byte or structs in an interface, map keys
// other than strings and integers. SetCheckDecode makes every copy
// checked against the decoding (for tests).

// checkDecode makes Decode compare every copy with what the JSON decodes
// to.
var checkDecode atomic.Bool

// SetCheckDecode turns on (for tests) the check that an event's data,
// copied rather than decoded, is exactly what decoding it would give
// (reflect.DeepEqual): Decode then fails the event whose copy differs.
// The counts of copied and decoded data, by event kind, are kept while
// it is on (see DecodeCounts).
func SetCheckDecode(on bool) {
	checkDecode.Store(on)
	decodeCounts.Lock()
	decodeCounts.m = map[string][2]int{}
	decodeCounts.Unlock()
}

var decodeCounts struct {
	sync.Mutex
	m map[string][2]int
}

// DecodeCounts reports, since SetCheckDecode(true), how often each kind
// of event's data was copied (the first count) and decoded from its JSON
// (the second).
func DecodeCounts() map[string][2]int {
	decodeCounts.Lock()
	defer decodeCounts.Unlock()
	out := map[string][2]int{}
	for k, v := range decodeCounts.m {
		out[k] = v
	}
	return out
}

func countDecode(kind string, copied bool) {
	decodeCounts.Lock()
	defer decodeCounts.Unlock()
	if decodeCounts.m == nil {
		return
	}
	n := decodeCounts.m[kind]
	if copied {
		n[0]++
	} else {
		n[1]++
	}
	decodeCounts.m[kind] = n
}

// withData returns e carrying data: its JSON, and a copy of it as
// decoding the JSON would give (see above), for Decode while e is
// emitted.
func (e Event) withData(data any) Event {
	e.Data = mustJSON(data)
	e.typed = jsonCopyOf(data)
	return e
}

// jsonCopyOf is a copy of v as json.Unmarshal of json.Marshal(v) would
// make it into a zero value of v's type (of what v points at, for a
// pointer), or nil when the copy cannot mirror that.
func jsonCopyOf(v any) any {
	src := reflect.ValueOf(v)
	if !src.IsValid() {
		return nil
	}
	pointer := src.Kind() == reflect.Pointer
	if pointer {
		if src.IsNil() {
			return nil
		}
		src = src.Elem()
	}
	c := copyOf(src.Type())
	switch {
	case c.copy == nil:
		return nil
	case c.flat:
		// Nothing to copy: a value in an interface never changes.
		if c.valid != nil && !c.valid(src) {
			return nil
		}
		if pointer {
			return src.Interface()
		}
		return v
	}
	dst := reflect.New(src.Type()).Elem()
	if !c.copy(dst, src) {
		return nil
	}
	return dst.Interface()
}

// decodeTyped copies typed, made by jsonCopyOf, into v when v points at a
// zero value of typed's type, and reports whether it did.
func decodeTyped(typed, v any) bool {
	dst := reflect.ValueOf(v)
	if dst.Kind() != reflect.Pointer || dst.IsNil() {
		return false
	}
	dst = dst.Elem()
	src := reflect.ValueOf(typed)
	if dst.Type() != src.Type() || !dst.IsZero() {
		return false
	}
	c := copyOf(src.Type())
	if c.flat {
		dst.Set(src) // checked by jsonCopyOf
		return true
	}
	if c.copy == nil || !c.copy(dst, src) {
		dst.SetZero()
		return false
	}
	return true
}

// typeCopy is how to copy one type.
type typeCopy struct {
	copy copier // nil: the type cannot be copied
	// flat: the type holds no slice, map, pointer or interface, and JSON
	// keeps all of it. A flat value is its own copy once valid.
	flat  bool
	valid func(reflect.Value) bool // its strings and floats encode as they are (nil: it has none)
}

// copies holds each type's typeCopy.
var copies sync.Map // reflect.Type → *typeCopy

func copyOf(t reflect.Type) *typeCopy {
	if c, ok := copies.Load(t); ok {
		return c.(*typeCopy)
	}
	c := &typeCopy{copy: buildCopier(t, map[reflect.Type]*copier{})}
	if c.copy != nil {
		c.valid, c.flat = flatCheck(t)
	}
	copies.Store(t, c)
	return c
}

// flatCheck reports whether t is flat (see typeCopy) and, if so, returns
// the check that a value's strings are valid UTF-8 and its floats finite
// (nil when it has neither).
func flatCheck(t reflect.Type) (func(reflect.Value) bool, bool) {
	var always func(reflect.Value) bool
	if customJSON(t) {
		return nil, false
	}
	switch t.Kind() {
	case reflect.Bool, reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
		reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr:
		return always, true
	case reflect.Float32, reflect.Float64:
		return func(v reflect.Value) bool { f := v.Float(); return !math.IsNaN(f) && !math.IsInf(f, 0) }, true
	case reflect.String:
		return func(v reflect.Value) bool { return utf8.ValidString(v.String()) }, true
	case reflect.Array:
		elem, ok := flatCheck(t.Elem())
		if !ok || elem == nil {
			return elem, ok
		}
		return func(v reflect.Value) bool {
			for i := range v.Len() {
				if !elem(v.Index(i)) {
					return false
				}
			}
			return true
		}, true
	case reflect.Struct:
		type check struct {
			index int
			valid func(reflect.Value) bool
		}
		var checks []check
		for i := range t.NumField() {
			sf := t.Field(i)
			_, opts, _ := strings.Cut(sf.Tag.Get("json"), ",")
			if sf.Anonymous || !sf.IsExported() || sf.Tag.Get("json") == "-" || hasOption(opts, "string") {
				return nil, false
			}
			valid, ok := flatCheck(sf.Type)
			if !ok {
				return nil, false
			}
			if valid != nil {
				checks = append(checks, check{i, valid})
			}
		}
		if len(checks) == 0 {
			return always, true
		}
		return func(v reflect.Value) bool {
			for _, c := range checks {
				if !c.valid(v.Field(c.index)) {
					return false
				}
			}
			return true
		}, true
	}
	return nil, false
}

// copier copies src into dst, a settable zero value of src's type, as
// decoding src's JSON would; false when src holds what it cannot mirror
// (dst is then part-way).
type copier func(dst, src reflect.Value) bool

// buildCopier makes t's copier, nil when t cannot be copied. building
// holds the types whose copiers are being built, for recursive types.
func buildCopier(t reflect.Type, building map[reflect.Type]*copier) copier {
	if t == rawMessageType {
		return copyRawMessage
	}
	if customJSON(t) {
		return nil
	}
	if p, ok := building[t]; ok {
		return func(dst, src reflect.Value) bool { return *p != nil && (*p)(dst, src) }
	}
	p := new(copier)
	building[t] = p
	*p = buildKind(t, building)
	return *p
}

func buildKind(t reflect.Type, building map[reflect.Type]*copier) copier {
	switch t.Kind() {
	case reflect.Bool:
		return func(dst, src reflect.Value) bool { dst.SetBool(src.Bool()); return true }
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		return func(dst, src reflect.Value) bool { dst.SetInt(src.Int()); return true }
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr:
		return func(dst, src reflect.Value) bool { dst.SetUint(src.Uint()); return true }
	case reflect.Float32, reflect.Float64:
		// Encoding writes the shortest decimal that parses back to the
		// same float of the same size; NaN and infinities do not encode.
		return func(dst, src reflect.Value) bool {
			f := src.Float()
			if math.IsNaN(f) || math.IsInf(f, 0) {
				return false
			}
			dst.SetFloat(f)
			return true
		}
	case reflect.String:
		// Encoding turns invalid UTF-8 into U+FFFD.
		return func(dst, src reflect.Value) bool {
			s := src.String()
			if !utf8.ValidString(s) {
				return false
			}
			dst.SetString(s)
			return true
		}
	case reflect.Pointer:
		elem := buildCopier(t.Elem(), building)
		if elem == nil {
			return nil
		}
		return func(dst, src reflect.Value) bool {
			if src.IsNil() {
				return true
			}
			n := reflect.New(t.Elem())
			if !elem(n.Elem(), src.Elem()) {
				return false
			}
			dst.Set(n)
			return true
		}
	case reflect.Slice:
		if t.Elem().Kind() == reflect.Uint8 {
			// Bytes encode as base64, unless the element type has its own
			// encoding.
			if customJSON(t.Elem()) {
				return nil
			}
			return func(dst, src reflect.Value) bool {
				if !src.IsNil() {
					dst.SetBytes(append([]byte{}, src.Bytes()...))
				}
				return true
			}
		}
		elem := buildCopier(t.Elem(), building)
		if elem == nil {
			return nil
		}
		if valid, flat := flatCheck(t.Elem()); flat {
			return func(dst, src reflect.Value) bool {
				if src.IsNil() {
					return true
				}
				n := src.Len()
				s := reflect.MakeSlice(t, n, n)
				reflect.Copy(s, src)
				for i := range n {
					if valid != nil && !valid(s.Index(i)) {
						return false
					}
				}
				dst.Set(s)
				return true
			}
		}
		return func(dst, src reflect.Value) bool {
			if src.IsNil() {
				return true
			}
			n := src.Len()
			s := reflect.MakeSlice(t, n, n)
			for i := range n {
				if !elem(s.Index(i), src.Index(i)) {
					return false
				}
			}
			dst.Set(s)
			return true
		}
	case reflect.Array:
		elem := buildCopier(t.Elem(), building)
		if elem == nil {
			return nil
		}
		return func(dst, src reflect.Value) bool {
			for i := range src.Len() {
				if !elem(dst.Index(i), src.Index(i)) {
					return false
				}
			}
			return true
		}
	case reflect.Map:
		return buildMap(t, building)
	case reflect.Struct:
		return buildStruct(t, building)
	case reflect.Interface:
		if t.NumMethod() != 0 {
			return nil
		}
		return func(dst, src reflect.Value) bool {
			if src.IsNil() {
				return true
			}
			g, ok := generic(src.Elem())
			if ok && g != nil {
				dst.Set(reflect.ValueOf(g))
			}
			return ok
		}
	}
	return nil
}

// copyRawMessage gives what decoding a json.RawMessage's encoding gives:
// the encoding itself.
func copyRawMessage(dst, src reflect.Value) bool {
	raw, err := json.Marshal(json.RawMessage(src.Bytes()))
	if err != nil {
		return false
	}
	dst.SetBytes(raw)
	return true
}

func buildMap(t reflect.Type, building map[reflect.Type]*copier) copier {
	k := t.Key()
	if customJSON(k) {
		return nil
	}
	switch k.Kind() {
	case reflect.String, reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
		reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr:
	default:
		return nil
	}
	elem := buildCopier(t.Elem(), building)
	if elem == nil {
		return nil
	}
	return func(dst, src reflect.Value) bool {
		if src.IsNil() {
			return true
		}
		m := reflect.MakeMapWithSize(t, src.Len())
		for it := src.MapRange(); it.Next(); {
			key := it.Key()
			if key.Kind() == reflect.String && !utf8.ValidString(key.String()) {
				return false
			}
			v := reflect.New(t.Elem()).Elem()
			if !elem(v, it.Value()) {
				return false
			}
			m.SetMapIndex(key, v)
		}
		dst.Set(m)
		return true
	}
}

// field is a struct field JSON encodes.
type field struct {
	index               int
	omitEmpty, omitZero bool
	copy                copier
}

func buildStruct(t reflect.Type, building map[reflect.Type]*copier) copier {
	if !namesUnique(t, map[string]bool{}) {
		return nil // JSON drops or hides fields whose names clash
	}
	var fields []field
	for i := range t.NumField() {
		sf := t.Field(i)
		tag := sf.Tag.Get("json")
		if tag == "-" {
			continue
		}
		_, opts, _ := strings.Cut(tag, ",")
		if sf.Anonymous {
			if !promoted(sf) {
				return nil
			}
			// Its fields are the struct's own: copied as a whole.
			f := field{index: i, copy: buildCopier(sf.Type, building)}
			if f.copy == nil {
				return nil
			}
			fields = append(fields, f)
			continue
		}
		if !sf.IsExported() {
			continue
		}
		f := field{index: i}
		for _, o := range strings.Split(opts, ",") {
			switch o {
			case "omitempty":
				f.omitEmpty = true
			case "omitzero":
				f.omitZero = true
			case "string":
				return nil
			}
		}
		if f.omitZero {
			if _, ok := sf.Type.MethodByName("IsZero"); ok {
				return nil
			}
			if _, ok := reflect.PointerTo(sf.Type).MethodByName("IsZero"); ok {
				return nil
			}
		}
		if f.copy = buildCopier(sf.Type, building); f.copy == nil {
			return nil
		}
		fields = append(fields, f)
	}
	if len(fields) == t.NumField() {
		// JSON keeps every field: assign the whole struct, check its flat
		// fields, and copy the others afresh.
		type check struct {
			index int
			valid func(reflect.Value) bool
		}
		var checks []check
		var deep []field
		for _, f := range fields {
			if valid, flat := flatCheck(t.Field(f.index).Type); !flat {
				deep = append(deep, f)
			} else if valid != nil {
				checks = append(checks, check{f.index, valid})
			}
		}
		return func(dst, src reflect.Value) bool {
			dst.Set(src)
			for _, c := range checks {
				if !c.valid(src.Field(c.index)) {
					return false
				}
			}
			for _, f := range deep {
				d, v := dst.Field(f.index), src.Field(f.index)
				d.SetZero()
				if f.omitEmpty && isEmpty(v) || f.omitZero && v.IsZero() {
					continue
				}
				if !f.copy(d, v) {
					return false
				}
			}
			return true
		}
	}
	return func(dst, src reflect.Value) bool {
		for _, f := range fields {
			v := src.Field(f.index)
			if f.omitEmpty && isEmpty(v) || f.omitZero && v.IsZero() {
				continue
			}
			if !f.copy(dst.Field(f.index), v) {
				return false
			}
		}
		return true
	}
}

// promoted reports whether JSON promotes the fields of the embedded field
// sf the way the copy mirrors: an exported struct, untagged. (An embedded
// pointer, one of an unexported type, or a tagged one is not mirrored.)
func promoted(sf reflect.StructField) bool {
	name, _, _ := strings.Cut(sf.Tag.Get("json"), ",")
	return sf.IsExported() && sf.Type.Kind() == reflect.Struct && name == ""
}

// namesUnique records in seen the JSON names of t's fields, its embedded
// structs' included, and reports whether no two are the same: JSON's
// rules for clashing names are not mirrored.
func namesUnique(t reflect.Type, seen map[string]bool) bool {
	for i := range t.NumField() {
		sf := t.Field(i)
		tag := sf.Tag.Get("json")
		if tag == "-" {
			continue
		}
		name, _, _ := strings.Cut(tag, ",")
		switch {
		case sf.Anonymous:
			if !promoted(sf) || !namesUnique(sf.Type, seen) {
				return false
			}
			continue
		case !sf.IsExported():
			continue
		case name == "":
			name = sf.Name
		}
		if seen[name] {
			return false
		}
		seen[name] = true
	}
	return true
}

// isEmpty is encoding/json's test for omitempty.
func isEmpty(v reflect.Value) bool {
	switch v.Kind() {
	case reflect.Array, reflect.Map, reflect.Slice, reflect.String:
		return v.Len() == 0
	case reflect.Bool:
		return !v.Bool()
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		return v.Int() == 0
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr:
		return v.Uint() == 0
	case reflect.Float32, reflect.Float64:
		return v.Float() == 0
	case reflect.Interface, reflect.Pointer:
		return v.IsNil()
	}
	return false
}

// generic is what decoding v's encoding into an interface gives: nil,
// bool, float64, string, []any or map[string]any; false when it cannot
// say exactly.
func generic(v reflect.Value) (any, bool) {
	if customJSON(v.Type()) {
		return nil, false
	}
	switch v.Kind() {
	case reflect.Bool:
		return v.Bool(), true
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		// Decimal digits parse to the nearest float64, as the conversion
		// rounds.
		return float64(v.Int()), true
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr:
		return float64(v.Uint()), true
	case reflect.Float64:
		f := v.Float()
		if math.IsNaN(f) || math.IsInf(f, 0) {
			return nil, false
		}
		return f, true
	case reflect.String:
		s := v.String()
		return s, utf8.ValidString(s)
	case reflect.Pointer, reflect.Interface:
		if v.IsNil() {
			return nil, true
		}
		return generic(v.Elem())
	case reflect.Slice, reflect.Array:
		if v.Type().Elem().Kind() == reflect.Uint8 {
			return nil, false // base64, or numbers: not worth mirroring
		}
		if v.Kind() == reflect.Slice && v.IsNil() {
			return nil, true
		}
		out := make([]any, v.Len())
		for i := range out {
			g, ok := generic(v.Index(i))
			if !ok {
				return nil, false
			}
			out[i] = g
		}
		return out, true
	case reflect.Map:
		k := v.Type().Key()
		if customJSON(k) {
			return nil, false
		}
		if v.IsNil() {
			return nil, true
		}
		out := make(map[string]any, v.Len())
		for it := v.MapRange(); it.Next(); {
			var key string
			switch k.Kind() {
			case reflect.String:
				key = it.Key().String()
				if !utf8.ValidString(key) {
					return nil, false
				}
			case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
				key = strconv.FormatInt(it.Key().Int(), 10)
			case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr:
				key = strconv.FormatUint(it.Key().Uint(), 10)
			default:
				return nil, false
			}
			g, ok := generic(it.Value())
			if !ok {
				return nil, false
			}
			out[key] = g
		}
		return out, true
	}
	return nil, false
}
