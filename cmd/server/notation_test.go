package main

import (
	"fmt"
	"regexp"
	"strconv"
	"testing"
)

// A roll's outcome reads as what it needed, "1 (needs 4) — miss", never as
// a comparison between the total and the target ("1 ≥ 4"), which a
// newcomer reads as a false statement. falseComparison finds such a sign
// between two numbers in what a player reads — but not in a rule's
// wording ("d20 ≤ 10 passes": the number belongs to a die's name).
var (
	falseComparison = regexp.MustCompile(`(?:^|[^\p{L}\d])\d+[\s*_]*[≥≤]\s*\d+`)
	markup          = regexp.MustCompile(`<[^>]*>`)
)

// comparedTotal returns where a page, export or notice text puts "≥" or
// "≤" between a total and a target, with some context, or "".
func comparedTotal(body []byte) string {
	text := markup.ReplaceAll(body, []byte(" "))
	loc := falseComparison.FindIndex(text)
	if loc == nil {
		return ""
	}
	return fmt.Sprintf("%q in …%s…", text[loc[0]:loc[1]], text[max(0, loc[0]-160):min(len(text), loc[1]+80)])
}

// TestComparedTotalCatchesTheOldNotation: the check finds the notation of
// old and lets the new one and a rule's wording pass.
func TestComparedTotalCatchesTheOldNotation(t *testing.T) {
	for _, tc := range []struct {
		body  string
		wrong bool
	}{
		{`<span class="total"><strong>14</strong></span> <span class="target">≥ 4</span>`, true},
		{"57 ≤ 10 — failure", true},
		{"Fighting: = **1** ≥ 4 — miss", true},
		{`<strong>1</strong> <span class="target">(needs 4)</span> miss`, false},
		{"57 (needs ≤ 10) — failure", false},
		{"d20 ≤ 10 passes; a 1 wakes you", false},
		{"Ana stabilises (rolled 7, needs ≤ 10%).", false},
	} {
		if got := comparedTotal([]byte(tc.body)) != ""; got != tc.wrong {
			t.Errorf("%q: found %v, want %v", tc.body, got, tc.wrong)
		}
	}
}

// notationCheck reads, as a player would, what a bot-played fight left:
// the table's roll cards (after a command), and at the end every page of
// the log, the Markdown export and the text of every event a notice could
// carry (a notice's text is its event's line).
type notationCheck struct {
	t    *testing.T
	srv  *testServer
	gm   *apiUser
	id   string
	seen int
}

func (nc *notationCheck) check(channel string, body []byte) {
	nc.t.Helper()
	nc.seen++
	if w := comparedTotal(body); w != "" {
		nc.t.Errorf("%s puts a comparison between a total and its target: %s", channel, w)
	}
}

// table reads the encounter page: its roll cards and its log.
func (nc *notationCheck) table(step int) {
	nc.check(fmt.Sprintf("the table after command %d", step), nc.srv.get(nc.gm, "/encounters/"+nc.id).body)
}

// history reads the log pages, the Markdown export and every event's text.
func (nc *notationCheck) history() {
	nc.t.Helper()
	rolls := 0
	for after := int64(0); ; {
		body := nc.srv.get(nc.gm, fmt.Sprintf("/encounters/%s/log?after=%d", nc.id, after)).body
		nc.check(fmt.Sprintf("the log page after %d", after), body)
		m := regexp.MustCompile(`log\?after=([0-9]+)`).FindSubmatch(body)
		if m == nil {
			break
		}
		next, _ := strconv.ParseInt(string(m[1]), 10, 64)
		if next <= after {
			break
		}
		after = next
	}
	nc.check("the Markdown export", nc.srv.get(nc.gm, "/encounters/"+nc.id+"/export.md").body)
	for since := int64(0); ; {
		var page struct {
			Events []struct {
				Seq   int64
				Text  string
				Rolls []struct{ Target int }
			}
		}
		nc.srv.call(nc.gm, "GET", fmt.Sprintf("/api/encounters/%s/events?since=%d", nc.id, since), nil, &page)
		if len(page.Events) == 0 {
			break
		}
		for _, ev := range page.Events {
			nc.check(fmt.Sprintf("event %d's text (a notice's)", ev.Seq), []byte(ev.Text))
			for _, r := range ev.Rolls {
				if r.Target != 0 {
					rolls++
				}
			}
		}
		since = page.Events[len(page.Events)-1].Seq
	}
	if rolls == 0 {
		nc.t.Error("the fight rolled nothing against a target: the notation went unread")
	}
}
