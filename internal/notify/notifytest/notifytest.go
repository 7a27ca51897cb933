// Package notifytest receives notices as their targets do, for tests: a
// browser's push subscription whose push service decrypts what it is sent
// (RFC 8291) after checking the sender's VAPID token (RFC 8292), and a
// tiny SMTP server that keeps every e-mail.
package notifytest

import (
	"bufio"
	"bytes"
	"crypto/aes"
	"crypto/cipher"
	"crypto/ecdh"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/hkdf"
	"crypto/rand"
	"crypto/sha256"
	"encoding/base64"
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math/big"
	"net"
	"net/http"
	"net/http/httptest"
	"net/mail"
	"net/textproto"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/fray-vtt/fray/internal/notify"
)

// Browser is a push subscription's two ends: the browser's keys, and a
// push service endpoint that decrypts what it is sent (RFC 8291) after
// checking the sender's VAPID token (RFC 8292).
type Browser struct {
	key  *ecdh.PrivateKey
	auth []byte
	// Srv is the push service endpoint: subscribe with Srv.URL.
	Srv *httptest.Server

	mu       sync.Mutex
	got      []notify.PushPayload
	raw      []string // each payload as sent, decrypted
	requests int
	vapidKey string // the "k" of every request (one server key)
}

func NewBrowser(t testing.TB, status int) *Browser {
	t.Helper()
	key, err := ecdh.P256().GenerateKey(rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	b := &Browser{key: key, auth: make([]byte, 16)}
	_, _ = rand.Read(b.auth)
	b.Srv = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		b.mu.Lock()
		defer b.mu.Unlock()
		b.requests++
		if status != http.StatusCreated {
			w.WriteHeader(status)
			return
		}
		if err := b.checkVAPID(r); err != nil {
			t.Errorf("VAPID: %v", err)
			w.WriteHeader(http.StatusUnauthorized)
			return
		}
		if r.Header.Get("Content-Encoding") != "aes128gcm" || r.Header.Get("TTL") == "" {
			t.Errorf("push headers %v", r.Header)
		}
		plain, err := b.decrypt(body)
		if err != nil {
			t.Errorf("decrypt: %v", err)
			w.WriteHeader(http.StatusBadRequest)
			return
		}
		var p notify.PushPayload
		if err := json.Unmarshal(plain, &p); err != nil {
			t.Errorf("payload %q: %v", plain, err)
		}
		b.got, b.raw = append(b.got, p), append(b.raw, string(plain))
		w.WriteHeader(http.StatusCreated)
	}))
	t.Cleanup(b.Srv.Close)
	return b
}

func (b *Browser) Keys() (p256dh, auth string) {
	return base64.RawURLEncoding.EncodeToString(b.key.PublicKey().Bytes()), base64.RawURLEncoding.EncodeToString(b.auth)
}

// decrypt opens an aes128gcm body (RFC 8188) encrypted for this browser
// (RFC 8291): the header carries the salt, the record size and the
// sender's one-time public key.
func (b *Browser) decrypt(body []byte) ([]byte, error) {
	if len(body) < 21 {
		return nil, errors.New("short body")
	}
	salt, rs, idlen := body[:16], binary.BigEndian.Uint32(body[16:20]), int(body[20])
	if idlen != 65 || len(body) < 21+idlen {
		return nil, fmt.Errorf("key id of %d bytes", idlen)
	}
	senderPub, err := ecdh.P256().NewPublicKey(body[21 : 21+idlen])
	if err != nil {
		return nil, err
	}
	record := body[21+idlen:]
	if uint32(len(record)) > rs {
		return nil, fmt.Errorf("record of %d bytes over its size %d", len(record), rs)
	}
	secret, err := b.key.ECDH(senderPub)
	if err != nil {
		return nil, err
	}
	info := append(append([]byte("WebPush: info\x00"), b.key.PublicKey().Bytes()...), senderPub.Bytes()...)
	ikm, err := hkdf.Key(sha256.New, secret, b.auth, string(info), 32)
	if err != nil {
		return nil, err
	}
	prk, err := hkdf.Extract(sha256.New, ikm, salt)
	if err != nil {
		return nil, err
	}
	cek, err := hkdf.Expand(sha256.New, prk, "Content-Encoding: aes128gcm\x00", 16)
	if err != nil {
		return nil, err
	}
	nonce, err := hkdf.Expand(sha256.New, prk, "Content-Encoding: nonce\x00", 12)
	if err != nil {
		return nil, err
	}
	block, err := aes.NewCipher(cek)
	if err != nil {
		return nil, err
	}
	gcm, err := cipher.NewGCM(block)
	if err != nil {
		return nil, err
	}
	plain, err := gcm.Open(nil, nonce, record, nil)
	if err != nil {
		return nil, err
	}
	// The last record ends with the delimiter 2, then zero padding.
	end := bytes.LastIndexFunc(plain, func(r rune) bool { return r != 0 })
	if end < 0 || plain[end] != 2 {
		return nil, errors.New("no last-record delimiter")
	}
	return plain[:end], nil
}

// checkVAPID verifies the request's "vapid t=<JWT>, k=<key>" header: an
// ES256 token signed by k, for this endpoint's origin, not expired, with
// a contact.
func (b *Browser) checkVAPID(r *http.Request) error {
	h := r.Header.Get("Authorization")
	rest, ok := strings.CutPrefix(h, "vapid ")
	if !ok {
		return fmt.Errorf("authorization %q", h)
	}
	var tok, k string
	for _, part := range strings.Split(rest, ",") {
		part = strings.TrimSpace(part)
		if v, ok := strings.CutPrefix(part, "t="); ok {
			tok = v
		}
		if v, ok := strings.CutPrefix(part, "k="); ok {
			k = v
		}
	}
	raw, err := base64.RawURLEncoding.DecodeString(k)
	if err != nil {
		return err
	}
	pub, err := ecdsa.ParseUncompressedPublicKey(elliptic.P256(), raw)
	if err != nil {
		return err
	}
	parts := strings.Split(tok, ".")
	if len(parts) != 3 {
		return fmt.Errorf("token %q", tok)
	}
	sig, err := base64.RawURLEncoding.DecodeString(parts[2])
	if err != nil || len(sig) != 64 {
		return fmt.Errorf("signature of %d bytes", len(sig))
	}
	digest := sha256.Sum256([]byte(parts[0] + "." + parts[1]))
	if !ecdsa.Verify(pub, digest[:], new(big.Int).SetBytes(sig[:32]), new(big.Int).SetBytes(sig[32:])) {
		return errors.New("the token's signature does not verify")
	}
	claimsJSON, err := base64.RawURLEncoding.DecodeString(parts[1])
	if err != nil {
		return err
	}
	var claims struct {
		Aud string `json:"aud"`
		Exp int64  `json:"exp"`
		Sub string `json:"sub"`
	}
	if err := json.Unmarshal(claimsJSON, &claims); err != nil {
		return err
	}
	if claims.Aud != "http://"+r.Host || claims.Exp < time.Now().Unix() || claims.Exp > time.Now().Add(25*time.Hour).Unix() || claims.Sub == "" {
		return fmt.Errorf("claims %+v", claims)
	}
	if b.vapidKey != "" && b.vapidKey != k {
		return errors.New("the server's key changed")
	}
	b.vapidKey = k
	return nil
}

func (b *Browser) Payloads() []notify.PushPayload {
	b.mu.Lock()
	defer b.mu.Unlock()
	return append([]notify.PushPayload(nil), b.got...)
}

// SMTPServer is a tiny SMTP server (RFC 5321, no extensions) that keeps
// every message it is given.
type SMTPServer struct {
	ln   net.Listener
	mu   sync.Mutex
	msgs []*mail.Message
	raw  []string
}

func NewSMTPServer(t testing.TB) *SMTPServer {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	s := &SMTPServer{ln: ln}
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

func (s *SMTPServer) serve(c net.Conn) {
	defer c.Close()
	_ = c.SetDeadline(time.Now().Add(30 * time.Second))
	tp := textproto.NewConn(c)
	reply := func(line string) { _ = tp.PrintfLine("%s", line) }
	reply("220 localhost ESMTP test")
	for {
		line, err := tp.ReadLine()
		if err != nil {
			return
		}
		verb := strings.ToUpper(strings.Fields(line + " x")[0])
		switch verb {
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
			m, err := mail.ReadMessage(bufio.NewReader(bytes.NewReader(data)))
			if err == nil {
				s.mu.Lock()
				s.msgs, s.raw = append(s.msgs, m), append(s.raw, string(data))
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

func (s *SMTPServer) Messages() ([]*mail.Message, []string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]*mail.Message(nil), s.msgs...), append([]string(nil), s.raw...)
}

// Raw is every payload the browser was sent, decrypted, as sent.
func (b *Browser) Raw() []string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return append([]string(nil), b.raw...)
}

// Requests is how many requests the push service endpoint got.
func (b *Browser) Requests() int {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.requests
}

// Addr is the SMTP server's address (host:port).
func (s *SMTPServer) Addr() string { return s.ln.Addr().String() }
