// Package say reads what a player types — "attack Sal with the knife",
// "move to the saloon", "end turn" — as one of the commands the viewer may
// issue now, and writes any such command back as words.
//
// The grammar is not written anywhere: it is generated from the viewer's
// own projection (engine.View), from each advertised action's label and
// declared fields and choices, and each pending decision's options. So a
// ruleset gets its words by declaring its actions, and nothing a viewer may
// not see can be read, completed or named: the view has already passed the
// hidden-information filter, and this package reads nothing else. Answers
// never repeat what the player typed, only what the view holds, so a
// hidden combatant's name typed by a guess comes back as nothing known.
package say

import (
	"strconv"
	"strings"
	"unicode"
)

// words cuts text into lower-case words: letters, digits, and the hyphens
// and apostrophes inside them; a quoted stretch ("…") is one word, kept as
// typed, for a text field. Everything else separates words.
func words(text string) []word {
	var out []word
	rs := []rune(strings.ReplaceAll(text, "−", "-"))
	for i := 0; i < len(rs); {
		r := rs[i]
		switch {
		case r == '"' || r == '“' || r == '”':
			j := i + 1
			for j < len(rs) && rs[j] != '"' && rs[j] != '”' && rs[j] != '“' {
				j++
			}
			out = append(out, word{text: string(rs[i+1 : j]), quoted: true})
			i = j + 1
		case wordRune(r) || (r == '-' && i+1 < len(rs) && unicode.IsDigit(rs[i+1])):
			j := i + 1
			for j < len(rs) && (wordRune(rs[j]) || rs[j] == '-' || rs[j] == '\'' || rs[j] == '’') {
				j++
			}
			w := strings.TrimRight(string(rs[i:j]), "-'’")
			out = append(out, word{text: strings.ToLower(strings.ReplaceAll(w, "’", "'"))})
			i = j
		default:
			i++
		}
	}
	return out
}

func wordRune(r rune) bool { return unicode.IsLetter(r) || unicode.IsDigit(r) }

// word is one word of a sentence or a label.
type word struct {
	text   string
	quoted bool
}

// plain returns the lower-case words of a label, for matching.
func plain(label string) []string {
	var out []string
	for _, w := range words(label) {
		out = append(out, strings.ToLower(w.text))
	}
	return out
}

// filler are the words a sentence may hold between the parts that mean
// something: "attack Sal with the knife". They are skipped only where no
// label matches (a choice may be "The sniper").
var filler = map[string]bool{
	"a": true, "an": true, "the": true, "with": true, "to": true, "at": true, "on": true, "onto": true,
	"into": true, "in": true, "of": true, "for": true, "by": true, "from": true, "using": true,
	"my": true, "and": true, "then": true, "please": true, "is": true, "as": true, "it": true,
}

// numberWords are the numbers a player may say as words.
var numberWords = map[string]int{
	"zero": 0, "no": 0, "none": 0, "one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6,
	"seven": 7, "eight": 8, "nine": 9, "ten": 10, "eleven": 11, "twelve": 12,
}

// number reads a word as a whole number.
func number(w word) (int, bool) {
	if w.quoted {
		return 0, false
	}
	s := strings.TrimPrefix(w.text, "+")
	if n, err := strconv.Atoi(s); err == nil {
		return n, true
	}
	n, ok := numberWords[s]
	return n, ok
}

// prefixOf reports whether typed is how a word of a label begins: every
// whole word matches, and the last typed word may be cut short while the
// player is still typing (complete), or names the label's word when it
// is long enough to tell (three letters: "sal" for "Salvador").
func startsWord(label, typed string, partial bool) bool {
	if label == typed {
		return true
	}
	if !strings.HasPrefix(label, typed) {
		return false
	}
	return partial || len([]rune(typed)) >= 3
}

// run is how a stretch of a sentence names a label: n of its words, in
// order, name the label's words from the label's from-th (0: its first; a
// surname, "Quinn" for "Det. Quinn", starts later); full when they reach
// the end of the label's head (the words before an aside: see
// headLength); exact when every word is the label's word whole.
type run struct {
	n, from     int
	full, exact bool
}

// better reports whether r names its label better than o.
func (r run) better(o run) bool {
	switch {
	case r.n != o.n:
		return r.n > o.n
	case r.full != o.full:
		return r.full
	case r.exact != o.exact:
		return r.exact
	}
	return r.from < o.from
}

// matchRun finds the best run of the sentence's first words on label
// (head: its head's length). last says the sentence ends there, so its
// last word may be cut short by a player still typing.
func matchRun(label []string, head int, sentence []word, last bool) run {
	var best run
	for from := range label {
		r := run{from: from, exact: true}
		for from+r.n < len(label) && r.n < len(sentence) && !sentence[r.n].quoted {
			partial := last && r.n == len(sentence)-1
			lw, typed := label[from+r.n], sentence[r.n].text
			if !startsWord(lw, typed, partial) {
				break
			}
			r.exact = r.exact && lw == typed
			r.n++
		}
		if r.n == 0 {
			continue
		}
		r.full = from+r.n >= head
		if r.better(best) {
			best = r
		}
	}
	return best
}

// headLength is how many of a label's words come before its first aside:
// "Aldo (Advantage: prone target)" is named by "Aldo", "A10 — 5 ft" by
// "A10".
func headLength(label string) int {
	cut := strings.IndexAny(label, "(—[:,")
	if cut <= 0 {
		return len(plain(label))
	}
	if n := len(plain(label[:cut])); n > 0 {
		return n
	}
	return len(plain(label))
}
