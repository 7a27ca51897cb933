package store

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/fray-vtt/fray/internal/fray"
)

// A member's channels for notices (migration 0011): an e-mail address on
// the account, the browsers they subscribed to Web Push, and per campaign
// which of the two they want.

// NoticeSetting is a member's choice of channels for one campaign.
type NoticeSetting struct {
	CampaignID   string
	CampaignName string
	Role         string
	Push, Email  bool
}

// NoticeSettings lists every campaign userID belongs to, by name, with the
// channels they chose for it (none, for a campaign never set).
func (db *DB) NoticeSettings(ctx context.Context, userID string) ([]NoticeSetting, error) {
	if !validUUID(userID) {
		return nil, userNotFound(userID)
	}
	rows, _ := db.pool.Query(ctx, `
		SELECT c.id::text, c.name, m.role, COALESCE(s.push, false), COALESCE(s.email, false)
		FROM campaign_members m JOIN campaigns c ON c.id = m.campaign_id
		LEFT JOIN notice_settings s ON s.campaign_id = m.campaign_id AND s.user_id = m.user_id
		WHERE m.user_id = $1::uuid ORDER BY lower(c.name), c.id`, userID)
	ss, err := pgx.CollectRows(rows, func(r pgx.CollectableRow) (NoticeSetting, error) {
		var s NoticeSetting
		err := r.Scan(&s.CampaignID, &s.CampaignName, &s.Role, &s.Push, &s.Email)
		return s, err
	})
	if err != nil {
		return nil, fmt.Errorf("store: notice settings: %w", err)
	}
	return ss, nil
}

// SetNoticeSetting records the channels userID wants campaignID's notices
// on. Someone who is not a member is ENOTFOUND (campaign not found).
func (db *DB) SetNoticeSetting(ctx context.Context, campaignID, userID string, push, email bool) error {
	if !validUUID(campaignID) || !validUUID(userID) {
		return campaignNotFound(campaignID)
	}
	_, err := db.pool.Exec(ctx, `
		INSERT INTO notice_settings (campaign_id, user_id, push, email) VALUES ($1::uuid, $2::uuid, $3, $4)
		ON CONFLICT (campaign_id, user_id) DO UPDATE SET push = EXCLUDED.push, email = EXCLUDED.email`,
		campaignID, userID, push, email)
	if pgCode(err) == sqlForeignKeyViolation {
		return campaignNotFound(campaignID)
	}
	if err != nil {
		return fmt.Errorf("store: set notice setting: %w", err)
	}
	return nil
}

// MaxEmailLen is the longest e-mail address kept.
const MaxEmailLen = 254

// Email returns userID's e-mail address, "" for none.
func (db *DB) Email(ctx context.Context, userID string) (string, error) {
	if !validUUID(userID) {
		return "", userNotFound(userID)
	}
	var email *string
	err := db.pool.QueryRow(ctx, `SELECT email FROM users WHERE id = $1::uuid`, userID).Scan(&email)
	if errors.Is(err, pgx.ErrNoRows) {
		return "", userNotFound(userID)
	}
	if err != nil {
		return "", fmt.Errorf("store: email: %w", err)
	}
	if email == nil {
		return "", nil
	}
	return *email, nil
}

// SetEmail sets userID's e-mail address (the caller checked its form); ""
// removes it, and with it the e-mails still waiting.
func (db *DB) SetEmail(ctx context.Context, userID, email string) error {
	if !validUUID(userID) {
		return userNotFound(userID)
	}
	if len(email) > MaxEmailLen || !validText(email) {
		return fray.Errorf(fray.EINVALID, "an e-mail address has at most %d characters", MaxEmailLen)
	}
	tag, err := db.pool.Exec(ctx, `UPDATE users SET email = NULLIF($2, '') WHERE id = $1::uuid`, userID, email)
	if err != nil {
		return fmt.Errorf("store: set email: %w", err)
	}
	if tag.RowsAffected() == 0 {
		return userNotFound(userID)
	}
	return nil
}

// PushSubscription is a browser's Web Push subscription (keys base64url).
type PushSubscription struct {
	ID       string
	UserID   string
	Endpoint string
	P256dh   string
	Auth     string
	Created  time.Time
}

// MaxPushSubscriptions is the most browsers one user keeps subscribed; a
// new one past it replaces the oldest.
const MaxPushSubscriptions = 10

// AddPushSubscription keeps a browser's subscription for its user (the
// caller checked the endpoint and keys). The same endpoint again replaces
// its keys.
func (db *DB) AddPushSubscription(ctx context.Context, s PushSubscription) (PushSubscription, error) {
	if !validUUID(s.UserID) {
		return PushSubscription{}, userNotFound(s.UserID)
	}
	if !validText(s.Endpoint) || !validText(s.P256dh) || !validText(s.Auth) {
		return PushSubscription{}, fray.Errorf(fray.EINVALID, "the subscription is not valid text")
	}
	err := pgx.BeginFunc(ctx, db.pool, func(tx pgx.Tx) error {
		if err := tx.QueryRow(ctx, `
			INSERT INTO push_subscriptions (user_id, endpoint, p256dh, auth) VALUES ($1::uuid, $2, $3, $4)
			ON CONFLICT (user_id, endpoint) DO UPDATE SET p256dh = EXCLUDED.p256dh, auth = EXCLUDED.auth
			RETURNING id::text, created_at`, s.UserID, s.Endpoint, s.P256dh, s.Auth).Scan(&s.ID, &s.Created); err != nil {
			return err
		}
		_, err := tx.Exec(ctx, `
			DELETE FROM push_subscriptions WHERE user_id = $1::uuid AND id NOT IN (
				SELECT id FROM push_subscriptions WHERE user_id = $1::uuid ORDER BY created_at DESC, id LIMIT $2)`,
			s.UserID, MaxPushSubscriptions)
		return err
	})
	if pgCode(err) == sqlForeignKeyViolation {
		return PushSubscription{}, userNotFound(s.UserID)
	}
	if err != nil {
		return PushSubscription{}, fmt.Errorf("store: add push subscription: %w", err)
	}
	return s, nil
}

// PushSubscriptions lists userID's subscribed browsers, newest first.
func (db *DB) PushSubscriptions(ctx context.Context, userID string) ([]PushSubscription, error) {
	if !validUUID(userID) {
		return nil, userNotFound(userID)
	}
	rows, _ := db.pool.Query(ctx, `
		SELECT id::text, user_id::text, endpoint, p256dh, auth, created_at
		FROM push_subscriptions WHERE user_id = $1::uuid ORDER BY created_at DESC, id`, userID)
	ss, err := pgx.CollectRows(rows, func(r pgx.CollectableRow) (PushSubscription, error) {
		var s PushSubscription
		err := r.Scan(&s.ID, &s.UserID, &s.Endpoint, &s.P256dh, &s.Auth, &s.Created)
		return s, err
	})
	if err != nil {
		return nil, fmt.Errorf("store: push subscriptions: %w", err)
	}
	return ss, nil
}

// DeletePushSubscription removes one of userID's subscriptions, by id or,
// when id is "", by endpoint. One that is not theirs is ENOTFOUND.
func (db *DB) DeletePushSubscription(ctx context.Context, userID, id, endpoint string) error {
	notFound := fray.Errorf(fray.ENOTFOUND, "push subscription not found")
	if !validUUID(userID) || id != "" && !validUUID(id) || !validText(endpoint) {
		return notFound
	}
	tag, err := db.pool.Exec(ctx, `
		DELETE FROM push_subscriptions
		WHERE user_id = $1::uuid AND (id = NULLIF($2, '')::uuid OR ($2 = '' AND endpoint = $3))`, userID, id, endpoint)
	if err != nil {
		return fmt.Errorf("store: delete push subscription: %w", err)
	}
	if tag.RowsAffected() == 0 {
		return notFound
	}
	return nil
}

// DropPushSubscription removes a subscription the push service says is
// gone (404 or 410), with its deliveries still waiting.
func (db *DB) DropPushSubscription(ctx context.Context, id string) error {
	if !validUUID(id) {
		return nil
	}
	if _, err := db.pool.Exec(ctx, `DELETE FROM push_subscriptions WHERE id = $1::uuid`, id); err != nil {
		return fmt.Errorf("store: drop push subscription: %w", err)
	}
	return nil
}

// VAPIDKeys returns the server's VAPID key pair, making it with make (once
// for every instance: the first to store one wins) when there is none.
func (db *DB) VAPIDKeys(ctx context.Context, make func() (public, private string, err error)) (public, private string, err error) {
	err = db.pool.QueryRow(ctx, `SELECT public_key, private_key FROM vapid_keys WHERE id = 1`).Scan(&public, &private)
	if err == nil {
		return public, private, nil
	}
	if !errors.Is(err, pgx.ErrNoRows) {
		return "", "", fmt.Errorf("store: vapid keys: %w", err)
	}
	pub, priv, err := make()
	if err != nil {
		return "", "", err
	}
	if _, err := db.pool.Exec(ctx, `
		INSERT INTO vapid_keys (id, public_key, private_key) VALUES (1, $1, $2) ON CONFLICT (id) DO NOTHING`, pub, priv); err != nil {
		return "", "", fmt.Errorf("store: vapid keys: %w", err)
	}
	err = db.pool.QueryRow(ctx, `SELECT public_key, private_key FROM vapid_keys WHERE id = 1`).Scan(&public, &private)
	if err != nil {
		return "", "", fmt.Errorf("store: vapid keys: %w", err)
	}
	return public, private, nil
}

// NoticeAudience is who may be told about an encounter's events: its
// campaign's webhooks and the members who chose a channel.
type NoticeAudience struct {
	CampaignID    string
	CampaignName  string
	EncounterName string
	Ruleset       string
	Webhooks      []Webhook // id, URL and format
	Members       []NoticeMember
	// Owned are the ids of every character a player owns in the
	// campaign: the others are the GM's to play.
	Owned []string
	// OwnerOf is the user id of the player who owns each of them.
	OwnerOf map[string]string
}

// NoticeMember is a member who chose at least one channel for the
// campaign, with what the notices need of them.
type NoticeMember struct {
	UserID     string
	Name       string
	Role       string
	Characters []string // the character ids they own in the campaign
	// Email is their address when they chose e-mail and have one.
	Email string
	// Push are their subscribed browsers when they chose push.
	Push []string
}

// NoticeAudience reads encounterID's audience in one statement. An
// unknown encounter is ENOTFOUND.
func (db *DB) NoticeAudience(ctx context.Context, encounterID string) (NoticeAudience, error) {
	if !validUUID(encounterID) {
		return NoticeAudience{}, encounterNotFound(encounterID)
	}
	var a NoticeAudience
	var hooks, owned [][]string
	var members []struct {
		UserID     string   `json:"u"`
		Name       string   `json:"n"`
		Role       string   `json:"r"`
		Characters []string `json:"c"`
		Email      *string  `json:"e"`
		Push       []string `json:"p"`
	}
	err := db.pool.QueryRow(ctx, `
		SELECT c.id::text, c.name, e.name, e.ruleset,
			ARRAY(SELECT ARRAY[w.id::text, w.url, w.format] FROM webhooks w WHERE w.campaign_id = c.id ORDER BY w.created_at, w.id),
			COALESCE((SELECT json_agg(json_build_object(
				'u', m.user_id, 'n', u.name, 'r', m.role,
				'c', ARRAY(SELECT o.character_id FROM character_owners o WHERE o.campaign_id = c.id AND o.user_id = m.user_id ORDER BY o.character_id),
				'e', CASE WHEN s.email THEN u.email END,
				'p', CASE WHEN s.push THEN ARRAY(SELECT p.id::text FROM push_subscriptions p WHERE p.user_id = m.user_id ORDER BY p.created_at, p.id) END
			) ORDER BY m.user_id)
			FROM campaign_members m JOIN users u ON u.id = m.user_id
			JOIN notice_settings s ON s.campaign_id = m.campaign_id AND s.user_id = m.user_id AND (s.push OR s.email)
			WHERE m.campaign_id = c.id), '[]'),
			ARRAY(SELECT ARRAY[o.character_id, o.user_id::text] FROM character_owners o JOIN campaign_members m
				ON m.campaign_id = o.campaign_id AND m.user_id = o.user_id AND m.role = 'player'
				WHERE o.campaign_id = c.id ORDER BY o.character_id)
		FROM encounters e JOIN campaigns c ON c.id = e.campaign_id
		WHERE e.id = $1::uuid`, encounterID).Scan(&a.CampaignID, &a.CampaignName, &a.EncounterName, &a.Ruleset, &hooks, &members, &owned)
	if errors.Is(err, pgx.ErrNoRows) {
		return NoticeAudience{}, encounterNotFound(encounterID)
	}
	if err != nil {
		return NoticeAudience{}, fmt.Errorf("store: notice audience: %w", err)
	}
	a.OwnerOf = map[string]string{}
	for _, o := range owned {
		a.Owned = append(a.Owned, o[0])
		a.OwnerOf[o[0]] = o[1]
	}
	for _, h := range hooks {
		a.Webhooks = append(a.Webhooks, Webhook{ID: h[0], CampaignID: a.CampaignID, URL: h[1], Format: h[2]})
	}
	for _, m := range members {
		nm := NoticeMember{UserID: m.UserID, Name: m.Name, Role: m.Role, Characters: m.Characters, Push: m.Push}
		if m.Email != nil {
			nm.Email = *m.Email
		}
		a.Members = append(a.Members, nm)
	}
	return a, nil
}
