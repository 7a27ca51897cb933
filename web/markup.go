package web

import (
	"context"
	"io"
	"strings"

	"github.com/a-h/templ"
)

// The page's hottest templates (a token's face, a roster row, the zone map,
// an action form: rendered for every viewer whose board changed) write their
// attributes and text through these. templ formats every attribute and text
// expression with fmt.Sprint (templ.JoinStringErrs), and builds two maps and
// a slice for every class list (templ.CSSClasses), per element and per
// render; these write the same markup without either.

// attrs are attributes written in the order given, as name, value pairs,
// spread into an element ({ attrs{…}... }) in place of name={ … } and of a
// class list (whose names a Go helper joins). Values are escaped as templ
// escapes an attribute's value. Not for URL attributes (href, src, action),
// which templ checks.
type attrs []string

// Items is templ.Attributer's. Each value is given as a pointer into a
// (templ writes a *string as the string): a string in an interface would
// be allocated apart, a pointer is not.
func (a attrs) Items() []templ.KeyValue[string, any] {
	items := make([]templ.KeyValue[string, any], 0, len(a)/2)
	for i := 0; i+1 < len(a); i += 2 {
		items = append(items, templ.KeyValue[string, any]{Key: a[i], Value: &a[i+1]})
	}
	return items
}

// textNode is a text node ({ s } in a template), escaped as templ escapes
// one: @textNode(s).
type textNode string

// Render is templ.Component's.
func (t textNode) Render(_ context.Context, w io.Writer) error {
	_, err := io.WriteString(w, templ.EscapeString(string(t)))
	return err
}

// classes is a class attribute's value: the names that are not "", joined
// by spaces (as templ joins a class list's). It leaves names as they were
// and allocates once: the board calls it for every token of every render.
func classes(names ...string) string {
	n := 0
	for _, s := range names {
		n += len(s) + 1
	}
	var b strings.Builder
	b.Grow(n)
	for _, s := range names {
		if s == "" {
			continue
		}
		if b.Len() > 0 {
			b.WriteByte(' ')
		}
		b.WriteString(s)
	}
	return b.String()
}

// when is name when on, else "": a class list's optional name (classes
// leaves "" out), or an optional id (describedBy leaves "" out).
func when(on bool, name string) string {
	if on {
		return name
	}
	return ""
}
