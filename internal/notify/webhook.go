package notify

import (
	"bytes"
	"context"
	"crypto/hmac"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/fray-vtt/fray/internal/store"
)

// Webhook formats.
const (
	FormatJSON    = "json"
	FormatDiscord = "discord"
)

// The headers of every webhook delivery (docs/protocol.md, Webhooks).
const (
	HeaderDelivery  = "X-Fray-Delivery"  // the delivery id, the same on every attempt
	HeaderType      = "X-Fray-Type"      // the notice's type
	HeaderTimestamp = "X-Fray-Timestamp" // Unix seconds when the attempt was signed
	HeaderSignature = "X-Fray-Signature" // "sha256=" + hex HMAC-SHA256 of "<timestamp>.<body>"
)

func marshal(m Message) ([]byte, error)      { return json.Marshal(m) }
func unmarshal(raw []byte, m *Message) error { return json.Unmarshal(raw, m) }

// Sign is the signature of a webhook body sent at timestamp (Unix
// seconds) with a webhook's secret: "sha256=" and the hex HMAC-SHA256 of
// the timestamp, a dot and the body. Receivers compute it again, compare
// in constant time, and refuse a timestamp far from their clock (replays).
func Sign(secret string, timestamp int64, body []byte) string {
	mac := hmac.New(sha256.New, []byte(secret))
	mac.Write([]byte(strconv.FormatInt(timestamp, 10)))
	mac.Write([]byte{'.'})
	mac.Write(body)
	return "sha256=" + hex.EncodeToString(mac.Sum(nil))
}

// JSONBody is the body of a json-format delivery: the message itself.
func JSONBody(m Message) ([]byte, error) { return json.Marshal(m) }

// Discord's limits on a message (a larger one is refused with 400).
const (
	discordContent     = 2000
	discordTitle       = 256
	discordDescription = 4096
	discordFooter      = 2048
)

// DiscordBody is the body of a discord-format delivery: a message Discord's
// "execute webhook" accepts, with no mentions allowed (a text can never
// ping @everyone) and the delivery id and type in the embed's footer.
func DiscordBody(m Message) ([]byte, error) {
	type embedFooter struct {
		Text string `json:"text"`
	}
	type embed struct {
		Title       string      `json:"title"`
		Description string      `json:"description"`
		URL         string      `json:"url,omitempty"`
		Timestamp   string      `json:"timestamp,omitempty"`
		Footer      embedFooter `json:"footer"`
	}
	type mentions struct {
		Parse []string `json:"parse"`
	}
	body := struct {
		Content         string   `json:"content"`
		Username        string   `json:"username"`
		Embeds          []embed  `json:"embeds"`
		AllowedMentions mentions `json:"allowed_mentions"`
	}{
		Content:  discordContentOf(m),
		Username: "Fray",
		Embeds: []embed{{
			Title:       clip(m.Title, discordTitle),
			Description: clip(m.Text, discordDescription),
			URL:         m.Encounter.URL,
			Timestamp:   m.Created.UTC().Format(time.RFC3339),
			Footer:      embedFooter{Text: clip(string(m.Type)+" · delivery "+m.ID, discordFooter)},
		}},
		AllowedMentions: mentions{Parse: []string{}},
	}
	return json.Marshal(body)
}

// discordContentOf is a Discord message's text: the notice, and the link
// its player acts from (only they may follow it).
func discordContentOf(m Message) string {
	link := ""
	if m.Act != nil && strings.HasPrefix(m.Act.URL, "http") {
		link = "\n[Act now](<" + m.Act.URL + ">)"
	}
	return clip(fmt.Sprintf("**%s**: %s", m.Title, m.Text), discordContent-utf8.RuneCountInString(link)) + link
}

// clip cuts s to at most n characters, marking the cut.
func clip(s string, n int) string {
	if utf8.RuneCountInString(s) <= n {
		return s
	}
	r := []rune(s)
	return string(r[:n-1]) + "…"
}

// postWebhook makes one attempt at a webhook delivery.
func postWebhook(ctx context.Context, client *http.Client, d store.Delivery, m Message) error {
	var body []byte
	var err error
	switch d.Format {
	case FormatDiscord:
		body, err = DiscordBody(m)
	case FormatJSON:
		body, err = JSONBody(m)
	default:
		return permanent(fmt.Errorf("unknown webhook format %q", d.Format))
	}
	if err != nil {
		return permanent(err)
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, d.URL, bytes.NewReader(body))
	if err != nil {
		return permanent(err)
	}
	ts := time.Now().Unix()
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("User-Agent", "Fray-Webhook/1")
	req.Header.Set(HeaderDelivery, d.ID)
	req.Header.Set(HeaderType, string(m.Type))
	req.Header.Set(HeaderTimestamp, strconv.FormatInt(ts, 10))
	req.Header.Set(HeaderSignature, Sign(d.Secret, ts, body))
	return answer(client.Do(req))
}

// answer judges a target's HTTP answer: 2xx delivered; 408, 425, 429 and
// 5xx (and no answer at all) tried again, after Retry-After when given;
// any other status failed for good, 404 and 410 as gone.
func answer(resp *http.Response, err error) error {
	if err != nil {
		if errors.Is(err, ErrRefusedAddress) {
			return permanent(err)
		}
		return err
	}
	defer resp.Body.Close()
	_, _ = io.Copy(io.Discard, io.LimitReader(resp.Body, 64<<10))
	code := resp.StatusCode
	if code >= 200 && code < 300 {
		return nil
	}
	err = fmt.Errorf("the target answered %s", resp.Status)
	switch {
	case code == http.StatusRequestTimeout || code == http.StatusTooEarly || code == http.StatusTooManyRequests || code >= 500:
		f := &failure{err: err}
		if s, perr := strconv.Atoi(strings.TrimSpace(resp.Header.Get("Retry-After"))); perr == nil && s > 0 {
			f.retryAfter = time.Duration(s) * time.Second
		}
		return f
	case code == http.StatusNotFound || code == http.StatusGone:
		return &failure{err: err, permanent: true, gone: true}
	}
	return permanent(err)
}
