package web

import (
	"bytes"
	"context"
	"maps"
	"regexp"
	"slices"
	"strings"
	"testing"

	"golang.org/x/net/html"

	"github.com/a-h/templ"
)

// page renders c for a signed-in user ("" for a visitor).
func page(t *testing.T, user string, c templ.Component) (string, *html.Node) {
	t.Helper()
	ctx := context.Background()
	if user != "" {
		ctx = WithUser(ctx, user)
	}
	var b bytes.Buffer
	if err := c.Render(ctx, &b); err != nil {
		t.Fatalf("render: %v", err)
	}
	return b.String(), parseHTML(t, b.String())
}

// forms returns the forms posting to action.
func forms(doc *html.Node, action string) []*html.Node {
	return findAll(doc, func(n *html.Node) bool { return n.Data == "form" && mustAttr(n, "action") == action })
}

// postForm returns the one form posting to action and checks its method.
func postForm(t *testing.T, doc *html.Node, action string) *html.Node {
	t.Helper()
	f := forms(doc, action)
	if len(f) != 1 {
		t.Fatalf("got %d forms posting to %q, want 1", len(f), action)
	}
	if m := mustAttr(f[0], "method"); m != "post" {
		t.Errorf("form %q method = %q, want post", action, m)
	}
	return f[0]
}

// controls maps the names of a form's inputs, selects and textareas to
// their elements.
func controls(form *html.Node) map[string]*html.Node {
	m := map[string]*html.Node{}
	for _, n := range findAll(form, func(n *html.Node) bool {
		return n.Data == "input" || n.Data == "select" || n.Data == "textarea"
	}) {
		if name, ok := attr(n, "name"); ok {
			m[name] = n
		}
	}
	return m
}

// names are the names of a form's controls, sorted.
func names(form *html.Node) []string { return slices.Sorted(maps.Keys(controls(form))) }

func submit(t *testing.T, form *html.Node) *html.Node {
	t.Helper()
	b := findAll(form, func(n *html.Node) bool { return n.Data == "button" && mustAttr(n, "type") == "submit" })
	if len(b) != 1 {
		t.Fatalf("form %q has %d submit buttons", mustAttr(form, "action"), len(b))
	}
	return b[0]
}

// submits fails the test unless form's one submit button is #id, reading
// reads (when reads is not "").
func submits(t *testing.T, form *html.Node, id, reads string) {
	t.Helper()
	if b := submit(t, form); mustAttr(b, "id") != id || reads != "" && text(b) != reads {
		t.Errorf("form %q's button is #%s reading %q, want #%s reading %q", mustAttr(form, "action"), mustAttr(b, "id"), text(b), id, reads)
	}
}

// says fails the test unless #id has the role given (an alert, a status)
// and reads reads.
func says(t *testing.T, doc *html.Node, id, role, reads string) {
	t.Helper()
	if n := byID(doc, id); n == nil || mustAttr(n, "role") != role || text(n) != reads {
		t.Errorf("#%s is not a %s reading %q: %v", id, role, reads, n)
	}
}

// links fails the test unless #id is a link to href, reading reads
// (when reads is not "").
func links(t *testing.T, doc *html.Node, id, href, reads string) {
	t.Helper()
	if a := byID(doc, id); a == nil || mustAttr(a, "href") != href || reads != "" && text(a) != reads {
		t.Errorf("#%s is not a link to %s reading %q: %v", id, href, reads, a)
	}
}

// passwordFields fails the test unless each control of c named in
// autocomplete is a password field with that autocomplete and no value (a
// password is never sent back).
func passwordFields(t *testing.T, c map[string]*html.Node, autocomplete map[string]string) {
	t.Helper()
	for name, want := range autocomplete {
		if n := c[name]; mustAttr(n, "type") != "password" || mustAttr(n, "autocomplete") != want || mustAttr(n, "value") != "" {
			t.Errorf("%s: type %q, autocomplete %q, value %q; want a password field, %q, empty", name, mustAttr(n, "type"), mustAttr(n, "autocomplete"), mustAttr(n, "value"), want)
		}
	}
}

// ownScript reports whether src is one of the site's own scripts: the
// page's app.js, or a page's own (the clock's, push's): never inline,
// never from elsewhere.
func ownScript(src string) bool {
	return src == "/static/app.js" || src == "/static/clock.js" || src == "/static/push.js" || src == "/static/prep.js" || src == "/static/words.js"
}

// checkedPage renders c for user (page) and checks it (checkPage).
func checkedPage(t *testing.T, user string, c templ.Component, searches ...string) (string, *html.Node) {
	t.Helper()
	s, doc := page(t, user, c)
	checkPage(t, s, doc, searches...)
	return s, doc
}

// checkPage checks what every page must obey: no inline script, style or
// handler (strict CSP), unique ids, every visible control labelled, every
// aria-describedby pointing at an element, and every form posting but the
// searches (get forms to those actions: filters, "go to event").
func checkPage(t *testing.T, s string, doc *html.Node, searches ...string) {
	t.Helper()
	for _, sc := range findAll(doc, tag("script")) {
		if src, _ := attr(sc, "src"); !ownScript(src) || sc.FirstChild != nil {
			t.Errorf("inline or unexpected script: src=%q", src)
		}
	}
	if strings.Contains(s, "style=") || findAll(doc, tag("style")) != nil {
		t.Error("page has a style attribute or element")
	}
	if regexp.MustCompile(`(?i)\son[a-z]+=`).MatchString(s) {
		t.Error("page has an inline event handler")
	}
	if strings.Contains(s, "javascript:") || strings.Contains(s, "TemplFailedSanitizationURL") {
		t.Error("page has a script or rejected URL")
	}
	seen := map[string]bool{}
	for _, n := range findAll(doc, func(n *html.Node) bool { _, ok := attr(n, "id"); return ok }) {
		id, _ := attr(n, "id")
		if seen[id] {
			t.Errorf("duplicate id %q", id)
		}
		seen[id] = true
	}
	for _, c := range findAll(doc, func(n *html.Node) bool {
		if _, hidden := attr(n, "hidden"); hidden {
			return false
		}
		return n.Data == "select" || n.Data == "input" && mustAttr(n, "type") != "hidden"
	}) {
		id := mustAttr(c, "id")
		labels := findAll(doc, func(n *html.Node) bool { return n.Data == "label" && mustAttr(n, "for") == id })
		if id == "" || len(labels) != 1 {
			t.Errorf("control %q (id %q) has no label", mustAttr(c, "name"), id)
		}
	}
	for _, n := range findAll(doc, func(*html.Node) bool { return true }) {
		for _, a := range []string{"aria-describedby", "aria-labelledby"} {
			for _, id := range strings.Fields(mustAttr(n, a)) {
				if !seen[id] {
					t.Errorf("%s names missing #%s", a, id)
				}
			}
		}
	}
	// Forms that change state post; the only get forms are the searches,
	// and a dialog's form only closes it.
	for _, f := range findAll(doc, tag("form")) {
		action, method := mustAttr(f, "action"), mustAttr(f, "method")
		if method != "post" && method != "dialog" && (method != "get" || action == "" || !strings.Contains(strings.Join(searches, " "), action)) {
			t.Errorf("form %q (%s) neither posts, closes a dialog nor is a search", action, method)
		}
	}
	if h := findAll(doc, tag("h1")); len(h) != 1 {
		t.Errorf("page has %d h1", len(h))
	}
}

func TestLayoutUser(t *testing.T) {
	s, doc := checkedPage(t, "", Index(IndexProps{}))
	nav := findAll(doc, func(n *html.Node) bool { return n.Data == "nav" && hasClass(n, "account-nav") })
	if len(nav) != 1 {
		t.Fatal("no account nav in the header")
	}
	if forms(doc, "/logout") != nil || strings.Contains(text(nav[0]), "Log out") || strings.Contains(s, "Signed in as") {
		t.Error("visitor sees a log-out button")
	}
	links(t, doc, "login-link", "/login", "")
	links(t, doc, "signup-link", "/signup", "")

	s, doc = checkedPage(t, "Ana <3", Index(IndexProps{User: "Ana <3"}))
	nav = findAll(doc, func(n *html.Node) bool { return n.Data == "nav" && hasClass(n, "account-nav") })
	contains(t, "header", text(nav[0]), "Signed in as Ana <3")
	if strings.Contains(s, "Ana <3") {
		t.Error("user name is not escaped")
	}
	links(t, doc, "account-link", "/account", "")
	submits(t, postForm(t, doc, "/logout"), "logout", "Log out")
	if byID(doc, "login-link") != nil || byID(doc, "signup-link") != nil {
		t.Error("signed-in user is offered log in / sign up in the header")
	}
	if UserFromContext(WithUser(context.Background(), "bo")) != "bo" || UserFromContext(context.Background()) != "" {
		t.Error("UserFromContext")
	}
}

func TestAuthFormLogin(t *testing.T) {
	_, doc := checkedPage(t, "", AuthForm(AuthFormProps{Mode: "login", Next: "/join/abc", Name: "ana"}))
	f := postForm(t, doc, "/login")
	c := controls(f)
	if got := names(f); !slices.Equal(got, []string{"name", "next", "password"}) {
		t.Errorf("login fields %v", got)
	}
	if mustAttr(c["next"], "type") != "hidden" || mustAttr(c["next"], "value") != "/join/abc" {
		t.Error("next is not a hidden input")
	}
	if mustAttr(c["name"], "autocomplete") != "username" || mustAttr(c["name"], "value") != "ana" {
		t.Error("name field: autocomplete or refill")
	}
	passwordFields(t, c, map[string]string{"password": "current-password"})
	if _, ok := attr(c["password"], "minlength"); ok {
		t.Error("login password has a length rule; only sign-up states one")
	}
	if findAll(doc, func(n *html.Node) bool { return mustAttr(n, "role") == "alert" }) != nil {
		t.Error("alert without an error")
	}
	if _, ok := attr(f, "aria-describedby"); ok {
		t.Error("form described by a missing error")
	}
	links(t, doc, "auth-other", "/signup?next=/join/abc", "Sign up")
	if text(submit(t, f)) != "Log in" {
		t.Error("submit label")
	}
	// An unknown mode is a log-in.
	_, doc = page(t, "", AuthForm(AuthFormProps{}))
	if f := postForm(t, doc, "/login"); controls(f)["next"] != nil {
		t.Error("empty next rendered")
	}
	if l := byID(doc, "auth-other"); mustAttr(l, "href") != "/signup" {
		t.Errorf("other link %q", mustAttr(l, "href"))
	}
}

func TestAuthFormSignup(t *testing.T) {
	_, doc := checkedPage(t, "", AuthForm(AuthFormProps{Mode: "signup", Next: "/join/a b&c", Name: "bo", Error: "That name is taken."}))
	f := postForm(t, doc, "/signup")
	c := controls(f)
	if got := names(f); !slices.Equal(got, []string{"name", "next", "password", "password2"}) {
		t.Errorf("signup fields %v", got)
	}
	passwordFields(t, c, map[string]string{"password": "new-password", "password2": "new-password"})
	for _, k := range []string{"password", "password2"} {
		if mustAttr(c[k], "minlength") != "10" || mustAttr(c[k], "maxlength") != "200" {
			t.Errorf("%s: length rule", k)
		}
	}
	hint := byID(doc, "auth-password-hint")
	if hint == nil || !strings.Contains(text(hint), "10–200 characters") {
		t.Error("password hint missing")
	}
	says(t, doc, "auth-error", "alert", "That name is taken.")
	for _, n := range []*html.Node{f, c["name"], c["password"]} {
		if !slices.Contains(strings.Fields(mustAttr(n, "aria-describedby")), "auth-error") {
			t.Errorf("<%s name=%q> not described by the error", n.Data, mustAttr(n, "name"))
		}
	}
	if !slices.Contains(strings.Fields(mustAttr(c["password"], "aria-describedby")), "auth-password-hint") {
		t.Error("password not described by its hint")
	}
	if mustAttr(c["name"], "value") != "bo" {
		t.Error("name not refilled")
	}
	if l := byID(doc, "auth-other"); mustAttr(l, "href") != "/login?next=/join/a+b%26c" || text(l) != "Log in" {
		t.Errorf("log-in link %q", mustAttr(l, "href"))
	}
}

func TestAccount(t *testing.T) {
	p := AccountProps{
		User: "ana",
		Tokens: []TokenRow{
			{ID: "t1", Name: "dice bot", Created: "2026-01-02", LastUsed: "2026-01-03"},
			{ID: "t/2", Name: "old script", Created: "2025-12-01", Revoked: true},
			{ID: "t3", Name: "loadgen", Created: "2026-01-04"},
		},
		Notice: "Token created.",
	}
	s, doc := checkedPage(t, "ana", Account(p))
	pw := postForm(t, doc, "/account/password")
	if got := names(pw); !slices.Equal(got, []string{"current", "password", "password2"}) {
		t.Errorf("password fields %v", got)
	}
	passwordFields(t, controls(pw), map[string]string{"current": "current-password", "password": "new-password", "password2": "new-password"})
	create := postForm(t, doc, "/account/tokens")
	if got := names(create); !slices.Equal(got, []string{"name"}) {
		t.Errorf("token fields %v", got)
	}
	submits(t, create, "create-token", "")
	// Revoke only the active tokens.
	postForm(t, doc, "/account/tokens/t1/revoke")
	postForm(t, doc, "/account/tokens/t3/revoke")
	if forms(doc, "/account/tokens/t%2F2/revoke") != nil {
		t.Error("revoked token has a revoke form")
	}
	contains(t, "revoked token row", text(byID(doc, "token-t_2")), "old script", "revoked")
	contains(t, "unused token row", text(byID(doc, "token-t3")), "never used")
	if got := text(byID(doc, "revoke-token-t1")); got != "Revoke token dice bot" {
		t.Errorf("revoke button reads %q", got)
	}
	says(t, doc, "flash-notice", "status", "Token created.")
	if byID(doc, "new-token") != nil || strings.Contains(s, "Copy it now") {
		t.Error("new-token box without a new token")
	}

	p.NewToken, p.Notice, p.Error = "fray_pat_SECRET123", "", "Names must be unique."
	s, doc = checkedPage(t, "ana", Account(p))
	code := byID(doc, "new-token")
	if code == nil || code.Data != "code" || text(code) != "fray_pat_SECRET123" {
		t.Fatal("new token not in a <code>")
	}
	if strings.Count(s, "fray_pat_SECRET123") != 1 {
		t.Error("new token shown more than once")
	}
	contains(t, "the new token's note", text(code.Parent.Parent), "Copy it now")
	if b := byID(doc, "new-token-copy"); b == nil || mustAttr(b, "type") != "button" || mustAttr(b, "data-copy") != "new-token" {
		t.Error("copy button")
	}
	says(t, doc, "flash-error", "alert", "Names must be unique.")

	_, doc = page(t, "ana", Account(AccountProps{User: "ana"}))
	if byID(doc, "no-tokens") == nil {
		t.Error("no empty state for tokens")
	}
}

func TestIndexPages(t *testing.T) {
	s, doc := checkedPage(t, "", Index(IndexProps{}))
	contains(t, "the landing page", text(doc), "virtual tabletop")
	main := byID(doc, "main")
	var hrefs []string
	for _, a := range findAll(main, func(n *html.Node) bool { return n.Data == "a" && hasClass(n, "btn") }) {
		hrefs = append(hrefs, mustAttr(a, "href")+"="+text(a))
	}
	if !slices.Equal(hrefs, []string{"/signup=Sign up", "/login=Log in"}) {
		t.Errorf("landing buttons %v", hrefs)
	}
	if forms(doc, "/campaigns") != nil || strings.Contains(s, "Your campaigns") {
		t.Error("landing shows the campaign list")
	}

	p := IndexProps{User: "ana", Campaigns: []CampaignSummary{
		{ID: "c1", Name: "Red Sands", Role: "gm", Encounters: []EncounterSummary{{ID: "e 1/x", Name: "Ambush", Ruleset: "sw-zones", Status: "running"}}},
		{ID: "c/2", Name: "Blue Peaks", Role: "player"},
	}}
	s, doc = checkedPage(t, "ana", Index(p))
	if h := findAll(doc, tag("h1")); text(h[0]) != "Your campaigns" {
		t.Errorf("h1 %q", text(h[0]))
	}
	red := byID(doc, "campaign-c1").Parent.Parent
	if a := findAll(red, tag("a")); len(a) < 2 || mustAttr(a[0], "href") != "/campaigns/c1" || mustAttr(a[1], "href") != "/encounters/e%201%2Fx" {
		t.Error("campaign or encounter link (its id escaped)")
	}
	contains(t, "Red Sands (role and status)", text(red), "Red Sands GM", "Running")
	blue := byID(doc, "campaign-c_2").Parent.Parent
	contains(t, "Blue Peaks", text(blue), "Player", "No encounters")
	if a := findAll(blue, tag("a")); mustAttr(a[0], "href") != "/campaigns/c%2F2" {
		t.Error("campaign id not escaped")
	}
	f := postForm(t, doc, "/campaigns")
	if got := names(f); !slices.Equal(got, []string{"name"}) {
		t.Errorf("new campaign fields %v", got)
	}
	if in := byID(doc, "new-campaign-name"); in == nil || mustAttr(in, "name") != "name" {
		t.Error("#new-campaign-name")
	}
	submits(t, f, "create-campaign", "")
	if strings.Contains(s, "No campaigns yet") {
		t.Error("empty state with campaigns")
	}
}

func gmCampaign() CampaignProps {
	return CampaignProps{
		ID: "c1", Name: "Red Sands", IsGM: true,
		Encounters: []EncounterSummary{{ID: "e1", Name: "Ambush", Ruleset: "sw-zones", Status: "paused"}},
		Members: []MemberRow{
			{UserID: "u1", Name: "Gina", Role: "gm", IsSelf: true},
			{UserID: "u2", Name: "Ana", Role: "player", Characters: []string{"Ana Vega"}},
			{UserID: "u3", Name: "Cole", Role: "gm"},
		},
		Invites: []InviteRow{
			{ID: "i1", Created: "2026-01-01 10:00", Expires: "2026-01-08 10:00"},
			{ID: "i2", Created: "2025-12-01 10:00", Expires: "2025-12-08 10:00", Expired: true},
			{ID: "i3", Created: "2025-12-02 10:00", Expires: "2025-12-09 10:00", Revoked: true},
		},
		NewInviteURL: "https://fray.example/join/tok123",
		Characters: []CharacterRow{
			{ID: "ana", Name: "Ana Vega", OwnerID: "u2", Encounters: []string{"Ambush", "The mill"}, Page: "/campaigns/c1/characters/ana"},
			{ID: "bruno", Name: "Bruno"},
		},
		Examples: []ExampleOption{
			{Name: "sw-zones-goblin-ford", Label: "Goblin Ford", Ruleset: "sw-zones", RulesetTitle: "Zones game", Description: "Fights in zones.", Model: "zones",
				Length: "≈ 7 rounds, about 25 minutes at 2 players"},
			{Name: "sw-zones-dusty-gulch", Label: "Dusty Gulch", Ruleset: "sw-zones", RulesetTitle: "Zones game", Description: "Fights in zones.", Model: "zones"},
			{Name: "d20-under-crypt", Label: "Crypt", Ruleset: "d20-under", RulesetTitle: "Under game", Description: "Rolls under.", Model: "grid"},
			{Name: "d20-under-road", Label: "Road", Ruleset: "d20-under", RulesetTitle: "Under game", Description: "Rolls under.", Model: "ladder"},
		},
		Notice: "Invite created.",
	}
}

func TestCampaignGM(t *testing.T) {
	s, doc := checkedPage(t, "Gina", Campaign(gmCampaign()))
	if h := findAll(doc, tag("h1")); text(h[0]) != "Red Sands" {
		t.Error("h1")
	}
	// Encounters, with their status.
	enc := byID(doc, "encounters")
	if a := findAll(enc, func(n *html.Node) bool { return n.Data == "a" && mustAttr(n, "href") == "/encounters/e1" }); len(a) != 1 ||
		!strings.Contains(text(a[0]), "Paused") {
		t.Error("encounter link with status")
	}
	ex := postForm(t, doc, "/campaigns/c1/encounters/example")
	sel := byID(doc, "example-select")
	if sel == nil || sel.Data != "select" || mustAttr(sel, "name") != "example" || controls(ex)["example"] != sel {
		t.Fatal("#example-select")
	}
	// Grouped by ruleset, the model named where a ruleset has several; each
	// ruleset said in a line with its position models.
	if opts := options(sel); !slices.Equal(opts, []string{"sw-zones-goblin-ford=Goblin Ford — ≈ 7 rounds, about 25 minutes at 2 players", "sw-zones-dusty-gulch=Dusty Gulch",
		"d20-under-crypt=Crypt (a grid of squares)", "d20-under-road=Road (distance categories between sides)"}) {
		t.Errorf("examples %v", opts)
	}
	// How the minutes are estimated is said beside the picker.
	contains(t, "the picker's help on its minutes", text(byID(doc, "example-length-help")), "seconds for each player character's turn")
	var groups []string
	for _, g := range findAll(sel, tag("optgroup")) {
		groups = append(groups, mustAttr(g, "label"))
	}
	if !slices.Equal(groups, []string{"Zones game", "Under game"}) {
		t.Errorf("example groups %v", groups)
	}
	contains(t, "the rulesets explained", text(byID(doc, "example-rulesets")), "Zones game On zones and melees. Fights in zones.",
		"On a grid of squares or distance categories between sides. Rolls under.")
	submits(t, ex, "add-example", "")
	imp := postForm(t, doc, "/campaigns/c1/encounters/import")
	if mustAttr(imp, "enctype") != "multipart/form-data" {
		t.Error("import form is not multipart")
	}
	file := controls(imp)["file"]
	if file == nil || mustAttr(file, "type") != "file" || mustAttr(file, "accept") != "application/json,.json" {
		t.Error("import file input")
	}

	// Members: controls for the others, none for oneself.
	if forms(doc, "/campaigns/c1/members/u1/role") != nil || forms(doc, "/campaigns/c1/members/u1/remove") != nil {
		t.Error("GM can change their own membership")
	}
	for _, m := range []struct{ id, role, label string }{{"u2", "gm", "Make co-GM"}, {"u3", "player", "Make player"}} {
		f := postForm(t, doc, "/campaigns/c1/members/"+m.id+"/role")
		if in := controls(f)["role"]; in == nil || mustAttr(in, "type") != "hidden" || mustAttr(in, "value") != m.role {
			t.Errorf("%s role form posts %v", m.id, names(f))
		}
		if got := text(submit(t, f)); !strings.HasPrefix(got, m.label) {
			t.Errorf("%s role button %q", m.id, got)
		}
		f = postForm(t, doc, "/campaigns/c1/members/"+m.id+"/remove")
		if got := text(submit(t, f)); !strings.HasPrefix(got, "Remove") {
			t.Errorf("remove button %q", got)
		}
	}
	contains(t, "member row", text(byID(doc, "member-u2")), "Ana", "Player", "Ana Vega")
	contains(t, "own row", text(byID(doc, "member-u1")), "(you)", "GM")

	// Characters: the encounters each is in, a link to its page when it
	// has a sheet.
	contains(t, "Ana's row", text(byID(doc, "char-ana")), "in Ambush, The mill")
	if a := byID(doc, "char-ana-page"); a == nil || mustAttr(a, "href") != "/campaigns/c1/characters/ana" || byID(doc, "char-bruno-page") != nil {
		t.Error("character page links")
	}
	// Characters: one assignment form each, owner preselected.
	assign := forms(doc, "/campaigns/c1/characters")
	if len(assign) != 2 {
		t.Fatalf("got %d character forms", len(assign))
	}
	for i, want := range []struct {
		id   string
		opts []string // the owner preselected
	}{{"ana", []string{"=Unassigned", "u1=Gina", "u2=Ana*", "u3=Cole"}}, {"bruno", []string{"=Unassigned*", "u1=Gina", "u2=Ana", "u3=Cole"}}} {
		f := assign[i]
		c := controls(f)
		if mustAttr(c["character"], "type") != "hidden" || mustAttr(c["character"], "value") != want.id {
			t.Errorf("character hidden input %v", names(f))
		}
		sel := byID(doc, "char-"+want.id+"-user")
		if sel == nil || c["user"] != sel {
			t.Fatalf("#char-%s-user", want.id)
		}
		if opts := options(sel); !slices.Equal(opts, want.opts) {
			t.Errorf("%s's member options %v, want %v", want.id, opts, want.opts)
		}
		if b := submit(t, f); mustAttr(b, "id") != "char-"+want.id+"-assign" || !strings.HasPrefix(text(b), "Assign") {
			t.Errorf("assign button %q", mustAttr(b, "id"))
		}
	}

	// Invites: the new link once, create, revoke the active one only.
	code := byID(doc, "new-invite-url")
	if code == nil || code.Data != "code" || text(code) != "https://fray.example/join/tok123" {
		t.Fatal("#new-invite-url")
	}
	if strings.Count(s, "tok123") != 1 {
		t.Error("invite URL shown more than once")
	}
	contains(t, "the new invite's note", text(code.Parent.Parent), "Copy it now")
	submits(t, postForm(t, doc, "/campaigns/c1/invites"), "create-invite", "")
	for id, state := range map[string]string{"i1": "active", "i2": "expired", "i3": "revoked"} {
		contains(t, "invite "+id, text(byID(doc, "invite-"+id)), state)
		if revocable := len(forms(doc, "/campaigns/c1/invites/"+id+"/revoke")) == 1; revocable != (state == "active") {
			t.Errorf("invite %s (%s) can be revoked: %v", id, state, revocable)
		}
	}
	says(t, doc, "flash-notice", "status", "Invite created.")

	// Without a new invite: no box.
	p := gmCampaign()
	p.NewInviteURL = ""
	s, doc = page(t, "Gina", Campaign(p))
	if byID(doc, "new-invite-url") != nil || strings.Contains(s, "Copy it now") {
		t.Error("invite box without an invite")
	}
	// Without examples: no example form, import still there.
	p.Examples = nil
	_, doc = page(t, "Gina", Campaign(p))
	if byID(doc, "example-select") != nil || forms(doc, "/campaigns/c1/encounters/import") == nil {
		t.Error("example form without examples")
	}
}

func TestCampaignPlayer(t *testing.T) {
	p := gmCampaign()
	p.IsGM = false
	p.Invites = nil
	p.Examples = nil
	p.Members[0].IsSelf = false
	p.Members[1].IsSelf = true
	p.Error = "Only a GM can do that."
	s, doc := checkedPage(t, "Ana", Campaign(p))
	for _, id := range []string{"invites", "create-invite", "new-invite-url", "example-select", "add-example", "import-file", "char-ana-user", "char-ana-assign"} {
		if byID(doc, id) != nil {
			t.Errorf("player sees GM-only #%s", id)
		}
	}
	if strings.Contains(s, "tok123") {
		t.Error("player sees an invite URL")
	}
	for _, f := range findAll(doc, tag("form")) {
		if a := mustAttr(f, "action"); a != "/logout" {
			t.Errorf("player has a form posting to %q", a)
		}
	}
	if got := text(byID(doc, "characters")); !strings.Contains(got, "Your characters") || !strings.Contains(got, "Ana Vega") || strings.Contains(got, "Bruno") {
		t.Errorf("player characters %q", got)
	}
	contains(t, "members", text(byID(doc, "members")), "Gina", "Cole")
	says(t, doc, "flash-error", "alert", "Only a GM can do that.")
	if a := findAll(doc, func(n *html.Node) bool { return n.Data == "a" && mustAttr(n, "href") == "#invites" }); a != nil {
		t.Error("jump link to a missing section")
	}

	// Without an owner row in Characters, the member's own list is used.
	p.Characters = nil
	_, doc = page(t, "Ana", Campaign(p))
	contains(t, "player characters from member row", text(byID(doc, "characters")), "Ana Vega")
	p.Members[1].Characters = nil
	_, doc = page(t, "Ana", Campaign(p))
	contains(t, "no characters", text(byID(doc, "characters")), "not given you a character")
}

func TestJoin(t *testing.T) {
	_, doc := checkedPage(t, "", Join(JoinProps{Token: "tok 1", CampaignName: "Red Sands"}))
	if h := findAll(doc, tag("h1")); text(h[0]) != "You're invited to Red Sands" {
		t.Errorf("h1 %q", text(h[0]))
	}
	links(t, doc, "join-signup", "/signup?next=/join/tok%25201", "Sign up to join")
	links(t, doc, "join-login", "/login?next=/join/tok%25201", "Log in")
	if findAll(doc, tag("form")) != nil {
		t.Error("visitor can post the join form")
	}
	_, doc = page(t, "", Join(JoinProps{Token: "tok1", CampaignName: "Red Sands"}))
	if a := byID(doc, "join-signup"); mustAttr(a, "href") != "/signup?next=/join/tok1" {
		t.Errorf("sign-up link %q", mustAttr(a, "href"))
	}

	_, doc = checkedPage(t, "Ana", Join(JoinProps{Token: "tok1", CampaignName: "Red Sands", User: "Ana"}))
	submits(t, postForm(t, doc, "/join/tok1"), "join-campaign", "Join Red Sands as Ana")
	if byID(doc, "join-signup") != nil {
		t.Error("signed-in user asked to sign up")
	}

	_, doc = checkedPage(t, "Ana", Join(JoinProps{Token: "tok1", User: "Ana", Error: "This invite has expired."}))
	says(t, doc, "join-error", "alert", "This invite has expired.")
	if forms(doc, "/join/tok1") != nil || byID(doc, "join-campaign") != nil {
		t.Error("dead invite can be joined")
	}
}

func TestEncounterCampaignLinkAndSwitch(t *testing.T) {
	p := EncounterProps{View: testView(), As: "ana", WSURL: "/ws", ActURL: "/act"}
	s, doc := checkedPage(t, "ana", Encounter(p))
	if byID(doc, "switch-viewer") != nil || strings.Contains(s, "Switch viewer") {
		t.Error("player can switch viewer")
	}
	if byID(doc, "campaign-link") != nil {
		t.Error("campaign link without a campaign")
	}
	p.CanSwitch, p.CampaignID, p.CampaignName = true, "c 1", "Red Sands"
	_, doc = page(t, "gina", Encounter(p))
	links(t, doc, "switch-viewer", "/encounters/enc-1?choose=1", "")
	links(t, doc, "campaign-link", "/campaigns/c%201", "Back to Red Sands")
	p.CampaignName = ""
	_, doc = page(t, "gina", Encounter(p))
	if a := byID(doc, "campaign-link"); text(a) != "Back to the campaign" {
		t.Errorf("unnamed campaign link %q", text(a))
	}
}
