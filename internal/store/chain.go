package store

import (
	"context"
	"errors"
	"fmt"

	"github.com/jackc/pgx/v5"

	"github.com/fray-vtt/fray/internal/dice"
	"github.com/fray-vtt/fray/internal/fray"
	"github.com/fray-vtt/fray/internal/proof"
)

// The hash chain of each encounter's log (package proof, migration 0014):
// appends store every event's salt, digest and link with it; ChainLog
// chains events logged before the chain existed.

// Link returns the link of encounter id's event seq: the chain's head when
// seq is the last event, the genesis when seq is 0. Events logged before
// the chain existed are chained first (ChainLog). An unknown encounter or
// event is ENOTFOUND.
func (db *DB) Link(ctx context.Context, id string, seq int64) (proof.Hash, error) {
	if !validUUID(id) {
		return proof.Hash{}, encounterNotFound(id)
	}
	if seq == 0 {
		return proof.Genesis(id), nil
	}
	for range 2 {
		var link []byte
		err := db.pool.QueryRow(ctx, `SELECT link FROM events WHERE encounter_id = $1::uuid AND seq = $2`, id, seq).Scan(&link)
		if errors.Is(err, pgx.ErrNoRows) {
			return proof.Hash{}, fray.Errorf(fray.ENOTFOUND, "encounter %q has no event %d", id, seq)
		}
		if err != nil {
			return proof.Hash{}, fmt.Errorf("store: link: %w", err)
		}
		if link != nil {
			return proof.HashFrom(link)
		}
		if _, err := db.ChainLog(ctx, id); err != nil {
			return proof.Hash{}, err
		}
	}
	return proof.Hash{}, fmt.Errorf("store: link of %s at %d: still unchained", id, seq)
}

// Chained is what the chain keeps of one event, as stored.
type Chained struct {
	Seq    int64
	Salt   proof.Salt
	Digest proof.Hash
	Link   proof.Hash
}

// Chain returns the chain of encounter id's events after seq after, in
// order, chaining the log first when needed (ChainLog). An unknown
// encounter is ENOTFOUND.
func (db *DB) Chain(ctx context.Context, id string, after int64) ([]Chained, error) {
	if !validUUID(id) {
		return nil, encounterNotFound(id)
	}
	for range 2 {
		rows, _ := db.pool.Query(ctx, `
			SELECT seq, salt, digest, link FROM events
			WHERE encounter_id = $1::uuid AND seq > $2 ORDER BY seq`, id, after)
		unchained := false
		out, err := pgx.CollectRows(rows, func(r pgx.CollectableRow) (Chained, error) {
			var (
				c                  Chained
				salt, digest, link []byte
			)
			if err := r.Scan(&c.Seq, &salt, &digest, &link); err != nil {
				return c, err
			}
			if link == nil {
				unchained = true
				return c, nil
			}
			if len(salt) != proof.SaltSize {
				return c, fmt.Errorf("event %d: salt of %d bytes", c.Seq, len(salt))
			}
			copy(c.Salt[:], salt)
			var err error
			if c.Digest, err = proof.HashFrom(digest); err == nil {
				c.Link, err = proof.HashFrom(link)
			}
			return c, err
		})
		if err != nil {
			return nil, fmt.Errorf("store: chain: %w", err)
		}
		if !unchained {
			if len(out) == 0 {
				if ok, err := db.encounterExists(ctx, id); err != nil {
					return nil, fmt.Errorf("store: chain: %w", err)
				} else if !ok {
					return nil, encounterNotFound(id)
				}
			}
			return out, nil
		}
		if _, err := db.ChainLog(ctx, id); err != nil {
			return nil, err
		}
	}
	return nil, fmt.Errorf("store: chain of %s: still unchained", id)
}

// ChainLog chains the events of encounter id that have no link yet —
// logged before migration 0014 — in seq order, after the last chained one
// (or the genesis), and returns how many it chained. It holds the
// encounter's row FOR UPDATE meanwhile, so appends wait for it and no two
// servers chain one log at once. The digests are those of the events as
// stored (jsonb): their canonical form is the same as that of the bytes
// first written.
func (db *DB) ChainLog(ctx context.Context, id string) (int, error) {
	if !validUUID(id) {
		return 0, encounterNotFound(id)
	}
	n := 0
	err := pgx.BeginFunc(ctx, db.pool, func(tx pgx.Tx) error {
		var found bool
		if err := tx.QueryRow(ctx, `SELECT true FROM encounters WHERE id = $1::uuid FOR UPDATE`, id).Scan(&found); err != nil {
			if errors.Is(err, pgx.ErrNoRows) {
				return encounterNotFound(id)
			}
			return err
		}
		var (
			after int64
			last  []byte
		)
		err := tx.QueryRow(ctx, `
			SELECT seq, link FROM events WHERE encounter_id = $1::uuid AND link IS NOT NULL
			ORDER BY seq DESC LIMIT 1`, id).Scan(&after, &last)
		if err != nil && !errors.Is(err, pgx.ErrNoRows) {
			return err
		}
		prev := proof.Genesis(id)
		if last != nil {
			if prev, err = proof.HashFrom(last); err != nil {
				return err
			}
		}
		var (
			seqs   []int64
			bodies [][]byte
		)
		rows, _ := tx.Query(ctx, `SELECT seq, body::text FROM events WHERE encounter_id = $1::uuid AND seq > $2 ORDER BY seq`, id, after)
		for rows.Next() {
			var (
				seq  int64
				body string
			)
			if err := rows.Scan(&seq, &body); err != nil {
				rows.Close()
				return err
			}
			if want := after + 1 + int64(len(seqs)); seq != want {
				rows.Close()
				return fmt.Errorf("event %d follows %d", seq, want-1)
			}
			seqs, bodies = append(seqs, seq), append(bodies, []byte(body))
		}
		rows.Close()
		if err := rows.Err(); err != nil {
			return err
		}
		if len(seqs) == 0 {
			return nil
		}
		sealed, err := proof.Extend(prev, after+1, bodies)
		if err != nil {
			return err
		}
		salts, digests, links := sealedColumns(sealed)
		if _, err := tx.Exec(ctx, `
			UPDATE events v SET salt = c.salt, digest = c.digest, link = c.link
			FROM unnest($2::bigint[], $3::bytea[], $4::bytea[], $5::bytea[]) AS c (seq, salt, digest, link)
			WHERE v.encounter_id = $1::uuid AND v.seq = c.seq`, id, seqs, salts, digests, links); err != nil {
			return err
		}
		n = len(seqs)
		return nil
	})
	if fray.ErrorCode(err) == fray.ENOTFOUND {
		return 0, err
	}
	if err != nil {
		return 0, fmt.Errorf("store: chain log of %s: %w", id, err)
	}
	return n, nil
}

// ChainLogs chains every encounter's log that has unchained events (see
// ChainLog), and returns how many events it chained.
func (db *DB) ChainLogs(ctx context.Context) (int, error) {
	rows, _ := db.pool.Query(ctx, `SELECT DISTINCT encounter_id::text FROM events WHERE link IS NULL`)
	ids, err := pgx.CollectRows(rows, pgx.RowTo[string])
	if err != nil {
		return 0, fmt.Errorf("store: chain logs: %w", err)
	}
	total := 0
	for _, id := range ids {
		n, err := db.ChainLog(ctx, id)
		if err != nil {
			return total, err
		}
		total += n
	}
	return total, nil
}

func sealedColumns(sealed []proof.Sealed) (salts, digests, links [][]byte) {
	salts, digests, links = make([][]byte, len(sealed)), make([][]byte, len(sealed)), make([][]byte, len(sealed))
	for i := range sealed {
		salts[i], digests[i], links[i] = sealed[i].Salt[:], sealed[i].Digest[:], sealed[i].Link[:]
	}
	return salts, digests, links
}

// DiceSecret returns encounter id's dice secret (migration 0014), keeping
// fresh as the secret when it has none yet. Two servers that race keep the
// same one. An unknown encounter is ENOTFOUND.
func (db *DB) DiceSecret(ctx context.Context, id string, fresh dice.Seed) (dice.Seed, error) {
	if !validUUID(id) {
		return dice.Seed{}, encounterNotFound(id)
	}
	var secret []byte
	err := db.pool.QueryRow(ctx, `
		WITH kept AS (
			INSERT INTO dice_secrets (encounter_id, secret) VALUES ($1::uuid, $2)
			ON CONFLICT (encounter_id) DO NOTHING RETURNING secret
		)
		SELECT secret FROM kept
		UNION ALL SELECT secret FROM dice_secrets WHERE encounter_id = $1::uuid
		LIMIT 1`, id, fresh[:]).Scan(&secret)
	switch {
	case pgCode(err) == sqlForeignKeyViolation:
		return dice.Seed{}, encounterNotFound(id)
	case err != nil:
		return dice.Seed{}, fmt.Errorf("store: dice secret: %w", err)
	case len(secret) != len(dice.Seed{}):
		return dice.Seed{}, fmt.Errorf("store: dice secret of %d bytes", len(secret))
	}
	var s dice.Seed
	copy(s[:], secret)
	return s, nil
}
