package proof

import (
	"bytes"
	"cmp"
	"fmt"
	"math"
	"slices"
	"strconv"
	"unicode/utf16"
	"unicode/utf8"
)

// Canonical returns the canonical form of a JSON text, as RFC 8785 (the
// JSON Canonicalization Scheme, JCS) defines it: no whitespace, object
// members sorted by their names' UTF-16 code units, strings with only the
// escapes JSON requires (\" \\ \b \f \n \r \t, \u00xx in lowercase for the
// other control characters), numbers as ECMAScript writes a double
// (Number.prototype.toString). It is what JSON.stringify gives in a
// browser once every object's keys are sorted.
//
// Why a canonical form: PostgreSQL keeps events as jsonb, which reorders an
// object's keys and drops whitespace, so the bytes read back are not the
// bytes written; the canonical form is the same for both.
//
// It refuses what has no canonical form: invalid UTF-8, lone surrogates,
// duplicate names, numbers beyond a double's range, trailing text.
func Canonical(raw []byte) ([]byte, error) {
	var c canon
	out, err := c.canonical(raw)
	if err != nil {
		return nil, err
	}
	return out, nil
}

// canon reads one JSON text and writes its canonical form. Its buffers are
// kept from one text to the next (see Extend), so that a command's events
// are put in canonical form without allocating once the buffers have
// grown.
type canon struct {
	in  []byte
	i   int
	out []byte
	// mem is a stack of the members of the objects being read, innermost
	// last; each member's value is written to out as it is read, and vals
	// holds an object's values while its members are written out again in
	// order.
	mem  []member
	vals []byte
}

// A member of an object: its name (decoded; it aliases the input when it
// has no escapes) and where its canonical value is in out.
type member struct {
	name     []byte
	from, to int
}

const maxDepth = 512

// canonical returns the canonical form of raw, in a buffer of c's own that
// the next call overwrites.
func (c *canon) canonical(raw []byte) ([]byte, error) {
	c.in, c.i, c.out, c.mem = raw, 0, c.out[:0], c.mem[:0]
	if cap(c.out) < len(raw) {
		c.out = make([]byte, 0, len(raw))
	}
	c.space()
	if err := c.value(0); err != nil {
		return nil, err
	}
	c.space()
	if c.i != len(c.in) {
		return nil, c.errorf("text after the JSON value")
	}
	c.in = nil
	return c.out, nil
}

func (c *canon) errorf(format string, args ...any) error {
	return fmt.Errorf("canonical JSON: at byte %d: %s", c.i, fmt.Sprintf(format, args...))
}

func (c *canon) space() {
	for c.i < len(c.in) {
		switch c.in[c.i] {
		case ' ', '\t', '\n', '\r':
			c.i++
		default:
			return
		}
	}
}

func (c *canon) value(depth int) error {
	if depth > maxDepth {
		return c.errorf("nested too deeply")
	}
	if c.i >= len(c.in) {
		return c.errorf("unexpected end")
	}
	switch b := c.in[c.i]; {
	case b == '{':
		return c.object(depth)
	case b == '[':
		return c.array(depth)
	case b == '"':
		s, err := c.str()
		if err != nil {
			return err
		}
		c.out = appendString(c.out, s)
		return nil
	case b == '-' || b >= '0' && b <= '9':
		return c.number()
	}
	for _, lit := range [...]string{"true", "false", "null"} {
		if len(c.in)-c.i >= len(lit) && string(c.in[c.i:c.i+len(lit)]) == lit {
			c.i += len(lit)
			c.out = append(c.out, lit...)
			return nil
		}
	}
	return c.errorf("unexpected %q", c.in[c.i])
}

func (c *canon) object(depth int) error {
	c.i++ // {
	c.space()
	if c.i < len(c.in) && c.in[c.i] == '}' {
		c.i++
		c.out = append(c.out, "{}"...)
		return nil
	}
	base, first := len(c.out), len(c.mem)
	for {
		c.space()
		if c.i >= len(c.in) || c.in[c.i] != '"' {
			return c.errorf("expected a member name")
		}
		name, err := c.str()
		if err != nil {
			return err
		}
		c.space()
		if c.i >= len(c.in) || c.in[c.i] != ':' {
			return c.errorf("expected ':'")
		}
		c.i++
		c.space()
		from := len(c.out)
		if err := c.value(depth + 1); err != nil {
			return err
		}
		c.mem = append(c.mem, member{name: name, from: from, to: len(c.out)})
		c.space()
		if c.i >= len(c.in) {
			return c.errorf("unexpected end in an object")
		}
		if c.in[c.i] == ',' {
			c.i++
			continue
		}
		if c.in[c.i] != '}' {
			return c.errorf("expected ',' or '}'")
		}
		c.i++
		break
	}
	// The members' values are in out, one after the other from base, in
	// the order read (an inner object has written its own out in order
	// and popped its members): copy them aside and write the object again
	// with its members sorted.
	members := c.mem[first:]
	slices.SortFunc(members, func(a, b member) int { return compareUTF16(a.name, b.name) })
	c.vals = append(c.vals[:0], c.out[base:]...)
	c.out = append(c.out[:base], '{')
	for k, m := range members {
		if k > 0 {
			if bytes.Equal(m.name, members[k-1].name) {
				return c.errorf("duplicate member %q", m.name)
			}
			c.out = append(c.out, ',')
		}
		c.out = appendString(c.out, m.name)
		c.out = append(c.out, ':')
		c.out = append(c.out, c.vals[m.from-base:m.to-base]...)
	}
	c.out = append(c.out, '}')
	c.mem = c.mem[:first]
	return nil
}

// compareUTF16 orders two valid UTF-8 names as their UTF-16 code units
// compare (RFC 8785, section 3.2.3). That is the order of their code
// points, but for a character beyond U+FFFF (a surrogate pair, from
// 0xD800) against one from U+E000 to U+FFFF.
func compareUTF16(a, b []byte) int {
	for len(a) > 0 && len(b) > 0 {
		if a[0] < utf8.RuneSelf && b[0] < utf8.RuneSelf {
			if a[0] != b[0] {
				return cmp.Compare(a[0], b[0])
			}
			a, b = a[1:], b[1:]
			continue
		}
		ra, na := utf8.DecodeRune(a)
		rb, nb := utf8.DecodeRune(b)
		if ra != rb {
			return cmp.Compare(utf16Key(ra), utf16Key(rb))
		}
		a, b = a[na:], b[nb:]
	}
	return cmp.Compare(len(a), len(b))
}

// utf16Key is r's UTF-16 code units as one number that orders like them:
// the unit (or the pair's first unit) in the high half.
func utf16Key(r rune) uint32 {
	if r < 0x10000 {
		return uint32(r) << 16
	}
	hi, lo := utf16.EncodeRune(r)
	return uint32(hi)<<16 | uint32(lo)
}

func (c *canon) array(depth int) error {
	c.i++ // [
	c.out = append(c.out, '[')
	c.space()
	if c.i < len(c.in) && c.in[c.i] == ']' {
		c.i++
		c.out = append(c.out, ']')
		return nil
	}
	for {
		c.space()
		if err := c.value(depth + 1); err != nil {
			return err
		}
		c.space()
		if c.i >= len(c.in) {
			return c.errorf("unexpected end in an array")
		}
		if c.in[c.i] == ',' {
			c.i++
			c.out = append(c.out, ',')
			continue
		}
		if c.in[c.i] != ']' {
			return c.errorf("expected ',' or ']'")
		}
		c.i++
		c.out = append(c.out, ']')
		return nil
	}
}

// str reads a JSON string and returns its value: a slice of the input
// when the string has no escapes, which is the common case.
func (c *canon) str() ([]byte, error) {
	c.i++ // "
	start := c.i
	for c.i < len(c.in) {
		b := c.in[c.i]
		if b == '"' {
			s := c.in[start:c.i]
			if !utf8.Valid(s) {
				return nil, c.errorf("invalid UTF-8")
			}
			c.i++
			return s, nil
		}
		if b == '\\' || b < 0x20 {
			break
		}
		c.i++
	}
	buf := append([]byte(nil), c.in[start:c.i]...)
	for {
		if c.i >= len(c.in) {
			return nil, c.errorf("unterminated string")
		}
		b := c.in[c.i]
		switch {
		case b == '"':
			c.i++
			if !utf8.Valid(buf) {
				return nil, c.errorf("invalid UTF-8")
			}
			return buf, nil
		case b < 0x20:
			return nil, c.errorf("control character in a string")
		case b != '\\':
			buf = append(buf, b)
			c.i++
			continue
		}
		if c.i+1 >= len(c.in) {
			return nil, c.errorf("unterminated escape")
		}
		e := c.in[c.i+1]
		c.i += 2
		switch e {
		case '"', '\\', '/':
			buf = append(buf, e)
		case 'b':
			buf = append(buf, '\b')
		case 'f':
			buf = append(buf, '\f')
		case 'n':
			buf = append(buf, '\n')
		case 'r':
			buf = append(buf, '\r')
		case 't':
			buf = append(buf, '\t')
		case 'u':
			r, err := c.hex4()
			if err != nil {
				return nil, err
			}
			if utf16.IsSurrogate(r) {
				if r >= 0xdc00 || c.i+1 >= len(c.in) || c.in[c.i] != '\\' || c.in[c.i+1] != 'u' {
					return nil, c.errorf("lone surrogate")
				}
				c.i += 2
				r2, err := c.hex4()
				if err != nil {
					return nil, err
				}
				if r = utf16.DecodeRune(r, r2); r == utf8.RuneError {
					return nil, c.errorf("lone surrogate")
				}
			}
			buf = utf8.AppendRune(buf, r)
		default:
			return nil, c.errorf("bad escape \\%c", e)
		}
	}
}

func (c *canon) hex4() (rune, error) {
	if c.i+4 > len(c.in) {
		return 0, c.errorf("short \\u escape")
	}
	n, err := strconv.ParseUint(string(c.in[c.i:c.i+4]), 16, 16)
	if err != nil {
		return 0, c.errorf("bad \\u escape")
	}
	c.i += 4
	return rune(n), nil
}

// exactDigits is how many digits an integer may have to be written as it
// is read: below 10^15 < 2^53 every integer is a double exactly, and
// ECMAScript writes it with its digits.
const exactDigits = 15

func (c *canon) number() error {
	start := c.i
	if c.in[c.i] == '-' {
		c.i++
	}
	digits := func() int {
		n := 0
		for c.i < len(c.in) && c.in[c.i] >= '0' && c.in[c.i] <= '9' {
			c.i++
			n++
		}
		return n
	}
	intStart := c.i
	n := digits()
	if n == 0 || c.in[intStart] == '0' && n > 1 {
		return c.errorf("bad number")
	}
	integer := true
	if c.i < len(c.in) && c.in[c.i] == '.' {
		c.i++
		integer = false
		if digits() == 0 {
			return c.errorf("bad number")
		}
	}
	if c.i < len(c.in) && (c.in[c.i] == 'e' || c.in[c.i] == 'E') {
		c.i++
		integer = false
		if c.i < len(c.in) && (c.in[c.i] == '+' || c.in[c.i] == '-') {
			c.i++
		}
		if digits() == 0 {
			return c.errorf("bad number")
		}
	}
	if integer && n <= exactDigits {
		if n == 1 && c.in[intStart] == '0' {
			c.out = append(c.out, '0') // -0 too
		} else {
			c.out = append(c.out, c.in[start:c.i]...)
		}
		return nil
	}
	f, err := strconv.ParseFloat(string(c.in[start:c.i]), 64)
	if err != nil || math.IsInf(f, 0) {
		return c.errorf("number %s is out of a double's range", c.in[start:c.i])
	}
	c.out = AppendNumber(c.out, f)
	return nil
}

// AppendNumber appends f as ECMAScript's Number.prototype.toString writes
// it (RFC 8785, section 3.2.2.3): the shortest digits that read back as f,
// in plain notation from 1e-6 up to 1e21 and in exponent notation outside.
func AppendNumber(out []byte, f float64) []byte {
	if f == 0 {
		return append(out, '0') // -0 too
	}
	if f < 0 {
		out = append(out, '-')
		f = -f
	}
	// d.ddddde±x: the shortest digits and the exponent.
	e := strconv.AppendFloat(nil, f, 'e', -1, 64)
	mant, exp, _ := bytes.Cut(e, []byte("e"))
	digits := append([]byte{mant[0]}, bytes.TrimPrefix(mant[1:], []byte("."))...)
	x, _ := strconv.Atoi(string(exp))
	k, n := len(digits), x+1 // f = 0.digits × 10^n
	switch {
	case k <= n && n <= 21:
		out = append(out, digits...)
		for range n - k {
			out = append(out, '0')
		}
	case 0 < n && n <= 21:
		out = append(out, digits[:n]...)
		out = append(out, '.')
		out = append(out, digits[n:]...)
	case -6 < n && n <= 0:
		out = append(out, "0."...)
		for range -n {
			out = append(out, '0')
		}
		out = append(out, digits...)
	default:
		out = append(out, digits[0])
		if k > 1 {
			out = append(out, '.')
			out = append(out, digits[1:]...)
		}
		out = append(out, 'e')
		if n-1 >= 0 {
			out = append(out, '+')
		}
		out = strconv.AppendInt(out, int64(n-1), 10)
	}
	return out
}

// appendString appends s as a canonical JSON string.
func appendString[T string | []byte](out []byte, s T) []byte {
	const hex = "0123456789abcdef"
	out = append(out, '"')
	start := 0
	for i := 0; i < len(s); i++ {
		b := s[i]
		if b >= 0x20 && b != '"' && b != '\\' {
			continue
		}
		out = append(out, s[start:i]...)
		switch b {
		case '"', '\\':
			out = append(out, '\\', b)
		case '\b':
			out = append(out, '\\', 'b')
		case '\f':
			out = append(out, '\\', 'f')
		case '\n':
			out = append(out, '\\', 'n')
		case '\r':
			out = append(out, '\\', 'r')
		case '\t':
			out = append(out, '\\', 't')
		default:
			out = append(out, '\\', 'u', '0', '0', hex[b>>4], hex[b&0xf])
		}
		start = i + 1
	}
	out = append(out, s[start:]...)
	return append(out, '"')
}
