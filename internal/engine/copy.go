package engine

import (
	"bytes"
	"encoding"
	"encoding/json"
	"fmt"
	"maps"
	"reflect"
	"strings"
	"sync"
	"unsafe"
)

// Copy returns a deep copy of st: the state that encoding st as a snapshot
// and decoding it again gives, made without JSON. Every command is decided
// on such a copy, so it must be cheap; and since a restarted server decides
// on a decoded snapshot instead, it must be that same state.
//
// It works for any ruleset's state by reflection, following encoding/json's
// rules: fields JSON leaves out (unexported, or tagged "-") come out zero, an
// empty slice or map of an "omitempty" field comes out nil, a nil
// json.RawMessage not marked "omitempty" comes out as JSON null, and a value
// of a type with its own JSON or text encoding (or in an interface) goes
// through that encoding. Everything else is copied as is, with nothing
// shared between st and the copy but memos (see Memo), which the copy
// shares with st.
func Copy(st State) (State, error) { return copyState(st, false) }

// CopyAsDecoded is Copy without memos shared: the very state st's snapshot
// decodes to, memos empty, for tests that compare the two.
func CopyAsDecoded(st State) (State, error) { return copyState(st, true) }

func copyState(st State, alone bool) (State, error) {
	v := reflect.ValueOf(st)
	if v.Kind() != reflect.Pointer || v.IsNil() {
		return nil, fmt.Errorf("engine: copy: state %T is not a non-nil pointer", st)
	}
	p := planFor(v.Type().Elem(), false, alone)
	if p.prepare != nil {
		p.prepare(v.Elem())
	}
	out := reflect.New(v.Type().Elem())
	out.Elem().Set(v.Elem())
	if err := p.unshare(out.Elem()); err != nil {
		return nil, fmt.Errorf("engine: copy %T: %w", st, err)
	}
	return out.Interface().(State), nil
}

// copyPlan makes a shallow copy of one type deep. A flat type has nothing
// to do: assigning it copies it completely.
type copyPlan struct {
	flat bool
	// unshare replaces, in the addressable v (a shallow copy), everything
	// it shares with the original by a copy of its own, and clears what
	// JSON would not keep.
	unshare func(v reflect.Value) error
	// prepare, when not nil, readies the original's memos for sharing
	// before a copy of the addressable orig is made (see Memo).
	prepare func(orig reflect.Value)
}

type planKey struct {
	t         reflect.Type
	omitempty bool
	alone     bool // memos are not shared (CopyAsDecoded)
}

var (
	plansMu sync.Mutex
	plans   = map[planKey]*copyPlan{}
)

var (
	rawMessageType      = reflect.TypeFor[json.RawMessage]()
	jsonMarshalerType   = reflect.TypeFor[json.Marshaler]()
	jsonUnmarshalerType = reflect.TypeFor[json.Unmarshaler]()
	textMarshalerType   = reflect.TypeFor[encoding.TextMarshaler]()
	textUnmarshalerType = reflect.TypeFor[encoding.TextUnmarshaler]()
)

// planFor returns the plan for values of t held in a field marked (or not)
// "omitempty", sharing memos or not. Plans are made once per type and kept.
func planFor(t reflect.Type, omitempty, alone bool) *copyPlan {
	switch t.Kind() {
	case reflect.Slice, reflect.Map:
	default:
		omitempty = false // only empty slices and maps depend on it
	}
	key := planKey{t, omitempty, alone}
	plansMu.Lock()
	defer plansMu.Unlock()
	return planLocked(key)
}

func planLocked(key planKey) *copyPlan {
	if p, ok := plans[key]; ok {
		return p // possibly still being built, for a recursive type
	}
	p := &copyPlan{}
	plans[key] = p
	t, omitempty, alone := key.t, key.omitempty, key.alone
	sub := func(t reflect.Type, omitempty bool) *copyPlan {
		switch t.Kind() {
		case reflect.Slice, reflect.Map:
		default:
			omitempty = false
		}
		return planLocked(planKey{t, omitempty, alone})
	}

	switch {
	case t == rawMessageType:
		p.unshare = func(v reflect.Value) error { return unshareRaw(v, omitempty) }
		return p
	case customJSON(t):
		p.unshare = throughJSON
		return p
	}
	switch t.Kind() {
	case reflect.Bool, reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
		reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr,
		reflect.Float32, reflect.Float64, reflect.Complex64, reflect.Complex128, reflect.String:
		p.flat = true
		p.unshare = func(reflect.Value) error { return nil }

	case reflect.Pointer:
		elem := sub(t.Elem(), false)
		p.unshare = func(v reflect.Value) error {
			if v.IsNil() {
				return nil
			}
			if elem.prepare != nil {
				elem.prepare(v.Elem())
			}
			n := reflect.New(v.Type().Elem())
			n.Elem().Set(v.Elem())
			if err := elem.unshare(n.Elem()); err != nil {
				return err
			}
			v.Set(n)
			return nil
		}

	case reflect.Slice:
		elem := sub(t.Elem(), false)
		p.unshare = func(v reflect.Value) error {
			n := v.Len()
			switch {
			case v.IsNil():
				return nil
			case n == 0 && omitempty:
				v.SetZero()
				return nil
			}
			if elem.prepare != nil {
				for i := range n {
					elem.prepare(v.Index(i))
				}
			}
			s := reflect.MakeSlice(v.Type(), n, n)
			reflect.Copy(s, v)
			if !elem.flat {
				for i := range n {
					if err := elem.unshare(s.Index(i)); err != nil {
						return err
					}
				}
			}
			v.Set(s)
			return nil
		}

	case reflect.Array:
		elem := sub(t.Elem(), false)
		p.flat = elem.flat
		p.unshare = func(v reflect.Value) error {
			if elem.flat {
				return nil
			}
			for i := range v.Len() {
				if err := elem.unshare(v.Index(i)); err != nil {
					return err
				}
			}
			return nil
		}

	case reflect.Map:
		if customText(t.Key()) {
			p.unshare = throughJSON
			break
		}
		elem := sub(t.Elem(), false)
		p.unshare = func(v reflect.Value) error {
			n := v.Len()
			switch {
			case v.IsNil():
				return nil
			case n == 0 && omitempty:
				v.SetZero()
				return nil
			}
			if elem.flat {
				if c, ok := cloneFlatMap(v); ok {
					v.Set(c)
					return nil
				}
			}
			m := reflect.MakeMapWithSize(v.Type(), n)
			key := reflect.New(v.Type().Key()).Elem()
			val := reflect.New(v.Type().Elem()).Elem()
			for it := v.MapRange(); it.Next(); {
				key.SetIterKey(it)
				val.SetIterValue(it)
				if err := elem.unshare(val); err != nil {
					return err
				}
				m.SetMapIndex(key, val)
			}
			v.Set(m)
			return nil
		}

	case reflect.Interface:
		p.unshare = func(v reflect.Value) error {
			if v.IsNil() {
				return nil
			}
			return throughJSON(v)
		}

	case reflect.Struct:
		type field struct {
			index    int
			exported bool // else reached through its address
			typ      reflect.Type
			offset   uintptr
			plan     *copyPlan // nil: JSON drops the field, clear it
			memo     bool      // a memo a copy alone may not share
		}
		var work []field
		type memoField struct {
			typ    reflect.Type
			offset uintptr
		}
		var memos []memoField // the struct's own memos
		p.flat = true
		for i := range t.NumField() {
			f := t.Field(i)
			if reflect.PointerTo(f.Type).Implements(memoType) {
				// Shared as the shallow copy left it, or cleared alone.
				memos = append(memos, memoField{f.Type, f.Offset})
				if alone {
					work = append(work, field{index: i, exported: f.IsExported(), typ: f.Type, offset: f.Offset, memo: true})
					p.flat = false
				}
				continue
			}
			name, opts, _ := strings.Cut(f.Tag.Get("json"), ",")
			dropped := name == "-" && opts == "" ||
				!f.IsExported() && (!f.Anonymous || f.Type.Kind() != reflect.Struct)
			if dropped {
				work = append(work, field{index: i, exported: f.IsExported(), typ: f.Type, offset: f.Offset})
				p.flat = false
				continue
			}
			fp := sub(f.Type, hasOption(opts, "omitempty"))
			switch f.Type.Kind() {
			case reflect.Pointer, reflect.Slice, reflect.Map, reflect.Interface:
				// References: never flat (the plan may still be in the
				// making for a recursive type).
			default:
				if fp.flat {
					continue
				}
			}
			work = append(work, field{index: i, exported: f.IsExported(), typ: f.Type, offset: f.Offset, plan: fp})
			p.flat = false
		}
		p.unshare = func(v reflect.Value) error {
			for _, f := range work {
				var fv reflect.Value
				if f.exported && v.CanSet() {
					fv = v.Field(f.index)
				} else { // unexported, or inside an unexported embedded struct
					fv = reflect.NewAt(f.typ, unsafe.Add(v.Addr().UnsafePointer(), f.offset)).Elem()
				}
				if f.memo {
					fv.Addr().Interface().(memo).unshareCopy()
					continue
				}
				if f.plan == nil {
					fv.SetZero()
					continue
				}
				if err := f.plan.unshare(fv); err != nil {
					return err
				}
			}
			return nil
		}
		if len(memos) > 0 && !alone {
			p.prepare = func(orig reflect.Value) {
				base := orig.Addr().UnsafePointer()
				for _, m := range memos {
					reflect.NewAt(m.typ, unsafe.Add(base, m.offset)).Interface().(memo).prepareCopy()
				}
			}
		}

	default: // channels, functions, unsafe pointers: JSON cannot hold them
		p.unshare = func(v reflect.Value) error {
			return fmt.Errorf("a %s cannot be part of a state", v.Type())
		}
	}
	return p
}

func hasOption(opts, name string) bool {
	for opts != "" {
		var o string
		o, opts, _ = strings.Cut(opts, ",")
		if o == name {
			return true
		}
	}
	return false
}

// customJSON reports whether t (or *t) encodes or decodes itself.
func customJSON(t reflect.Type) bool {
	for _, u := range []reflect.Type{t, reflect.PointerTo(t)} {
		if u.Implements(jsonMarshalerType) || u.Implements(jsonUnmarshalerType) ||
			u.Implements(textMarshalerType) || u.Implements(textUnmarshalerType) {
			return true
		}
	}
	return false
}

func customText(t reflect.Type) bool {
	return t.Implements(textMarshalerType) || reflect.PointerTo(t).Implements(textUnmarshalerType)
}

// cloneFlatMap copies the commonest maps of plain values without
// reflection, one entry at a time being the slow part of a copy.
func cloneFlatMap(v reflect.Value) (reflect.Value, bool) {
	if v.Type().Name() != "" {
		return reflect.Value{}, false // a named map type: the type switch below would lose its name
	}
	var c any
	switch m := v.Interface().(type) {
	case map[string]int:
		c = maps.Clone(m)
	case map[string]string:
		c = maps.Clone(m)
	case map[string]bool:
		c = maps.Clone(m)
	case map[string]int64:
		c = maps.Clone(m)
	case map[string]float64:
		c = maps.Clone(m)
	default:
		return reflect.Value{}, false
	}
	return reflect.ValueOf(c), true
}

// throughJSON replaces v by what its JSON encoding decodes to: the one way
// to copy a value that encodes itself, or an interface, as a snapshot would.
func throughJSON(v reflect.Value) error {
	var in any
	if v.CanAddr() {
		in = v.Addr().Interface()
	} else {
		in = v.Interface()
	}
	b, err := json.Marshal(in)
	if err != nil {
		return err
	}
	n := reflect.New(v.Type())
	if err := json.Unmarshal(b, n.Interface()); err != nil {
		return err
	}
	v.Set(n.Elem())
	return nil
}

// unshareRaw copies a json.RawMessage as encoding and decoding it would:
// nil becomes JSON null unless omitted, and the bytes are compacted (only
// when they hold whitespace: the server's own JSON is compact already).
func unshareRaw(v reflect.Value, omitempty bool) error {
	raw := v.Bytes()
	switch {
	case len(raw) == 0 && omitempty:
		v.SetZero()
		return nil
	case raw == nil:
		v.SetBytes([]byte("null"))
		return nil
	}
	var out []byte
	if bytes.ContainsAny(raw, " \t\r\n") {
		var buf bytes.Buffer
		if err := json.Compact(&buf, raw); err != nil {
			return err
		}
		out = buf.Bytes()
	} else {
		out = bytes.Clone(raw)
	}
	v.SetBytes(out)
	return nil
}
