package rules_test

import (
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/fray-vtt/fray/internal/engine"
	"github.com/fray-vtt/fray/internal/rules"
)

var updateGuides = flag.Bool("update-guides", false, "rewrite the options table of every docs/rules guide from the option declarations")

// The markers around a guide's options table, which is made from the
// ruleset's option declarations.
const (
	tableBegins = "<!-- The table below is made from the option declarations (each option's label, help, default and choices) by\n" +
		"go test ./internal/rules -run TestGuidesFollowOptions -update-guides: change those, not the table. -->\n"
	tableEnds = "<!-- End of the options table. -->\n"
)

// TestGuidesFollowOptions holds every ruleset's GM guide
// (docs/rules/<id>.md) to its option declarations, so a guide cannot say
// one default while the code applies another:
//
//   - its options table is the one optionsTable makes from the
//     declarations — every option, its default and its choices, in the
//     words of its label and help (rewrite it with -update-guides);
//   - wherever its prose names an option's value (`name: value`), the
//     option exists and the value is one of its choices (or in its range);
//     wherever it calls something an option (option `name`), it is one.
func TestGuidesFollowOptions(t *testing.T) {
	rulesets := rules.Registry().All()
	for _, rs := range rulesets {
		t.Run(rs.ID(), func(t *testing.T) {
			path := filepath.Join("..", "..", "docs", "rules", rs.ID()+".md")
			raw, err := os.ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			doc := string(raw)
			begin, end := strings.Index(doc, tableBegins), strings.Index(doc, tableEnds)
			if begin < 0 || end < begin {
				t.Fatalf("%s has no options table between the markers:\n%s…\n%s", path, tableBegins, tableEnds)
			}
			want := optionsTable(rs.Options())
			if got := doc[begin+len(tableBegins) : end]; got != want {
				if *updateGuides {
					doc = doc[:begin+len(tableBegins)] + want + doc[end:]
					if err := os.WriteFile(path, []byte(doc), 0o644); err != nil {
						t.Fatal(err)
					}
				} else {
					t.Errorf("%s's options table is not its declarations' (go test ./internal/rules -run TestGuidesFollowOptions -update-guides):\n%s", path, lineDiff(got, want))
				}
			}
			prose := doc[:begin] + doc[end:]
			for _, why := range optionMentions(prose, rs.Options()) {
				t.Errorf("%s: %s", path, why)
			}
		})
	}
}

// optionsTable is a guide's table of options: each option's name, what
// it sets (its label and help), its default and its choices.
func optionsTable(opts []engine.OptionSpec) string {
	cell := func(s string) string { return strings.ReplaceAll(strings.TrimSpace(s), "|", `\|`) }
	var b strings.Builder
	b.WriteString("\n| option | what it sets | default | choices |\n|---|---|---|---|\n")
	for _, o := range opts {
		def, choices := "`"+o.Default+"`", ""
		if o.Type == engine.OptionInt {
			choices = fmt.Sprintf("%s to %s", number(o.Min), number(o.Max))
			n, _ := strconv.Atoi(o.Default)
			def = number(n)
		} else {
			var cs []string
			for _, c := range o.Choices {
				cs = append(cs, fmt.Sprintf("`%s`: %s", c.Value, cell(c.Label)))
			}
			choices = strings.Join(cs, "; ")
		}
		what := "**" + cell(o.Label) + ".**"
		if o.Help != "" {
			what += " " + cell(o.Help)
		}
		fmt.Fprintf(&b, "| `%s` | %s | %s | %s |\n", o.Name, what, def, choices)
	}
	b.WriteString("\n") // blank lines around the table: markdown's
	return b.String()
}

// number writes n as the guides do, a minus sign before a negative one.
func number(n int) string {
	if n < 0 {
		return "−" + strconv.Itoa(-n)
	}
	return strconv.Itoa(n)
}

var (
	// namedValue is `name: value` in a guide's prose.
	namedValue = regexp.MustCompile("`([a-z][a-z0-9-]*): ([^`]+)`")
	// namedOption is "option `name`" (or "options `a`, `b`").
	namedOption = regexp.MustCompile("options? `([a-z][a-z0-9-]*)`")
)

// optionMentions are what a guide's prose says of options that the
// declarations do not bear out: a value an option does not take, an
// option that does not exist.
func optionMentions(prose string, opts []engine.OptionSpec) []string {
	byName := map[string]engine.OptionSpec{}
	for _, o := range opts {
		byName[o.Name] = o
	}
	var out []string
	for _, m := range namedValue.FindAllStringSubmatch(prose, -1) {
		o, ok := byName[m[1]]
		if !ok {
			continue // a stat or a prop written the same way ("drawn: false")
		}
		if v := strings.TrimSpace(m[2]); !takes(o, v) {
			out = append(out, fmt.Sprintf("%q: option %s takes no %q", m[0], o.Name, v))
		}
	}
	for _, m := range namedOption.FindAllStringSubmatch(prose, -1) {
		if _, ok := byName[m[1]]; !ok {
			out = append(out, fmt.Sprintf("%q: there is no option %s", m[0], m[1]))
		}
	}
	return out
}

// takes reports whether option o may be set to v.
func takes(o engine.OptionSpec, v string) bool {
	if o.Type == engine.OptionInt {
		n, err := strconv.Atoi(strings.Replace(v, "−", "-", 1))
		return err == nil && n >= o.Min && n <= o.Max
	}
	return slices.ContainsFunc(o.Choices, func(c engine.Choice) bool { return c.Value == v })
}

// lineDiff shows the lines of got and want that differ.
func lineDiff(got, want string) string {
	g, w := strings.Split(got, "\n"), strings.Split(want, "\n")
	var b strings.Builder
	for i := range max(len(g), len(w)) {
		var a, c string
		if i < len(g) {
			a = g[i]
		}
		if i < len(w) {
			c = w[i]
		}
		if a != c {
			fmt.Fprintf(&b, "- %s\n+ %s\n", a, c)
		}
	}
	return b.String()
}
