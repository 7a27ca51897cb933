package notify

import (
	"context"
	"crypto/rand"
	"encoding/base64"
	"encoding/hex"
	"net/mail"
	"strings"
	"unicode/utf8"

	"github.com/fray-vtt/fray/internal/fray"
	"github.com/fray-vtt/fray/internal/store"
)

// ServiceStore is what the settings need of the database; *store.DB
// provides it.
type ServiceStore interface {
	CreateWebhook(ctx context.Context, w store.Webhook, createdBy string) (store.Webhook, error)
	Webhooks(ctx context.Context, campaignID string) ([]store.Webhook, error)
	WebhookStats(ctx context.Context, campaignID string) (map[string]store.WebhookStats, error)
	DeleteWebhook(ctx context.Context, campaignID, id string) error
	NoticeSettings(ctx context.Context, userID string) ([]store.NoticeSetting, error)
	SetNoticeSetting(ctx context.Context, campaignID, userID string, push, email bool) error
	Email(ctx context.Context, userID string) (string, error)
	SetEmail(ctx context.Context, userID, email string) error
	AddPushSubscription(ctx context.Context, s store.PushSubscription) (store.PushSubscription, error)
	PushSubscriptions(ctx context.Context, userID string) ([]store.PushSubscription, error)
	DeletePushSubscription(ctx context.Context, userID, id, endpoint string) error
}

// ServiceConfig configures a Service.
type ServiceConfig struct {
	Guard Guard
	// EmailOffered: the server can send e-mail (an SMTP server is
	// configured); otherwise e-mail is not offered.
	EmailOffered bool
	// PushKey is the server's VAPID public key (base64url), which browsers
	// subscribe with; "" when push is not offered.
	PushKey string
}

// Service is what members change about notices: a campaign's webhooks (its
// GMs), and each member's e-mail address, browsers and channels. Handlers
// check who may do what before calling it.
type Service struct {
	db  ServiceStore
	cfg ServiceConfig
}

// NewService returns a Service.
func NewService(db ServiceStore, cfg ServiceConfig) *Service { return &Service{db: db, cfg: cfg} }

// CreateWebhook adds a webhook to a campaign and returns it with its new
// signing secret. The URL must be a public http(s) address (see Guard)
// and the format FormatDiscord or FormatJSON.
func (s *Service) CreateWebhook(ctx context.Context, campaignID, userID, rawURL, format string) (store.Webhook, error) {
	if format != FormatDiscord && format != FormatJSON {
		return store.Webhook{}, fray.Errorf(fray.EINVALID, `a webhook's format is "discord" or "json"`)
	}
	if _, err := s.cfg.Guard.CheckURL(ctx, "the webhook's URL", rawURL); err != nil {
		return store.Webhook{}, err
	}
	var b [32]byte
	if _, err := rand.Read(b[:]); err != nil {
		return store.Webhook{}, err
	}
	return s.db.CreateWebhook(ctx, store.Webhook{CampaignID: campaignID, URL: rawURL, Format: format, Secret: hex.EncodeToString(b[:])}, userID)
}

// WebhookStatus is a webhook as its GMs see it after it was made: without
// its secret, with what became of its deliveries.
type WebhookStatus struct {
	store.Webhook
	store.WebhookStats
}

// Webhooks lists a campaign's webhooks, oldest first, without their
// secrets (shown once, by CreateWebhook).
func (s *Service) Webhooks(ctx context.Context, campaignID string) ([]WebhookStatus, error) {
	hooks, err := s.db.Webhooks(ctx, campaignID)
	if err != nil {
		return nil, err
	}
	stats, err := s.db.WebhookStats(ctx, campaignID)
	if err != nil {
		return nil, err
	}
	out := make([]WebhookStatus, 0, len(hooks))
	for _, h := range hooks {
		h.Secret = ""
		out = append(out, WebhookStatus{Webhook: h, WebhookStats: stats[h.ID]})
	}
	return out, nil
}

// DeleteWebhook removes a campaign's webhook.
func (s *Service) DeleteWebhook(ctx context.Context, campaignID, id string) error {
	return s.db.DeleteWebhook(ctx, campaignID, id)
}

// Settings are one member's notice settings.
type Settings struct {
	Email        string
	EmailOffered bool
	// PushKey is the VAPID public key browsers subscribe with; "" when
	// push is not offered.
	PushKey   string
	Browsers  int // browsers subscribed to push
	Campaigns []store.NoticeSetting
}

// Settings returns userID's notice settings.
func (s *Service) Settings(ctx context.Context, userID string) (Settings, error) {
	email, err := s.db.Email(ctx, userID)
	if err != nil {
		return Settings{}, err
	}
	subs, err := s.db.PushSubscriptions(ctx, userID)
	if err != nil {
		return Settings{}, err
	}
	cs, err := s.db.NoticeSettings(ctx, userID)
	if err != nil {
		return Settings{}, err
	}
	return Settings{Email: email, EmailOffered: s.cfg.EmailOffered, PushKey: s.cfg.PushKey, Browsers: len(subs), Campaigns: cs}, nil
}

// SetChannels records the channels userID wants campaignID's notices on.
// E-mail is refused when the server sends none, or the member has no
// address; push when it is not offered.
func (s *Service) SetChannels(ctx context.Context, userID, campaignID string, push, email bool) error {
	if email && !s.cfg.EmailOffered {
		return fray.Errorf(fray.EINVALID, "this server sends no e-mail")
	}
	if push && s.cfg.PushKey == "" {
		return fray.Errorf(fray.EINVALID, "this server sends no push notifications")
	}
	if email {
		addr, err := s.db.Email(ctx, userID)
		if err != nil {
			return err
		}
		if addr == "" {
			return fray.Errorf(fray.EINVALID, "add an e-mail address first")
		}
	}
	return s.db.SetNoticeSetting(ctx, campaignID, userID, push, email)
}

// SetEmail sets userID's e-mail address ("" removes it).
func (s *Service) SetEmail(ctx context.Context, userID, email string) error {
	email = strings.TrimSpace(email)
	if email != "" {
		a, err := mail.ParseAddress(email)
		if err != nil || a.Address != email || a.Name != "" || utf8.RuneCountInString(email) > store.MaxEmailLen {
			return fray.Errorf(fray.EINVALID, "%q is not an e-mail address (name@example.com)", clip(email, 80))
		}
	}
	return s.db.SetEmail(ctx, userID, email)
}

// Subscribe keeps a browser's push subscription for userID: its endpoint
// (a public https URL, see Guard) and its keys as the browser gives them
// (base64url: p256dh an uncompressed P-256 point, auth 16 bytes).
func (s *Service) Subscribe(ctx context.Context, userID, endpoint, p256dh, auth string) error {
	if s.cfg.PushKey == "" {
		return fray.Errorf(fray.EINVALID, "this server sends no push notifications")
	}
	if _, err := s.cfg.Guard.CheckURL(ctx, "the push endpoint", endpoint); err != nil {
		return err
	}
	if k, err := decodeKey(p256dh); err != nil || len(k) != 65 || k[0] != 4 {
		return fray.Errorf(fray.EINVALID, "keys.p256dh must be a P-256 public key (65 bytes, base64url)")
	}
	if k, err := decodeKey(auth); err != nil || len(k) != 16 {
		return fray.Errorf(fray.EINVALID, "keys.auth must be 16 bytes, base64url")
	}
	_, err := s.db.AddPushSubscription(ctx, store.PushSubscription{UserID: userID, Endpoint: endpoint, P256dh: p256dh, Auth: auth})
	return err
}

// Unsubscribe forgets one of userID's browsers, by its endpoint.
func (s *Service) Unsubscribe(ctx context.Context, userID, endpoint string) error {
	if endpoint == "" {
		return fray.Errorf(fray.EINVALID, "which endpoint?")
	}
	return s.db.DeletePushSubscription(ctx, userID, "", endpoint)
}

// decodeKey decodes base64url with or without padding.
func decodeKey(s string) ([]byte, error) {
	return base64.RawURLEncoding.DecodeString(strings.TrimRight(s, "="))
}
