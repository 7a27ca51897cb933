package server

import (
	"context"
	"net/http"

	"github.com/go-chi/chi/v5"

	"github.com/fray-vtt/fray/internal/notify"
	"github.com/fray-vtt/fray/web"
)

// Notices are each member's notice settings — an e-mail address, the
// browsers subscribed to push, and per campaign the channels chosen;
// *notify.Service keeps them. The handlers check membership before
// SetChannels.
type Notices interface {
	Settings(ctx context.Context, userID string) (notify.Settings, error)
	// SetChannels records the channels userID wants campaignID's notices
	// on: EINVALID for one the server does not offer, or e-mail without an
	// address.
	SetChannels(ctx context.Context, userID, campaignID string, push, email bool) error
	// SetEmail sets userID's e-mail address ("" removes it); EINVALID for
	// anything but a plain address.
	SetEmail(ctx context.Context, userID, email string) error
	// Subscribe keeps a browser's push subscription (its endpoint checked
	// like a webhook's URL); Unsubscribe forgets it by its endpoint.
	Subscribe(ctx context.Context, userID, endpoint, p256dh, auth string) error
	Unsubscribe(ctx context.Context, userID, endpoint string) error
}

// handleNotificationsPage shows where the user is told of their turns
// while Fray is closed: GET /account/notifications.
func (s *Server) handleNotificationsPage(w http.ResponseWriter, r *http.Request) {
	u, ok := requireUser(w, r)
	if !ok {
		return
	}
	set, err := s.Notices.Settings(r.Context(), u.ID)
	if err != nil {
		writeError(w, r, err)
		return
	}
	p := web.NotificationsProps{Email: set.Email, EmailOffered: set.EmailOffered, PushKey: set.PushKey, Browsers: set.Browsers,
		Notice: takeFlash(w, r, flashNotice), Error: takeFlash(w, r, flashError)}
	for _, c := range set.Campaigns {
		p.Campaigns = append(p.Campaigns, web.NoticeCampaign{ID: c.CampaignID, Name: c.CampaignName, Role: c.Role, Push: c.Push, Email: c.Email})
	}
	render(w, r, web.Notifications(p))
}

func notificationsRedirect(w http.ResponseWriter, r *http.Request, key, msg string) {
	setFlash(w, r, key, msg)
	http.Redirect(w, r, "/account/notifications", http.StatusSeeOther)
}

// handleSetEmail: POST /account/notifications/email (email).
func (s *Server) handleSetEmail(w http.ResponseWriter, r *http.Request) {
	u, ok := requireUser(w, r)
	if !ok {
		return
	}
	if err := s.Notices.SetEmail(r.Context(), u.ID, r.PostFormValue("email")); err != nil {
		if serverFault(err) {
			writeError(w, r, err)
			return
		}
		notificationsRedirect(w, r, flashError, errMessage(err))
		return
	}
	notificationsRedirect(w, r, flashNotice, "E-mail address saved.")
}

// handleSetChannels: POST /account/notifications/{id} (push, email:
// checked or not; members of campaign id).
func (s *Server) handleSetChannels(w http.ResponseWriter, r *http.Request) {
	m, ok := s.member(w, r, chi.URLParam(r, "id"))
	if !ok {
		return
	}
	err := s.Notices.SetChannels(r.Context(), m.user.ID, m.campaign, r.PostFormValue("push") == "on", r.PostFormValue("email") == "on")
	if err != nil {
		if serverFault(err) {
			writeError(w, r, err)
			return
		}
		notificationsRedirect(w, r, flashError, errMessage(err))
		return
	}
	notificationsRedirect(w, r, flashNotice, "Notices saved.")
}

// noticeSettingsJSON is GET /api/notifications's answer.
type noticeSettingsJSON struct {
	Email        string               `json:"email"`
	EmailOffered bool                 `json:"emailOffered"`
	PushKey      string               `json:"pushKey"`
	Browsers     int                  `json:"browsers"`
	Campaigns    []noticeCampaignJSON `json:"campaigns"`
}

type noticeCampaignJSON struct {
	ID    string `json:"id"`
	Name  string `json:"name"`
	Role  string `json:"role"`
	Push  bool   `json:"push"`
	Email bool   `json:"email"`
}

// handleAPINotifications: GET /api/notifications.
func (s *Server) handleAPINotifications(w http.ResponseWriter, r *http.Request) {
	u, ok := requireUser(w, r)
	if !ok {
		return
	}
	set, err := s.Notices.Settings(r.Context(), u.ID)
	if err != nil {
		writeError(w, r, err)
		return
	}
	out := noticeSettingsJSON{Email: set.Email, EmailOffered: set.EmailOffered, PushKey: set.PushKey, Browsers: set.Browsers,
		Campaigns: make([]noticeCampaignJSON, 0, len(set.Campaigns))}
	for _, c := range set.Campaigns {
		out.Campaigns = append(out.Campaigns, noticeCampaignJSON{ID: c.CampaignID, Name: c.CampaignName, Role: c.Role, Push: c.Push, Email: c.Email})
	}
	writeJSON(w, http.StatusOK, out)
}

// handleAPISetChannels: PUT /api/campaigns/{id}/notifications
// {"push":…,"email":…} (members).
func (s *Server) handleAPISetChannels(w http.ResponseWriter, r *http.Request) {
	m, ok := s.member(w, r, chi.URLParam(r, "id"))
	if !ok {
		return
	}
	var req struct {
		Push  bool `json:"push"`
		Email bool `json:"email"`
	}
	if err := readJSON(r, &req); err != nil {
		writeError(w, r, err)
		return
	}
	if err := s.Notices.SetChannels(r.Context(), m.user.ID, m.campaign, req.Push, req.Email); err != nil {
		writeError(w, r, err)
		return
	}
	w.WriteHeader(http.StatusNoContent)
}

// handleAPISetEmail: PUT /api/notifications/email {"email":"…"}.
func (s *Server) handleAPISetEmail(w http.ResponseWriter, r *http.Request) {
	u, ok := requireUser(w, r)
	if !ok {
		return
	}
	var req struct {
		Email string `json:"email"`
	}
	if err := readJSON(r, &req); err != nil {
		writeError(w, r, err)
		return
	}
	if err := s.Notices.SetEmail(r.Context(), u.ID, req.Email); err != nil {
		writeError(w, r, err)
		return
	}
	w.WriteHeader(http.StatusNoContent)
}
