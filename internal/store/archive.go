package store

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/fray-vtt/fray/internal/fray"
)

// A campaign moved to another server (package archive writes and reads the
// file): what the campaign is made of, with its encounters' whole
// histories, and nothing of the server's accounts — the members are
// invited again there. The JSON names are the archive's format.

// CampaignArchive is one campaign as ExportCampaign reads it.
type CampaignArchive struct {
	Name       string              `json:"name"`
	GMNotes    string              `json:"gmNotes"`
	CreatedAt  time.Time           `json:"createdAt"`
	Webhooks   []ArchivedWebhook   `json:"webhooks"`
	Characters []ArchivedStatBlock `json:"characters"`
	Revisions  []ArchivedRevision  `json:"revisions"`
	Bestiary   []ArchivedStatBlock `json:"bestiary"`
	Drafts     []ArchivedDraft     `json:"drafts"`
	// Encounters and Assets travel in files of their own (package
	// archive); Assets' bytes too.
	Encounters []ArchivedEncounter `json:"-"`
	Assets     []Asset             `json:"-"`
}

// ArchivedWebhook is a webhook without its signing secret: the importing
// server makes a new one.
type ArchivedWebhook struct {
	URL    string `json:"url"`
	Format string `json:"format"`
	Secret string `json:"-"` // set by the importer
}

// ArchivedStatBlock is a campaign character or bestiary entry.
type ArchivedStatBlock struct {
	ID        string          `json:"id"`
	Ruleset   string          `json:"ruleset"`
	Name      string          `json:"name"`
	Stats     json.RawMessage `json:"stats"`
	Revision  int             `json:"revision,omitempty"` // characters only
	Portrait  string          `json:"portrait"`
	CreatedAt time.Time       `json:"createdAt"`
	UpdatedAt time.Time       `json:"updatedAt"`
}

// ArchivedRevision is one revision of a character; the user who made it is
// kept by name only.
type ArchivedRevision struct {
	CharacterID   string          `json:"character"`
	Revision      int             `json:"revision"`
	Name          string          `json:"name"`
	Stats         json.RawMessage `json:"stats"`
	Kind          string          `json:"kind"`
	Changes       json.RawMessage `json:"changes"`
	EncounterID   string          `json:"encounter"`
	EncounterName string          `json:"encounterName"`
	UserName      string          `json:"userName"`
	CreatedAt     time.Time       `json:"createdAt"`
}

// ArchivedDraft is an encounter draft (its undo history stays behind).
type ArchivedDraft struct {
	Name      string          `json:"name"`
	Ruleset   string          `json:"ruleset"`
	Setup     json.RawMessage `json:"setup"`
	CreatedAt time.Time       `json:"createdAt"`
	UpdatedAt time.Time       `json:"updatedAt"`
}

// ArchivedEncounter is an encounter with its whole log, hash chain and
// dice secret (an unfinished encounter rolls on from it, and a finished
// one's export publishes the seeds derived from it). Snapshots are not
// kept: the importing server folds the log from the initial state.
type ArchivedEncounter struct {
	ID           string              `json:"id"`
	Name         string              `json:"name"`
	Ruleset      string              `json:"ruleset"`
	Status       string              `json:"status"`
	Setup        json.RawMessage     `json:"setup"`
	InitialState json.RawMessage     `json:"initialState"`
	CreatedAt    time.Time           `json:"createdAt"`
	UpdatedAt    time.Time           `json:"updatedAt"`
	DiceSecret   []byte              `json:"diceSecret"`
	Events       []ArchivedEvent     `json:"events"`
	CarryOvers   []ArchivedCarryOver `json:"carryOvers"`
	Deadline     *ArchivedDeadline   `json:"deadline"`
}

// ArchivedEvent is one event of the log with its place in the chain.
type ArchivedEvent struct {
	Seq       int64           `json:"seq"`
	Kind      string          `json:"kind"`
	Actor     *string         `json:"actor"`
	Round     int             `json:"round"`
	Body      json.RawMessage `json:"body"`
	CommandID *string         `json:"commandId"`
	CreatedAt time.Time       `json:"createdAt"`
	Salt      []byte          `json:"salt"`
	Digest    []byte          `json:"digest"`
	Link      []byte          `json:"link"`
}

// ArchivedCarryOver is an encounter's carry-over decision for a character.
type ArchivedCarryOver struct {
	CharacterID string          `json:"character"`
	Seq         int64           `json:"seq"`
	Decision    string          `json:"decision"`
	Applied     json.RawMessage `json:"applied"`
	Revision    *int            `json:"revision"`
	UserName    string          `json:"userName"`
	DecidedAt   time.Time       `json:"decidedAt"`
}

// ArchivedDeadline is an encounter's turn-deadline setting.
type ArchivedDeadline struct {
	AfterSecs  int    `json:"afterSecs"`
	RemindSecs int    `json:"remindSecs"`
	Fallback   string `json:"fallback"`
}

// ExportCampaign reads campaign id whole, from one snapshot of the
// database (a REPEATABLE READ transaction): what it reads is consistent
// however busy the encounters are. Logs from before the hash chain are
// chained first.
func (db *DB) ExportCampaign(ctx context.Context, id string) (CampaignArchive, error) {
	if !validUUID(id) {
		return CampaignArchive{}, campaignNotFound(id)
	}
	encs, err := db.Encounters(ctx, id)
	if err != nil {
		return CampaignArchive{}, err
	}
	for _, e := range encs {
		if _, err := db.ChainLog(ctx, e.ID); err != nil {
			return CampaignArchive{}, err
		}
	}
	var a CampaignArchive
	err = pgx.BeginTxFunc(ctx, db.pool, pgx.TxOptions{IsoLevel: pgx.RepeatableRead, AccessMode: pgx.ReadOnly}, func(tx pgx.Tx) error {
		err := tx.QueryRow(ctx, `SELECT name, gm_notes, created_at FROM campaigns WHERE id = $1::uuid`, id).Scan(&a.Name, &a.GMNotes, &a.CreatedAt)
		if errors.Is(err, pgx.ErrNoRows) {
			return campaignNotFound(id)
		}
		if err != nil {
			return err
		}
		rows, _ := tx.Query(ctx, `SELECT url, format FROM webhooks WHERE campaign_id = $1::uuid ORDER BY created_at, id`, id)
		if a.Webhooks, err = pgx.CollectRows(rows, func(r pgx.CollectableRow) (ArchivedWebhook, error) {
			var w ArchivedWebhook
			return w, r.Scan(&w.URL, &w.Format)
		}); err != nil {
			return err
		}
		rows, _ = tx.Query(ctx, `SELECT id, ruleset, name, stats, revision, portrait, created_at, updated_at
			FROM characters WHERE campaign_id = $1::uuid ORDER BY id`, id)
		if a.Characters, err = pgx.CollectRows(rows, func(r pgx.CollectableRow) (ArchivedStatBlock, error) {
			var b ArchivedStatBlock
			return b, r.Scan(&b.ID, &b.Ruleset, &b.Name, &b.Stats, &b.Revision, &b.Portrait, &b.CreatedAt, &b.UpdatedAt)
		}); err != nil {
			return err
		}
		rows, _ = tx.Query(ctx, `SELECT id, ruleset, name, stats, portrait, created_at, updated_at
			FROM bestiary WHERE campaign_id = $1::uuid ORDER BY id`, id)
		if a.Bestiary, err = pgx.CollectRows(rows, func(r pgx.CollectableRow) (ArchivedStatBlock, error) {
			var b ArchivedStatBlock
			return b, r.Scan(&b.ID, &b.Ruleset, &b.Name, &b.Stats, &b.Portrait, &b.CreatedAt, &b.UpdatedAt)
		}); err != nil {
			return err
		}
		rows, _ = tx.Query(ctx, `SELECT character_id, revision, name, stats, kind, changes, COALESCE(encounter_id::text, ''),
				encounter_name, user_name, created_at
			FROM character_revisions WHERE campaign_id = $1::uuid ORDER BY character_id, revision`, id)
		if a.Revisions, err = pgx.CollectRows(rows, func(r pgx.CollectableRow) (ArchivedRevision, error) {
			var v ArchivedRevision
			return v, r.Scan(&v.CharacterID, &v.Revision, &v.Name, &v.Stats, &v.Kind, &v.Changes, &v.EncounterID, &v.EncounterName, &v.UserName, &v.CreatedAt)
		}); err != nil {
			return err
		}
		rows, _ = tx.Query(ctx, `SELECT name, ruleset, setup, created_at, updated_at FROM drafts WHERE campaign_id = $1::uuid ORDER BY created_at, id`, id)
		if a.Drafts, err = pgx.CollectRows(rows, func(r pgx.CollectableRow) (ArchivedDraft, error) {
			var d ArchivedDraft
			return d, r.Scan(&d.Name, &d.Ruleset, &d.Setup, &d.CreatedAt, &d.UpdatedAt)
		}); err != nil {
			return err
		}
		rows, _ = tx.Query(ctx, `
			SELECT campaign_id::text, id, name, content_type, width, height, data, thumb_type, thumb, created_at
			FROM assets WHERE campaign_id = $1::uuid ORDER BY id`, id)
		if a.Assets, err = pgx.CollectRows(rows, func(r pgx.CollectableRow) (Asset, error) {
			var s Asset
			return s, r.Scan(&s.CampaignID, &s.ID, &s.Name, &s.ContentType, &s.Width, &s.Height, &s.Data, &s.ThumbType, &s.Thumb, &s.CreatedAt)
		}); err != nil {
			return err
		}
		rows, _ = tx.Query(ctx, `
			SELECT e.id::text, e.name, e.ruleset, e.status, e.setup, e.initial_state, e.created_at, e.updated_at, d.secret,
				dl.after_secs, dl.remind_secs, dl.fallback
			FROM encounters e LEFT JOIN dice_secrets d ON d.encounter_id = e.id
			LEFT JOIN encounter_deadlines dl ON dl.encounter_id = e.id
			WHERE e.campaign_id = $1::uuid ORDER BY e.created_at, e.id`, id)
		if a.Encounters, err = pgx.CollectRows(rows, func(r pgx.CollectableRow) (ArchivedEncounter, error) {
			var e ArchivedEncounter
			var after, remind *int
			var fallback *string
			err := r.Scan(&e.ID, &e.Name, &e.Ruleset, &e.Status, &e.Setup, &e.InitialState, &e.CreatedAt, &e.UpdatedAt, &e.DiceSecret, &after, &remind, &fallback)
			if after != nil {
				e.Deadline = &ArchivedDeadline{AfterSecs: *after, RemindSecs: *remind, Fallback: *fallback}
			}
			return e, err
		}); err != nil {
			return err
		}
		for i := range a.Encounters {
			e := &a.Encounters[i]
			rows, _ := tx.Query(ctx, `SELECT seq, kind, actor, round, body, command_id, created_at, salt, digest, link
				FROM events WHERE encounter_id = $1::uuid ORDER BY seq`, e.ID)
			if e.Events, err = pgx.CollectRows(rows, func(r pgx.CollectableRow) (ArchivedEvent, error) {
				var v ArchivedEvent
				return v, r.Scan(&v.Seq, &v.Kind, &v.Actor, &v.Round, &v.Body, &v.CommandID, &v.CreatedAt, &v.Salt, &v.Digest, &v.Link)
			}); err != nil {
				return err
			}
			rows, _ = tx.Query(ctx, `SELECT character_id, seq, decision, applied, revision, user_name, decided_at
				FROM carry_overs WHERE encounter_id = $1::uuid ORDER BY character_id`, e.ID)
			if e.CarryOvers, err = pgx.CollectRows(rows, func(r pgx.CollectableRow) (ArchivedCarryOver, error) {
				var c ArchivedCarryOver
				return c, r.Scan(&c.CharacterID, &c.Seq, &c.Decision, &c.Applied, &c.Revision, &c.UserName, &c.DecidedAt)
			}); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		if fray.ErrorCode(err) != "" {
			return CampaignArchive{}, err
		}
		return CampaignArchive{}, fmt.Errorf("store: export campaign: %w", err)
	}
	return a, nil
}

// ImportCampaign stores a campaign read from an archive as a new campaign
// run by gmUserID, in one transaction: all of it or, on any error, none.
// Encounters keep their ids (their hash chains begin with them), so an
// archive whose encounters are on this server already is ECONFLICT; the
// campaign and its drafts get new ids. The archive is checked before
// (package archive); the schema's constraints check it again here.
func (db *DB) ImportCampaign(ctx context.Context, a CampaignArchive, gmUserID string) (string, error) {
	if !validUUID(gmUserID) {
		return "", userNotFound(gmUserID)
	}
	id := NewID()
	err := pgx.BeginFunc(ctx, db.pool, func(tx pgx.Tx) error {
		if _, err := tx.Exec(ctx, `INSERT INTO campaigns (id, name, gm_notes, created_at) VALUES ($1::uuid, $2, $3, $4)`,
			id, a.Name, a.GMNotes, a.CreatedAt); err != nil {
			return err
		}
		if _, err := tx.Exec(ctx, `INSERT INTO campaign_members (campaign_id, user_id, role) VALUES ($1::uuid, $2::uuid, 'gm')`, id, gmUserID); err != nil {
			return err
		}
		var b pgx.Batch
		for _, w := range a.Webhooks {
			b.Queue(`INSERT INTO webhooks (campaign_id, url, format, secret) VALUES ($1::uuid, $2, $3, $4)`, id, w.URL, w.Format, w.Secret)
		}
		for _, c := range a.Characters {
			b.Queue(`INSERT INTO characters (id, campaign_id, ruleset, name, stats, revision, portrait, created_at, updated_at)
				VALUES ($1, $2::uuid, $3, $4, $5, $6, $7, $8, $9)`, c.ID, id, c.Ruleset, c.Name, c.Stats, c.Revision, c.Portrait, c.CreatedAt, c.UpdatedAt)
		}
		for _, c := range a.Bestiary {
			b.Queue(`INSERT INTO bestiary (id, campaign_id, ruleset, name, stats, portrait, created_at, updated_at)
				VALUES ($1, $2::uuid, $3, $4, $5, $6, $7, $8)`, c.ID, id, c.Ruleset, c.Name, c.Stats, c.Portrait, c.CreatedAt, c.UpdatedAt)
		}
		for _, d := range a.Drafts {
			b.Queue(`INSERT INTO drafts (id, campaign_id, name, ruleset, setup, created_at, updated_at)
				VALUES ($1::uuid, $2::uuid, $3, $4, $5, $6, $7)`, NewID(), id, d.Name, d.Ruleset, d.Setup, d.CreatedAt, d.UpdatedAt)
		}
		for _, s := range a.Assets {
			b.Queue(`INSERT INTO assets (campaign_id, id, name, content_type, width, height, data, thumb_type, thumb, bytes, created_at)
				VALUES ($1::uuid, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11)`,
				id, s.ID, s.Name, s.ContentType, s.Width, s.Height, s.Data, s.ThumbType, s.Thumb, len(s.Data)+len(s.Thumb), s.CreatedAt)
		}
		for _, e := range a.Encounters {
			b.Queue(`INSERT INTO encounters (id, campaign_id, name, ruleset, status, setup, initial_state, created_at, updated_at)
				VALUES ($1::uuid, $2::uuid, $3, $4, $5, $6, $7, $8, $9)`, e.ID, id, e.Name, e.Ruleset, e.Status, e.Setup, e.InitialState, e.CreatedAt, e.UpdatedAt)
			if e.DiceSecret != nil {
				b.Queue(`INSERT INTO dice_secrets (encounter_id, secret) VALUES ($1::uuid, $2)`, e.ID, e.DiceSecret)
			}
			if d := e.Deadline; d != nil {
				b.Queue(`INSERT INTO encounter_deadlines (encounter_id, after_secs, remind_secs, fallback) VALUES ($1::uuid, $2, $3, $4)`,
					e.ID, d.AfterSecs, d.RemindSecs, d.Fallback)
			}
		}
		// Revisions and carry-overs name characters and encounters made
		// above.
		for _, v := range a.Revisions {
			b.Queue(`INSERT INTO character_revisions (campaign_id, character_id, revision, name, stats, kind, changes, encounter_id, encounter_name, user_name, created_at)
				VALUES ($1::uuid, $2, $3, $4, $5, $6, $7,
					CASE WHEN $8 = '' THEN NULL ELSE (SELECT id FROM encounters WHERE id = $8::uuid AND campaign_id = $1::uuid) END, $9, $10, $11)`,
				id, v.CharacterID, v.Revision, v.Name, v.Stats, v.Kind, v.Changes, v.EncounterID, v.EncounterName, v.UserName, v.CreatedAt)
		}
		for _, e := range a.Encounters {
			for _, c := range e.CarryOvers {
				b.Queue(`INSERT INTO carry_overs (encounter_id, campaign_id, character_id, seq, decision, applied, revision, user_name, decided_at)
					VALUES ($1::uuid, $2::uuid, $3, $4, $5, $6, $7, $8, $9)`, e.ID, id, c.CharacterID, c.Seq, c.Decision, c.Applied, c.Revision, c.UserName, c.DecidedAt)
			}
		}
		if err := tx.SendBatch(ctx, &b).Close(); err != nil {
			return err
		}
		for _, e := range a.Encounters {
			rows := make([][]any, len(e.Events))
			for i, v := range e.Events {
				rows[i] = []any{e.ID, v.Seq, v.Kind, v.Actor, v.Round, v.Body, v.CommandID, v.CreatedAt, v.Salt, v.Digest, v.Link}
			}
			if _, err := tx.CopyFrom(ctx, pgx.Identifier{"events"},
				[]string{"encounter_id", "seq", "kind", "actor", "round", "body", "command_id", "created_at", "salt", "digest", "link"},
				pgx.CopyFromRows(rows)); err != nil {
				return err
			}
		}
		return nil
	})
	switch pgCode(err) {
	case "":
	case sqlUniqueViolation:
		return "", fray.Errorf(fray.ECONFLICT, "the archive's encounters are on this server already (imported before?): nothing was imported")
	case sqlCheckViolation, sqlForeignKeyViolation, "22P02", "22023", "23502":
		return "", fray.Errorf(fray.EINVALID, "the archive breaks a rule of the database (%v): nothing was imported", err)
	}
	if err != nil {
		return "", fmt.Errorf("store: import campaign: %w", err)
	}
	return id, nil
}
