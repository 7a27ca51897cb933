package server

import (
	"bytes"
	"io"
	"mime/multipart"
	"net/http"
	"net/http/httptest"
	"net/url"
	"regexp"
	"strings"
	"testing"

	"github.com/go-chi/chi/v5"
)

// req is one request to a world.
type req struct {
	method, path string
	// form is a posted form (urlencoded); json a JSON body; file a
	// multipart upload's "file".
	form   url.Values
	json   string
	file   string
	as     string // the user signed in by cookie; "" for nobody
	bearer string // an API token, instead of a cookie
	html   bool   // a browser asking for a page (Accept: text/html)
}

// do runs r against w and returns the response.
func (w *world) do(t testing.TB, r req) *http.Response {
	t.Helper()
	var body io.Reader
	var ctype string
	switch {
	case r.file != "":
		var b bytes.Buffer
		mw := multipart.NewWriter(&b)
		fw, _ := mw.CreateFormFile("file", "upload.json")
		_, _ = fw.Write([]byte(r.file))
		for k, vs := range r.form {
			for _, v := range vs {
				_ = mw.WriteField(k, v)
			}
		}
		_ = mw.Close()
		body, ctype = &b, mw.FormDataContentType()
	case r.form != nil:
		body, ctype = strings.NewReader(r.form.Encode()), "application/x-www-form-urlencoded"
	case r.json != "":
		body, ctype = strings.NewReader(r.json), "application/json"
	}
	hr := httptest.NewRequest(r.method, r.path, body)
	if ctype != "" {
		hr.Header.Set("Content-Type", ctype)
	}
	if r.html {
		hr.Header.Set("Accept", "text/html")
	}
	if r.as != "" {
		hr.AddCookie(&http.Cookie{Name: sessionCookie, Value: r.as})
	}
	if strings.HasSuffix(r.path, "/ws") {
		hr.Header.Set("Upgrade", "websocket")
	}
	if r.bearer != "" {
		hr.Header.Set("Authorization", "Bearer "+r.bearer)
	}
	rec := httptest.NewRecorder()
	w.ServeHTTP(rec, hr)
	return rec.Result()
}

// text reads a response's body.
func text(t testing.TB, res *http.Response) string {
	t.Helper()
	b, err := io.ReadAll(res.Body)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// Who may use a route.
const (
	public     = iota // anyone, signed in or not
	user              // anyone signed in
	member            // the campaign's members (the GM and the player)
	gmOnly            // the campaign's GMs
	playerOnly        // the campaign's players (a GM is refused: 403)
	linkUser          // the user a link was sent to (anyone else: 403)
)

// route is one handler as the access test calls it.
type route struct {
	method, path string
	who          int
	ok           int // the status for someone allowed
	form         url.Values
	json, file   string
}

// routes lists every handler once (the websocket twice: page and API).
var routes = []route{
	{"GET", "/healthz", public, 200, nil, "", ""},
	{"GET", "/static/app.css", public, 200, nil, "", ""},
	{"GET", "/", public, 200, nil, "", ""},
	{"GET", "/login", public, 200, nil, "", ""},
	{"POST", "/login", public, 303, url.Values{"name": {"gm"}, "password": {"right"}}, "", ""},
	{"POST", "/logout", public, 303, url.Values{}, "", ""},
	{"GET", "/signup", public, 200, nil, "", ""},
	{"GET", "/reset", public, 200, nil, "", ""},
	{"POST", "/reset", public, 200, url.Values{"email": {"gm@example.com"}}, "", ""},
	{"GET", "/reset/reset-token", public, 200, nil, "", ""},
	{"POST", "/reset/reset-token", public, 200, url.Values{"password": {"pw"}, "password2": {"pw"}}, "", ""},
	{"POST", "/signup", public, 303, url.Values{"name": {"new"}, "password": {"pw"}, "password2": {"pw"}}, "", ""},
	{"POST", "/api/signup", public, 201, nil, `{"name":"new","password":"pw"}`, ""},
	{"GET", "/join/invite-token", public, 200, nil, "", ""},
	{"GET", "/api/rulesets", public, 200, nil, "", ""},
	{"GET", "/sw.js", public, 200, nil, "", ""},
	{"GET", "/manifest.webmanifest", public, 200, nil, "", ""},

	{"GET", "/account", user, 200, nil, "", ""},
	{"POST", "/account/password", user, 303, url.Values{"current": {"right"}, "password": {"new"}, "password2": {"new"}}, "", ""},
	{"GET", "/api/me", user, 200, nil, "", ""},
	{"POST", "/api/password", user, 204, nil, `{"current":"right","password":"new"}`, ""},
	{"POST", "/account/signout-everywhere", user, 303, url.Values{}, "", ""},
	{"POST", "/api/signout-everywhere", user, 200, nil, "", ""},
	{"POST", "/account/tokens", user, 200, url.Values{"name": {"bot"}}, "", ""},
	{"POST", "/account/tokens/tok/revoke", user, 303, url.Values{}, "", ""},
	{"GET", "/api/tokens", user, 200, nil, "", ""},
	{"POST", "/api/tokens", user, 201, nil, `{"name":"bot"}`, ""},
	{"DELETE", "/api/tokens/tok", user, 204, nil, "", ""},
	{"GET", "/account/notifications", user, 200, nil, "", ""},
	{"POST", "/account/notifications/email", user, 303, url.Values{"email": {"me@example.com"}}, "", ""},
	{"GET", "/api/notifications", user, 200, nil, "", ""},
	{"PUT", "/api/notifications/email", user, 204, nil, `{"email":"me@example.com"}`, ""},
	{"POST", "/api/push/subscriptions", user, 204, nil, `{"endpoint":"https://push.example.com/x","expirationTime":null,"keys":{"p256dh":"k","auth":"a"}}`, ""},
	{"DELETE", "/api/push/subscriptions", user, 204, nil, `{"endpoint":"https://push.example.com/x"}`, ""},
	{"POST", "/campaigns", user, 303, url.Values{"name": {"New"}}, "", ""},
	{"GET", "/api/campaigns", user, 200, nil, "", ""},
	{"POST", "/api/campaigns", user, 201, nil, `{"name":"New"}`, ""},
	{"POST", "/join/invite-token", user, 303, url.Values{}, "", ""},
	{"POST", "/api/join/invite-token", user, 200, nil, "", ""},
	{"POST", "/api/encounters", user, 201, nil, `{"name":"anything the fake takes"}`, ""},

	{"GET", "/campaigns/camp", member, 200, nil, "", ""},
	{"GET", "/api/campaigns/camp", member, 200, nil, "", ""},
	{"GET", "/campaigns/camp/timeline", member, 200, nil, "", ""},
	{"GET", "/campaigns/camp/characters/hero", member, 200, nil, "", ""},
	{"GET", "/api/campaigns/camp/characters", member, 200, nil, "", ""},
	{"GET", "/api/campaigns/camp/characters/hero/revisions", member, 200, nil, "", ""},
	{"POST", "/account/notifications/camp", member, 303, url.Values{"push": {"on"}}, "", ""},
	{"PUT", "/api/campaigns/camp/notifications", member, 204, nil, `{"push":true,"email":false}`, ""},
	{"GET", "/encounters/enc", member, 200, nil, "", ""},
	{"POST", "/encounters/enc/act", member, 303, url.Values{"kind": {"chat"}, "text": {"hi"}}, "", ""},
	{"GET", "/encounters/enc/ws", member, 101, nil, "", ""},
	{"GET", "/api/encounters/enc/ws", member, 101, nil, "", ""},
	{"GET", "/api/encounters/enc", member, 200, nil, "", ""},
	{"GET", "/api/encounters/enc/events", member, 200, nil, "", ""},
	{"GET", "/api/encounters/enc/why", member, 200, nil, "", ""},
	{"POST", "/api/encounters/enc/commands", member, 200, nil, `{"id":"c1","command":{"kind":"chat","text":"hi"}}`, ""},
	{"POST", "/api/encounters/enc/say", member, 200, nil, `{"text":"status"}`, ""},
	{"GET", "/api/encounters/enc/say", member, 200, nil, "", ""},
	{"POST", "/encounters/enc/say", member, 303, url.Values{"text": {"status"}}, "", ""},
	{"GET", "/encounters/enc/log", member, 200, nil, "", ""},
	{"GET", "/encounters/enc/replay", member, 200, nil, "", ""},
	{"GET", "/api/encounters/enc/replay", member, 200, nil, "", ""},
	{"GET", "/encounters/enc/export.md", member, 200, nil, "", ""},
	{"GET", "/api/encounters/enc/export.json", member, 200, nil, "", ""},
	{"GET", "/api/encounters/enc/chain", member, 200, nil, "", ""},
	{"GET", "/assets/" + assetID, member, 200, nil, "", ""},

	{"POST", "/campaigns/camp/invites", gmOnly, 200, url.Values{}, "", ""},
	{"POST", "/campaigns/camp/invites/inv/revoke", gmOnly, 303, url.Values{}, "", ""},
	{"POST", "/api/campaigns/camp/invites", gmOnly, 201, nil, "", ""},
	{"GET", "/campaigns/camp/webhooks", gmOnly, 200, nil, "", ""},
	{"POST", "/campaigns/camp/webhooks", gmOnly, 200, url.Values{"url": {"https://example.com/h"}, "format": {"json"}}, "", ""},
	{"POST", "/campaigns/camp/webhooks/hook/delete", gmOnly, 303, url.Values{}, "", ""},
	{"GET", "/api/campaigns/camp/webhooks", gmOnly, 200, nil, "", ""},
	{"POST", "/api/campaigns/camp/webhooks", gmOnly, 201, nil, `{"url":"https://example.com/h","format":"discord"}`, ""},
	{"DELETE", "/api/campaigns/camp/webhooks/hook", gmOnly, 204, nil, "", ""},
	{"POST", "/campaigns/camp/members/pl/role", gmOnly, 303, url.Values{"role": {"gm"}}, "", ""},
	{"POST", "/campaigns/camp/members/pl/remove", gmOnly, 303, url.Values{}, "", ""},
	{"POST", "/campaigns/camp/characters", gmOnly, 303, url.Values{"character": {"hero"}, "user": {"pl"}}, "", ""},
	{"PUT", "/api/campaigns/camp/characters/hero", gmOnly, 200, nil, `{"user":"pl"}`, ""},
	{"POST", "/campaigns/camp/encounters/example", gmOnly, 303, url.Values{"example": {"toy"}}, "", ""},
	{"POST", "/campaigns/camp/encounters/import", gmOnly, 303, nil, "", `{"name":"Fight"}`},
	{"POST", "/api/campaigns/camp/encounters", gmOnly, 201, nil, `{"name":"Fight"}`, ""},
	{"GET", "/encounters/enc/setup.json", gmOnly, 200, nil, "", ""},
	{"POST", "/encounters/enc/duplicate", gmOnly, 303, url.Values{}, "", ""},
	{"POST", "/encounters/enc/log/reveal", gmOnly, 303, url.Values{"seq": {"1"}}, "", ""},
	{"POST", "/campaigns/camp/drafts", gmOnly, 303, url.Values{"ruleset": {"toy"}, "name": {"Fight"}}, "", ""},
	{"POST", "/campaigns/camp/drafts/import", gmOnly, 303, nil, "", `{"name":"Fight"}`},
	{"GET", "/drafts/draft", gmOnly, 200, nil, "", ""},
	{"POST", "/drafts/draft/edit", gmOnly, 303, url.Values{"op": {"settings"}, "name": {"Fight"}}, "", ""},
	{"POST", "/drafts/draft/create", gmOnly, 303, url.Values{}, "", ""},
	{"POST", "/drafts/draft/delete", gmOnly, 303, url.Values{}, "", ""},
	{"POST", "/drafts/draft/import", gmOnly, 303, nil, "", `{"name":"Fight"}`},
	{"POST", "/drafts/draft/pictures", gmOnly, 303, url.Values{"use": {"scene"}}, "", "picture bytes"},
	{"POST", "/drafts/draft/map", gmOnly, 303, url.Values{}, "", `{"format":0.3,"resolution":{"map_size":{"x":4,"y":4},"pixels_per_grid":50}}`},
	{"GET", "/drafts/draft/setup.json", gmOnly, 200, nil, "", ""},
	{"GET", "/drafts/draft/odds", gmOnly, 200, nil, "", ""},
	{"POST", "/drafts/draft/odds", gmOnly, 303, url.Values{"runs": {"5"}}, "", ""},
	{"POST", "/drafts/draft/odds/cancel", gmOnly, 303, url.Values{}, "", ""},
	{"GET", "/api/drafts/draft/odds", gmOnly, 200, nil, "", ""},
	{"POST", "/api/drafts/draft/odds", gmOnly, 202, nil, `{"runs":5,"seed":1}`, ""},
	{"POST", "/api/drafts/draft/odds/cancel", gmOnly, 200, nil, "", ""},
	{"GET", "/campaigns/camp/bestiary.json", gmOnly, 200, nil, "", ""},
	{"POST", "/campaigns/camp/bestiary/import", gmOnly, 303, nil, "", `[]`},
	{"GET", "/campaigns/camp/bestiary/new", gmOnly, 200, nil, "", ""},
	{"GET", "/campaigns/camp/pcs/new", gmOnly, 200, nil, "", ""},
	{"POST", "/campaigns/camp/bestiary", gmOnly, 303, url.Values{"name": {"Goblin"}, "ruleset": {"toy"}}, "", ""},
	{"GET", "/campaigns/camp/bestiary/goblin", gmOnly, 200, nil, "", ""},
	{"POST", "/campaigns/camp/pcs/hero", gmOnly, 303, url.Values{"name": {"Hero"}}, "", ""},
	{"POST", "/campaigns/camp/bestiary/goblin/delete", gmOnly, 303, url.Values{}, "", ""},
	{"POST", "/campaigns/camp/bestiary/goblin/portrait", gmOnly, 303, url.Values{"portrait": {""}}, "", ""},
	// The toy ruleset's book prints no stat blocks: refused, as any ruleset without a format.
	{"POST", "/campaigns/camp/bestiary/paste", gmOnly, 400, url.Values{"ruleset": {"toy"}, "block": {"Goblin"}}, "", ""},
	{"POST", "/campaigns/camp/pcs/hero/paste", gmOnly, 400, url.Values{"block": {"Hero"}}, "", ""},
	{"GET", "/campaigns/camp/bestiary/goblin/export", gmOnly, 200, nil, "", ""},
	{"GET", "/campaigns/camp/pcs/hero/export", gmOnly, 200, nil, "", ""},
	// The toy ruleset maps no Foundry system: refused, back to the campaign.
	{"POST", "/campaigns/camp/bestiary/foundry", gmOnly, 303, url.Values{"ruleset": {"toy"}}, "", ""},
	{"GET", "/campaigns/camp/characters.json", gmOnly, 200, nil, "", ""},
	{"POST", "/campaigns/camp/characters/import", gmOnly, 303, nil, "", `[]`},
	{"GET", "/encounters/enc/carry-over", gmOnly, 200, nil, "", ""},
	{"POST", "/encounters/enc/carry-over", gmOnly, 303, url.Values{"seq": {"7"}, "decision.hero": {"confirm"}, "value.hero.wounds": {"1"}}, "", ""},
	{"GET", "/api/encounters/enc/carry-over", gmOnly, 200, nil, "", ""},
	{"POST", "/api/campaigns/camp/assets", gmOnly, 201, nil, "", "picture bytes"},
	{"GET", "/api/campaigns/camp/assets", gmOnly, 200, nil, "", ""},
	{"DELETE", "/api/campaigns/camp/assets/" + assetID, gmOnly, 204, nil, "", ""},
	{"POST", "/campaigns/camp/pictures/" + assetID + "/delete", gmOnly, 303, url.Values{}, "", ""},
	{"GET", "/api/campaigns/camp/notes", gmOnly, 200, nil, "", ""},
	{"PUT", "/api/campaigns/camp/notes", gmOnly, 200, nil, `{"notes":"x"}`, ""},
	{"POST", "/campaigns/camp/notes", gmOnly, 303, url.Values{"notes": {"x"}}, "", ""},
	{"POST", "/api/encounters/enc/carry-over", gmOnly, 200, nil, `{"seq":7,"characters":[{"id":"hero"}]}`, ""},
	{"GET", "/api/encounters/enc/deadline", gmOnly, 200, nil, "", ""},
	{"PUT", "/api/encounters/enc/deadline", gmOnly, 200, nil, `{"after":"24h","remindBefore":"2h","fallback":"next-turn"}`, ""},
	{"DELETE", "/api/encounters/enc/deadline", gmOnly, 204, nil, "", ""},
	{"POST", "/encounters/enc/deadline", gmOnly, 303, url.Values{"after": {"24h"}, "fallback": {"pause"}}, "", ""},
	{"PUT", "/api/encounters/enc/deadline/on", gmOnly, 200, nil, `{"on":false}`, ""},

	{"GET", "/api/encounters/enc/clock", member, 200, nil, "", ""},
	{"GET", "/encounters/enc/orders", member, 200, nil, "", ""},
	{"GET", "/api/encounters/enc/orders", member, 200, nil, "", ""},
	{"POST", "/encounters/enc/orders", member, 303, url.Values{"character": {"hero"}, "away": {"on"}}, "", ""},
	{"PUT", "/api/encounters/enc/orders", playerOnly, 200, nil, `{"character":"hero","away":true,"orders":{}}`, ""},

	// A link to the player's turn (act.go): the table, for them alone.
	{"GET", "/act/" + plLink, linkUser, 303, nil, "", ""},
	{"GET", "/api/act/" + plLink, linkUser, 200, nil, "", ""},
	{"POST", "/act/" + plLink, linkUser, 400, url.Values{"choice": {"x"}}, "", ""},
	{"POST", "/api/act/" + plLink, linkUser, 400, nil, `{"choice":"x"}`, ""},
}

// TestEveryRouteChecksAccess calls every handler as someone signed out, a
// stranger, the campaign's player and its GM: the signed out are sent to
// log in (pages) or refused 401 (forms, the API); a stranger is told the
// campaign or encounter does not exist (404, as for an unknown one); a
// player is refused what only GMs may do (403); and whoever may gets the
// handler's answer.
func TestEveryRouteChecksAccess(t *testing.T) {
	for _, rt := range routes {
		for _, who := range []string{"", "st", "pl", "gm"} {
			want := rt.ok
			switch {
			case rt.who == public:
			case who == "":
				want = http.StatusUnauthorized
				if rt.method == "GET" && !strings.HasPrefix(rt.path, "/api/") && !strings.HasSuffix(rt.path, "/ws") {
					want = http.StatusSeeOther
				}
			case rt.who == user:
			case rt.who == linkUser && who != "pl":
				want = http.StatusForbidden
			case who == "st":
				want = http.StatusNotFound
			case who == "pl" && rt.who == gmOnly, who == "gm" && rt.who == playerOnly:
				want = http.StatusForbidden
			}
			name := rt.method + " " + rt.path + " as " + who
			if who == "" {
				name = rt.method + " " + rt.path + " signed out"
			}
			t.Run(name, func(t *testing.T) {
				w := newWorld(t, nil)
				res := w.do(t, req{method: rt.method, path: rt.path, form: rt.form, json: rt.json, file: rt.file, as: who})
				if res.StatusCode != want {
					t.Fatalf("status %d, want %d: %.300s", res.StatusCode, want, text(t, res))
				}
				if want != rt.ok {
					for _, c := range w.calls.log {
						// Following a link counts against a rate limit,
						// refused or not: that is what the limit is for.
						if !strings.HasPrefix(c, "Current ") && !strings.HasPrefix(c, "Latest ") && !strings.HasPrefix(c, "Allow act:") {
							t.Fatalf("refused with %d, but the service was called: %s", want, c)
						}
					}
				}
				if want == http.StatusSeeOther && who == "" && rt.who != public {
					if loc := res.Header.Get("Location"); !strings.HasPrefix(loc, "/login?next=") {
						t.Fatalf("sent to %q, want the log-in page", loc)
					}
				}
			})
		}
	}
}

// TestEveryRouteIsInTheAccessTest: a handler added to routes.go without a
// line in routes (above) fails here.
func TestEveryRouteIsInTheAccessTest(t *testing.T) {
	w := newWorld(t, nil)
	listed := map[string]bool{}
	for _, rt := range routes {
		listed[rt.method+" "+rt.path] = true
	}
	n := 0
	walk(w.router, func(method, pattern string) {
		if strings.HasSuffix(pattern, "*") && method != "GET" {
			return // a file server: GET and HEAD, and 405 for the rest
		}
		n++
		found := false
		for key := range listed {
			m, path, _ := strings.Cut(key, " ")
			if m == method && matches(pattern, path) {
				found = true
			}
		}
		if !found {
			t.Errorf("%s %s is not in the access test's routes", method, pattern)
		}
	})
	if n < 75 {
		t.Fatalf("walked %d routes", n)
	}
}

// walk calls fn with every route of a chi router.
func walk(h http.Handler, fn func(method, pattern string)) {
	_ = chi.Walk(h.(chi.Routes), func(method, pattern string, _ http.Handler, _ ...func(http.Handler) http.Handler) error {
		fn(method, pattern)
		return nil
	})
}

// matches reports whether a path fits a chi pattern ({name}, {name:regexp}, a trailing *).
func matches(pattern, path string) bool {
	ps, xs := strings.Split(pattern, "/"), strings.Split(path, "/")
	for i, p := range ps {
		if p == "*" {
			return true
		}
		if i >= len(xs) {
			return false
		}
		if strings.HasPrefix(p, "{") && strings.HasSuffix(p, "}") {
			if _, re, ok := strings.Cut(strings.Trim(p, "{}"), ":"); ok && !regexp.MustCompile("^(?:"+re+")$").MatchString(xs[i]) {
				return false
			}
			continue
		}
		if p != xs[i] {
			return false
		}
	}
	return len(ps) == len(xs)
}
