package server

import (
	"context"
	"net/http"
	"time"

	"github.com/go-chi/chi/v5"

	"github.com/fray-vtt/fray/internal/notify"
	"github.com/fray-vtt/fray/internal/store"
	"github.com/fray-vtt/fray/web"
)

// Webhooks are a campaign's webhooks, set by its GMs; *notify.Service
// keeps them. The handlers check that the caller is a GM.
type Webhooks interface {
	// CreateWebhook returns the new webhook with its signing secret (shown
	// once): EINVALID for a format or URL it refuses (a private address,
	// unless the operator allows them), ECONFLICT past the most a
	// campaign may have.
	CreateWebhook(ctx context.Context, campaignID, userID, url, format string) (store.Webhook, error)
	// Webhooks lists them, oldest first, without their secrets.
	Webhooks(ctx context.Context, campaignID string) ([]notify.WebhookStatus, error)
	DeleteWebhook(ctx context.Context, campaignID, id string) error
}

// handleWebhooksPage lists a campaign's webhooks with a form to add one:
// GET /campaigns/{id}/webhooks (GMs).
func (s *Server) handleWebhooksPage(w http.ResponseWriter, r *http.Request) {
	m, ok := s.gmOf(w, r, chi.URLParam(r, "id"))
	if !ok {
		return
	}
	s.renderWebhooks(w, r, m, nil, takeFlash(w, r, flashNotice), takeFlash(w, r, flashError))
}

func (s *Server) renderWebhooks(w http.ResponseWriter, r *http.Request, m membership, made *store.Webhook, notice, errMsg string) {
	c, err := s.Campaigns.Campaign(r.Context(), m.campaign)
	if err != nil {
		writeError(w, r, err)
		return
	}
	hooks, err := s.Webhooks.Webhooks(r.Context(), m.campaign)
	if err != nil {
		writeError(w, r, err)
		return
	}
	p := web.WebhooksProps{CampaignID: m.campaign, CampaignName: c.Name, Notice: notice, Error: errMsg}
	for _, h := range hooks {
		p.Webhooks = append(p.Webhooks, web.WebhookRow{ID: h.ID, URL: h.URL, Format: h.Format, Created: h.Created.Format("2006-01-02"),
			Delivered: h.Delivered, Failed: h.Failed, Pending: h.Pending, LastError: h.LastError})
	}
	if made != nil {
		p.New = &web.WebhookRow{ID: made.ID, URL: made.URL, Format: made.Format, Secret: made.Secret}
	}
	render(w, r, web.Webhooks(p))
}

func webhooksRedirect(w http.ResponseWriter, r *http.Request, campaignID, key, msg string) {
	setFlash(w, r, key, msg)
	http.Redirect(w, r, "/campaigns/"+campaignID+"/webhooks", http.StatusSeeOther)
}

// handleCreateWebhook adds a webhook and shows its secret once:
// POST /campaigns/{id}/webhooks (url, format; GMs).
func (s *Server) handleCreateWebhook(w http.ResponseWriter, r *http.Request) {
	m, ok := s.gmOf(w, r, chi.URLParam(r, "id"))
	if !ok {
		return
	}
	h, err := s.Webhooks.CreateWebhook(r.Context(), m.campaign, m.user.ID, r.PostFormValue("url"), r.PostFormValue("format"))
	if err != nil {
		if serverFault(err) {
			writeError(w, r, err)
			return
		}
		webhooksRedirect(w, r, m.campaign, flashError, errMessage(err))
		return
	}
	s.renderWebhooks(w, r, m, &h, "", "") // the page says it was added, with its secret
}

// handleDeleteWebhook: POST /campaigns/{id}/webhooks/{hook}/delete (GMs).
func (s *Server) handleDeleteWebhook(w http.ResponseWriter, r *http.Request) {
	m, ok := s.gmOf(w, r, chi.URLParam(r, "id"))
	if !ok {
		return
	}
	if err := s.Webhooks.DeleteWebhook(r.Context(), m.campaign, chi.URLParam(r, "hook")); err != nil {
		if serverFault(err) {
			writeError(w, r, err)
			return
		}
		webhooksRedirect(w, r, m.campaign, flashError, errMessage(err))
		return
	}
	webhooksRedirect(w, r, m.campaign, flashNotice, "Webhook removed.")
}

// webhookJSON is a webhook as the API shows it (docs/protocol.md,
// Webhooks); Secret only in the answer that made it.
type webhookJSON struct {
	ID        string    `json:"id"`
	URL       string    `json:"url"`
	Format    string    `json:"format"`
	Secret    string    `json:"secret,omitempty"`
	CreatedAt time.Time `json:"createdAt"`
}

// webhookStatusJSON is a listed webhook: no secret, its deliveries counted.
type webhookStatusJSON struct {
	webhookJSON
	Delivered int    `json:"delivered"`
	Pending   int    `json:"pending"`
	Failed    int    `json:"failed"`
	LastError string `json:"lastError"`
}

// handleAPIWebhooks: GET /api/campaigns/{id}/webhooks (GMs).
func (s *Server) handleAPIWebhooks(w http.ResponseWriter, r *http.Request) {
	m, ok := s.gmOf(w, r, chi.URLParam(r, "id"))
	if !ok {
		return
	}
	hooks, err := s.Webhooks.Webhooks(r.Context(), m.campaign)
	if err != nil {
		writeError(w, r, err)
		return
	}
	out := make([]webhookStatusJSON, 0, len(hooks))
	for _, h := range hooks {
		out = append(out, webhookStatusJSON{webhookJSON: webhookJSON{ID: h.ID, URL: h.URL, Format: h.Format, CreatedAt: h.Created},
			Delivered: h.Delivered, Pending: h.Pending, Failed: h.Failed, LastError: h.LastError})
	}
	writeJSON(w, http.StatusOK, out)
}

// handleAPICreateWebhook: POST /api/campaigns/{id}/webhooks
// {"url":"…","format":"discord"|"json"} → 201 with the secret (GMs).
func (s *Server) handleAPICreateWebhook(w http.ResponseWriter, r *http.Request) {
	m, ok := s.gmOf(w, r, chi.URLParam(r, "id"))
	if !ok {
		return
	}
	var req struct {
		URL    string `json:"url"`
		Format string `json:"format"`
	}
	if err := readJSON(r, &req); err != nil {
		writeError(w, r, err)
		return
	}
	h, err := s.Webhooks.CreateWebhook(r.Context(), m.campaign, m.user.ID, req.URL, req.Format)
	if err != nil {
		writeError(w, r, err)
		return
	}
	writeJSON(w, http.StatusCreated, webhookJSON{ID: h.ID, URL: h.URL, Format: h.Format, Secret: h.Secret, CreatedAt: h.Created})
}

// handleAPIDeleteWebhook: DELETE /api/campaigns/{id}/webhooks/{hook} (GMs).
func (s *Server) handleAPIDeleteWebhook(w http.ResponseWriter, r *http.Request) {
	m, ok := s.gmOf(w, r, chi.URLParam(r, "id"))
	if !ok {
		return
	}
	if err := s.Webhooks.DeleteWebhook(r.Context(), m.campaign, chi.URLParam(r, "hook")); err != nil {
		writeError(w, r, err)
		return
	}
	w.WriteHeader(http.StatusNoContent)
}
