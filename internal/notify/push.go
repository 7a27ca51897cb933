package notify

import (
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"net/url"

	webpush "github.com/SherClockHolmes/webpush-go"

	"github.com/fray-vtt/fray/internal/store"
)

// Pusher sends Web Push messages (RFC 8030) encrypted for the browser
// (RFC 8291, aes128gcm) and signed with the server's VAPID key (RFC 8292).
type Pusher struct {
	// PublicKey and PrivateKey are the server's VAPID key pair, base64url
	// (GenerateVAPIDKeys; kept in the database).
	PublicKey, PrivateKey string
	// Contact is the "sub" of the VAPID token: a mailto: address or an
	// https: URL where the push service can reach the operator.
	Contact string
}

// GenerateVAPIDKeys makes a VAPID key pair (P-256), base64url.
func GenerateVAPIDKeys() (public, private string, err error) {
	private, public, err = webpush.GenerateVAPIDKeys()
	return public, private, err
}

// PushPayload is what the service worker receives, decrypted: the
// message's words and where a click leads.
type PushPayload struct {
	ID    string `json:"id"`
	Type  string `json:"type"`
	Seq   int64  `json:"seq"`
	Title string `json:"title"`
	Body  string `json:"body"`
	URL   string `json:"url"`
	Tag   string `json:"tag"` // one notification per encounter: a new one replaces the last
	// Actions are a decision's answers as the notification's buttons: a
	// click posts the answer to Act's API (/api/act/…) without opening a
	// page. Act is the notice's signed link (also where a click on the
	// notification itself leads).
	Actions []PushAction `json:"actions,omitempty"`
	Act     string       `json:"act,omitempty"`
}

// PushAction is one of a notification's buttons: Action is the answer's
// value.
type PushAction struct {
	Action string `json:"action"`
	Title  string `json:"title"`
}

// pushLimit keeps a payload well under the 4 KiB a push service takes
// after encryption.
const pushLimit = 1000

func pushPayload(m Message) ([]byte, error) {
	p := PushPayload{
		ID: m.ID, Type: string(m.Type), Seq: m.Seq, Title: clip(m.Title, 200), Body: clip(m.Text, pushLimit),
		URL: "/encounters/" + m.Encounter.ID, Tag: "fray-" + m.Encounter.ID,
	}
	if m.Act != nil {
		// The service worker opens only this site's paths: the link's.
		path := m.Act.URL
		if u, err := url.Parse(path); err == nil {
			path = u.Path
		}
		p.URL, p.Act = path, path
		for _, a := range m.Act.Answers {
			p.Actions = append(p.Actions, PushAction{Action: a.Value, Title: clip(a.Label, 40)})
		}
	}
	return json.Marshal(p)
}

// send makes one attempt at a push delivery.
func (p *Pusher) send(ctx context.Context, client *http.Client, d store.Delivery, m Message) error {
	payload, err := pushPayload(m)
	if err != nil {
		return permanent(err)
	}
	sub := &webpush.Subscription{Endpoint: d.Endpoint, Keys: webpush.Keys{P256dh: d.P256dh, Auth: d.Auth}}
	resp, err := webpush.SendNotificationWithContext(ctx, payload, sub, &webpush.Options{
		HTTPClient: client, Subscriber: p.Contact, TTL: 24 * 60 * 60, Urgency: webpush.UrgencyHigh,
		VAPIDPublicKey: p.PublicKey, VAPIDPrivateKey: p.PrivateKey,
	})
	var netErr *url.Error
	if err != nil && !errors.As(err, &netErr) {
		return permanent(err) // not sent: the subscription's keys do not work
	}
	return answer(resp, err)
}
