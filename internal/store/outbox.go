package store

import (
	"context"
	"encoding/json"
	"fmt"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"

	"github.com/fray-vtt/fray/internal/fray"
	"github.com/fray-vtt/fray/internal/outbox"
)

// The outbox (migration 0011; see package outbox and docs/architecture.md,
// "Notices: the outbox"). A notice is written in the transaction of what
// causes it; a worker on any instance expands it into deliveries, one per
// target (ExpandNotices), and delivers them (ClaimDeliveries,
// FinishDelivery), each claim exclusive (FOR UPDATE SKIP LOCKED) and each
// delivery at least once.

// subscribedSQL is true when campaign ok.campaign_id has anyone to tell:
// a webhook, or a member who chose a channel. Notices of other campaigns
// are not written at all, so a server without subscribers pays for two
// index probes per command that causes a notice, and nothing else.
const subscribedSQL = `(EXISTS (SELECT 1 FROM webhooks w WHERE w.campaign_id = ok.campaign_id)
		OR EXISTS (SELECT 1 FROM notice_settings s WHERE s.campaign_id = ok.campaign_id AND (s.push OR s.email)))`

// enqueueSQL writes notices (arrays of encounter, seq, type, user, data)
// for the encounters whose campaigns have anyone to tell.
const enqueueSQL = `
INSERT INTO notices (encounter_id, seq, type, user_id, data)
SELECT ok.enc, n.seq, n.type, NULLIF(n.usr, '')::uuid, n.data
FROM unnest($1::uuid[], $2::bigint[], $3::text[], $4::text[], $5::jsonb[]) AS n (enc, seq, type, usr, data)
JOIN LATERAL (SELECT e.id AS enc, e.campaign_id FROM encounters e WHERE e.id = n.enc) ok ON true
WHERE ` + subscribedSQL

// checkNotice checks a notice's type, user and data.
func checkNotice(n outbox.Notice) error {
	switch {
	case !n.Type.Valid():
		return fray.Errorf(fray.EINTERNAL, "notice: unknown type %q", n.Type)
	case n.User != "" && !validUUID(n.User):
		return fray.Errorf(fray.EINTERNAL, "notice: user %q is not an id", n.User)
	case n.Data != nil && !json.Valid(n.Data):
		return fray.Errorf(fray.EINTERNAL, "notice: data is not JSON")
	}
	return nil
}

// Enqueue writes notices in a transaction of their own and wakes this
// instance's worker; see EnqueueTx to write them in a transaction of yours.
// Notices about encounters whose campaigns have no one to tell (no webhook,
// no member who chose a channel) are dropped.
func (db *DB) Enqueue(ctx context.Context, notices ...outbox.Notice) error {
	n, err := db.EnqueueTx(ctx, db.pool, notices...)
	if err != nil {
		return err
	}
	if n > 0 {
		db.noticesWritten()
	}
	return nil
}

// Execer is a pgx.Tx, a connection or the pool: what EnqueueTx writes with.
type Execer interface {
	Exec(ctx context.Context, sql string, args ...any) (pgconn.CommandTag, error)
}

// EnqueueTx writes notices with q — the transaction that makes them true
// (a deadline that passed, say), so they are written if and only if it
// commits — and returns how many were written. The worker finds them
// within its poll interval; call [DB.WakeOutbox] after the commit for an
// immediate start. Unknown encounters are an error, as are bad types.
func (db *DB) EnqueueTx(ctx context.Context, q Execer, notices ...outbox.Notice) (int64, error) {
	if len(notices) == 0 {
		return 0, nil
	}
	var (
		encs, types, users []string
		seqs               []int64
		data               [][]byte
	)
	for _, n := range notices {
		if !validUUID(n.EncounterID) {
			return 0, encounterNotFound(n.EncounterID)
		}
		if n.Seq <= 0 {
			return 0, fray.Errorf(fray.EINTERNAL, "notice: seq %d", n.Seq)
		}
		if err := checkNotice(n); err != nil {
			return 0, err
		}
		encs, seqs, types, users, data = append(encs, n.EncounterID), append(seqs, n.Seq), append(types, string(n.Type)),
			append(users, n.User), append(data, []byte(n.Data))
	}
	tag, err := q.Exec(ctx, enqueueSQL, encs, seqs, types, users, data)
	if err != nil {
		return 0, fmt.Errorf("store: enqueue notices: %w", err)
	}
	return tag.RowsAffected(), nil
}

// WakeOutbox tells this instance's outbox worker that notices were
// committed (see NoticesWritten).
func (db *DB) WakeOutbox() { db.noticesWritten() }

// noticesWritten wakes whoever waits on NoticesWritten, without blocking.
func (db *DB) noticesWritten() {
	select {
	case db.wake <- struct{}{}:
	default:
	}
}

// NoticesWritten receives a value (coalesced) after this instance committed
// notices: the outbox worker's cue to look at once instead of at its next
// poll. Other instances' notices are found by polling.
func (db *DB) NoticesWritten() <-chan struct{} { return db.wake }

// WaitingNotice is a notice not yet expanded into deliveries.
type WaitingNotice struct {
	ID int64
	outbox.Notice
	CampaignID string
	Created    time.Time
}

// Delivery channels.
const (
	ChannelWebhook = "webhook"
	ChannelPush    = "push"
	ChannelEmail   = "email"
)

// NewDelivery is one delivery of a notice to one target, made by the
// worker when it expands the notice.
type NewDelivery struct {
	NoticeID int64
	// ID is the delivery id (a UUID, NewID), made before the payload so
	// that the payload can carry it.
	ID      string
	Channel string // ChannelWebhook, ChannelPush or ChannelEmail
	// Target is the webhook's id (webhook), the push subscription's
	// (push) or the user's (email).
	Target string
	// User is the recipient (push and email); "" for a webhook.
	User    string
	Type    outbox.Type
	Payload []byte // JSON, as the channel needs it
}

// ExpandNotices claims up to limit waiting notices, oldest first, and
// calls expand with them; it writes the deliveries expand returns and marks
// the notices expanded, in one transaction. A notice is claimed FOR UPDATE
// SKIP LOCKED, so concurrent workers (on any instance) expand different
// ones; if expand fails or the process dies, nothing is written and the
// notices wait for the next worker. A delivery of a notice to a target it
// already has is dropped, so expanding twice delivers once. It returns how
// many notices were expanded.
func (db *DB) ExpandNotices(ctx context.Context, limit int, expand func(context.Context, []WaitingNotice) ([]NewDelivery, error)) (int, error) {
	n := 0
	err := pgx.BeginFunc(ctx, db.pool, func(tx pgx.Tx) error {
		rows, _ := tx.Query(ctx, `
			SELECT n.id, n.encounter_id::text, n.seq, n.type, COALESCE(n.user_id::text, ''), n.data, e.campaign_id::text, n.created_at
			FROM notices n JOIN encounters e ON e.id = n.encounter_id
			WHERE n.expanded_at IS NULL
			ORDER BY n.id LIMIT $1
			FOR UPDATE OF n SKIP LOCKED`, limit)
		waiting, err := pgx.CollectRows(rows, func(r pgx.CollectableRow) (WaitingNotice, error) {
			var w WaitingNotice
			var t string
			err := r.Scan(&w.ID, &w.EncounterID, &w.Seq, &t, &w.User, &w.Data, &w.CampaignID, &w.Created)
			w.Type = outbox.Type(t)
			return w, err
		})
		if err != nil || len(waiting) == 0 {
			return err
		}
		ds, err := expand(ctx, waiting)
		if err != nil {
			return err
		}
		var (
			ids, notices                          []int64
			dids, channels, targets, users, types []string
			payloads                              [][]byte
		)
		for _, w := range waiting {
			ids = append(ids, w.ID)
		}
		for _, d := range ds {
			notices, dids, channels, targets = append(notices, d.NoticeID), append(dids, d.ID), append(channels, d.Channel), append(targets, d.Target)
			users, types, payloads = append(users, d.User), append(types, string(d.Type)), append(payloads, d.Payload)
		}
		if _, err := tx.Exec(ctx, `
			INSERT INTO deliveries (id, notice_id, channel, target, webhook_id, push_id, user_id, type, payload)
			SELECT d.id, d.notice, d.channel, d.channel || ':' || d.target,
				CASE WHEN d.channel = 'webhook' THEN d.target::uuid END,
				CASE WHEN d.channel = 'push' THEN d.target::uuid END,
				NULLIF(d.usr, '')::uuid, d.type, d.payload
			FROM unnest($1::uuid[], $2::bigint[], $3::text[], $4::text[], $5::text[], $6::text[], $7::jsonb[])
				AS d (id, notice, channel, target, usr, type, payload)
			ON CONFLICT (notice_id, target) DO NOTHING`,
			dids, notices, channels, targets, users, types, payloads); err != nil {
			return fmt.Errorf("deliveries: %w", err)
		}
		if _, err := tx.Exec(ctx, `UPDATE notices SET expanded_at = now() WHERE id = ANY($1)`, ids); err != nil {
			return err
		}
		n = len(waiting)
		return nil
	})
	if err != nil {
		return 0, fmt.Errorf("store: expand notices: %w", err)
	}
	return n, nil
}

// Delivery is a delivery claimed for an attempt, with its target.
type Delivery struct {
	ID       string
	NoticeID int64
	Channel  string
	Type     outbox.Type
	Payload  []byte
	Attempt  int // 1 for the first
	User     string
	// Gone is true when the target no longer exists (a webhook removed, a
	// push subscription dropped, an e-mail address taken away).
	Gone bool
	// Webhook: its URL, format and signing secret.
	URL, Format, Secret string
	// Push: the subscription's id, endpoint and keys (base64url).
	PushID, Endpoint, P256dh, Auth string
	// E-mail: the user's address.
	Email string
}

// ClaimDeliveries claims up to limit due deliveries for an attempt: each is
// locked (FOR UPDATE SKIP LOCKED, so no two workers claim one), its attempt
// counted and its next try moved lease ahead, then the claim commits. The
// worker must FinishDelivery within the lease; one that dies leaves the
// lease to run out, and the delivery is claimed again — with the same id.
func (db *DB) ClaimDeliveries(ctx context.Context, limit int, lease time.Duration) ([]Delivery, error) {
	rows, _ := db.pool.Query(ctx, `
		WITH due AS (
			SELECT id FROM deliveries
			WHERE status = 'pending' AND next_at <= now()
			ORDER BY next_at LIMIT $1
			FOR UPDATE SKIP LOCKED
		), claimed AS (
			UPDATE deliveries d SET attempts = d.attempts + 1, next_at = now() + $2 * interval '1 millisecond'
			FROM due WHERE d.id = due.id
			RETURNING d.id, d.notice_id, d.channel, d.type, d.payload, d.attempts, d.user_id, d.webhook_id, d.push_id
		)
		SELECT c.id::text, c.notice_id, c.channel, c.type, c.payload, c.attempts, COALESCE(c.user_id::text, ''),
			(c.channel = 'webhook' AND w.id IS NULL) OR (c.channel = 'push' AND p.id IS NULL) OR (c.channel = 'email' AND u.email IS NULL),
			COALESCE(w.url, ''), COALESCE(w.format, ''), COALESCE(w.secret, ''),
			COALESCE(p.id::text, ''), COALESCE(p.endpoint, ''), COALESCE(p.p256dh, ''), COALESCE(p.auth, ''),
			COALESCE(u.email, '')
		FROM claimed c
		LEFT JOIN webhooks w ON w.id = c.webhook_id
		LEFT JOIN push_subscriptions p ON p.id = c.push_id
		LEFT JOIN users u ON u.id = c.user_id`, limit, lease.Milliseconds())
	ds, err := pgx.CollectRows(rows, func(r pgx.CollectableRow) (Delivery, error) {
		var d Delivery
		var t string
		err := r.Scan(&d.ID, &d.NoticeID, &d.Channel, &t, &d.Payload, &d.Attempt, &d.User, &d.Gone,
			&d.URL, &d.Format, &d.Secret, &d.PushID, &d.Endpoint, &d.P256dh, &d.Auth, &d.Email)
		d.Type = outbox.Type(t)
		return d, err
	})
	if err != nil {
		return nil, fmt.Errorf("store: claim deliveries: %w", err)
	}
	return ds, nil
}

// Outcome is how an attempt at a delivery ended.
type Outcome struct {
	// Delivered: the target took it.
	Delivered bool
	// RetryAfter, when not zero, tries again after it; otherwise a
	// delivery that was not delivered failed for good.
	RetryAfter time.Duration
	// Error says what went wrong (kept for the GM and the operator).
	Error string
}

// FinishDelivery records attempt's outcome. It changes nothing when the
// delivery is no longer at that attempt (its lease ran out and another
// worker claimed it) or is no longer pending.
func (db *DB) FinishDelivery(ctx context.Context, id string, attempt int, o Outcome) error {
	status := "failed"
	switch {
	case o.Delivered:
		status = "delivered"
	case o.RetryAfter > 0:
		status = "pending"
	}
	errText := o.Error
	if len(errText) > 500 {
		errText = errText[:500]
	}
	_, err := db.pool.Exec(ctx, `
		UPDATE deliveries SET status = $3,
			next_at = CASE WHEN $3 = 'pending' THEN now() + $4 * interval '1 millisecond' ELSE next_at END,
			finished_at = CASE WHEN $3 = 'pending' THEN NULL ELSE now() END,
			last_error = NULLIF($5, '')
		WHERE id = $1::uuid AND attempts = $2 AND status = 'pending'`,
		id, attempt, status, o.RetryAfter.Milliseconds(), validOr(errText, "(unprintable error)"))
	if err != nil {
		return fmt.Errorf("store: finish delivery: %w", err)
	}
	return nil
}

// validOr returns s, or alt when s is not valid text.
func validOr(s, alt string) string {
	if validText(s) {
		return s
	}
	return alt
}

// DeleteOldNotices deletes the deliveries that ended before before, and the
// notices expanded before it that have no delivery left pending, so the
// outbox does not grow without bound. It returns how many notices went.
func (db *DB) DeleteOldNotices(ctx context.Context, before time.Time) (int64, error) {
	if _, err := db.pool.Exec(ctx, `DELETE FROM deliveries WHERE status <> 'pending' AND finished_at < $1`, before); err != nil {
		return 0, fmt.Errorf("store: delete old deliveries: %w", err)
	}
	tag, err := db.pool.Exec(ctx, `
		DELETE FROM notices n WHERE n.expanded_at < $1
		AND NOT EXISTS (SELECT 1 FROM deliveries d WHERE d.notice_id = n.id AND d.status = 'pending')`, before)
	if err != nil {
		return 0, fmt.Errorf("store: delete old notices: %w", err)
	}
	return tag.RowsAffected(), nil
}
