package server

import (
	"net/http/httptest"
	"testing"
)

func TestLocalPath(t *testing.T) {
	for _, tc := range []struct{ next, want string }{
		{"/campaigns/abc", "/campaigns/abc"},
		{"/encounters/x?as=brak&since=3", "/encounters/x?as=brak&since=3"},
		{"/encounters/x/log?who=a%20b", "/encounters/x/log?who=a%20b"},
		{"/", "/"},
		{"", "/"},
		{"campaigns", "/"},
		{"//evil.example", "/"},
		{"///evil.example", "/"},
		{"/\\evil.example", "/"},
		{"/\t/evil.example", "/"}, // what ?next=/%09/evil.example decodes to
		{"/\n/evil.example", "/"},
		{"/\r/evil.example", "/"},
		{"/ /evil.example", "/"},
		{"/%5Cevil.example", "/"}, // a backslash, escaped
		{"/%2F/evil.example", "/"},
		{"https://evil.example/", "/"},
		{"javascript:alert(1)", "/"},
		{"/\x7f/evil.example", "/"},
		{"/café", "/caf%C3%A9"},
	} {
		if got := localPath(tc.next); got != tc.want {
			t.Errorf("localPath(%q) = %q, want %q", tc.next, got, tc.want)
		}
	}
}

func TestClientIP(t *testing.T) {
	proxies, err := ParseTrustedProxies(" 10.0.0.0/8, 127.0.0.1 ,::1")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := ParseTrustedProxies("10.0.0.0/8,not-an-ip"); err == nil {
		t.Fatal("a bad proxy list was accepted")
	}
	behind := &Server{Config: Config{TrustedProxies: proxies}}
	direct := &Server{}
	for _, tc := range []struct {
		remote string
		xff    []string
		srv    *Server
		want   string
	}{
		{"203.0.113.9:5000", nil, direct, "203.0.113.9"},
		{"203.0.113.9:5000", []string{"198.51.100.1"}, direct, "203.0.113.9"},          // no trusted proxy: the header is ignored
		{"127.0.0.1:5000", []string{"198.51.100.1"}, direct, "127.0.0.1"},              // idem
		{"127.0.0.1:5000", []string{"198.51.100.1"}, behind, "198.51.100.1"},           // one proxy
		{"127.0.0.1:5000", []string{"6.6.6.6, 198.51.100.1"}, behind, "198.51.100.1"},  // the client's own entry is not believed
		{"127.0.0.1:5000", []string{"198.51.100.1, 10.1.2.3"}, behind, "198.51.100.1"}, // two proxies
		{"127.0.0.1:5000", []string{"198.51.100.1", "10.1.2.3"}, behind, "198.51.100.1"},
		{"203.0.113.9:5000", []string{"198.51.100.1"}, behind, "203.0.113.9"}, // an untrusted peer's header is ignored
		{"127.0.0.1:5000", []string{"garbage, 10.1.2.3"}, behind, "10.1.2.3"},
		{"127.0.0.1:5000", nil, behind, "127.0.0.1"},
		{"[::1]:5000", []string{"2001:db8::7"}, behind, "2001:db8::7"},
	} {
		r := httptest.NewRequest("POST", "/login", nil)
		r.RemoteAddr = tc.remote
		for _, h := range tc.xff {
			r.Header.Add("X-Forwarded-For", h)
		}
		if got := tc.srv.clientIP(r); got != tc.want {
			t.Errorf("%s with X-Forwarded-For %q (trusted %v) = %s, want %s", tc.remote, tc.xff, tc.srv.TrustedProxies, got, tc.want)
		}
	}
}
