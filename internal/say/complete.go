package say

import (
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/fray-vtt/fray/internal/engine"
)

// MaxCompletions bounds what Complete offers.
const MaxCompletions = 12

// Complete offers ways to finish text, each the whole text with its last
// word finished: at the start, what the viewer may do (and, when they
// speak for several, who); after an action's words, the names of its
// choices and its fields. Everything offered comes from the view, so
// nothing hidden from the viewer is ever completed.
func Complete(v engine.View, text string) []string {
	ws := words(text)
	partial := ""
	base := text
	if last, _ := utf8.DecodeLastRuneInString(text); len(ws) > 0 && !ws[len(ws)-1].quoted && wordRune(last) {
		partial = ws[len(ws)-1].text
		ws = ws[:len(ws)-1]
		// The text before the word being typed, as typed.
		i := len(text)
		for i > 0 {
			r, size := utf8.DecodeLastRuneInString(text[:i])
			if !wordRune(r) && r != '-' && r != '\'' && r != '’' {
				break
			}
			i -= size
		}
		base = text[:i]
	} else if text != "" && !unicode.IsSpace(last) {
		base += " "
	}
	all := forms(v)
	candidates, rest := narrow(v, all, ws)
	var out []string
	add := func(s string) {
		s = base + s
		for _, o := range out {
			if o == s {
				return
			}
		}
		if len(out) < MaxCompletions {
			out = append(out, s)
		}
	}
	begins := func(label string) bool {
		if partial == "" {
			return true
		}
		for _, w := range plain(label) {
			if strings.HasPrefix(w, partial) {
				return true
			}
		}
		return false
	}
	if len(rest) == 0 {
		for _, f := range candidates {
			if p := plain(f.label); len(p) > 0 && strings.HasPrefix(p[0], partial) {
				add(strings.ToLower(f.label))
			}
		}
		if len(ws) == 0 && len(candidates) == len(all) {
			for _, f := range all {
				if f.actorName != "" && begins(f.actorName) && strings.HasPrefix(strings.ToLower(f.actorName), partial) {
					add(f.actorName + ": ")
				}
			}
		}
		return out
	}
	for _, f := range candidates {
		r := matchRun(f.verb, f.verbHead, rest, false)
		if k := f.kindRun(rest); k.better(r) {
			r = k
		}
		if r.n == 0 || (r.from > 0 && !r.full) {
			continue
		}
		said := strings.ToLower(wordsText(rest[r.n:]))
		for i := range f.fields {
			fd := &f.fields[i]
			if fd.Type == engine.FieldSelect {
				for _, o := range fd.Options {
					if l := labels([]engine.Choice{o})[0]; begins(l) && !strings.Contains(said, strings.ToLower(l)) {
						add(l)
					}
				}
			}
			if fd.Label != "" && fd.Type != engine.FieldSelect && strings.HasPrefix(strings.ToLower(fd.Label), partial) {
				add(strings.ToLower(fd.Label))
			}
		}
	}
	return out
}

func wordsText(ws []word) string {
	parts := make([]string, len(ws))
	for i, w := range ws {
		parts[i] = w.text
	}
	return strings.Join(parts, " ")
}
