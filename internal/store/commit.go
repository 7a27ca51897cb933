package store

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"

	"github.com/fray-vtt/fray/internal/fray"
	"github.com/fray-vtt/fray/internal/proof"
)

// CommitConfig tunes group commit: commands of different encounters that
// arrive together share one transaction, and so one WAL flush.
type CommitConfig struct {
	// MaxWait bounds how long a command waits for others to share its
	// transaction while another one is committing (default 1 ms). With
	// nothing committing, a command goes at once.
	MaxWait time.Duration
	// MaxBatch is the most commands in one transaction (default 64).
	MaxBatch int
	// InFlight is how many transactions may commit at once (default 2).
	InFlight int
	// Timeout bounds one transaction, COMMIT included (default 20 s).
	Timeout time.Duration
}

func (c CommitConfig) withDefaults() CommitConfig {
	if c.MaxWait <= 0 {
		c.MaxWait = time.Millisecond
	}
	if c.MaxBatch <= 0 {
		c.MaxBatch = 64
	}
	if c.InFlight <= 0 {
		c.InFlight = 2
	}
	if c.Timeout <= 0 {
		c.Timeout = 20 * time.Second
	}
	return c
}

// appendSQL writes a batch of commands (of different encounters) in one
// statement that never fails because of one of them: each command's
// pre-checks — its encounter exists and is not locked against appends
// (store.Settle, a carry-over decision), its sender has not used its id
// before, the encounter's log still ends at the seq it was decided on, the
// campaign's access version is still the sender's — decide whether its
// command id, events, status change and snapshot are written; the result
// says, per command, what was found. A written command's notices
// (Append.Notices) are written with it when its campaign has anyone to tell
// (subscribedSQL). Only a race with another server
// instance (the same event seq or command id inserted concurrently) fails
// the statement, and then each command is written alone.
//
// The encounter row is locked FOR KEY SHARE (the events' foreign key would
// take the same lock): appends to one encounter do not block each other,
// but Settle and DecideCarryOver, which lock it FOR UPDATE, wait for them
// and hold them off. In a batch, a row locked that way is skipped (its
// command is written alone, waiting) rather than holding up the others.
const appendSQLTemplate = `
WITH c AS (
	SELECT * FROM unnest($1::int[], $2::uuid[], $3::bigint[], $4::text[], $5::text[], $6::bigint[], $7::int[], $8::text[], $22::bytea[])
		AS c (i, enc, expect, sender, cmd, access, n, status, prev)
), locked AS (
	SELECT e.id, e.campaign_id FROM encounters e WHERE e.id IN (SELECT enc FROM c)
	FOR KEY SHARE OF e %s
), chk AS (
	SELECT c.*,
		EXISTS (SELECT 1 FROM encounters x WHERE x.id = c.enc) AS found,
		l.id IS NOT NULL AS locked,
		COALESCE(t.seq, 0) AS last,
		c.expect = 0 OR COALESCE(t.seq = c.expect AND t.link = c.prev, false) AS linked,
		(SELECT m.seq FROM commands m
			WHERE c.cmd <> '' AND m.encounter_id = c.enc AND m.sender IN (c.sender, '') AND m.command_id = c.cmd
			ORDER BY m.sender DESC LIMIT 1) AS done,
		COALESCE((SELECT a.access_version FROM campaigns a WHERE a.id = l.campaign_id), 0) AS cur_access,
		l.campaign_id
	FROM c LEFT JOIN locked l ON l.id = c.enc
	-- The log's last event: its seq, and the link the command's chain
	-- must extend (one probe of the index for both).
	LEFT JOIN LATERAL (SELECT v.seq, v.link FROM events v WHERE v.encounter_id = c.enc ORDER BY v.seq DESC LIMIT 1) t ON true
), ok AS (
	SELECT * FROM chk
	WHERE found AND locked AND done IS NULL AND last = expect AND linked AND (access = 0 OR access = cur_access)
), cmds AS (
	INSERT INTO commands (encounter_id, sender, command_id, seq)
	SELECT enc, sender, cmd, expect + n FROM ok WHERE cmd <> ''
), evs AS (
	INSERT INTO events (encounter_id, seq, kind, actor, round, body, command_id, salt, digest, link)
	SELECT ok.enc, ok.expect + v.k, v.kind, NULLIF(v.actor, ''), v.round, v.body, NULLIF(ok.cmd, ''), v.salt, v.digest, v.link
	FROM unnest($9::int[], $10::int[], $11::text[], $12::text[], $13::int[], $14::jsonb[], $23::bytea[], $24::bytea[], $25::bytea[])
		AS v (i, k, kind, actor, round, body, salt, digest, link)
	JOIN ok ON ok.i = v.i
), sts AS (
	UPDATE encounters e SET status = ok.status, updated_at = now()
	FROM ok WHERE e.id = ok.enc AND ok.status <> ''
), snaps AS (
	INSERT INTO snapshots (encounter_id, seq, state)
	SELECT ok.enc, ok.expect + ok.n, s.state
	FROM unnest($15::int[], $16::jsonb[]) AS s (i, state) JOIN ok ON ok.i = s.i
	ON CONFLICT (encounter_id, seq) DO NOTHING
), ntc AS (
	INSERT INTO notices (encounter_id, seq, type, user_id, data)
	SELECT ok.enc, ok.expect + n.k, n.type, NULLIF(n.usr, '')::uuid, n.data
	FROM unnest($17::int[], $18::int[], $19::text[], $20::text[], $21::jsonb[]) AS n (i, k, type, usr, data)
	JOIN ok ON ok.i = n.i
	WHERE ` + subscribedSQL + `
	RETURNING 1
)
SELECT i, found, locked, last, linked, done, cur_access, (SELECT count(*) FROM ntc) FROM chk`

var (
	appendBatchSQL = fmt.Sprintf(appendSQLTemplate, "SKIP LOCKED")
	appendAloneSQL = fmt.Sprintf(appendSQLTemplate, "")
)

// pending is a command waiting for its transaction.
type pending struct {
	a      Append
	bodies [][]byte
	prev   proof.Hash     // the link the chain extends: of event ExpectSeq
	chain  []proof.Sealed // one per event
	newSeq int64
	done   chan outcome
}

type outcome struct {
	r   Appended
	err error
}

// CommitStats counts what group commit did since the database was opened.
type CommitStats struct {
	Transactions int64 // batches written in one transaction
	Commands     int64 // commands in them
	Alone        int64 // commands written again alone (a race with another instance, a locked encounter)
}

// CommitStats reports what group commit did so far.
func (db *DB) CommitStats() CommitStats {
	c := db.commits
	return CommitStats{Transactions: c.txs.Load(), Commands: c.cmds.Load(), Alone: c.alones.Load()}
}

// committer groups appends into transactions (see CommitConfig).
type committer struct {
	txs, cmds, alones atomic.Int64

	db   *DB
	cfg  CommitConfig
	in   chan *pending
	stop chan struct{}
	wg   sync.WaitGroup // the dispatcher and every transaction

	mu     sync.RWMutex // held to queue; closing takes it exclusively
	closed bool
}

func newCommitter(db *DB, cfg CommitConfig) *committer {
	c := &committer{db: db, cfg: cfg.withDefaults(), in: make(chan *pending, 1024), stop: make(chan struct{})}
	c.wg.Add(1)
	go c.dispatch()
	return c
}

// close commits what was queued, then stops.
func (c *committer) close() {
	c.mu.Lock()
	if c.closed {
		c.mu.Unlock()
		return
	}
	c.closed = true
	c.mu.Unlock()
	close(c.stop)
	c.wg.Wait()
}

// submit queues p and waits for its outcome. When ctx ends first the
// outcome is unknown: p may still commit.
func (c *committer) submit(ctx context.Context, p *pending) (Appended, error) {
	c.mu.RLock()
	if c.closed {
		c.mu.RUnlock()
		return Appended{}, fray.Errorf(fray.EUNAVAILABLE, "the server is shutting down")
	}
	select {
	case c.in <- p:
		c.mu.RUnlock()
	case <-ctx.Done():
		c.mu.RUnlock()
		return Appended{}, ctx.Err() // not queued: nothing written
	}
	select {
	case o := <-p.done:
		return o.r, o.err
	case <-ctx.Done():
		return Appended{}, fmt.Errorf("%w: %w: %w",
			fray.Errorf(fray.EOUTCOMEUNKNOWN, "your command was being saved when the request ended: resend it with the same id"),
			ErrOutcomeUnknown, ctx.Err())
	}
}

// dispatch forms batches. A command goes at once when no transaction is
// committing; otherwise it waits at most MaxWait for others to join it (or
// until the batch is full), then for a free transaction slot, taking in
// what arrives meanwhile.
func (c *committer) dispatch() {
	defer c.wg.Done()
	slots := make(chan struct{}, c.cfg.InFlight)
	wait := time.NewTimer(time.Hour)
	wait.Stop()
	var next *pending // arrived when the batch was full
	for {
		first := next
		next = nil
		if first == nil {
			select {
			case first = <-c.in:
			case <-c.stop:
				select {
				case first = <-c.in: // commit what is queued before stopping
				default:
					for range c.cfg.InFlight {
						slots <- struct{}{} // wait for the transactions in flight
					}
					return
				}
			}
		}
		batch := []*pending{first}
		take := func(p *pending) {
			if len(batch) < c.cfg.MaxBatch {
				batch = append(batch, p)
			} else {
				next = p
			}
		}
	drain:
		for len(batch) < c.cfg.MaxBatch {
			select {
			case p := <-c.in:
				take(p)
			default:
				break drain
			}
		}
		if len(slots) > 0 && len(batch) < c.cfg.MaxBatch {
			wait.Reset(c.cfg.MaxWait)
		gather:
			for len(batch) < c.cfg.MaxBatch {
				select {
				case p := <-c.in:
					take(p)
				case <-wait.C:
					break gather
				}
			}
			if !wait.Stop() {
				select {
				case <-wait.C:
				default:
				}
			}
		}
	slot:
		for next == nil { // a full batch stops taking commands in
			select {
			case slots <- struct{}{}:
				break slot
			case p := <-c.in:
				take(p)
			}
		}
		if next != nil {
			slots <- struct{}{}
		}
		c.wg.Add(1)
		go func(batch []*pending) {
			defer c.wg.Done()
			again := c.commit(batch)
			// The batch's transaction is over: the commands written again
			// alone may wait for an encounter's lock (Settle, a carry-over
			// decision), and must not hold up other encounters' batches.
			<-slots
			if len(again) > 0 {
				c.alone(again)
			}
		}(batch)
	}
}

// verdict is what the batch statement found about one command.
type verdict struct {
	found, locked bool
	last          int64
	linked        bool // the log's last link is the one the command's chain extends
	done          *int64
	access        int64
	noticed       int64 // notices the batch wrote (the same for each command)
}

// commit writes a batch in one transaction and answers every command but
// those it returns, which are to be written again, each alone.
func (c *committer) commit(batch []*pending) []*pending {
	ctx, cancel := context.WithTimeout(context.Background(), c.cfg.Timeout)
	defer cancel()
	c.txs.Add(1)
	c.cmds.Add(int64(len(batch)))
	verdicts, err := c.write(ctx, batch, appendBatchSQL)
	var pe *pgconn.PgError
	switch {
	case err == nil:
	case errors.As(err, &pe) && len(batch) > 1:
		// A race with another server instance (or a command the database
		// refused): nothing was written; each command goes alone, so that
		// only the one concerned fails.
		return batch
	case errors.As(err, &pe):
		batch[0].done <- outcome{err: c.db.aloneFailed(ctx, batch[0], err)}
		return nil
	default:
		for _, p := range batch {
			p.done <- outcome{err: err}
		}
		return nil
	}
	var retry []*pending
	for i, p := range batch {
		v := verdicts[i]
		if v.found && !v.locked && v.done == nil {
			retry = append(retry, p) // its encounter is locked against appends: wait alone
			continue
		}
		p.done <- c.judge(p, v)
	}
	return retry
}

// alone writes each command in a transaction of its own, concurrently.
func (c *committer) alone(batch []*pending) {
	c.alones.Add(int64(len(batch)))
	var wg sync.WaitGroup
	for _, p := range batch {
		wg.Go(func() {
			ctx, cancel := context.WithTimeout(context.Background(), c.cfg.Timeout)
			defer cancel()
			verdicts, err := c.write(ctx, []*pending{p}, appendAloneSQL)
			if err != nil {
				p.done <- outcome{err: c.db.aloneFailed(ctx, p, err)}
				return
			}
			p.done <- c.judge(p, verdicts[0])
		})
	}
	wg.Wait()
}

// judge turns a committed batch's verdict on p into p's outcome.
func (c *committer) judge(p *pending, v verdict) outcome {
	a := p.a
	switch {
	case !v.found:
		return outcome{err: encounterNotFound(a.EncounterID)}
	case v.done != nil:
		return outcome{r: Appended{Seq: *v.done}, err: duplicate(a.CommandID, *v.done)}
	case v.last != a.ExpectSeq:
		return outcome{err: fray.Errorf(fray.ECONFLICT, "encounter changed concurrently (it is at seq %d, not %d)", v.last, a.ExpectSeq)}
	case !v.linked:
		// Decided on a chain head that is not the log's: reload and decide again.
		return outcome{err: fray.Errorf(fray.ECONFLICT, "encounter changed concurrently (its chain does not end where the command was decided)")}
	case a.Access != 0 && v.access != a.Access:
		return outcome{err: fmt.Errorf("%w: %w", fray.Errorf(fray.ECONFLICT, "your access to this campaign changed; try again"), ErrAccessChanged)}
	}
	if len(a.Events) > 0 {
		c.db.notes.post(a.EncounterID, p.newSeq)
	}
	return outcome{r: Appended{Seq: p.newSeq, Access: v.access}}
}

func duplicate(commandID string, seq int64) error {
	return fmt.Errorf("%w: %w", fray.Errorf(fray.ECONFLICT, "command %q was already applied (seq %d)", commandID, seq), ErrDuplicateCommand)
}

// aloneFailed explains why a command written alone failed.
func (db *DB) aloneFailed(ctx context.Context, p *pending, err error) error {
	a := p.a
	var pe *pgconn.PgError
	if !errors.As(err, &pe) {
		return err // unavailable, or the outcome is unknown
	}
	switch {
	case pe.Code == sqlUniqueViolation && strings.HasPrefix(pe.ConstraintName, "commands"):
		// The same sender's id, committed concurrently elsewhere.
		seq, found, lerr := db.CommandSeq(ctx, a.EncounterID, a.Sender, a.CommandID)
		if lerr != nil {
			return lerr
		}
		if !found {
			return encounterNotFound(a.EncounterID)
		}
		return duplicate(a.CommandID, seq)
	case pe.Code == sqlUniqueViolation:
		return fray.Errorf(fray.ECONFLICT, "encounter changed concurrently")
	case pe.Code == sqlForeignKeyViolation:
		return encounterNotFound(a.EncounterID)
	}
	return fmt.Errorf("store: append: %w", err)
}

// write runs sql over the batch in one transaction and commits it. Its
// error is a *pgconn.PgError when the database refused (nothing written),
// wraps ErrOutcomeUnknown when the connection failed once the batch, COMMIT
// with it, was on its way, and is anything else (nothing written) when it
// failed before anything was sent.
func (c *committer) write(ctx context.Context, batch []*pending, sql string) ([]verdict, error) {
	var (
		is, ns                   []int32
		encs, senders, cmds, sts []string
		expects, accesses        []int64
		evI, evK, evRound        []int32
		evKind, evActor          []string
		evBody                   [][]byte
		prevs                    [][]byte
		evSalt, evDigest, evLink [][]byte
		snapI                    []int32
		snaps                    [][]byte
		ntI, ntK                 []int32
		ntType, ntUser           []string
		ntData                   [][]byte
	)
	for i, p := range batch {
		a := p.a
		is, encs, expects, senders, cmds = append(is, int32(i)), append(encs, a.EncounterID), append(expects, a.ExpectSeq),
			append(senders, a.Sender), append(cmds, a.CommandID)
		accesses, ns, sts = append(accesses, a.Access), append(ns, int32(len(a.Events))), append(sts, a.Status)
		prevs = append(prevs, p.prev[:])
		for k, ev := range a.Events {
			evI, evK, evKind, evActor, evRound, evBody = append(evI, int32(i)), append(evK, int32(k+1)), append(evKind, ev.Kind),
				append(evActor, ev.Actor), append(evRound, int32(ev.Round)), append(evBody, p.bodies[k])
			evSalt, evDigest, evLink = append(evSalt, p.chain[k].Salt[:]), append(evDigest, p.chain[k].Digest[:]), append(evLink, p.chain[k].Link[:])
		}
		if a.Snapshot != nil {
			snapI, snaps = append(snapI, int32(i)), append(snaps, a.Snapshot)
		}
		for _, n := range a.Notices {
			ntI, ntK, ntType, ntUser, ntData = append(ntI, int32(i)), append(ntK, int32(n.Seq-a.ExpectSeq)), append(ntType, string(n.Type)),
				append(ntUser, n.User), append(ntData, []byte(n.Data))
		}
	}

	// One round trip: BEGIN, the statement and COMMIT go together. A
	// statement PostgreSQL refuses makes it skip the rest of the batch, so
	// COMMIT only runs after a statement that succeeded.
	conn, err := c.db.pool.Acquire(ctx)
	if err != nil {
		return nil, fmt.Errorf("store: append: %w", err) // nothing sent
	}
	defer conn.Release()
	b := &pgx.Batch{}
	b.Queue(`BEGIN`)
	// Planning the statement for its arrays' values would cost more than
	// running it, every time: its generic plan suits any batch.
	b.Queue(`SET LOCAL plan_cache_mode = force_generic_plan`)
	b.Queue(sql, is, encs, expects, senders, cmds, accesses, ns, sts,
		evI, evK, evKind, evActor, evRound, evBody, snapI, snaps, ntI, ntK, ntType, ntUser, ntData, prevs, evSalt, evDigest, evLink)
	b.Queue(`COMMIT`)
	br := conn.SendBatch(ctx, b)
	defer func() {
		_ = br.Close()
		if pc := conn.Conn().PgConn(); !pc.IsClosed() && pc.TxStatus() != 'I' {
			// Refused: end the failed transaction, keeping the connection.
			rctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), 5*time.Second)
			_, _ = conn.Exec(rctx, `ROLLBACK`)
			cancel()
		}
	}()
	// failed says what a failure means. Only PostgreSQL's own answer, or
	// a failure before anything was sent, says the batch was not
	// committed: once COMMIT is on its way, a lost connection leaves the
	// outcome unknown.
	// Sending failed only shows in the first result, and only pgx's "safe
	// to retry" there (nothing was written to the connection) is believed.
	sent := false
	failed := func(err error) error {
		var pe *pgconn.PgError
		if errors.As(err, &pe) || !sent && pgconn.SafeToRetry(err) {
			return fmt.Errorf("store: append: %w", err)
		}
		return fmt.Errorf("%w: %w: %w",
			fray.Errorf(fray.EOUTCOMEUNKNOWN, "the database connection failed while your command was being saved: resend it with the same id"),
			ErrOutcomeUnknown, err)
	}
	for range 2 { // BEGIN, SET LOCAL
		if _, err := br.Exec(); err != nil {
			return nil, failed(err)
		}
		sent = true
	}
	verdicts := make([]verdict, len(batch))
	noticed := false
	rows, err := br.Query()
	if err != nil {
		return nil, failed(err)
	}
	for rows.Next() {
		var i int32
		var v verdict
		if err := rows.Scan(&i, &v.found, &v.locked, &v.last, &v.linked, &v.done, &v.access, &v.noticed); err != nil {
			rows.Close()
			return nil, failed(err)
		}
		verdicts[i] = v
		noticed = noticed || v.noticed > 0
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return nil, failed(err)
	}
	if _, err := br.Exec(); err != nil { // COMMIT
		return nil, failed(err)
	}
	if err := br.Close(); err != nil {
		return nil, failed(err)
	}
	if noticed {
		c.db.noticesWritten()
	}
	return verdicts, nil
}
