// Package strictjson is the one way JSON from outside the server is read:
// websocket messages, API bodies, encounter, draft, bestiary and character
// files, a command's arguments and a combatant's stats. A document is
// exactly one JSON value with nothing after it but white space, valid
// UTF-8, no field the target does not know — and every field named exactly
// as the target names it ("Text" is refused where "text" is meant, naming
// the field; encoding/json alone would take it) — and within a size and a
// nesting depth — so "{…}}" is refused rather than read as "{…}", and a
// hostile file cannot make the decoder recurse or allocate without bound.
// A user's file or request body (Limits.File) larger than GateBytes is
// decoded under the process's gate for decoders of user files
// (intake.Run), so that large documents, like pictures, are decoded a few
// at a time.
package strictjson

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"io"
	"reflect"
	"strings"
	"unicode/utf8"

	"github.com/fray-vtt/fray/internal/fray"
	"github.com/fray-vtt/fray/internal/intake"
)

// GateBytes is the size past which a user's file is decoded under the
// gate.
const GateBytes = 64 << 10

// costPerByte bounds what decoding takes for each byte of a document:
// encoding/json's values (strings, maps, slices of any) come to a few
// times the text.
const costPerByte = 16

// DefaultMaxDepth bounds nesting when Limits.MaxDepth is zero. The deepest
// document Fray reads (a setup with its stats) nests six levels.
const DefaultMaxDepth = 32

// Limits bound a document.
type Limits struct {
	// MaxBytes is the largest document accepted (ETOOLARGE beyond it);
	// zero means the caller has bounded it already.
	MaxBytes int
	// MaxDepth is the deepest nesting of objects and arrays; zero means
	// DefaultMaxDepth.
	MaxDepth int
	// AllowUnknown accepts fields the target does not declare (a field
	// that differs from one only in case is still refused).
	AllowUnknown bool
	// File names the document when it is a user's file or request body as
	// it enters ("encounter file", "request body"): one larger than
	// GateBytes is then decoded under intake's gate, and refused EBUSY when
	// the gate is full. Empty for a part of a document, or a document read
	// again from the database, which are never queued.
	File string
}

// Decode reads data into v with the default limits.
func Decode(data []byte, v any) error { return DecodeWith(data, v, Limits{}) }

// DecodeWith reads data into v: exactly one JSON value, then only white
// space. Errors are fray errors — ETOOLARGE over MaxBytes, EINVALID
// otherwise — whose messages say what is wrong, for people.
func DecodeWith(data []byte, v any, lim Limits) error {
	if lim.MaxBytes > 0 && len(data) > lim.MaxBytes {
		return fray.Errorf(fray.ETOOLARGE, "larger than %d bytes", lim.MaxBytes)
	}
	if err := Check(data, lim.MaxDepth); err != nil {
		return err
	}
	if err := checkNames(data, reflect.TypeOf(v), lim.AllowUnknown); err != nil {
		return fray.Errorf(fray.EINVALID, "%s", err.Error())
	}
	if lim.File == "" || len(data) <= GateBytes {
		return decode(data, v, lim)
	}
	return intake.Run(context.Background(), intake.Job{What: lim.File, Cost: costPerByte * int64(len(data))},
		func(context.Context) error { return decode(data, v, lim) })
}

// decode is DecodeWith's reading, once data is checked.
func decode(data []byte, v any, lim Limits) error {
	dec := json.NewDecoder(bytes.NewReader(data))
	if !lim.AllowUnknown {
		dec.DisallowUnknownFields()
	}
	if err := dec.Decode(v); err != nil {
		var fe *fray.Error
		switch {
		case errors.As(err, &fe):
			return err
		case errors.Is(err, io.EOF):
			return fray.Errorf(fray.EINVALID, "malformed JSON: no value")
		}
		return fray.Errorf(fray.EINVALID, "malformed JSON: %v", err)
	}
	if !blank(data[dec.InputOffset():]) {
		return fray.Errorf(fray.EINVALID, "malformed JSON: something follows the value (only one JSON value is allowed)")
	}
	return nil
}

// Unmarshal reads data — a part of a document already read with Decode,
// so within its size and depth, such as a command's arguments or a
// combatant's stats kept as json.RawMessage — into v: no field v does not
// know, every field named exactly. Its error has no code: it is text for
// the caller to put in its own message ("stats: unknown field \"Hp\"
// (field names are case-sensitive: did you mean \"hp\"?)").
func Unmarshal(data []byte, v any) error {
	if err := checkNames(data, reflect.TypeOf(v), false); err != nil {
		return err
	}
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	if err := dec.Decode(v); err != nil {
		return errors.New(strings.TrimPrefix(err.Error(), "json: "))
	}
	return nil
}

// Check refuses data that is not valid UTF-8 (a decoder would turn each
// invalid byte into U+FFFD, so distinct ids and texts could silently become
// one), that holds a NUL character in a string (PostgreSQL can store it
// neither in text nor in jsonb), or that nests objects and arrays deeper
// than maxDepth (zero: DefaultMaxDepth). It does not check the syntax
// otherwise.
func Check(data []byte, maxDepth int) error {
	if maxDepth <= 0 {
		maxDepth = DefaultMaxDepth
	}
	if !utf8.Valid(data) {
		return fray.Errorf(fray.EINVALID, "malformed JSON: not valid UTF-8")
	}
	depth, inString, escaped := 0, false, false
	for i, c := range data {
		switch {
		case inString:
			switch {
			case escaped:
				escaped = false
				if c == 'u' && bytes.HasPrefix(data[i+1:], []byte("0000")) {
					return fray.Errorf(fray.EINVALID, "malformed JSON: text may not contain the NUL character (\\u0000)")
				}
			case c == '\\':
				escaped = true
			case c == '"':
				inString = false
			}
		case c == '"':
			inString = true
		case c == '{' || c == '[':
			if depth++; depth > maxDepth {
				return fray.Errorf(fray.EINVALID, "malformed JSON: nested deeper than %d levels", maxDepth)
			}
		case c == '}' || c == ']':
			depth--
		}
	}
	return nil
}

// blank reports whether b is only JSON white space.
func blank(b []byte) bool {
	for _, c := range b {
		if c != ' ' && c != '\t' && c != '\n' && c != '\r' {
			return false
		}
	}
	return true
}
