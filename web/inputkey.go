package web

import (
	"encoding/binary"
	"math"
	"reflect"
	"slices"
	"strings"
)

// inputKey is kind's input in encoded for the memo (Sections): every field
// of every struct it holds, exported or not, whatever its tags, in order;
// each string, list and map prefixed by its length, each pointer and
// interface by whether it is set (an interface by its dynamic type too),
// a map's entries in the order of their keys' encodings. So the encoding
// is a prefix code: two inputs encode alike only when they are equal, and
// a field added to an input type is in its key without anyone adding it.
func inputKey(kind string, in any) string {
	b := make([]byte, 0, 512)
	b = append(b, kind...)
	b = append(b, 0)
	return string(appendValue(b, reflect.ValueOf(in)))
}

func appendValue(b []byte, v reflect.Value) []byte {
	switch v.Kind() {
	case reflect.Invalid:
		return append(b, 0)
	case reflect.Bool:
		if v.Bool() {
			return append(b, 1)
		}
		return append(b, 0)
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		return binary.AppendVarint(b, v.Int())
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr:
		return binary.AppendUvarint(b, v.Uint())
	case reflect.Float32, reflect.Float64:
		return binary.BigEndian.AppendUint64(b, math.Float64bits(v.Float()))
	case reflect.String:
		b = binary.AppendUvarint(b, uint64(v.Len()))
		return append(b, v.String()...)
	case reflect.Slice:
		if v.IsNil() {
			return append(b, 0)
		}
		b = append(b, 1)
		if v.Type().Elem().Kind() == reflect.Uint8 {
			b = binary.AppendUvarint(b, uint64(v.Len()))
			return append(b, v.Bytes()...)
		}
		fallthrough
	case reflect.Array:
		b = binary.AppendUvarint(b, uint64(v.Len()))
		for i := range v.Len() {
			b = appendValue(b, v.Index(i))
		}
		return b
	case reflect.Pointer:
		if v.IsNil() {
			return append(b, 0)
		}
		return appendValue(append(b, 1), v.Elem())
	case reflect.Interface:
		if v.IsNil() {
			return append(b, 0)
		}
		e := v.Elem()
		b = append(b, 1)
		b = appendValue(b, reflect.ValueOf(e.Type().String()))
		return appendValue(b, e)
	case reflect.Struct:
		for i := range v.NumField() {
			b = appendValue(b, v.Field(i))
		}
		return b
	case reflect.Map:
		if v.IsNil() {
			return append(b, 0)
		}
		entries := make([]string, 0, v.Len())
		for it := v.MapRange(); it.Next(); {
			entries = append(entries, string(appendValue(appendValue(nil, it.Key()), it.Value())))
		}
		slices.Sort(entries)
		b = append(b, 1)
		b = binary.AppendUvarint(b, uint64(len(entries)))
		return append(b, strings.Join(entries, "")...)
	}
	panic("web: a section's input holds a " + v.Type().String())
}
