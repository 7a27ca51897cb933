package main

import (
	"fmt"
	"go/parser"
	"go/token"
	"io/fs"
	"maps"
	"math/rand/v2"
	"net/http"
	"net/url"
	"os"
	"path"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"

	"github.com/fray-vtt/fray/internal/engine"
	"github.com/fray-vtt/fray/internal/patience"
	"github.com/fray-vtt/fray/internal/rules/kitskirmish"
	"github.com/fray-vtt/fray/internal/testdb"
)

// TestANewRulesetIsOnePackage: kit-skirmish, the ruleset made with the kit
// alone, is one package and one line. Outside its package no code but the
// registry's one call names it (tests aside), and it imports nothing of
// Fray's but the kit and the core the kit types; so registered, it is
// listed, imported, played to its end through the HTTP API by a client
// that knows no rules, and played on the encounter page in a real browser
// — drawn under its position model, its actions the page's own forms.
// It is the shipped kit-skirmish itself, not a copy made for the test, so
// the proof cannot drift from what a sixth ruleset's author would do.
func TestANewRulesetIsOnePackage(t *testing.T) {
	oneLine(t, "internal/rules/kitskirmish", "internal/rules/kit", "internal/engine", "internal/board", "internal/dice", "internal/fray", "internal/sheet")
	srv := startServerEnv(t, testdb.URL(t), map[string]string{"FRAY_DICE_SEED": "5"})
	gm := srv.signup("kit-gm")

	var listed []struct{ ID string }
	if code := srv.call(gm, "GET", "/api/rulesets", nil, &listed); code != http.StatusOK ||
		!slices.ContainsFunc(listed, func(r struct{ ID string }) bool { return r.ID == kitskirmish.ID }) {
		t.Fatalf("rulesets: %d %v", code, listed)
	}
	importIt := func() string {
		var created struct{ ID string }
		if code := srv.call(gm, "POST", "/api/encounters", kitskirmish.Example, &created); code != http.StatusCreated {
			t.Fatalf("import: %d", code)
		}
		return created.ID
	}

	// The HTTP API: a client picking only what the server offers plays the
	// example to its end.
	id := importIt()
	rng := rand.New(rand.NewPCG(1, 2))
	for step := 0; ; step++ {
		v := srv.viewAs(gm, id)
		if v.Status == engine.StatusFinished {
			if v.Outcome == nil || v.Outcome.Winner == "" {
				t.Fatalf("the fight ended with no winner: %+v", v.Outcome)
			}
			break
		}
		if step > 1000 {
			t.Fatal("not finished after 1000 commands")
		}
		cmd := contractPick(rng, v, nil)
		if cmd == nil {
			t.Fatalf("nothing offered (status %s)", v.Status)
		}
		if cmd["kind"] == kitskirmish.CmdHeal {
			continue // the GM's healing would only draw the fight out
		}
		var reply struct{ Code, Message string }
		code := srv.call(gm, "POST", "/api/encounters/"+id+"/commands", map[string]any{"id": fmt.Sprint("k", step), "command": cmd}, &reply)
		if code != http.StatusOK && (code >= 500 || reply.Message == "") {
			t.Fatalf("%v: %d %+v", cmd, code, reply)
		}
	}

	// The page: the board under the zones model with every token, Start
	// and Strike from the page's own forms, the log updating live.
	id = importIt()
	ctx := tab(t, newBrowser(t))
	login(t, ctx, srv.URL, gm.Name)
	var drawn, tokens int
	steps(t, ctx, chromedp.Navigate(srv.URL+"/encounters/"+id), chromedp.WaitVisible("#act-start-go", chromedp.ByID),
		chromedp.Poll(`document.querySelector('#conn').dataset.state === 'live'`, nil, chromedp.WithPollingTimeout(patience.Hang())),
		chromedp.Evaluate(`document.querySelectorAll('#battlefield.model-zones').length`, &drawn),
		chromedp.Evaluate(`new Set([...document.querySelectorAll('#battlefield [data-token]')].map(e => e.dataset.token)).size`, &tokens))
	if drawn != 1 || tokens != 4 {
		t.Fatalf("board drawn %d, %d tokens", drawn, tokens)
	}
	steps(t, ctx, chromedp.Click("#act-start-go", chromedp.ByID), logHas("The encounter begins"),
		chromedp.WaitVisible("#act-ana-strike-open", chromedp.ByID), chromedp.Click("#act-ana-strike-open", chromedp.ByID),
		chromedp.Click("#act-ana-strike-go", chromedp.ByID), logHas("Ana strikes"))
	if v := srv.viewAs(gm, id); v.Round != 1 || v.Seq < 4 {
		t.Fatalf("after the page's strike: round %d, seq %d", v.Round, v.Seq)
	}
}

// oneLine fails t unless the package at dir (from the module's root)
// imports no package of the module but allowed, and no non-test file
// outside it names it but one: the registry, once.
func oneLine(t *testing.T, dir string, allowed ...string) {
	t.Helper()
	const module = "github.com/fray-vtt/fray/"
	root := filepath.Join("..", "..")
	if _, err := os.Stat(filepath.Join(root, "go.mod")); err != nil {
		t.Fatal(err)
	}
	fset := token.NewFileSet()
	uses := map[string]int{} // a file outside the package: how often it names it
	err := filepath.WalkDir(root, func(file string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(file, ".go") || strings.HasSuffix(file, "_test.go") {
			return err
		}
		rel, _ := filepath.Rel(root, file)
		f, err := parser.ParseFile(fset, file, nil, parser.ImportsOnly)
		if err != nil {
			return err
		}
		inside := filepath.ToSlash(filepath.Dir(rel)) == dir
		for _, imp := range f.Imports {
			p := strings.Trim(imp.Path.Value, `"`)
			if inside && strings.HasPrefix(p, module) && !slices.Contains(allowed, strings.TrimPrefix(p, module)) {
				t.Errorf("%s imports %s: a ruleset made with the kit imports only %v", rel, p, allowed)
			}
			if !inside && p == module+dir {
				src, err := os.ReadFile(file)
				if err != nil {
					return err
				}
				uses[filepath.ToSlash(rel)] = strings.Count(string(src), path.Base(dir)+".")
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if len(uses) != 1 || uses["internal/rules/rules.go"] != 1 {
		t.Errorf("%s is named outside its package by %v; want the registry's one line in internal/rules/rules.go", dir, uses)
	}
}

// untilAnaIsAsked has the goblin of kitskirmish.Example strike Ana, once a
// turn as the rules allow, until a blow lands and she is asked to parry,
// and returns the question. Between strikes each turn round the table is
// ended by whoever owns its fighter: Ana's by sam, Bo's by bo, the
// goblins' by the GM. view is the GM's view of the encounter.
func untilAnaIsAsked(t *testing.T, view func() engine.View, send func(u *apiUser, cmd map[string]any), gm, sam, bo *apiUser) engine.Decision {
	t.Helper()
	owner := map[string]*apiUser{"ana": sam, "bo": bo, "gob": gm, "sneak": gm}
	for range 60 {
		v := view()
		if len(v.Pending) > 0 {
			return v.Pending[0]
		}
		if v.Current == "gob" && slices.ContainsFunc(v.Actions, func(a engine.Action) bool { return a.Kind == kitskirmish.CmdStrike && a.Actor == "gob" }) {
			send(gm, map[string]any{"kind": kitskirmish.CmdStrike, "actor": "gob", "target": "ana"})
		} else {
			send(owner[v.Current], map[string]any{"kind": kitskirmish.CmdEndTurn, "actor": v.Current})
		}
	}
	t.Fatal("the goblin never hit")
	return engine.Decision{}
}

// TestKitSkirmishFromTheCampaignPage: a GM prepares a kit-skirmish fight
// the way every other ruleset's is prepared — the campaign page offers it
// for drafts and the bestiary, the stat editor saves a fighter with its
// own hit points (and refuses one with none it allows, saying why), and a
// draft of the bestiary's fighters becomes an encounter that starts with
// them.
func TestKitSkirmishFromTheCampaignPage(t *testing.T) {
	srv := startServer(t, testdb.URL(t))
	gm := srv.signup("kit-gm")
	var camp struct{ ID string }
	srv.withUser(gm).do("POST", "/api/campaigns", map[string]string{"name": "Mill road"}, &camp)
	c := "/campaigns/" + camp.ID
	page := string(srv.prepReq(gm, "GET", c, "", nil).body)
	for _, sel := range []string{"new-draft-ruleset", "new-bestiary-ruleset", "new-pcs-ruleset"} {
		opts := regexp.MustCompile(`(?s)<select id="` + sel + `".*?</select>`).FindString(page)
		if !strings.Contains(opts, `<option value="`+kitskirmish.ID+`">`) {
			t.Errorf("the campaign page's %s does not offer %s: %s", sel, kitskirmish.ID, opts)
		}
	}
	save := func(name, hp string) prepReply {
		return srv.prepForm(gm, c+"/bestiary", url.Values{"name": {name}, "ruleset": {kitskirmish.ID}, "hp": {hp}})
	}
	if r := save("Giant", "12"); r.code == http.StatusSeeOther || !strings.Contains(string(r.body), "hit points are 1 to 10, not 12") {
		t.Fatalf("a fighter of 12 hit points: %d, %s", r.code, r.body)
	}
	for _, f := range [][2]string{{"Ogre", "3"}, {"Shepherd", ""}} {
		if r := save(f[0], f[1]); r.code != http.StatusSeeOther {
			t.Fatalf("save %s: %d %s", f[0], r.code, r.body)
		}
	}
	d := srv.prepForm(gm, c+"/drafts", url.Values{"name": {"On the mill road"}, "ruleset": {kitskirmish.ID}})
	draft := strings.SplitN(d.location, "?", 2)[0]
	if d.code != http.StatusSeeOther || !strings.HasPrefix(draft, "/drafts/") {
		t.Fatalf("new draft: %d %s", d.code, d.body)
	}
	for _, op := range []url.Values{
		{"op": {"side-add"}, "name": {"Shepherds"}},
		{"op": {"side-add"}, "name": {"Ogres"}},
		{"op": {"add-bestiary"}, "entry": {"shepherd"}, "side": {"shepherds"}, "count": {"2"}},
		{"op": {"add-bestiary"}, "entry": {"ogre"}, "side": {"ogres"}},
	} {
		if r := srv.prepForm(gm, draft+"/edit", op); r.code != http.StatusSeeOther && r.code != http.StatusOK {
			t.Fatalf("%s: %d %s", op.Get("op"), r.code, r.body)
		}
	}
	created := srv.prepForm(gm, draft+"/create", nil)
	if created.code != http.StatusSeeOther || !strings.HasPrefix(created.location, "/encounters/") {
		t.Fatalf("create: %d %s %s", created.code, created.location, created.body)
	}
	id := strings.SplitN(strings.TrimPrefix(created.location, "/encounters/"), "?", 2)[0]
	var reply struct{ Code, Message string }
	if code := srv.call(gm, "POST", "/api/encounters/"+id+"/commands", map[string]any{"id": "go", "command": map[string]any{"kind": engine.KindStart}}, &reply); code != http.StatusOK {
		t.Fatalf("start: %d %+v", code, reply)
	}
	meters := map[string]string{}
	for _, tok := range srv.viewAs(gm, id).Board.Tokens {
		meters[tok.Name] = tok.Health.Text
	}
	want := map[string]string{"Ogre": "3 of 3 hit points", "Shepherd 1": "2 of 2 hit points", "Shepherd 2": "2 of 2 hit points"}
	if !maps.Equal(meters, want) {
		t.Errorf("the fight starts with %v, want %v", meters, want)
	}
}
