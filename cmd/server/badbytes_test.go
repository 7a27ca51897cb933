package main

import (
	"net/http"
	"net/url"
	"strings"
	"testing"

	"github.com/fray-vtt/fray/internal/testdb"
)

// TestBadBytesNeverAnswer500: a NUL byte in a character, stat-block, PC,
// draft or encounter id, bytes that are not UTF-8 in a path (/static/%ff)
// and NUL characters in bodies and forms are answered 400 or 404 (or a
// form's refusal), never 500, and nothing is logged at ERROR.
func TestBadBytesNeverAnswer500(t *testing.T) {
	srv := startServer(t, testdb.URL(t))
	tb := srv.newTable()
	b := srv.login("gamemaster")
	c, e := tb.campaign, tb.id
	for _, tc := range []struct {
		method, path, body string
		want               int
	}{
		{"GET", "/static/%ff", "", 404},
		{"GET", "/static/%00", "", 404},
		{"GET", "/static/app.js%00", "", 404},
		{"GET", "/campaigns/" + c + "/pcs/%00", "", 404},
		{"GET", "/campaigns/" + c + "/pcs/a%00b", "", 404},
		{"POST", "/campaigns/" + c + "/pcs/%00", "", 404},
		{"GET", "/campaigns/" + c + "/bestiary/%00", "", 404},
		{"GET", "/campaigns/" + c + "/characters/%00", "", 404},
		{"GET", "/campaigns/" + c + "/characters/%ff%fe", "", 404},
		{"GET", "/api/campaigns/" + c + "/characters/%00/revisions", "", 404},
		{"PUT", "/api/campaigns/" + c + "/characters/%00", `{"user":""}`, 404},
		{"PUT", "/api/campaigns/" + c + "/characters/" + tb.pc, `{"user":"\u0000"}`, 400},
		{"GET", "/api/encounters/%00", "", 404},
		{"GET", "/drafts/%00", "", 404},
		{"GET", "/campaigns/%00", "", 404},
		{"GET", "/join/%00", "", 404},
		{"GET", "/api/encounters/" + e + "?as=%00", "", 400},
		{"POST", "/api/encounters/" + e + "/commands", `{"id":"nul","command":{"kind":"chat","text":"a\u0000b"}}`, 400},
		{"POST", "/api/encounters/" + e + "/commands", `{"id":"nul\u0000","command":{"kind":"chat","text":"ab"}}`, 400},
		{"POST", "/api/tokens", `{"name":"bot\u0000"}`, 400},
		{"POST", "/api/campaigns", `{"name":"\u0000"}`, 400},
	} {
		if code := srv.raw(tb.gm, tc.method, tc.path, "application/json", tc.body); code != tc.want {
			t.Errorf("%s %s %s: %d, want %d", tc.method, tc.path, tc.body, code, tc.want)
		}
	}
	for _, tc := range []struct {
		path string
		form url.Values
	}{
		{"/campaigns/" + c + "/characters", url.Values{"character": {"pc\x00"}, "user": {""}}},
		{"/campaigns/" + c + "/characters", url.Values{"character": {tb.pc}, "user": {"\x00"}}},
		{"/campaigns/" + c + "/pcs", url.Values{"ruleset": {"sw-zones"}, "name": {"Bad\x00Name"}}},
		{"/campaigns/" + c + "/drafts", url.Values{"ruleset": {"sw-zones"}, "name": {"Draft\x00"}}},
		{"/encounters/" + e + "/act", url.Values{"kind": {"chat"}, "text": {"hello\x00"}}},
		{"/campaigns/" + c + "/invites/%00/revoke", nil},
		{"/account/tokens", url.Values{"name": {"bot\x00"}}},
		{"/account/tokens/%00/revoke", nil},
	} {
		resp := b.post(srv, tc.path, tc.form)
		if resp.StatusCode >= 500 || (resp.StatusCode == http.StatusSeeOther && flashOf(resp, "notice") != "") {
			t.Errorf("POST %s %v: %d, notice %q", tc.path, tc.form, resp.StatusCode, flashOf(resp, "notice"))
		}
		if msg := flashOf(resp, "error"); strings.Contains(msg, "internal") {
			t.Errorf("POST %s %v: %q", tc.path, tc.form, msg)
		}
	}
	// A sign-up named with a NUL, over the API and the form.
	if code := srv.raw(nil, "POST", "/api/signup", "application/json", `{"name":"nul\u0000","password":"correct horse battery"}`); code != 400 {
		t.Errorf("API sign-up with a NUL: %d", code)
	}
	if code := srv.raw(nil, "POST", "/signup", "application/x-www-form-urlencoded", "name=nul%00&password=correct+horse+battery&password2=correct+horse+battery"); code != 400 {
		t.Errorf("form sign-up with a NUL: %d", code)
	}
	if errs := srv.logs.errors(); len(errs) > 0 {
		t.Errorf("client mistakes logged at ERROR: %q", errs)
	}
}
