package rules_test

import (
	"go/scanner"
	"go/token"
	"io/fs"
	"os"
	"path/filepath"
	"reflect"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
	"unicode"

	"github.com/fray-vtt/fray/internal/board"
	"github.com/fray-vtt/fray/internal/dice"
	"github.com/fray-vtt/fray/internal/engine"
	"github.com/fray-vtt/fray/internal/engine/enginetest"
	"github.com/fray-vtt/fray/internal/rules"
)

// knowNoRuleset are the folders whose code knows no ruleset: the engine,
// the boards, character sheets, preparation, play, simulations, the realtime hub, the
// store, the services, the server and the pages. Their tests, and the packages that
// stand in for a ruleset in tests (boardtest's sample boards, enginetest's
// toy ruleset), may.
var knowNoRuleset = []string{"internal/engine", "internal/board", "internal/sheet", "internal/prep", "internal/play",
	"internal/carry", "internal/realtime", "internal/store", "internal/server", "cmd/server", "web",
	"internal/history", "internal/campaigns", "internal/characters", "internal/accounts", "internal/simulate",
	"internal/statblock", "internal/say"}

var standIns = []string{"internal/engine/enginetest", "internal/board/boardtest"}

// vocabulary is what a ruleset owns, by where it comes from.
type vocabulary struct {
	// Words may appear nowhere — code, comments, markup, scripts and
	// styles: the ruleset's declared words (rules.Worded), and its command
	// kinds and option names made of several words ("end-turn").
	Words map[string]string
	// Literals are the ids of the conditions and poses its boards show
	// ("prone", "shaken"), but for the core's own words ("hidden"): a
	// comment may use them as words, but no string literal may be one — a
	// page that tests for "prone" knows a ruleset. (One-word command kinds
	// and option names — "move", "ready" — are common words the core and
	// the page use for themselves; they are checked in several-word form
	// only.)
	Literals map[string]string
}

// TestNoRulesetWordOutsideItsPackage: no ruleset's words appear in the
// packages that must know no ruleset. The words come from the registry —
// each ruleset's command kinds, option names, declared words, and the
// conditions and poses its boards show while a bot plays its examples —
// so a new ruleset is held to it by its registration alone.
func TestNoRulesetWordOutsideItsPackage(t *testing.T) {
	voc := rulesetVocabulary(t)
	if len(voc.Words) < 100 || len(voc.Literals) < 20 {
		t.Fatalf("only %d words and %d literals gathered", len(voc.Words), len(voc.Literals))
	}
	words := wordPattern(voc.Words)
	root := filepath.Join("..", "..")
	files := 0
	for _, dir := range knowNoRuleset {
		err := filepath.WalkDir(filepath.Join(root, dir), func(path string, d fs.DirEntry, err error) error {
			if err != nil {
				return err
			}
			rel, _ := filepath.Rel(root, path)
			rel = filepath.ToSlash(rel)
			if d.IsDir() {
				if slices.Contains(standIns, rel) || d.Name() == "testdata" {
					return filepath.SkipDir
				}
				return nil
			}
			name := d.Name()
			if strings.HasSuffix(name, "_test.go") || strings.HasSuffix(name, "_templ.go") {
				return nil
			}
			// Vendored libraries (htmx) are someone else's words, kept
			// byte for byte as released.
			if strings.HasSuffix(name, ".min.js") {
				return nil
			}
			ext := filepath.Ext(name)
			if ext != ".go" && ext != ".templ" && ext != ".js" && ext != ".css" {
				return nil
			}
			src, err := os.ReadFile(path)
			if err != nil {
				return err
			}
			files++
			for _, f := range findWords(ext, words, voc.Words, src) {
				t.Errorf("%s:%d: %q is %s's", rel, f.line, f.word, f.owner)
			}
			for _, f := range findLiterals(ext, src, voc.Literals) {
				t.Errorf("%s:%d: the literal %q is %s's", rel, f.line, f.word, f.owner)
			}
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
	}
	if files < 100 {
		t.Fatalf("only %d files read", files)
	}
}

// TestTheWordCheckFindsWords: the check finds a declared word in a
// comment, a two-word kind in code, and a condition's id as a literal,
// but not a common word a ruleset also uses as a kind in a comment.
func TestTheWordCheckFindsWords(t *testing.T) {
	voc := vocabulary{Words: map[string]string{"wild card": "x", "end-turn": "x"}, Literals: map[string]string{"prone": "x", "move": "x"}}
	src := []byte("package p\n\n// A Wild\n// Card, and move on.\nvar k = \"end-turn\"\n\nfunc f(p string) bool { return p == \"prone\" }\n")
	var got []string
	for _, f := range findWords(".go", wordPattern(voc.Words), voc.Words, src) {
		got = append(got, strconv.Itoa(f.line)+" "+f.word)
	}
	for _, f := range findLiterals(".go", src, voc.Literals) {
		got = append(got, strconv.Itoa(f.line)+" "+f.word)
	}
	if want := []string{"3 Wild\n// Card", "5 end-turn", "7 prone"}; !slices.Equal(got, want) {
		t.Errorf("found %q, want %q", got, want)
	}
	templ := []byte(`<g class={ "posture-" + slug(p) }>if p == "prone" {`)
	if fs := findLiterals(".templ", templ, voc.Literals); len(fs) != 1 || fs[0].word != "prone" {
		t.Errorf("templ: %+v", fs)
	}
	js := []byte(`if (kind === 'move') go();`)
	if fs := findLiterals(".js", js, voc.Literals); len(fs) != 1 || fs[0].word != "move" {
		t.Errorf("js: %+v", fs)
	}
}

// rulesetVocabulary gathers every registered ruleset's words.
func rulesetVocabulary(t *testing.T) vocabulary {
	t.Helper()
	voc := vocabulary{Words: map[string]string{}, Literals: map[string]string{}}
	several := func(word, owner string) {
		if w := strings.ToLower(word); strings.ContainsAny(w, " -") {
			voc.Words[w] = owner
		}
	}
	for _, rs := range rules.Registry().All() {
		for _, c := range rs.Commands() {
			several(c.Kind, rs.ID())
		}
		for _, o := range rs.Options() {
			several(o.Name, rs.ID())
		}
		if w, ok := rs.(rules.Worded); ok {
			for _, word := range w.Words() {
				voc.Words[strings.ToLower(word)] = rs.ID()
			}
		} else {
			t.Errorf("%s does not declare its words (rules.Worded)", rs.ID())
		}
	}
	core := coreWords()
	for _, s := range everyExample(t) {
		for id := range boardMarks(t, s) {
			if !core[id] && !strings.ContainsAny(id, " -") {
				voc.Literals[id] = s.Ruleset.ID()
			} else if !core[id] {
				voc.Words[strings.ToLower(id)] = s.Ruleset.ID()
			}
		}
	}
	return voc
}

// coreWords are the words of the core's own model, whoever else uses
// them: every JSON name of a view, a board, an editor, a battlefield and a
// roll ("hidden", "status", "dropped"), the encounter's statuses, and the
// browser's drag-and-drop events, which a page must spell as the browser
// does (a file dropped on the editor fires "drop").
func coreWords() map[string]bool {
	out := map[string]bool{string(engine.StatusSetup): true, string(engine.StatusRunning): true,
		string(engine.StatusPaused): true, string(engine.StatusFinished): true}
	for _, event := range []string{"dragstart", "dragenter", "dragover", "dragleave", "drop", "dragend"} {
		out[event] = true
	}
	seen := map[reflect.Type]bool{}
	var walk func(t reflect.Type)
	walk = func(t reflect.Type) {
		for t.Kind() == reflect.Pointer || t.Kind() == reflect.Slice || t.Kind() == reflect.Map || t.Kind() == reflect.Array {
			t = t.Elem()
		}
		if t.Kind() != reflect.Struct || seen[t] {
			return
		}
		seen[t] = true
		for i := range t.NumField() {
			f := t.Field(i)
			if name, _, _ := strings.Cut(f.Tag.Get("json"), ","); name != "" && name != "-" {
				out[name] = true
			}
			walk(f.Type)
		}
	}
	for _, v := range []any{engine.View{}, board.Board{}, board.Editor{}, board.Battlefield{}, dice.Roll{}} {
		walk(reflect.TypeOf(v))
	}
	return out
}

// boardMarks plays s with a bot and returns the ids of the conditions and
// poses the GM's board shows along the way.
func boardMarks(t *testing.T, s started) map[string]bool {
	t.Helper()
	played := enginetest.Bot{Default: 1}.Play(t, s.Ruleset, s.Setup, 3)
	st, err := engine.Copy(played.Initial)
	if err != nil {
		t.Fatal(err)
	}
	out := map[string]bool{}
	for _, ev := range played.Log {
		if err := engine.Apply(s.Ruleset, st, ev); err != nil {
			t.Fatal(err)
		}
		b := engine.Project(s.Ruleset, st, engine.GMViewer()).Board
		if b == nil {
			continue
		}
		for _, tok := range b.Tokens {
			if tok.Pose != nil {
				out[tok.Pose.ID] = true
			}
			for _, c := range tok.Conditions {
				out[c.ID] = true
			}
		}
	}
	return out
}

type finding struct {
	line        int
	word, owner string
}

// wordPattern matches any of words as a whole word, ignoring case; the
// spaces in a word match any run of spaces, line breaks and comment marks
// ("Wild\n// Card").
func wordPattern(words map[string]string) *regexp.Regexp {
	alts := make([]string, 0, len(words))
	for w := range words {
		alts = append(alts, strings.ReplaceAll(regexp.QuoteMeta(w), " ", `(?:\s|//)+`))
	}
	slices.SortFunc(alts, func(a, b string) int { return len(b) - len(a) })
	return regexp.MustCompile(`(?i)(?:^|[^\pL\pN_-])(` + strings.Join(alts, "|") + `)(?:$|[^\pL\pN_-])`)
}

// findWords finds words in src: in Go, in its comments, string literals
// and identifiers (split at their capitals: WildCard is "wild card"); in
// any other file, anywhere.
func findWords(ext string, re *regexp.Regexp, words map[string]string, src []byte) []finding {
	var out []finding
	match := func(line int, text string) {
		for _, m := range re.FindAllStringSubmatchIndex(text, -1) {
			word := text[m[2]:m[3]]
			key := strings.ToLower(strings.Join(strings.FieldsFunc(word, func(r rune) bool { return unicode.IsSpace(r) || r == '/' }), " "))
			out = append(out, finding{line: line + strings.Count(text[:m[2]], "\n"), word: word, owner: words[key]})
		}
	}
	if ext != ".go" {
		match(1, string(src))
		return out
	}
	fset := token.NewFileSet()
	var s scanner.Scanner
	s.Init(fset.AddFile("", fset.Base(), len(src)), src, nil, scanner.ScanComments)
	// Consecutive line comments are one text: a word may span two.
	var block []string
	blockLine, lastLine := 0, 0
	flush := func() {
		if len(block) > 0 {
			match(blockLine, strings.Join(block, "\n"))
		}
		block = nil
	}
	for {
		pos, tok, lit := s.Scan()
		line := fset.Position(pos).Line
		if tok != token.COMMENT || line != lastLine+1 {
			if tok != token.COMMENT || len(block) > 0 {
				flush()
			}
		}
		switch tok {
		case token.EOF:
			flush()
			return out
		case token.COMMENT:
			if len(block) == 0 {
				blockLine = line
			}
			block = append(block, lit)
			lastLine = line + strings.Count(lit, "\n")
		case token.STRING:
			if v, err := strconv.Unquote(lit); err == nil {
				match(line, v)
			}
		case token.IDENT:
			match(line, camelWords(lit))
		}
	}
}

// camelWords splits an identifier at its capitals: "WildCard" → "Wild Card".
func camelWords(id string) string {
	var b strings.Builder
	for i, r := range id {
		if i > 0 && unicode.IsUpper(r) {
			b.WriteByte(' ')
		}
		b.WriteRune(r)
	}
	return b.String()
}

var quoted = regexp.MustCompile(`"(?:[^"\\\n]|\\.)*"|'(?:[^'\\\n]|\\.)*'`)

// findLiterals finds the string literals of src that are a one-word
// ruleset word: Go's by its scanner, templ's and scripts' by their quotes.
func findLiterals(ext string, src []byte, literals map[string]string) []finding {
	var out []finding
	check := func(line int, lit string) {
		if owner, ok := literals[strings.ToLower(strings.TrimSpace(lit))]; ok {
			out = append(out, finding{line: line, word: lit, owner: owner})
		}
	}
	switch ext {
	case ".go":
		fset := token.NewFileSet()
		var s scanner.Scanner
		s.Init(fset.AddFile("", fset.Base(), len(src)), src, nil, 0)
		for {
			pos, tok, lit := s.Scan()
			if tok == token.EOF {
				break
			}
			if tok == token.STRING {
				if v, err := strconv.Unquote(lit); err == nil {
					check(fset.Position(pos).Line, v)
				}
			}
		}
	case ".templ", ".js":
		for _, m := range quoted.FindAllIndex(src, -1) {
			check(1+strings.Count(string(src[:m[0]]), "\n"), string(src[m[0]+1:m[1]-1]))
		}
	}
	return out
}
