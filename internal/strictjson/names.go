package strictjson

import (
	"encoding"
	"encoding/json"
	"errors"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"sync"
	"unicode"
)

// encoding/json matches an object's member to a struct field ignoring
// case ("Text" fills Text `json:"text"`), and DisallowUnknownFields does
// not change that. checkNames walks the document beside the type it is
// decoded into and refuses every member whose name is not exactly one of
// its struct's JSON names, wherever it is — so a document has one
// spelling, and "Text" is refused naming the field rather than taken as
// "text". A value the target decodes itself (json.Unmarshaler, such as
// json.RawMessage, or encoding.TextUnmarshaler) or an interface is not
// looked into: whoever decodes it later decodes it through this package.

// nameError is a member refused by checkNames, with where it is.
type nameError struct {
	field string
	want  string   // the field's spelling when only its case differs
	path  []string // from the innermost member out
}

func (e *nameError) Error() string {
	msg := "unknown field " + strconv.Quote(e.field)
	if len(e.path) > 0 {
		var b strings.Builder
		for i := len(e.path) - 1; i >= 0; i-- {
			if s := e.path[i]; !strings.HasPrefix(s, "[") && b.Len() > 0 {
				b.WriteByte('.')
			}
			b.WriteString(e.path[i])
		}
		msg += " in " + b.String()
	}
	if e.want != "" {
		msg += " (field names are case-sensitive: did you mean " + strconv.Quote(e.want) + "?)"
	}
	return msg
}

// errSyntax stops the walk at something that is not JSON: the decoder
// that runs next says what is wrong with it.
var errSyntax = errors.New("syntax")

// checkNames refuses a member of data, decoded into a value of type t,
// whose name is not exactly a field of its struct — only one that differs
// in case when allowUnknown. It returns nil on a syntax error.
func checkNames(data []byte, t reflect.Type, allowUnknown bool) error {
	w := walker{b: data, allowUnknown: allowUnknown}
	if err := w.value(t); err != nil && err != errSyntax {
		return err
	}
	return nil
}

type walker struct {
	b            []byte
	i            int
	allowUnknown bool
}

var (
	unmarshalerType     = reflect.TypeFor[json.Unmarshaler]()
	textUnmarshalerType = reflect.TypeFor[encoding.TextUnmarshaler]()
)

// within is what to check inside a value decoded into t: a struct, a map
// or a slice or array type, or nil for nothing.
func within(t reflect.Type) reflect.Type {
	for t != nil {
		if t.Implements(unmarshalerType) || reflect.PointerTo(t).Implements(unmarshalerType) ||
			t.Implements(textUnmarshalerType) || reflect.PointerTo(t).Implements(textUnmarshalerType) {
			return nil
		}
		switch t.Kind() {
		case reflect.Pointer:
			t = t.Elem()
		case reflect.Struct, reflect.Map, reflect.Slice, reflect.Array:
			return t
		default:
			return nil
		}
	}
	return nil
}

func (w *walker) space() {
	for w.i < len(w.b) {
		switch w.b[w.i] {
		case ' ', '\t', '\n', '\r':
			w.i++
		default:
			return
		}
	}
}

func (w *walker) value(t reflect.Type) error {
	w.space()
	if w.i >= len(w.b) {
		return errSyntax
	}
	t = within(t)
	switch w.b[w.i] {
	case '{':
		return w.object(t)
	case '[':
		var elem reflect.Type
		if t != nil && (t.Kind() == reflect.Slice || t.Kind() == reflect.Array) {
			elem = t.Elem()
		}
		return w.array(elem)
	case '"':
		_, _, err := w.str()
		return err
	}
	for w.i < len(w.b) && !strings.ContainsRune(",]} \t\r\n", rune(w.b[w.i])) {
		w.i++
	}
	return nil
}

// str reads a string and returns its raw text (without the quotes) and
// whether it holds an escape.
func (w *walker) str() ([]byte, bool, error) {
	if w.i >= len(w.b) || w.b[w.i] != '"' {
		return nil, false, errSyntax
	}
	start, escaped := w.i+1, false
	for w.i++; w.i < len(w.b); w.i++ {
		switch w.b[w.i] {
		case '\\':
			escaped = true
			w.i++
		case '"':
			w.i++
			return w.b[start : w.i-1], escaped, nil
		}
	}
	return nil, false, errSyntax
}

func (w *walker) array(elem reflect.Type) error {
	w.i++ // [
	w.space()
	if w.i < len(w.b) && w.b[w.i] == ']' {
		w.i++
		return nil
	}
	for n := 0; ; n++ {
		if err := w.value(elem); err != nil {
			return inside(err, "["+strconv.Itoa(n)+"]")
		}
		w.space()
		if w.i >= len(w.b) {
			return errSyntax
		}
		switch w.b[w.i] {
		case ',':
			w.i++
		case ']':
			w.i++
			return nil
		default:
			return errSyntax
		}
	}
}

func (w *walker) object(t reflect.Type) error {
	w.i++ // {
	var fields *fieldSet
	var elem reflect.Type
	switch {
	case t == nil:
	case t.Kind() == reflect.Struct:
		fields = fieldsOf(t)
	case t.Kind() == reflect.Map:
		elem = t.Elem()
	}
	w.space()
	if w.i < len(w.b) && w.b[w.i] == '}' {
		w.i++
		return nil
	}
	for {
		w.space()
		raw, escaped, err := w.str()
		if err != nil {
			return err
		}
		key := string(raw)
		if escaped {
			if json.Unmarshal(w.b[w.i-len(raw)-2:w.i], &key) != nil {
				return errSyntax
			}
		}
		w.space()
		if w.i >= len(w.b) || w.b[w.i] != ':' {
			return errSyntax
		}
		w.i++
		vt := elem
		if fields != nil {
			ft, ok := fields.byName[key]
			if !ok {
				want := fields.folded(key)
				if want != "" || !w.allowUnknown {
					return &nameError{field: key, want: want}
				}
			}
			vt = ft
		}
		if err := w.value(vt); err != nil {
			return inside(err, key)
		}
		w.space()
		if w.i >= len(w.b) {
			return errSyntax
		}
		switch w.b[w.i] {
		case ',':
			w.i++
		case '}':
			w.i++
			return nil
		default:
			return errSyntax
		}
	}
}

// inside adds a step of the path to a nameError.
func inside(err error, step string) error {
	if ne, ok := err.(*nameError); ok {
		ne.path = append(ne.path, step)
	}
	return err
}

// fieldSet is a struct type's JSON names, as encoding/json finds them.
type fieldSet struct {
	byName map[string]reflect.Type
	names  []string
}

// folded is the field name that differs from key in case only, or "".
func (f *fieldSet) folded(key string) string {
	for _, n := range f.names {
		if strings.EqualFold(n, key) {
			return n
		}
	}
	return ""
}

var fieldSets sync.Map // reflect.Type → *fieldSet

// fieldsOf returns t's JSON names by encoding/json's rules: exported
// fields (and embedded structs, whose fields are promoted unless the
// embedding is named), named by their tag or else by the field; "-"
// skipped; of the same name, the shallowest wins, and of equally shallow
// ones the only tagged one — two alike cancel out.
func fieldsOf(t reflect.Type) *fieldSet {
	if f, ok := fieldSets.Load(t); ok {
		return f.(*fieldSet)
	}
	type field struct {
		name   string
		depth  int
		tagged bool
		typ    reflect.Type
	}
	var all []field
	visited := map[reflect.Type]bool{}
	next := []reflect.Type{t}
	for depth := 0; len(next) > 0; depth++ {
		current := next
		next = nil
		for _, st := range current {
			if visited[st] {
				continue
			}
			visited[st] = true
			for i := range st.NumField() {
				sf := st.Field(i)
				if sf.Anonymous {
					et := sf.Type
					if et.Kind() == reflect.Pointer {
						et = et.Elem()
					}
					if !sf.IsExported() && et.Kind() != reflect.Struct {
						continue
					}
				} else if !sf.IsExported() {
					continue
				}
				tag := sf.Tag.Get("json")
				if tag == "-" {
					continue
				}
				name, _, _ := strings.Cut(tag, ",")
				if !validTag(name) {
					name = ""
				}
				ft := sf.Type
				if ft.Name() == "" && ft.Kind() == reflect.Pointer {
					ft = ft.Elem()
				}
				if name == "" && sf.Anonymous && ft.Kind() == reflect.Struct {
					next = append(next, ft)
					continue
				}
				f := field{name: name, depth: depth, tagged: name != "", typ: sf.Type}
				if f.name == "" {
					f.name = sf.Name
				}
				all = append(all, f)
			}
		}
	}
	set := &fieldSet{byName: map[string]reflect.Type{}}
	for _, name := range uniqueNames(all, func(f field) string { return f.name }) {
		var best []field
		for _, f := range all {
			if f.name != name {
				continue
			}
			if len(best) == 0 || f.depth < best[0].depth {
				best = []field{f}
			} else if f.depth == best[0].depth {
				best = append(best, f)
			}
		}
		if len(best) > 1 {
			var tagged []field
			for _, f := range best {
				if f.tagged {
					tagged = append(tagged, f)
				}
			}
			if len(tagged) != 1 {
				continue // a conflict: encoding/json drops the name
			}
			best = tagged
		}
		set.byName[name] = best[0].typ
		set.names = append(set.names, name)
	}
	fieldSets.Store(t, set)
	return set
}

func uniqueNames[T any](xs []T, name func(T) string) []string {
	var out []string
	for _, x := range xs {
		if n := name(x); !slices.Contains(out, n) {
			out = append(out, n)
		}
	}
	return out
}

// validTag is encoding/json's test of a tag's name.
func validTag(s string) bool {
	if s == "" {
		return false
	}
	for _, c := range s {
		switch {
		case strings.ContainsRune("!#$%&()*+-./:;<=>?@[]^_{|}~ ", c):
		case !unicode.IsLetter(c) && !unicode.IsDigit(c):
			return false
		}
	}
	return true
}
