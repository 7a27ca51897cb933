package proof

import (
	"bytes"
	"fmt"
	"math"
	"slices"
	"strconv"
	"unicode/utf16"
	"unicode/utf8"
)

// canonicalReference is Canonical as it was first written: one slice per
// member, names compared as UTF-16 code units, every number through
// strconv. The faster Canonical must give its bytes for every input
// (TestCanonicalMatchesTheReference, FuzzCanonical): digests already in
// the chain depend on them.
func canonicalReference(raw []byte) ([]byte, error) {
	c := refCanon{in: raw, out: make([]byte, 0, len(raw))}
	c.space()
	if err := c.value(0); err != nil {
		return nil, err
	}
	c.space()
	if c.i != len(c.in) {
		return nil, c.errorf("text after the JSON value")
	}
	return c.out, nil
}

type refCanon struct {
	in  []byte
	i   int
	out []byte
}

func (c *refCanon) errorf(format string, args ...any) error {
	return fmt.Errorf("canonical JSON: at byte %d: %s", c.i, fmt.Sprintf(format, args...))
}

func (c *refCanon) space() {
	for c.i < len(c.in) {
		switch c.in[c.i] {
		case ' ', '\t', '\n', '\r':
			c.i++
		default:
			return
		}
	}
}

func (c *refCanon) value(depth int) error {
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
	for _, lit := range []string{"true", "false", "null"} {
		if bytes.HasPrefix(c.in[c.i:], []byte(lit)) {
			c.i += len(lit)
			c.out = append(c.out, lit...)
			return nil
		}
	}
	return c.errorf("unexpected %q", c.in[c.i])
}

type refMember struct {
	name  string
	key   []uint16
	value []byte
}

func (c *refCanon) object(depth int) error {
	c.i++ // {
	var members []refMember
	c.space()
	if c.i < len(c.in) && c.in[c.i] == '}' {
		c.i++
		c.out = append(c.out, "{}"...)
		return nil
	}
	outer := c.out
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
		c.out = nil
		if err := c.value(depth + 1); err != nil {
			return err
		}
		members = append(members, refMember{name: name, key: utf16.Encode([]rune(name)), value: c.out})
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
	slices.SortFunc(members, func(a, b refMember) int { return slices.Compare(a.key, b.key) })
	c.out = append(outer, '{')
	for k, m := range members {
		if k > 0 {
			if m.name == members[k-1].name {
				return c.errorf("duplicate member %q", m.name)
			}
			c.out = append(c.out, ',')
		}
		c.out = appendString(c.out, m.name)
		c.out = append(c.out, ':')
		c.out = append(c.out, m.value...)
	}
	c.out = append(c.out, '}')
	return nil
}

func (c *refCanon) array(depth int) error {
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

// str reads a JSON string and returns its value.
func (c *refCanon) str() (string, error) {
	c.i++ // "
	start := c.i
	// The common case: no escapes.
	for c.i < len(c.in) {
		b := c.in[c.i]
		if b == '"' {
			s := c.in[start:c.i]
			if !utf8.Valid(s) {
				return "", c.errorf("invalid UTF-8")
			}
			c.i++
			return string(s), nil
		}
		if b == '\\' || b < 0x20 {
			break
		}
		c.i++
	}
	buf := append([]byte(nil), c.in[start:c.i]...)
	for {
		if c.i >= len(c.in) {
			return "", c.errorf("unterminated string")
		}
		b := c.in[c.i]
		switch {
		case b == '"':
			c.i++
			if !utf8.Valid(buf) {
				return "", c.errorf("invalid UTF-8")
			}
			return string(buf), nil
		case b < 0x20:
			return "", c.errorf("control character in a string")
		case b != '\\':
			buf = append(buf, b)
			c.i++
			continue
		}
		if c.i+1 >= len(c.in) {
			return "", c.errorf("unterminated escape")
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
				return "", err
			}
			if utf16.IsSurrogate(r) {
				if r >= 0xdc00 || c.i+1 >= len(c.in) || c.in[c.i] != '\\' || c.in[c.i+1] != 'u' {
					return "", c.errorf("lone surrogate")
				}
				c.i += 2
				r2, err := c.hex4()
				if err != nil {
					return "", err
				}
				if r = utf16.DecodeRune(r, r2); r == utf8.RuneError {
					return "", c.errorf("lone surrogate")
				}
			}
			buf = utf8.AppendRune(buf, r)
		default:
			return "", c.errorf("bad escape \\%c", e)
		}
	}
}

func (c *refCanon) hex4() (rune, error) {
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

func (c *refCanon) number() error {
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
	if digits() == 0 || c.in[intStart] == '0' && c.i-intStart > 1 {
		return c.errorf("bad number")
	}
	if c.i < len(c.in) && c.in[c.i] == '.' {
		c.i++
		if digits() == 0 {
			return c.errorf("bad number")
		}
	}
	if c.i < len(c.in) && (c.in[c.i] == 'e' || c.in[c.i] == 'E') {
		c.i++
		if c.i < len(c.in) && (c.in[c.i] == '+' || c.in[c.i] == '-') {
			c.i++
		}
		if digits() == 0 {
			return c.errorf("bad number")
		}
	}
	f, err := strconv.ParseFloat(string(c.in[start:c.i]), 64)
	if err != nil || math.IsInf(f, 0) {
		return c.errorf("number %s is out of a double's range", c.in[start:c.i])
	}
	c.out = AppendNumber(c.out, f)
	return nil
}
