package main

import (
	"encoding/json"
	"errors"
	"strconv"
)

// parseServerMessage reads the few fields the load generator uses from a
// server message: the type, an ack's or error's id, seq, code and message,
// the command id, kind and actor of every event, the page's fragments
// (html) and the view's current turn. It walks the
// JSON once without building anything else — decoding whole messages
// (a projection is several kilobytes) cost the load generator more CPU
// than anything else, CPU taken from the server it measures on the same
// cores. Anything it does not expect goes to encoding/json.
func parseServerMessage(data []byte) (serverMessage, error) {
	s := jsonScanner{b: data}
	m, err := s.message()
	if err != nil {
		m = serverMessage{}
		if err := json.Unmarshal(data, &m); err != nil {
			return m, err
		}
	}
	return m, nil
}

var errUnexpected = errors.New("unexpected JSON")

// jsonScanner walks JSON text, skipping what it is not asked for.
type jsonScanner struct {
	b []byte
	i int
}

func (s *jsonScanner) message() (serverMessage, error) {
	var m serverMessage
	err := s.object(func(key []byte) error {
		var err error
		switch string(key) {
		case "type":
			m.Type, err = s.str()
		case "id":
			m.ID, err = s.str()
		case "code":
			m.Code, err = s.str()
		case "message":
			m.Message, err = s.str()
		case "seq":
			m.Seq, err = s.int()
		case "events":
			m.Events = make([]eventRef, 0, 4)
			err = s.array(func() error {
				var ev eventRef
				err := s.object(func(key []byte) error {
					var err error
					switch string(key) {
					case "command":
						ev.Command, err = s.str()
					case "kind":
						ev.Kind, err = s.str()
					case "actor":
						ev.Actor, err = s.str()
					default:
						err = s.skip()
					}
					return err
				})
				m.Events = append(m.Events, ev)
				return err
			})
		case "html", "parts":
			fr := map[string]string{}
			err = s.object(func(key []byte) error {
				v, err := s.str()
				fr[string(key)] = v
				return err
			})
			if string(key) == "html" {
				m.HTML = fr
			} else {
				m.Parts = fr
			}
		case "view":
			m.View = &struct {
				Current string `json:"current"`
			}{}
			err = s.object(func(key []byte) error {
				if string(key) == "current" {
					var err error
					m.View.Current, err = s.str()
					return err
				}
				return s.skip()
			})
		default:
			err = s.skip()
		}
		return err
	})
	if err == nil {
		s.space()
		if s.i != len(s.b) {
			err = errUnexpected
		}
	}
	return m, err
}

func (s *jsonScanner) space() {
	for s.i < len(s.b) && (s.b[s.i] == ' ' || s.b[s.i] == '\n' || s.b[s.i] == '\t' || s.b[s.i] == '\r') {
		s.i++
	}
}

// consume skips spaces and then c, if it is there.
func (s *jsonScanner) consume(c byte) bool {
	s.space()
	if s.i < len(s.b) && s.b[s.i] == c {
		s.i++
		return true
	}
	return false
}

// object calls fn for every key (as written, escapes and all: the keys the
// load generator looks for have none), with the scanner at the key's value,
// which fn must consume.
func (s *jsonScanner) object(fn func(key []byte) error) error {
	if !s.consume('{') {
		return errUnexpected
	}
	if s.consume('}') {
		return nil
	}
	for {
		key, _, err := s.raw()
		if err != nil {
			return err
		}
		if !s.consume(':') {
			return errUnexpected
		}
		if err := fn(key); err != nil {
			return err
		}
		if s.consume(',') {
			continue
		}
		if s.consume('}') {
			return nil
		}
		return errUnexpected
	}
}

// array calls fn for every element, which fn must consume.
func (s *jsonScanner) array(fn func() error) error {
	if !s.consume('[') {
		return errUnexpected
	}
	if s.consume(']') {
		return nil
	}
	for {
		if err := fn(); err != nil {
			return err
		}
		if s.consume(',') {
			continue
		}
		if s.consume(']') {
			return nil
		}
		return errUnexpected
	}
}

// str reads a string; one with escapes is decoded by encoding/json.
func (s *jsonScanner) str() (string, error) {
	raw, escaped, err := s.raw()
	if err != nil || !escaped {
		return string(raw), err
	}
	var out string
	err = json.Unmarshal(s.b[s.i-len(raw)-2:s.i], &out)
	return out, err
}

// raw reads a string as it is written, between its quotes, without
// copying it, and says whether it has escapes.
func (s *jsonScanner) raw() (raw []byte, escaped bool, err error) {
	if !s.consume('"') {
		return nil, false, errUnexpected
	}
	start := s.i
	for ; s.i < len(s.b); s.i++ {
		switch s.b[s.i] {
		case '\\':
			escaped = true
			s.i++
		case '"':
			raw = s.b[start:s.i]
			s.i++
			return raw, escaped, nil
		}
	}
	return nil, false, errUnexpected
}

func (s *jsonScanner) int() (int64, error) {
	s.space()
	start := s.i
	for s.i < len(s.b) && (s.b[s.i] == '-' || s.b[s.i] >= '0' && s.b[s.i] <= '9') {
		s.i++
	}
	return strconv.ParseInt(string(s.b[start:s.i]), 10, 64)
}

// skip passes over one value of any kind.
func (s *jsonScanner) skip() error {
	s.space()
	if s.i >= len(s.b) {
		return errUnexpected
	}
	switch s.b[s.i] {
	case '"':
		_, _, err := s.raw()
		return err
	case '{':
		return s.object(func([]byte) error { return s.skip() })
	case '[':
		return s.array(s.skip)
	}
	// A number, true, false or null.
	start := s.i
	for s.i < len(s.b) {
		switch s.b[s.i] {
		case ',', '}', ']', ' ', '\n', '\t', '\r':
			if s.i == start {
				return errUnexpected
			}
			return nil
		}
		s.i++
	}
	return nil
}
