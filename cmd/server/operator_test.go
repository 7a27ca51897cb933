package main

import (
	"bufio"
	"bytes"
	"context"
	"io"
	"net"
	"net/http"
	"net/http/cookiejar"
	"net/mail"
	"net/textproto"
	"net/url"
	"regexp"
	"strings"
	"sync"
	"testing"

	"github.com/jackc/pgx/v5"

	"github.com/fray-vtt/fray/internal/patience"
	"github.com/fray-vtt/fray/internal/testdb"
)

// The operator's account commands: list shows every account and its state;
// disable stops a log-in with the right password (with a message saying
// so), stops its API token, and closes its open sockets — signed in by
// cookie and by token — at once; enable lets it in again; reset-password
// prints a new password that works while the old one, and every session
// and token, stop.
func TestOperatorUserCommands(t *testing.T) {
	dbURL := testdb.URL(t)
	srv := startServer(t, dbURL)
	env := map[string]string{"DATABASE_URL": dbURL, "FRAY_LOG_LEVEL": "error"}
	tb := srv.newTable()
	player := tb.player

	out, err := runCmd(t, env, "user", "list")
	if err != nil || !regexp.MustCompile(`(?m)^player-one\s+enabled\s`).MatchString(out) || !strings.Contains(out, "gamemaster") {
		t.Fatalf("user list: %v\n%s", err, out)
	}

	byToken := srv.withUser(player).dial(tb.id, "")
	byToken.expect("snapshot")
	cookie := srv.login(player.Name)
	byCookie := cookie.dial(srv, tb.id, "")
	byCookie.expect("snapshot")

	if out, err := runCmd(t, env, "user", "disable", "Player-One"); err != nil || !strings.Contains(out, "disabled player-one") {
		t.Fatalf("user disable: %v\n%s", err, out)
	}
	for name, c := range map[string]*wsClient{"token": byToken, "cookie": byCookie} {
		if code := c.closeWithin(accessDeadline, 1<<40); code != closeSignedOut && code != closeAccessRevoked {
			t.Errorf("the socket signed in by %s closed with %d", name, code)
		}
	}
	if code, page := formPost(t, srv.URL+"/login", url.Values{"name": {player.Name}, "password": {testPassword}}); code != http.StatusForbidden || !strings.Contains(page, "disabled") {
		t.Errorf("log-in of a disabled account with its password: %d, says disabled: %v", code, strings.Contains(page, "disabled"))
	}
	if code, page := formPost(t, srv.URL+"/login", url.Values{"name": {player.Name}, "password": {"not the password"}}); code != http.StatusUnauthorized || strings.Contains(page, "disabled") {
		t.Errorf("a wrong password for a disabled account must look like any wrong password: %d", code)
	}
	if code := srv.raw(player, "GET", "/api/me", "", ""); code != http.StatusUnauthorized {
		t.Errorf("a disabled account's API token: %d", code)
	}
	if out, _ := runCmd(t, env, "user", "list"); !regexp.MustCompile(`(?m)^player-one\s+disabled `).MatchString(out) {
		t.Errorf("user list after disable:\n%s", out)
	}

	if out, err := runCmd(t, env, "user", "enable", "player-one"); err != nil || !strings.Contains(out, "enabled player-one") {
		t.Fatalf("user enable: %v\n%s", err, out)
	}
	srv.login(player.Name)
	if code := srv.raw(player, "GET", "/api/me", "", ""); code != http.StatusOK {
		t.Errorf("the API token after enable: %d", code)
	}

	out, err = runCmd(t, env, "user", "reset-password", "player-one")
	m := regexp.MustCompile(`new password for player-one: (\S+)`).FindStringSubmatch(out)
	if err != nil || m == nil {
		t.Fatalf("reset-password: %v\n%s", err, out)
	}
	if code, _ := formPost(t, srv.URL+"/login", url.Values{"name": {player.Name}, "password": {testPassword}}); code != http.StatusUnauthorized {
		t.Errorf("the old password after reset-password: %d", code)
	}
	if code, _ := formPost(t, srv.URL+"/login", url.Values{"name": {player.Name}, "password": {m[1]}}); code != http.StatusSeeOther {
		t.Errorf("the printed password: %d", code)
	}
	if code := srv.raw(player, "GET", "/api/me", "", ""); code != http.StatusUnauthorized {
		t.Errorf("the API token after reset-password: %d", code)
	}

	if _, err := runCmd(t, env, "user", "disable", "nobody-here"); err == nil || !strings.Contains(err.Error(), "not found") {
		t.Errorf("disable of an unknown account: %v", err)
	}
	if _, err := runCmd(t, env, "user", "disable"); err == nil {
		t.Error("disable without a name was accepted")
	}
	if _, err := runCmd(t, env, "user", "promote", "player-one"); err == nil {
		t.Error("an unknown action was accepted")
	}
}

// server status names every campaign with its encounters, events and
// bytes, largest first.
func TestStatusShowsDiskUseByCampaign(t *testing.T) {
	dbURL := testdb.URL(t)
	srv := startServer(t, dbURL)
	srv.newTable()
	gm := srv.signup("other-gm")
	var c struct{ ID string }
	if code := srv.withUser(gm).do("POST", "/api/campaigns", map[string]string{"name": "Empty one"}, &c); code != http.StatusCreated {
		t.Fatalf("create campaign: %d", code)
	}
	out, err := runCmd(t, map[string]string{"DATABASE_URL": dbURL, "FRAY_LOG_LEVEL": "error"}, "status")
	if err != nil {
		t.Fatalf("status: %v\n%s", err, out)
	}
	lines := strings.Split(out, "\n")
	var rows []string
	for _, l := range lines {
		if regexp.MustCompile(`\([0-9a-f-]{36}\)$`).MatchString(l) {
			rows = append(rows, l)
		}
	}
	if !strings.HasPrefix(out, "database: ") || len(rows) != 2 || !strings.Contains(rows[1], "Empty one ("+c.ID+")") ||
		!regexp.MustCompile(`^\s*1\s+\d+\s+[1-9][\d.]* KiB`).MatchString(rows[0]) || !regexp.MustCompile(`^\s*0\s+0\s+0 B`).MatchString(rows[1]) {
		t.Errorf("status:\n%s", out)
	}
}

// Password reset by e-mail: the form's answer is the same, byte for byte,
// for an address no account has; the link arrives by mail (an SMTP server
// in the test receives it), opens a form without using it, sets the new
// password once and signs the browser in; used, or expired, it is refused.
// The unknown address got no mail.
func TestPasswordResetByEmail(t *testing.T) {
	dbURL := testdb.URL(t)
	smtp := newMailbox(t)
	addr := freeAddr(t)
	srv := startServerEnv(t, dbURL, map[string]string{"FRAY_ADDR": addr, "FRAY_PUBLIC_URL": "http://" + addr,
		"FRAY_SMTP_URL": "smtp://" + smtp.addr(), "FRAY_MAIL_FROM": "Fray <fray@example.com>"})
	u := srv.signup("forgetful")
	if code := srv.withUser(u).do("PUT", "/api/notifications/email", map[string]string{"email": "Forgetful@Example.com"}, nil); code != http.StatusNoContent && code != http.StatusOK {
		t.Fatalf("set e-mail: %d", code)
	}

	unknownCode, unknownPage := formPost(t, srv.URL+"/reset", url.Values{"email": {"nobody@example.com"}})
	knownCode, knownPage := formPost(t, srv.URL+"/reset", url.Values{"email": {"forgetful@example.com"}})
	if unknownCode != http.StatusOK || knownCode != unknownCode || knownPage != unknownPage {
		t.Fatalf("answers differ: unknown %d, known %d, same page: %v", unknownCode, knownCode, knownPage == unknownPage)
	}
	if !strings.Contains(knownPage, "If an account on this server has that address") {
		t.Errorf("the answer: %s", knownPage)
	}
	msgs := smtp.wait(t, 1)
	body, _ := io.ReadAll(msgs[0].Body)
	link := regexp.MustCompile(`http://\S+/reset/[A-Za-z0-9_-]{43}`).FindString(string(body))
	if link == "" || !strings.HasPrefix(link, "http://"+addr+"/reset/") || msgs[0].Header.Get("To") != "<forgetful@example.com>" && !strings.Contains(msgs[0].Header.Get("To"), "forgetful@example.com") {
		t.Fatalf("the mail (to %q): %s", msgs[0].Header.Get("To"), body)
	}

	// Opening it twice (a mail scanner, then the person) uses nothing.
	for range 2 {
		if code, page := get(t, link); code != http.StatusOK || !strings.Contains(page, `id="reset-user">forgetful<`) {
			t.Fatalf("opening the link: %d", code)
		}
	}
	if code, page := formPost(t, link, url.Values{"password": {"violet otter mosaic"}, "password2": {"violet otter mosaik"}}); code != http.StatusBadRequest || !strings.Contains(page, "differ") {
		t.Errorf("two different passwords: %d", code)
	}
	jar, _ := cookiejar.New(nil)
	client := &http.Client{Jar: jar, CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
	resp, err := client.PostForm(link, url.Values{"password": {"violet otter mosaic"}, "password2": {"violet otter mosaic"}})
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusSeeOther || len(jar.Cookies(mustURL(srv.URL))) == 0 {
		t.Fatalf("setting the password: %d", resp.StatusCode)
	}
	if code, _ := formPost(t, link, url.Values{"password": {"another fine phrase"}, "password2": {"another fine phrase"}}); code != http.StatusNotFound {
		t.Errorf("the link used a second time: %d", code)
	}
	if code, _ := get(t, link); code != http.StatusNotFound {
		t.Errorf("opening a used link: %d", code)
	}
	if code, _ := formPost(t, srv.URL+"/login", url.Values{"name": {"forgetful"}, "password": {testPassword}}); code != http.StatusUnauthorized {
		t.Errorf("the old password: %d", code)
	}
	if code, _ := formPost(t, srv.URL+"/login", url.Values{"name": {"forgetful"}, "password": {"violet otter mosaic"}}); code != http.StatusSeeOther {
		t.Errorf("the new password: %d", code)
	}

	// A second link, expired before use.
	formPost(t, srv.URL+"/reset", url.Values{"email": {"forgetful@example.com"}})
	msgs = smtp.wait(t, 2)
	body, _ = io.ReadAll(msgs[1].Body)
	link = regexp.MustCompile(`http://\S+/reset/[A-Za-z0-9_-]{43}`).FindString(string(body))
	conn, err := pgx.Connect(context.Background(), dbURL)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close(context.Background())
	if _, err := conn.Exec(context.Background(), `UPDATE password_resets SET expires_at = now() - interval '1 second' WHERE used_at IS NULL`); err != nil {
		t.Fatal(err)
	}
	if code, _ := get(t, link); code != http.StatusNotFound {
		t.Errorf("an expired link: %d", code)
	}
	if code, _ := formPost(t, link, url.Values{"password": {"another fine phrase"}, "password2": {"another fine phrase"}}); code != http.StatusNotFound {
		t.Errorf("an expired link, posted: %d", code)
	}
	if n := len(smtp.messages()); n != 2 {
		t.Errorf("%d mails sent, want 2 (none to the unknown address)", n)
	}
}

// formPost posts a form without cookies or redirects and returns the
// status and page.
func formPost(t *testing.T, u string, form url.Values) (int, string) {
	t.Helper()
	client := &http.Client{CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
	resp, err := client.PostForm(u, form)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	page, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, string(page)
}

func get(t *testing.T, u string) (int, string) {
	t.Helper()
	resp, err := http.Get(u)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	page, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, string(page)
}

// mailbox is a tiny SMTP server (RFC 5321, no extensions) that keeps every
// message it is given.
type mailbox struct {
	ln   net.Listener
	mu   sync.Mutex
	msgs []*mail.Message
}

func newMailbox(t *testing.T) *mailbox {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	s := &mailbox{ln: ln}
	t.Cleanup(func() { ln.Close() })
	go func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			go s.serve(c)
		}
	}()
	return s
}

func (s *mailbox) addr() string { return s.ln.Addr().String() }

func (s *mailbox) serve(c net.Conn) {
	defer c.Close()
	_ = c.SetDeadline(patience.Deadline())
	tp := textproto.NewConn(c)
	reply := func(line string) { _ = tp.PrintfLine("%s", line) }
	reply("220 localhost ESMTP test")
	for {
		line, err := tp.ReadLine()
		if err != nil {
			return
		}
		switch strings.ToUpper(strings.Fields(line + " x")[0]) {
		case "EHLO", "HELO":
			reply("250 localhost")
		case "MAIL", "RCPT", "NOOP", "RSET":
			reply("250 OK")
		case "DATA":
			reply("354 go ahead")
			data, err := tp.ReadDotBytes()
			if err != nil {
				return
			}
			if m, err := mail.ReadMessage(bufio.NewReader(bytes.NewReader(data))); err == nil {
				s.mu.Lock()
				s.msgs = append(s.msgs, m)
				s.mu.Unlock()
			}
			reply("250 queued")
		case "QUIT":
			reply("221 bye")
			return
		default:
			reply("502 not implemented")
		}
	}
}

func (s *mailbox) messages() []*mail.Message {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]*mail.Message(nil), s.msgs...)
}

// wait returns the messages once there are n.
func (s *mailbox) wait(t *testing.T, n int) []*mail.Message {
	t.Helper()
	patience.Until(t, "the mail", func() bool { return len(s.messages()) >= n })
	return s.messages()
}
