// Package statblock reads stat blocks pasted from a rulebook. Every book
// prints its monsters in a fixed text format — "Label: value; Label:
// value", "Label 13 (+3), Label 9 (+1)", a table of labels over a row of
// numbers — and a ruleset
// declares its book's format as a Format — the labels that start each
// entry and how to read an entry's items into the ruleset's stat form
// (sheet.Schema field names) — and Parse does the rest the same way for
// every book: it undoes what copying from a PDF does to text, splits the
// block into labelled entries, and reports, line by line, each field it
// filled, each value it assumed, each line it did not understand and
// each it understood but Fray does not model. Nothing here knows a
// ruleset's words.
//
// The report's Values are form values, the very input the stat editor
// posts: a preview shows the ruleset's form filled in, and saving it goes
// the editor's way (validated by the ruleset as any edit).
package statblock

import (
	"fmt"
	"net/url"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/fray-vtt/fray/internal/fray"
)

// Limits of a pasted block: enough for the longest monster of any book.
const (
	MaxBytes = 32 << 10
	MaxLines = 400
)

// Parser is implemented by rulesets whose book prints stat blocks.
type Parser interface {
	StatBlockFormat() Format
}

// Format is a book's stat block format.
type Format struct {
	Entries []Entry
	// Finish, when set, runs once every entry is read: for values that
	// depend on others (a total printed, a base stored).
	Finish func(b *Builder)
}

// Entry is one labelled entry of a stat block: "Gear: rope, torch" is
// the entry labelled Gear with two items.
type Entry struct {
	// Labels start the entry, matched case-insensitively as whole words
	// at the start of a piece of a line, before an optional colon.
	Labels []string
	// MidLine labels also start the entry after another entry's value on
	// the same line, with no separator ("Height 10 Weight 5").
	MidLine bool
	// Whole reads the rest of the line as one item (no split at commas),
	// and each unlabelled line after it as another.
	Whole bool
	// Prose entries swallow the unlabelled lines that follow them (a
	// tactics paragraph wrapped by the PDF).
	Prose bool
	// Value, when set, is what must follow a label for it to start the
	// entry (a number, say: "Strong 15" is an entry, "Strong Gift" an
	// item of another).
	Value *regexp.Regexp
	// Skip, when set, says why Fray does not use this entry; its items
	// are reported as skipped and Read is not called.
	Skip string
	// Read reads one item: the entry's value after the label, or each
	// comma-separated item of a list. It fills fields through b; an error
	// reports the item as not understood, saying why.
	Read func(b *Builder, item string) error
}

// Note is one line of a report.
type Note struct {
	Line  int    `json:"line"`            // 1-based line of the pasted text (0: none)
	Field string `json:"field,omitempty"` // the form field (empty: none)
	Value string `json:"value,omitempty"`
	Text  string `json:"text,omitempty"` // what the block said
	Why   string `json:"why,omitempty"`
}

// Report is what Parse made of a block.
type Report struct {
	Name string `json:"name"`
	// Values are the stat form's values (sheet.Schema.ParseForm reads
	// them).
	Values  url.Values `json:"values"`
	Filled  []Note     `json:"filled"`
	Assumed []Note     `json:"assumed"`
	Unknown []Note     `json:"unknown"`
	Skipped []Note     `json:"skipped"`
}

// IsAssumed says whether field's value is assumed (for highlighting).
func (r Report) IsAssumed(field string) bool {
	return slices.ContainsFunc(r.Assumed, func(n Note) bool { return n.Field == field })
}

// IsFilled says whether the block gave field's value.
func (r Report) IsFilled(field string) bool {
	return slices.ContainsFunc(r.Filled, func(n Note) bool { return n.Field == field })
}

// Builder collects what an entry's reader finds.
type Builder struct {
	r     *Report
	line  int
	text  string
	notes map[string]string
}

// Note keeps a value the block gives that is no form field, for Finish
// (a printed total that checks or gives another value).
func (b *Builder) Note(key, value string) {
	if b.notes == nil {
		b.notes = map[string]string{}
	}
	b.notes[key] = value
}

// Noted is a value kept by Note.
func (b *Builder) Noted(key string) (string, bool) {
	v, ok := b.notes[key]
	return v, ok
}

// Set fills a form field from the block.
func (b *Builder) Set(field, value string) {
	b.r.Values.Set(field, value)
	b.r.Filled = slices.DeleteFunc(b.r.Filled, func(n Note) bool { return n.Field == field })
	b.r.Assumed = slices.DeleteFunc(b.r.Assumed, func(n Note) bool { return n.Field == field })
	b.r.Filled = append(b.r.Filled, Note{Line: b.line, Field: field, Value: value, Text: b.text})
}

// Assume fills a form field with a value the block does not say, and why.
func (b *Builder) Assume(field, value, why string) {
	b.r.Values.Set(field, value)
	b.r.Filled = slices.DeleteFunc(b.r.Filled, func(n Note) bool { return n.Field == field })
	b.r.Assumed = slices.DeleteFunc(b.r.Assumed, func(n Note) bool { return n.Field == field })
	b.r.Assumed = append(b.r.Assumed, Note{Line: b.line, Field: field, Value: value, Text: b.text, Why: why})
}

// Skip reports the item as understood but not used by Fray.
func (b *Builder) Skip(why string) {
	b.r.Skipped = append(b.r.Skipped, Note{Line: b.line, Text: b.text, Why: why})
}

// Get is a field's value so far ("" when none).
func (b *Builder) Get(field string) string { return b.r.Values.Get(field) }

// Has says whether a field has a value.
func (b *Builder) Has(field string) bool { return b.r.Values.Has(field) }

// Name is the block's name so far.
func (b *Builder) Name() string { return b.r.Name }

// SetName renames the block (when the name line carries a mark).
func (b *Builder) SetName(n string) { b.r.Name = n }

// Line is the line of the item being read.
func (b *Builder) Line() int { return b.line }

// Parse reads a pasted stat block in format f. It refuses only what is
// too big to be a stat block or has no name; everything else is reported.
func Parse(text string, f Format) (Report, error) {
	if len(text) > MaxBytes {
		return Report{}, fray.Errorf(fray.EINVALID, "a stat block is at most %d KiB, this is %d KiB", MaxBytes>>10, len(text)>>10)
	}
	if !utf8.ValidString(text) {
		return Report{}, fray.Errorf(fray.EINVALID, "the stat block is not UTF-8 text")
	}
	lines := Normalize(text)
	if len(lines) > MaxLines {
		return Report{}, fray.Errorf(fray.EINVALID, "a stat block has at most %d lines, this has %d", MaxLines, len(lines))
	}
	r := Report{Values: url.Values{}}
	b := &Builder{r: &r}
	p := parser{f: f, b: b}
	lines = p.tables(lines)
	var cur *Entry
	for i, ln := range lines {
		if isPageHeader(ln.Text) {
			r.Skipped = append(r.Skipped, Note{Line: ln.N, Text: ln.Text, Why: "a page header or number"})
			continue
		}
		text := ln.Text
		bullet := false
		if t, ok := cutBullet(text); ok {
			text, bullet = t, true
		}
		if r.Name == "" && p.label(text) == nil && !bullet {
			name, rest := splitName(text)
			r.Name = name
			if rest == "" {
				continue
			}
			text = rest
		}
		if e := p.label(text); e == nil && cur != nil && (bullet || !looksLabelled.MatchString(text)) {
			// A line without a label continues the entry before it: a
			// wrapped list, a bullet of a list, a paragraph.
			prevEnd := ""
			if i > 0 {
				prevEnd = lines[i-1].Text
			}
			switch {
			case cur.Prose:
				p.pieces(cur, text, ln.N)
				continue
			case bullet || cur.Whole:
				b.line, b.text = ln.N, text
				p.item(cur, trimItem(text))
				continue
			case wrapped(prevEnd, text):
				cur = p.line(text, ln.N, cur)
				continue
			}
		}
		cur = p.line(text, ln.N, nil)
	}
	if f.Finish != nil {
		b.line, b.text = 0, ""
		f.Finish(b)
	}
	if r.Name == "" {
		return r, fray.Errorf(fray.EINVALID, "the stat block has no name: its first line should be the creature's name")
	}
	return r, nil
}

type parser struct {
	f Format
	b *Builder
}

// label is the entry whose label starts s, the longest label winning.
func (p *parser) label(s string) *Entry {
	e, _ := p.labelLen(s)
	return e
}

func (p *parser) labelLen(s string) (*Entry, int) { return p.labelOf(s, true) }

// labelOf is labelLen, checking an entry's Value or not (a table's row of
// labels has no values after them).
func (p *parser) labelOf(s string, value bool) (*Entry, int) {
	var best *Entry
	n := 0
	for i := range p.f.Entries {
		e := &p.f.Entries[i]
		for _, l := range e.Labels {
			if len(l) > n && startsWord(s, l) && (!value || e.Value == nil || e.Value.MatchString(afterLabel(s, len(l)))) {
				best, n = e, len(l)
			}
		}
	}
	return best, n
}

// startsWord says whether s starts with the word(s) l, case-insensitively,
// followed by the end, a colon, a space, a sign or a digit.
func startsWord(s, l string) bool {
	if len(s) < len(l) || !strings.EqualFold(s[:len(l)], l) {
		return false
	}
	if len(s) == len(l) {
		return true
	}
	c := s[len(l)]
	return c == ':' || c == ' ' || c == '+' || c == '-' || c == '(' || c >= '0' && c <= '9'
}

// line reads one logical line: pieces split at semicolons (and commas,
// unless the entry is Whole), each starting a new entry when it starts
// with a label, else an item of the entry before it (cur, for the first
// piece of a line that continues another). It returns the entry the line
// ends in.
func (p *parser) line(text string, n int, cur *Entry) *Entry {
	text = p.splitMidLine(text)
	for _, seg := range splitDepth0(text, ';') {
		seg = strings.TrimSpace(seg)
		if seg == "" {
			continue
		}
		if e, l := p.labelLen(seg); e != nil {
			cur = e
			rest := strings.TrimSpace(strings.TrimPrefix(strings.TrimSpace(seg[l:]), ":"))
			p.b.line, p.b.text = n, seg
			if rest == "" {
				continue
			}
			if e.Whole {
				p.item(e, trimItem(rest))
				continue
			}
			p.pieces(e, rest, n)
			continue
		}
		p.pieces(cur, seg, n)
	}
	return cur
}

// pieces reads text as comma-separated items of e (nil: no entry), a
// piece starting with another entry's label starting that entry.
func (p *parser) pieces(e *Entry, text string, n int) {
	if e != nil && (e.Whole || e.Prose) {
		p.b.line, p.b.text = n, text
		p.item(e, trimItem(text))
		return
	}
	for _, it := range splitDepth0(text, ',') {
		it = trimItem(it)
		if it == "" {
			continue
		}
		p.b.line, p.b.text = n, it
		if o, l := p.labelOf(it, false); o != nil && o != e && p.label(it) == nil && misprint.MatchString(afterLabel(it, l)) {
			// A label followed by what the book never prints there: a
			// misprint ("Quick l1"), not an item of the entry before.
			p.b.r.Unknown = append(p.b.r.Unknown, Note{Line: n, Text: it, Why: fmt.Sprintf("%q is not followed by what the book prints after it", it[:l])})
			continue
		}
		if o, l := p.labelLen(it); o != nil {
			// "Height 3, Weight 2": each item starts an entry of its own.
			e = o
			it = strings.TrimSpace(strings.TrimPrefix(strings.TrimSpace(it[l:]), ":"))
			if it == "" {
				continue
			}
		}
		p.item(e, it)
	}
}

// item reads one item of e, reporting what it cannot read.
func (p *parser) item(e *Entry, it string) {
	b := p.b
	switch {
	case e == nil:
		b.r.Unknown = append(b.r.Unknown, Note{Line: b.line, Text: it, Why: "no entry of the book's format starts so"})
	case e.Skip != "":
		b.r.Skipped = append(b.r.Skipped, Note{Line: b.line, Text: b.text, Why: e.Skip})
	case e.Read == nil:
	default:
		if err := e.Read(b, it); err != nil {
			b.r.Unknown = append(b.r.Unknown, Note{Line: b.line, Text: b.text, Why: fray.ErrorMessage(err)})
		}
	}
}

// splitMidLine puts a semicolon before each MidLine label found after the
// start of text.
func (p *parser) splitMidLine(text string) string {
	for _, e := range p.f.Entries {
		if !e.MidLine {
			continue
		}
		for _, l := range e.Labels {
			low, ll := strings.ToLower(text), strings.ToLower(l)
			for from := 1; from < len(text); {
				i := strings.Index(low[from:], ll)
				if i < 0 {
					break
				}
				i += from
				if text[i-1] == ' ' && startsWord(text[i:], l) && !strings.HasSuffix(strings.TrimSpace(text[:i]), ";") {
					text = text[:i] + "; " + text[i:]
					low = strings.ToLower(text)
					from = i + 2 + len(l)
					continue
				}
				from = i + len(l)
			}
		}
	}
	return text
}

// tables rewrites a row of labels followed by a row of values, as a PDF
// copies a table ("Height Weight …" then "13 (+3) 9 (+1) …"), into
// one line of "label value" items.
func (p *parser) tables(lines []Line) []Line {
	var out []Line
	for i := 0; i < len(lines); i++ {
		labels := p.labelRow(lines[i].Text)
		if len(labels) >= 2 && i+1 < len(lines) {
			vals := tableValue.FindAllString(lines[i+1].Text, -1)
			if len(vals) == len(labels) && strings.TrimSpace(tableValue.ReplaceAllString(lines[i+1].Text, "")) == "" {
				var parts []string
				for k, l := range labels {
					parts = append(parts, l+" "+strings.TrimSpace(vals[k]))
				}
				out = append(out, Line{N: lines[i].N, Text: strings.Join(parts, ", ")})
				i++
				continue
			}
		}
		out = append(out, lines[i])
	}
	return out
}

var tableValue = regexp.MustCompile(`[-+]?\d+(?:\s*\([^)]*\))?`)

// labelRow is the labels a line consists of, nil when it has anything
// else.
func (p *parser) labelRow(s string) []string {
	var out []string
	s = strings.TrimSpace(s)
	for s != "" {
		e, n := p.labelOf(s, false)
		if e == nil || (len(s) > n && s[n] != ' ') {
			return nil
		}
		out = append(out, s[:n])
		s = strings.TrimSpace(s[n:])
	}
	return out
}

// splitDepth0 splits s at sep outside brackets.
func splitDepth0(s string, sep byte) []string {
	var out []string
	depth, from := 0, 0
	for i := 0; i < len(s); i++ {
		switch s[i] {
		case '(', '[':
			depth++
		case ')', ']':
			depth = max(0, depth-1)
		case sep:
			if depth == 0 {
				out = append(out, s[from:i])
				from = i + 1
			}
		}
	}
	return append(out, s[from:])
}

// trimItem trims spaces, a trailing full stop and a leading "or"/"and".
func trimItem(s string) string {
	s = strings.TrimSpace(s)
	s = strings.TrimSpace(strings.TrimSuffix(s, "."))
	for _, w := range []string{"or ", "and "} {
		if len(s) > len(w) && strings.EqualFold(s[:len(w)], w) {
			s = strings.TrimSpace(s[len(w):])
		}
	}
	return s
}

// splitName reads a name line: the name, and what follows a colon or a
// semicolon on it (the rest of a one-paragraph block). A parenthesis
// after the name stays in the name ("Orc (chief)").
func splitName(s string) (string, string) {
	i := strings.IndexAny(s, ":;")
	if i < 0 {
		return strings.TrimSpace(s), ""
	}
	return strings.TrimSpace(s[:i]), strings.TrimSpace(s[i+1:])
}

// afterLabel is what follows the label of length l in s, past a colon.
func afterLabel(s string, l int) string {
	return strings.TrimSpace(strings.TrimPrefix(strings.TrimSpace(s[l:]), ":"))
}

// misprint matches a value a copy garbled: a short word with a digit
// ("l1", "1O").
var misprint = regexp.MustCompile(`^\S{0,2}\d\S{0,2}(\s|$)`)

// wrapped says whether line continues prev, wrapped by the page: prev
// ends in a comma or a semicolon, or line starts in the middle of a
// phrase (a small letter, a digit).
func wrapped(prev, line string) bool {
	if strings.HasSuffix(prev, ",") || strings.HasSuffix(prev, ";") {
		return true
	}
	r, _ := utf8.DecodeRuneInString(line)
	return unicode.IsLower(r) || unicode.IsDigit(r)
}

// looksLabelled matches a line that starts an entry the format does not
// know ("Languages: none"): not the continuation of the entry before it.
var looksLabelled = regexp.MustCompile(`^[A-Z][A-Za-z' ]{0,30}:`)

var bullets = []string{"•", "●", "▪", "◆", "■", "* ", "- "}

func cutBullet(s string) (string, bool) {
	for _, b := range bullets {
		if t, ok := strings.CutPrefix(s, b); ok {
			return strings.TrimSpace(t), true
		}
	}
	return s, false
}

// isPageHeader says whether a line is a page number or a running header
// a PDF copy leaves in a block: digits alone, or capitals beside a page
// number ("142 CORE RULES", "BESTIARY 87").
func isPageHeader(s string) bool {
	words := strings.Fields(s)
	if len(words) == 0 {
		return true
	}
	num, caps := 0, 0
	for _, w := range words {
		if _, err := strconv.Atoi(w); err == nil {
			num++
			continue
		}
		if strings.ToUpper(w) == w && strings.ToLower(w) != w {
			caps += len(w)
			continue
		}
		return false
	}
	// "XP 3" is an entry, "BESTIARY 87" a header.
	return num == 1 && (caps >= 5 || len(words) == 1)
}

// Line is one line of normalised text and its 1-based number in the text
// as pasted.
type Line struct {
	N    int
	Text string
}

var (
	replacer = strings.NewReplacer(
		"ﬀ", "ff", "ﬁ", "fi", "ﬂ", "fl", "ﬃ", "ffi", "ﬄ", "ffl", "ﬅ", "st", "ﬆ", "st",
		"−", "-", "–", "-", "—", "-", "‐", "-", "‑", "-", "‒", "-", "﹣", "-", "－", "-",
		"\u00ad", "", "\u200b", "", "\ufeff", "",
		"\u00a0", " ", "\u2009", " ", "\u202f", " ", "\t", " ",
		"‘", "'", "’", "'", "“", "\"", "”", "\"", "″", "\"", "×", "x",
	)
	spacedDie  = regexp.MustCompile(`(?i)(^|[^a-z])d\s+(\d)`)
	spacedDice = regexp.MustCompile(`(\d)\s+d(\d)`)
	bigDie     = regexp.MustCompile(`(^|[^A-Za-z])D(\d)`)
	spaces     = regexp.MustCompile(` {2,}`)
)

// Normalize undoes what copying from a PDF does to a block: ligatures,
// dashes and Unicode minus signs, soft hyphens and odd spaces, "d 8" for
// "d8", words hyphenated across lines and brackets left open at a line's
// end (joined on the first line), and blank lines (dropped). Line numbers stay those of the pasted text.
func Normalize(text string) []Line {
	text = strings.ReplaceAll(strings.ReplaceAll(text, "\r\n", "\n"), "\r", "\n")
	text = replacer.Replace(text)
	var out []Line
	join, open := false, false // a word broken across lines; a bracket left open
	for i, raw := range strings.Split(text, "\n") {
		s := strings.TrimRightFunc(raw, unicode.IsSpace)
		s = strings.TrimLeftFunc(s, unicode.IsSpace)
		s = spacedDice.ReplaceAllString(spacedDie.ReplaceAllString(s, "${1}d$2"), "${1}d$2")
		s = bigDie.ReplaceAllString(s, "${1}d$2")
		s = spaces.ReplaceAllString(s, " ")
		if s == "" {
			join, open = false, false
			continue
		}
		r, _ := utf8.DecodeRuneInString(s)
		switch {
		case join && len(out) > 0 && unicode.IsLower(r):
			prev := &out[len(out)-1]
			prev.Text = strings.TrimSuffix(prev.Text, "-") + s
		case (open || strings.HasPrefix(s, "(")) && len(out) > 0:
			prev := &out[len(out)-1]
			prev.Text += " " + s
		default:
			out = append(out, Line{N: i + 1, Text: s})
		}
		last := out[len(out)-1].Text
		join = hyphenated(last)
		open = strings.Count(last, "(") > strings.Count(last, ")")
	}
	return out
}

// hyphenated says whether a line ends in a word broken by a hyphen: a
// letter, then "-" (not a list dash nor "Str-").
func hyphenated(s string) bool {
	if !strings.HasSuffix(s, "-") || len(s) < 3 {
		return false
	}
	r, _ := utf8.DecodeLastRuneInString(s[:len(s)-1])
	return unicode.IsLower(r)
}

// NewBuilder starts a report of a stat block read from elsewhere than
// pasted text (an actor of another tool): From says where each value
// comes from, in place of a line.
func NewBuilder(name string) *Builder {
	return &Builder{r: &Report{Name: name, Values: url.Values{}}}
}

// From names where the next values come from (a field's path).
func (b *Builder) From(source string) { b.line, b.text = 0, source }

// Report is what was read.
func (b *Builder) Report() Report { return *b.r }
