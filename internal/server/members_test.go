package server

import (
	"net/url"
	"testing"

	"github.com/fray-vtt/fray/internal/engine"
	"github.com/fray-vtt/fray/internal/fray"
)

func TestMembers(t *testing.T) {
	w := newWorld(t, nil)
	res := w.do(t, req{method: "POST", path: "/campaigns/camp/members/pl/role", form: url.Values{"role": {"gm"}}, as: "gm"})
	if flashOf(t, res, flashNotice) != "Role changed." || !w.calls.has("SetRole pl gm") {
		t.Fatalf("role: %d", res.StatusCode)
	}
	res = w.do(t, req{method: "POST", path: "/campaigns/camp/characters", form: url.Values{"character": {"hero"}}, as: "gm"})
	if flashOf(t, res, flashNotice) != "Character unassigned." || !w.calls.has("AssignCharacter hero ") {
		t.Fatalf("unassign: %d", res.StatusCode)
	}
	if res := w.do(t, req{method: "PUT", path: "/api/campaigns/camp/characters/hero", json: `{"user":1}`, as: "gm"}); res.StatusCode != 400 {
		t.Fatalf("API: a malformed body: %d", res.StatusCode)
	}

	w = newWorld(t, fail{"SetRole": fray.Errorf(fray.ENOTFOUND, "That person is not a member."),
		"RemoveMember":    fray.Errorf(fray.ECONFLICT, "a campaign keeps at least one GM"),
		"AssignCharacter": fray.Errorf(fray.EINVALID, "no such member")})
	for path, want := range map[string]string{
		"/campaigns/camp/members/x/role":   "That person is not a member.",
		"/campaigns/camp/members/x/remove": "a campaign keeps at least one GM",
		"/campaigns/camp/characters":       "no such member",
	} {
		res := w.do(t, req{method: "POST", path: path, form: url.Values{"character": {"hero"}, "user": {"x"}}, as: "gm"})
		if res.StatusCode != 303 || flashOf(t, res, flashError) != want {
			t.Errorf("%s: %d %q, want %q", path, res.StatusCode, flashOf(t, res, flashError), want)
		}
	}
	if res := w.do(t, req{method: "PUT", path: "/api/campaigns/camp/characters/hero", json: `{"user":"x"}`, as: "gm"}); res.StatusCode != 400 {
		t.Fatalf("API: an unknown member: %d", res.StatusCode)
	}
}

// A websocket session's grantee keeps who its user is, never the state
// the session was opened at (which would stay in memory for its life).
func TestSocketGranteeHoldsNoState(t *testing.T) {
	e := viewedEncounter{id: "e", state: &engine.Base{ID: "e"}}
	if g := newSocketGrantee(nil, e); g.e.state != nil || g.e.ruleset != nil || g.e.id != "e" {
		t.Fatalf("grantee keeps %+v", g.e)
	}
}
