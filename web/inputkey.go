package web

import (
	"crypto/sha256"
	"encoding/binary"
	"math"
	"reflect"
	"slices"
	"strings"
	"sync"
)

// inputKey is kind's input in encoded for the memo (Sections): kind and
// the SHA-256 digest of an encoding of every field of every struct the
// input holds, exported or not, whatever its tags, in order; each string,
// list and map prefixed by its length, each pointer and interface by
// whether it is set (an interface by its dynamic type too), a map's
// entries in the order of their keys' encodings. So the encoding is a
// prefix code — two inputs encode alike only when they are equal — and a
// field added to an input type is in its key without anyone adding it.
// The memo keeps the digest, not the encoding (a few KiB per section and
// viewer of every live table): two inputs share a render only if they are
// equal or SHA-256 collides, which no one can make happen.
func inputKey(kind string, in any) string {
	buf := keyBuffers.Get().(*[]byte)
	enc := appendValue((*buf)[:0], reflect.ValueOf(in))
	sum := sha256.Sum256(enc)
	*buf = enc
	keyBuffers.Put(buf)
	key := make([]byte, 0, len(kind)+1+len(sum))
	key = append(key, kind...)
	key = append(key, 0)
	return string(append(key, sum[:]...))
}

// keyBuffers hold encodings while they are digested: grown once to the
// largest input, a buffer serves every later key.
var keyBuffers = sync.Pool{New: func() any {
	b := make([]byte, 0, 4<<10)
	return &b
}}

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
