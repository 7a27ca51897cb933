package server

import (
	"context"
	"errors"
	"net/http"
	"slices"
	"time"

	"github.com/go-chi/chi/v5"

	"github.com/fray-vtt/fray/internal/engine"
	"github.com/fray-vtt/fray/internal/fray"
	"github.com/fray-vtt/fray/internal/play"
	"github.com/fray-vtt/fray/internal/realtime"
	"github.com/fray-vtt/fray/internal/store"
)

// Access says who may do what; *store.DB is one.
type Access interface {
	// Access reads, in one statement, whether cred still signs in user
	// userID and their role and characters in campaign campaignID:
	// EUNAUTHORIZED for an ended credential, ENOTFOUND for a non-member.
	Access(ctx context.Context, cred store.Credential, userID, campaignID string, now time.Time) (store.Access, error)
	// Accesses is Access for several users of one campaign, in one
	// statement: one answer per user, in order.
	Accesses(ctx context.Context, campaignID string, users []store.SignedIn, now time.Time) ([]store.UserAccess, error)
	// EncounterCampaign is the campaign of an encounter; ENOTFOUND for none.
	EncounterCampaign(ctx context.Context, id string) (string, error)
	// AssetHolders are the campaigns that hold a picture, and who uploaded
	// it to each; none for an unknown one.
	AssetHolders(ctx context.Context, id string) ([]store.AssetHolder, error)
}

// membership is a signed-in user's place in one campaign.
type membership struct {
	user       *store.User
	principal  *principal
	campaign   string
	role       string
	characters []string // the characters they own there
}

func (m membership) gm() bool { return m.role == store.RoleGM }

// member resolves the signed-in user's role in campaignID. Non-members are
// told the campaign does not exist, so its existence is not revealed. On
// error it has answered.
func (s *Server) member(w http.ResponseWriter, r *http.Request, campaignID string) (membership, bool) {
	if _, ok := requireUser(w, r); !ok {
		return membership{}, false
	}
	p := principalFrom(r)
	a, err := s.Access.Access(r.Context(), p.cred, p.user.ID, campaignID, time.Now())
	if err != nil {
		if errCode(err) == fray.ENOTFOUND {
			err = fray.Errorf(fray.ENOTFOUND, "no such campaign")
		}
		writeError(w, r, err)
		return membership{}, false
	}
	return membership{user: p.user, principal: p, campaign: campaignID, role: a.Role, characters: a.Characters}, true
}

// gmOf is member, refusing anyone but the campaign's GMs.
func (s *Server) gmOf(w http.ResponseWriter, r *http.Request, campaignID string) (membership, bool) {
	m, ok := s.member(w, r, campaignID)
	if ok && !m.gm() {
		writeError(w, r, fray.Errorf(fray.EFORBIDDEN, "only the campaign's GMs may do that"))
		return membership{}, false
	}
	return m, ok
}

// encounterGM resolves the request's encounter {id} for a GM of its
// campaign; anyone else is refused (non-members with 404). On error it has
// answered.
func (s *Server) encounterGM(w http.ResponseWriter, r *http.Request) (membership, string, bool) {
	if _, ok := requireUser(w, r); !ok {
		return membership{}, "", false
	}
	id := chi.URLParam(r, "id")
	campaignID, err := s.Access.EncounterCampaign(r.Context(), id)
	if err != nil {
		writeError(w, r, err)
		return membership{}, "", false
	}
	m, ok := s.gmOf(w, r, campaignID)
	return m, id, ok
}

// viewedEncounter is the encounter of a request's {id} as its user sees it.
type viewedEncounter struct {
	membership
	id      string
	as      string // the ?as= a GM previews the page with, "" otherwise
	ruleset engine.Ruleset
	state   engine.State
	grant
}

// grant is what a member may do in one encounter, as of one access version.
type grant struct {
	viewer  engine.Viewer
	access  int64     // the campaign's access version it was granted at
	expires time.Time // when the credential ends; zero for API tokens
}

// noSuchEncounter is what anyone who may not see an encounter is told,
// whether it exists or not.
func noSuchEncounter() error { return fray.Errorf(fray.ENOTFOUND, "no such encounter") }

// loader reads an encounter's current state: the live table's
// (Table.Current) for play, the stored one (History.Latest) for history.
type loader func(ctx context.Context, id string) (engine.Ruleset, engine.State, error)

// viewed loads the request's encounter with load and the viewer its user
// is: the GM (who may preview as a player character with ?as=ID), or a
// player commanding the characters they own in the campaign. An unknown
// encounter and one the user may not see (a stranger's) get the same 404.
// On error it has answered.
func (s *Server) viewed(w http.ResponseWriter, r *http.Request, load loader) (viewedEncounter, bool) {
	if _, ok := requireUser(w, r); !ok {
		return viewedEncounter{}, false
	}
	p := principalFrom(r)
	id := chi.URLParam(r, "id")
	campaignID, err := s.Access.EncounterCampaign(r.Context(), id)
	if errCode(err) == fray.ENOTFOUND {
		err = noSuchEncounter()
	}
	if err != nil {
		writeError(w, r, err)
		return viewedEncounter{}, false
	}
	// Access first: a stranger's request must not load the encounter.
	a, err := s.access(r.Context(), p, campaignID)
	if err != nil {
		writeError(w, r, err)
		return viewedEncounter{}, false
	}
	rs, st, err := load(r.Context(), id)
	if err != nil {
		writeError(w, r, err)
		return viewedEncounter{}, false
	}
	e := viewedEncounter{id: id, ruleset: rs, state: st,
		membership: membership{user: p.user, principal: p, campaign: campaignID, role: a.Role, characters: a.Characters}}
	if e.grant, err = grantFrom(a, st, r.URL.Query().Get("as"), p.user.Name); err != nil {
		writeError(w, r, err)
		return viewedEncounter{}, false
	}
	if !e.viewer.GM && e.gm() {
		e.as = e.viewer.Controls[0]
	}
	return e, true
}

// access reads what p's user may do now in campaign campaignID. A user who
// is not a member is told the encounter does not exist; one whose
// credential ended is EUNAUTHORIZED.
func (s *Server) access(ctx context.Context, p *principal, campaignID string) (store.Access, error) {
	a, err := s.Access.Access(ctx, p.cred, p.user.ID, campaignID, time.Now())
	if fray.ErrorCode(err) == fray.ENOTFOUND {
		err = noSuchEncounter()
	}
	return a, err
}

// grantFrom is the viewer access a gives in encounter state st: a GM
// commands everything, or previews as the player character as; a player
// commands the characters they own there. name is the user's, for the
// table chat.
func grantFrom(a store.Access, st engine.State, as, name string) (grant, error) {
	g := grant{access: a.Version, expires: a.Expires}
	if a.Role == store.RoleGM {
		g.viewer = engine.GMViewer()
		// The decisions of characters players own are theirs: the GM
		// takes one over only deliberately.
		for cid, player := range a.Players {
			if st.Core().Combatant(cid) != nil {
				if g.viewer.Players == nil {
					g.viewer.Players = map[string]string{}
				}
				g.viewer.Players[cid] = player
			}
		}
		if as != "" && as != engine.GM {
			c := st.Core().Combatant(as)
			if c == nil || !c.PC {
				return grant{}, fray.Errorf(fray.EINVALID, "preview as %q, or as one of the player characters", engine.GM)
			}
			g.viewer = engine.PlayerViewer(c.ID)
		}
		g.viewer.Name = name // chat messages carry it
		return g, nil
	}
	owned := slices.DeleteFunc(slices.Clone(a.Characters), func(cid string) bool { return st.Core().Combatant(cid) == nil })
	g.viewer = engine.PlayerViewer(owned...)
	g.viewer.Name = name
	return g, nil
}

// regrant reads e's user's access again, e.g. after it changed under a
// command, keeping e's preview.
func (s *Server) regrant(ctx context.Context, e *viewedEncounter) error {
	a, err := s.access(ctx, e.principal, e.campaign)
	if err != nil {
		return err
	}
	_, st, err := s.Table.Current(ctx, e.id)
	if err != nil {
		return err
	}
	g, err := grantFrom(a, st, e.as, e.principal.user.Name)
	if err != nil {
		return err
	}
	e.role, e.characters, e.grant, e.state = a.Role, a.Characters, g, st
	return nil
}

// socketGrantee is the user of an encounter's websocket session as the hub
// grants them their access again (realtime.Grantee): the sessions of one
// encounter in one query, whatever how many the access change concerns.
type socketGrantee struct {
	s *Server
	e viewedEncounter
}

// newSocketGrantee is the grantee of a session opened as e. It keeps who
// the user is, not the state e was read at: a session lives for hours, and
// a state it held would stay in memory beside every later one.
func newSocketGrantee(s *Server, e viewedEncounter) *socketGrantee {
	e.state, e.ruleset = nil, nil
	return &socketGrantee{s: s, e: e}
}

// Regrant implements realtime.Grantee. The hub groups sessions by
// encounter, and every Grantee of this server's sessions is a
// *socketGrantee.
func (g *socketGrantee) Regrant(ctx context.Context, all []realtime.Grantee) []realtime.Regranted {
	out := make([]realtime.Regranted, len(all))
	each := make([]*socketGrantee, len(all))
	users := make([]store.SignedIn, len(all))
	for i, a := range all {
		each[i] = a.(*socketGrantee)
		users[i] = store.SignedIn{Cred: each[i].e.principal.cred, UserID: each[i].e.user.ID}
	}
	accesses, err := g.s.Access.Accesses(ctx, g.e.campaign, users, time.Now())
	var st engine.State
	if err == nil {
		_, st, err = g.s.Table.Current(ctx, g.e.id)
	}
	for i, o := range each {
		var gr grant
		switch {
		case err != nil:
			out[i].Err = err
		case accesses[i].Err != nil:
			out[i].Err = accesses[i].Err
			if fray.ErrorCode(out[i].Err) == fray.ENOTFOUND {
				out[i].Err = noSuchEncounter()
			}
		default:
			gr, out[i].Err = grantFrom(accesses[i].Access, st, o.e.as, o.e.user.Name)
			out[i].Grant = realtime.Grant{Viewer: gr.viewer, Access: gr.access, Expires: gr.expires}
		}
	}
	return out
}

// submit runs a command for the user of e, as e's viewer. If the user's
// access changed since e was read, it reads it again and decides the
// command with the current viewer, so a command is never judged by access
// the user no longer has.
func (s *Server) submit(ctx context.Context, e *viewedEncounter, cmdID string, cmd engine.Command) (int64, error) {
	for attempt := 0; ; attempt++ {
		seq, err := s.Table.Submit(ctx, e.id, play.Sender{User: e.user.ID, Viewer: e.viewer, Access: e.access}, cmdID, cmd)
		if !errors.Is(err, play.ErrAccessChanged) || attempt == 3 {
			return seq, err
		}
		if err := s.regrant(ctx, e); err != nil {
			return 0, err
		}
	}
}
