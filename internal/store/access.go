package store

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/fray-vtt/fray/internal/fray"
)

// Credential is what a request signed in with: a browser session or a
// personal access token, each known by the SHA-256 of its token. Kept with
// a websocket, it lets the server check that the socket's user is still
// signed in by the same means.
type Credential struct {
	Kind string // CredentialSession or CredentialToken
	Hash []byte // the token's SHA-256 (TokenHashLen bytes)
}

// Credential kinds.
const (
	CredentialSession = "session"
	CredentialToken   = "token"
)

// AccessNotifyChannel is the channel on which every change that can take
// access away is announced, when it commits (by the triggers of migration
// 0006): a member's role, membership or characters, or the end of a session
// or API token, for each campaign of that member. The payload is
// "<campaign id>:<user id>:<the campaign's new access version>"; the version
// is -1 when the campaign itself was deleted.
const AccessNotifyChannel = "fray_access"

// Authenticate returns the user cred signs in at now and when the credential
// ends (zero for API tokens, which last until revoked). A session that is
// unknown or expired and a token that is unknown or revoked are EUNAUTHORIZED.
// Using a token is noted (see TokenUser).
func (db *DB) Authenticate(ctx context.Context, cred Credential, now time.Time) (User, time.Time, error) {
	switch cred.Kind {
	case CredentialSession:
		u, expires, err := db.session(ctx, cred.Hash, now)
		if fray.ErrorCode(err) == fray.ENOTFOUND {
			err = fray.Errorf(fray.EUNAUTHORIZED, "your session has ended: log in again")
		}
		return u, expires, err
	case CredentialToken:
		u, err := db.TokenUser(ctx, cred.Hash)
		if fray.ErrorCode(err) == fray.ENOTFOUND {
			err = fray.Errorf(fray.EUNAUTHORIZED, "that API token is not valid")
		}
		return u, time.Time{}, err
	}
	return User{}, time.Time{}, fray.Errorf(fray.EUNAUTHORIZED, "unknown kind of credential")
}

// Access is what a signed-in member may do in one campaign, read at one
// moment.
type Access struct {
	UserID     string
	Role       string   // RoleGM or RolePlayer
	Characters []string // the ids of the characters they own there, sorted; never nil
	// Players, for a GM, names the owner of every character another
	// member owns there (character id → account name): their decisions
	// are the players' to make (engine.Viewer.Players). Nil for players.
	Players map[string]string
	// Version is the campaign's access version it was read at. Every change
	// that can take access away increments it (see AccessNotifyChannel), and
	// an Append that names it commits only while it is current.
	Version int64
	Expires time.Time // when the credential ends; zero for API tokens
}

// Access reads, in one statement, whether cred still signs in user userID at
// now and what that user may do in campaign campaignID. A credential that no
// longer signs the user in is EUNAUTHORIZED; a user who is not a member of
// the campaign, an unknown campaign and malformed ids are ENOTFOUND
// (campaign not found).
func (db *DB) Access(ctx context.Context, cred Credential, userID, campaignID string, now time.Time) (Access, error) {
	got, err := db.Accesses(ctx, campaignID, []SignedIn{{Cred: cred, UserID: userID}}, now)
	if err != nil {
		return Access{}, err
	}
	return got[0].Access, got[0].Err
}

// SignedIn is a user whose access is asked for: the credential they signed
// in with, and who they are.
type SignedIn struct {
	Cred   Credential
	UserID string
}

// UserAccess is what Accesses found for one user: their access, or why
// they have none (Err, as Access's).
type UserAccess struct {
	Access
	Err error
}

// Accesses is Access for several users of one campaign at once, in one
// statement: a live encounter's sockets are checked again together when
// its campaign's access changes, not one query each. The result has one
// entry per user, in order. The error is for the statement as a whole.
func (db *DB) Accesses(ctx context.Context, campaignID string, members []SignedIn, now time.Time) ([]UserAccess, error) {
	out := make([]UserAccess, len(members))
	var (
		users, kinds []string
		hashes       [][]byte
		asked        []int // index in members of each row asked for
	)
	for i, m := range members {
		switch {
		case len(m.Cred.Hash) != TokenHashLen || (m.Cred.Kind != CredentialSession && m.Cred.Kind != CredentialToken) || !validUUID(m.UserID):
			out[i].Err = fray.Errorf(fray.EUNAUTHORIZED, "you are not signed in")
		case !validUUID(campaignID):
			out[i].Err = campaignNotFound(campaignID)
		default:
			users, kinds, hashes = append(users, m.UserID), append(kinds, m.Cred.Kind), append(hashes, m.Cred.Hash)
			asked = append(asked, i)
		}
	}
	if len(asked) == 0 {
		return out, nil
	}
	rows, err := db.pool.Query(ctx, `
		SELECT
			q.n,
			(SELECT access_version FROM campaigns WHERE id = $1::uuid),
			(SELECT role FROM campaign_members WHERE campaign_id = $1::uuid AND user_id = q.user_id),
			COALESCE((SELECT array_agg(o.character_id ORDER BY o.character_id COLLATE "C")
				FROM character_owners o WHERE o.campaign_id = $1::uuid AND o.user_id = q.user_id), '{}'),
			CASE WHEN q.kind = 'session' THEN
				(SELECT s.expires_at FROM sessions s JOIN users u ON u.id = s.user_id
					WHERE s.token_hash = q.hash AND s.user_id = q.user_id AND s.expires_at > $5 AND u.disabled_at IS NULL)
			END,
			q.kind = 'token' AND EXISTS (SELECT 1 FROM api_tokens t JOIN users u ON u.id = t.user_id
				WHERE t.token_hash = q.hash AND t.user_id = q.user_id AND t.revoked_at IS NULL AND u.disabled_at IS NULL),
			CASE WHEN (SELECT role FROM campaign_members WHERE campaign_id = $1::uuid AND user_id = q.user_id) = 'gm' THEN
				(SELECT json_object_agg(o.character_id, u.name) FROM character_owners o JOIN users u ON u.id = o.user_id
					WHERE o.campaign_id = $1::uuid AND o.user_id <> q.user_id)
			END
		FROM unnest($2::uuid[], $3::text[], $4::bytea[]) WITH ORDINALITY AS q(user_id, kind, hash, n)`,
		campaignID, users, kinds, hashes, now)
	if err != nil {
		return nil, fmt.Errorf("store: access: %w", err)
	}
	defer rows.Close()
	for rows.Next() {
		var (
			n       int64
			a       Access
			role    *string
			expires *time.Time
			version *int64
			tokenOK bool
		)
		if err := rows.Scan(&n, &version, &role, &a.Characters, &expires, &tokenOK, &a.Players); err != nil {
			return nil, fmt.Errorf("store: access: %w", err)
		}
		if n < 1 || n > int64(len(asked)) {
			return nil, fmt.Errorf("store: access: row %d of %d", n, len(asked))
		}
		i := asked[n-1]
		a.UserID = members[i].UserID
		cred := members[i].Cred
		switch {
		case cred.Kind == CredentialSession && expires == nil:
			out[i].Err = fray.Errorf(fray.EUNAUTHORIZED, "your session has ended: log in again")
			continue
		case cred.Kind == CredentialToken && !tokenOK:
			out[i].Err = fray.Errorf(fray.EUNAUTHORIZED, "that API token is not valid")
			continue
		case version == nil || role == nil:
			out[i].Err = campaignNotFound(campaignID)
			continue
		}
		a.Role, a.Version = *role, *version
		if expires != nil {
			a.Expires = *expires
		}
		if a.Characters == nil {
			a.Characters = []string{}
		}
		out[i].Access = a
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("store: access: %w", err)
	}
	return out, nil
}

// session returns the user of an unexpired session and when it expires.
func (db *DB) session(ctx context.Context, tokenHash []byte, now time.Time) (User, time.Time, error) {
	if len(tokenHash) != TokenHashLen {
		return User{}, time.Time{}, sessionNotFound()
	}
	var expires time.Time
	var u User
	err := db.pool.QueryRow(ctx, `
		SELECT `+userColumns+`, s.expires_at
		FROM sessions s JOIN users u ON u.id = s.user_id
		WHERE s.token_hash = $1 AND s.expires_at > $2 AND u.disabled_at IS NULL`, tokenHash, now).
		Scan(&u.ID, &u.Name, &u.PasswordHash, &u.CreatedAt, &u.PasswordChangedAt, &u.DisabledAt, &expires)
	if errors.Is(err, pgx.ErrNoRows) {
		return User{}, time.Time{}, sessionNotFound()
	}
	if err != nil {
		return User{}, time.Time{}, fmt.Errorf("store: session: %w", err)
	}
	return u, expires, nil
}
