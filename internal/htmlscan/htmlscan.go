// Package htmlscan reads HTML fragments with x/net/html's tokenizer for
// what the encounter page's updates need: what changed between two renders
// of a section (Diff, which the realtime hub sends), how a page applies
// that (Apply), the ids of a fragment's top-level elements and where an
// element of an id sits. The hub, the load generator's page clients and
// the tests read markup the same way through it.
package htmlscan

import (
	"fmt"
	"io"
	"slices"
	"strings"

	"golang.org/x/net/html"
	"golang.org/x/net/html/atom"
)

// TopIDs tokenizes an HTML fragment to its end and returns the id (or "")
// of each of its top-level elements.
func TopIDs(s string) ([]string, error) {
	z := html.NewTokenizer(strings.NewReader(s))
	var ids []string
	depth := 0
	for {
		switch z.Next() {
		case html.ErrorToken:
			if err := z.Err(); err != io.EOF {
				return nil, err
			}
			if depth != 0 {
				return ids, fmt.Errorf("%d elements left open", depth)
			}
			return ids, nil
		case html.StartTagToken:
			name, more := z.TagName()
			if depth == 0 {
				id := ""
				for more {
					var k, v []byte
					k, v, more = z.TagAttr()
					if string(k) == "id" {
						id = string(v)
					}
				}
				ids = append(ids, id)
			}
			if !void[atom.Lookup(name)] {
				depth++
			}
		case html.EndTagToken:
			depth--
		case html.SelfClosingTagToken:
			if depth == 0 {
				ids = append(ids, "")
			}
		}
	}
}

// void have no end tag.
var void = map[atom.Atom]bool{atom.Area: true, atom.Base: true, atom.Br: true, atom.Col: true, atom.Embed: true,
	atom.Hr: true, atom.Img: true, atom.Input: true, atom.Link: true, atom.Meta: true, atom.Source: true, atom.Track: true, atom.Wbr: true}

// ElementByID finds the element of id id in markup: its outer HTML is
// markup[start:end]. Markup as Fray's templates write it (a double-quoted
// id after a space) is searched for the attribute and only the element's
// own tags are read, as Diff does; anything else is read through the
// tokenizer from the start (elementByIDTokenized), as is markup that
// names the id but not in that form.
func ElementByID(markup, id string) (start, end int, ok bool) {
	if !strings.Contains(markup, id) {
		return 0, 0, false // no attribute can hold it
	}
	needle := ` id="` + id + `"`
	for at := 0; ; {
		i := strings.Index(markup[at:], needle)
		if i < 0 {
			return elementByIDTokenized(markup, id)
		}
		i += at
		at = i + len(needle)
		start := strings.LastIndexByte(markup[:i], '<')
		if start < 0 || strings.IndexByte(markup[start:i], '>') >= 0 {
			continue // in text
		}
		t, ok := readTag(markup, start)
		switch {
		case !ok || markup[start+1] == '/' || markup[start+1] == '!':
			return elementByIDTokenized(markup, id)
		case t.id != id:
			continue // in another attribute's value
		case t.closed:
			return start, t.end, true
		}
		if end := closeOf(markup, t.name, t.end); end >= 0 {
			return start, end, true
		}
		return elementByIDTokenized(markup, id)
	}
}

// elementByIDTokenized is ElementByID reading every token of markup.
func elementByIDTokenized(markup, id string) (start, end int, ok bool) {
	z := html.NewTokenizer(strings.NewReader(markup))
	at, depth := 0, 0
	start = -1
	for {
		tt := z.Next()
		n := len(z.Raw())
		switch tt {
		case html.ErrorToken:
			return 0, 0, false
		case html.StartTagToken:
			name, more := z.TagName()
			void := void[atom.Lookup(name)]
			if start < 0 {
				for more {
					var k, v []byte
					k, v, more = z.TagAttr()
					if string(k) == "id" && string(v) == id {
						start = at
						if void {
							return start, at + n, true
						}
					}
				}
				if start < 0 {
					break
				}
			}
			if !void {
				depth++
			}
		case html.EndTagToken:
			if start >= 0 {
				depth--
				if depth == 0 {
					return start, at + n, true
				}
			}
		case html.SelfClosingTagToken:
			if start < 0 {
				_, more := z.TagName()
				for more {
					var k, v []byte
					k, v, more = z.TagAttr()
					if string(k) == "id" && string(v) == id {
						return at, at + n, true
					}
				}
			}
		}
		at += n
	}
}

// A part is an element a page may replace alone: one that carries a
// data-part attribute and an id unique on the page. Parts inside a part
// belong to it.
const partAttr = "data-part"

// span is an outermost part of a section: its id, and its outer HTML is
// markup[start:end].
type span struct {
	id         string
	start, end int
}

// parts lists the outermost parts of markup in order, false when it cannot
// tell them. It reads markup as the server's templates write it: every
// '<', '>' and '"' in text and in attribute values escaped, attribute
// values double-quoted, no comment and no raw-text element (script,
// style), so that a raw '<' starts a tag and a raw '>' ends one (web's
// TestSectionInputsMatter checks every section it renders for comments
// and raw text). That is a search for the attribute, not a tokenization of
// the whole section: a page's battlefield is read in a few microseconds.
func parts(markup string) ([]span, bool) {
	var out []span
	for at := 0; ; {
		i := strings.Index(markup[at:], " "+partAttr)
		if i < 0 {
			return out, true
		}
		i += at
		at = i + 1 + len(partAttr)
		start := strings.LastIndexByte(markup[:i], '<')
		if start < 0 || strings.IndexByte(markup[start:i], '>') >= 0 {
			continue // in text
		}
		t, ok := readTag(markup, start)
		if !ok {
			return nil, false
		}
		if !t.part {
			continue // in an attribute's value
		}
		if t.id == "" {
			return nil, false
		}
		end := t.end
		if !t.closed {
			if end = closeOf(markup, t.name, t.end); end < 0 {
				return nil, false
			}
		}
		out = append(out, span{id: t.id, start: start, end: end})
		at = end
	}
}

// tag is a start tag read by readTag.
type tag struct {
	name, id string
	part     bool // it carries data-part
	closed   bool // void or self-closing: no end tag
	end      int  // just after its '>'
}

// readTag reads the start tag at markup[start] ('<').
func readTag(markup string, start int) (tag, bool) {
	i := start + 1
	n := i
	for n < len(markup) && !isSpace(markup[n]) && markup[n] != '>' && markup[n] != '/' {
		n++
	}
	t := tag{name: markup[i:n]}
	for i = n; i < len(markup); {
		switch c := markup[i]; {
		case isSpace(c):
			i++
		case c == '>':
			t.end = i + 1
			t.closed = t.closed || void[atom.Lookup([]byte(t.name))]
			return t, true
		case c == '/':
			t.closed = true
			i++
		default:
			k := i
			for i < len(markup) && !isSpace(markup[i]) && markup[i] != '=' && markup[i] != '>' && markup[i] != '/' {
				i++
			}
			key, value := markup[k:i], ""
			if i < len(markup) && markup[i] == '=' {
				if i+1 >= len(markup) || markup[i+1] != '"' {
					return tag{}, false
				}
				q := strings.IndexByte(markup[i+2:], '"')
				if q < 0 {
					return tag{}, false
				}
				value = markup[i+2 : i+2+q]
				i += 3 + q
			}
			switch key {
			case "id":
				t.id = value
			case partAttr:
				t.part = true
			}
			t.closed = false // a '/' before an attribute closes nothing
		}
	}
	return tag{}, false
}

// closeOf is where the element named name whose start tag ends at from
// ends: just after its end tag, counting the elements of that name inside
// it; -1 when it does not. It searches for the end tags and for the start
// tags of that name between them, not for every tag.
func closeOf(markup, name string, from int) int {
	end, open := "</"+name+">", "<"+name
	depth := 1
	for at := from; ; {
		e := strings.Index(markup[at:], end)
		if e < 0 {
			return -1
		}
		e += at
		for o := at; ; {
			i := strings.Index(markup[o:e], open)
			if i < 0 {
				break
			}
			i += o
			if c := markup[i+len(open)]; !isSpace(c) && c != '>' && c != '/' {
				o = i + len(open) // another name that starts alike
				continue
			}
			t, ok := readTag(markup, i)
			if !ok {
				return -1
			}
			if !t.closed {
				depth++
			}
			o = t.end
		}
		at = e + len(end)
		if depth--; depth == 0 {
			return at
		}
	}
}

func isSpace(c byte) bool { return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' }

// Diff says what a page showing section shown needs to show next, a later
// render of the same section: nothing (both nil, false) when they are the
// same; the parts that differ, by the id of the element of shown each
// replaces (the new one may carry another id: the next combatant's actions
// in place of the last one's), when they have as many parts and the same
// markup outside them; else whole, the section to be sent whole.
func Diff(shown, next string) (changed map[string]string, whole bool) {
	if shown == next {
		return nil, false
	}
	a, okA := parts(shown)
	b, okB := parts(next)
	if !okA || !okB || len(a) == 0 || len(a) != len(b) {
		return nil, true
	}
	ae, be := 0, 0 // where the markup after the previous part starts
	for i := range a {
		if shown[ae:a[i].start] != next[be:b[i].start] {
			return nil, true
		}
		ae, be = a[i].end, b[i].end
	}
	if shown[ae:] != next[be:] {
		return nil, true
	}
	changed = make(map[string]string, 4)
	for i := range a {
		if p := next[b[i].start:b[i].end]; shown[a[i].start:a[i].end] != p {
			changed[a[i].id] = p
		}
	}
	return changed, false
}

// Apply returns markup with parts applied as a page applies them: the
// element of each part's id replaced by the part (its new outer HTML, which
// may carry another id, even one another part replaces), every element
// found before any is replaced. found lists the ids markup held.
func Apply(markup string, parts map[string]string) (out string, found []string) {
	type at struct {
		id         string
		start, end int
	}
	var spans []at
	for id := range parts {
		if start, end, ok := ElementByID(markup, id); ok {
			spans = append(spans, at{id, start, end})
		}
	}
	if len(spans) == 0 {
		return markup, nil
	}
	slices.SortFunc(spans, func(a, b at) int { return a.start - b.start })
	var b strings.Builder
	b.Grow(len(markup))
	prev := 0
	for _, s := range spans {
		if s.start < prev {
			continue // inside another part: replaced with it
		}
		b.WriteString(markup[prev:s.start])
		b.WriteString(parts[s.id])
		prev = s.end
		found = append(found, s.id)
	}
	b.WriteString(markup[prev:])
	return b.String(), found
}
