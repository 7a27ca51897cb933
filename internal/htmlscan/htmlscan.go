// Package htmlscan reads HTML fragments with x/net/html's tokenizer for
// what the encounter page's updates need: the ids of a fragment's
// top-level elements, and where an element of an id sits. The server's
// parts (web) and the load generator's page clients read markup the same
// way through it.
package htmlscan

import (
	"fmt"
	"io"
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
// markup[start:end].
func ElementByID(markup, id string) (start, end int, ok bool) {
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
