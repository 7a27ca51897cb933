package web

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"slices"
	"strconv"
	"strings"

	"github.com/a-h/templ"

	"github.com/fray-vtt/fray/internal/engine"
	"github.com/fray-vtt/fray/internal/htmlscan"
)

// A Part is an element of a section that an update may replace alone: the
// element with id ID, whose outer HTML is the section's markup[Start:End].
// A section rendered by Sections.RenderParts says where its parts sit, so
// that the hub, when the section's markup outside its parts (its skeleton)
// is as the page shows it, sends only the parts that changed (a roster
// row, a token's face, a group of actions) instead of the whole section.
type Part struct {
	ID         string
	Start, End int
}

// partKinds are the memoised parts (model.memoized's kinds) whose outermost
// element carries a stable id unique on the page: a roster row (tok-…), a
// token's face in a drawing (face-…), the board's key (board-key), a
// combatant's group of actions (ag-…), the GM's controls (ag-gm,
// danger-zone), a combatant in the turn order (turn-…). A token on the grid
// (gtok-…, an SVG group) is a part too, recorded as it is written (part).
var partKinds = map[string]bool{"roster": true, "face": true, "legend": true,
	"action-group": true, "gm-controls": true, "danger-zone": true, "order-item": true}

// partSections are the sections whose parts are recorded: those that
// change with nearly every command (whose turn it is, where everyone
// stands) while most of their parts do not.
var partSections = map[string]bool{"battlefield": true, "actions": true, "order": true}

// partRecorder collects, in the order they are written, the outermost
// parts of a section being rendered.
type partRecorder struct {
	depth int // > 0 while a part is being rendered: parts inside it are not parts of the section
	parts []recordedPart
}

// recordedPart is a part as written: its id, its first tag (which holds
// the id), and its length.
type recordedPart struct {
	id, head string
	n        int
}

// record notes a part written now (at depth 0 only).
func (r *partRecorder) record(html string) {
	if r == nil || r.depth > 0 {
		return
	}
	end := strings.IndexByte(html, '>')
	if end < 0 {
		return
	}
	r.recordHead(html[:end+1], len(html))
}

// recordHead notes a part written now of first tag head and length n.
func (r *partRecorder) recordHead(head string, n int) {
	if id := outerID(head); id != "" {
		r.parts = append(r.parts, recordedPart{id, head, n})
	}
}

// locate finds the recorded parts in section, the markup they were written
// into, in order. Each is found after the one before, by its first tag: a
// tag with the part's id, which the skeleton cannot hold too (ids are
// unique on a page).
func (r *partRecorder) locate(section string) ([]Part, error) {
	parts := make([]Part, 0, len(r.parts))
	at := 0
	for _, p := range r.parts {
		i := strings.Index(section[at:], p.head)
		if i < 0 || at+i+p.n > len(section) {
			return nil, fmt.Errorf("web: part #%s not found in its section", p.id)
		}
		start := at + i
		at = start + p.n
		parts = append(parts, Part{ID: p.id, Start: start, End: at})
	}
	return parts, nil
}

// outerID is the id attribute of markup's first tag ("" when it has none).
// Parts' ids are slugs or engine ids written by attrs: no quote or
// character reference inside.
func outerID(markup string) string {
	end := strings.IndexByte(markup, '>')
	if end < 0 {
		return ""
	}
	tag := markup[:end]
	i := strings.Index(tag, ` id="`)
	if i < 0 {
		return ""
	}
	id, _, ok := strings.Cut(tag[i+len(` id="`):], `"`)
	if !ok || strings.IndexByte(id, '&') >= 0 {
		return ""
	}
	return id
}

// part is c, whose outermost element carries an id, recorded as a part of
// the section being rendered (see Part). Without a recorder it is c.
func (m *model) part(c templ.Component) templ.Component {
	if m.rec == nil {
		return c
	}
	return templ.ComponentFunc(func(ctx context.Context, w io.Writer) error {
		buf := renderBuffers.Get().(*bytes.Buffer)
		defer renderBuffers.Put(buf)
		buf.Reset()
		m.rec.depth++
		err := c.Render(ctx, buf)
		m.rec.depth--
		if err != nil {
			return err
		}
		b := buf.Bytes()
		if m.rec.depth == 0 {
			if end := bytes.IndexByte(b, '>'); end >= 0 {
				m.rec.recordHead(string(b[:end+1]), len(b))
			}
		}
		_, err = w.Write(b)
		return err
	})
}

// RenderParts is Render, and says where the parts of its battlefield,
// action bar and turn order sit in their markup (by section key).
func (s *Sections) RenderParts(ctx context.Context, v engine.View, newEvents []engine.Event, full bool) (map[string]string, map[string][]Part, error) {
	parts := make(map[string][]Part, len(partSections))
	out, err := fragments(ctx, v, newEvents, full, true, s, parts)
	return out, parts, err
}

// ReplaceParts returns markup with an update's parts applied as a page
// applies them: the element of each part's id replaced by the part (its new
// outer HTML, which may carry another id, even one another part replaces),
// every element found before any is replaced. found lists the ids markup
// held. It reads markup with an HTML tokenizer.
func ReplaceParts(markup string, parts map[string]string) (out string, found []string) {
	type at struct {
		id         string
		start, end int
	}
	var spans []at
	for id := range parts {
		if start, end, ok := htmlscan.ElementByID(markup, id); ok {
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

// recordSection renders section key of m into buf, recording where its
// parts sit into m.parts.
func (m *model) recordSection(ctx context.Context, key string, buf *bytes.Buffer) (string, error) {
	m.rec = &partRecorder{}
	defer func() { m.rec = nil }()
	if err := m.section(key).Render(ctx, buf); err != nil {
		return "", err
	}
	html := buf.String()
	parts, err := m.rec.locate(html)
	if err != nil {
		return "", err
	}
	m.parts[key] = parts
	return html, nil
}

// faceID is the id of the next face drawn of token id: face-<id> (see
// uniqueID).
func (m *model) faceID(id string) string { return m.uniqueID("face-" + slug(id)) }

// uniqueID is id the first time a render asks for it, then id.2, id.3…
// (a duellist drawn in two engagements, a combatant twice in an order), so
// that ids stay unique on the page: a slug holds no '.', so no other
// token's id can be one of these.
func (m *model) uniqueID(id string) string {
	if m.ids == nil {
		m.ids = map[string]int{}
	}
	m.ids[id]++
	if n := m.ids[id]; n > 1 {
		return id + "." + strconv.Itoa(n)
	}
	return id
}

// sectionParts is Sections.section for a memoised section whose parts are
// recorded: the memo keeps them with the markup (key k, input in), and
// they go to m.parts.
func (s *Sections) sectionParts(ctx context.Context, key string, k *bytes.Buffer, in engine.View, m *model, buf *bytes.Buffer) (string, error) {
	s.mu.Lock()
	e, ok := s.memo[string(k.Bytes())]
	if ok {
		e.used = s.update
	}
	s.mu.Unlock()
	if ok && e.at != nil {
		m.parts[key] = e.at
		return e.html, nil
	}
	sm := m.derive(in)
	sm.memo = s
	sm.parts = m.parts
	buf.Reset()
	html, err := sm.recordSection(ctx, key, buf)
	if err != nil {
		return "", err
	}
	s.mu.Lock()
	s.memo[k.String()] = &memoEntry{html: html, used: s.update, at: m.parts[key]}
	s.mu.Unlock()
	return html, nil
}

// shellParts places the parts of a battlefield's shell (at, in the shell's
// markup with its holes marked) in html, the shell's pieces (split at its
// holes) filled for one viewer, piece i written at starts[i]; the first
// hole holds the board's key, a part of its own.
func shellParts(html string, at []Part, pieces []string, starts []int) []Part {
	out := make([]Part, 0, len(at)+1)
	if end := starts[1]; end > len(pieces[0]) {
		key := html[len(pieces[0]):end]
		if id := outerID(key); id != "" {
			out = append(out, Part{ID: id, Start: len(pieces[0]), End: end})
		}
	}
	j, from := 0, 0 // the piece of the shell a part's offset falls in, and where it starts in the shell
	place := func(x int) int {
		for j+1 < len(pieces) && x >= from+len(pieces[j])+len(holeMarker) {
			from += len(pieces[j]) + len(holeMarker)
			j++
		}
		return starts[j] + x - from
	}
	for _, p := range at {
		start := place(p.Start)
		out = append(out, Part{ID: p.ID, Start: start, End: place(p.End)})
	}
	slices.SortFunc(out, func(a, b Part) int { return a.Start - b.Start })
	return out
}
