package strictjson

// Field is one member of an object read by PlainFields.
type Field struct {
	Key []byte // the key's text (its quotes removed)
	// Value is a string's text without its quotes, or, when Object is
	// set, a flat object's JSON exactly as it stands in the document.
	Value  []byte
	Object bool
}

// PlainFields reads data as a plain JSON object and appends its members to
// fields, in order: every key and string printable ASCII without escapes,
// every value such a string or a flat object of such strings, white space
// only between tokens and after the object. It reports false for anything
// else — another value, an escape, a byte outside printable ASCII, deeper
// nesting, a syntax error — and the caller then reads data the ordinary
// way (Decode), which accepts or refuses it with its reason. It does not
// check for repeated keys. It is the fast path for the small messages a
// server reads most often (a websocket's commands): what it accepts is
// valid UTF-8, holds no NUL and nests two levels, so Check has nothing to
// refuse in it.
func PlainFields(data []byte, fields []Field) ([]Field, bool) {
	p := plain{b: data}
	fields, ok := p.object(fields, true)
	if !ok {
		return fields, false
	}
	p.space()
	return fields, p.i == len(p.b)
}

type plain struct {
	b []byte
	i int
}

func (p *plain) space() {
	for p.i < len(p.b) {
		switch p.b[p.i] {
		case ' ', '\t', '\n', '\r':
			p.i++
		default:
			return
		}
	}
}

// next skips white space and consumes c if it comes next.
func (p *plain) next(c byte) bool {
	p.space()
	if p.i < len(p.b) && p.b[p.i] == c {
		p.i++
		return true
	}
	return false
}

// str reads a string of printable ASCII without escapes and returns its
// text.
func (p *plain) str() ([]byte, bool) {
	if !p.next('"') {
		return nil, false
	}
	start := p.i
	for ; p.i < len(p.b); p.i++ {
		switch c := p.b[p.i]; {
		case c == '"':
			s := p.b[start:p.i:p.i]
			p.i++
			return s, true
		case c < 0x20 || c > 0x7e || c == '\\':
			return nil, false
		}
	}
	return nil, false
}

// object reads an object; with nested, a member may be a flat object (one
// whose members are strings), appended as a Field with Object set.
func (p *plain) object(fields []Field, nested bool) ([]Field, bool) {
	if !p.next('{') {
		return fields, false
	}
	if p.next('}') {
		return fields, true
	}
	for {
		key, ok := p.str()
		if !ok || !p.next(':') {
			return fields, false
		}
		p.space()
		if nested && p.i < len(p.b) && p.b[p.i] == '{' {
			start := p.i
			if _, ok := p.object(nil, false); !ok {
				return fields, false
			}
			fields = append(fields, Field{Key: key, Value: p.b[start:p.i:p.i], Object: true})
		} else {
			value, ok := p.str()
			if !ok {
				return fields, false
			}
			if nested {
				fields = append(fields, Field{Key: key, Value: value})
			}
		}
		if p.next('}') {
			return fields, true
		}
		if !p.next(',') {
			return fields, false
		}
	}
}
