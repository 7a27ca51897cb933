package server

import (
	"encoding/json"
	"net/http"
	"net/url"
	"slices"
	"time"

	"github.com/go-chi/chi/v5"

	"github.com/fray-vtt/fray/internal/engine"
	"github.com/fray-vtt/fray/internal/prep"
	"github.com/fray-vtt/fray/web"
)

// handleCampaignPage shows a campaign to its members: encounters, members,
// characters and (for GMs) invites and the tools to manage them.
func (s *Server) handleCampaignPage(w http.ResponseWriter, r *http.Request) {
	m, ok := s.member(w, r, chi.URLParam(r, "id"))
	if !ok {
		return
	}
	s.renderCampaign(w, r, m, "", takeFlash(w, r, flashNotice), takeFlash(w, r, flashError))
}

func (s *Server) renderCampaign(w http.ResponseWriter, r *http.Request, m membership, newInvite, notice, errMsg string) {
	ctx := r.Context()
	c, err := s.store.Campaign(ctx, m.campaign)
	if err != nil {
		writeError(w, r, err)
		return
	}
	p := web.CampaignProps{ID: c.ID, Name: c.Name, IsGM: m.gm(), NewInviteURL: newInvite, Notice: notice, Error: errMsg}
	encs, err := s.store.Encounters(ctx, c.ID)
	if err != nil {
		writeError(w, r, err)
		return
	}
	members, err := s.store.Members(ctx, c.ID)
	if err != nil {
		writeError(w, r, err)
		return
	}
	owners, err := s.store.CharacterOwners(ctx, c.ID)
	if err != nil {
		writeError(w, r, err)
		return
	}
	names := map[string]string{}
	for _, mem := range members {
		names[mem.UserID] = mem.Name
	}
	// The campaign's player characters are those of its encounters.
	charNames := map[string]string{}
	charAt := map[string]int{} // character id → its row in p.Characters
	for _, e := range encs {
		p.Encounters = append(p.Encounters, web.EncounterSummary{ID: e.ID, Name: e.Name, Ruleset: e.Ruleset, Status: e.Status})
		_, st, err := s.play.Current(ctx, e.ID)
		if err != nil {
			writeError(w, r, err)
			return
		}
		for _, cb := range st.Core().Combatants {
			if cb.PC {
				if _, seen := charNames[cb.ID]; !seen {
					charNames[cb.ID] = cb.Name
					charAt[cb.ID] = len(p.Characters)
					p.Characters = append(p.Characters, web.CharacterRow{ID: cb.ID, Name: cb.Name, OwnerID: owners[cb.ID], OwnerName: names[owners[cb.ID]]})
				}
				row := &p.Characters[charAt[cb.ID]]
				row.Encounters = append(row.Encounters, e.Name)
			}
		}
	}
	slices.SortFunc(p.Characters, func(a, b web.CharacterRow) int {
		if a.Name < b.Name {
			return -1
		}
		return 1
	})
	for _, mem := range members {
		row := web.MemberRow{UserID: mem.UserID, Name: mem.Name, Role: mem.Role, IsSelf: mem.UserID == m.user.ID}
		for _, cid := range mem.Characters {
			if n, ok := charNames[cid]; ok {
				row.Characters = append(row.Characters, n)
			} else {
				row.Characters = append(row.Characters, cid)
			}
		}
		p.Members = append(p.Members, row)
	}
	if p.Prep, err = s.prepProps(r, m, encs); err != nil {
		writeError(w, r, err)
		return
	}
	if p.Prep != nil {
		// A character with a sheet has a page.
		pages := map[string]string{}
		for _, sum := range p.Prep.Characters {
			pages[sum.ID] = sum.Page
		}
		for i := range p.Characters {
			p.Characters[i].Page = pages[p.Characters[i].ID]
		}
	}
	if m.gm() {
		invites, err := s.store.Invites(ctx, c.ID)
		if err != nil {
			writeError(w, r, err)
			return
		}
		now := time.Now()
		for _, in := range invites {
			p.Invites = append(p.Invites, web.InviteRow{ID: in.ID, Created: in.CreatedAt.Format("2006-01-02 15:04"),
				Expires: in.ExpiresAt.Format("2006-01-02 15:04"), Revoked: in.RevokedAt != nil, Expired: now.After(in.ExpiresAt)})
		}
		exs, err := prep.Examples()
		if err != nil {
			writeError(w, r, err)
			return
		}
		for _, ex := range exs {
			p.Examples = append(p.Examples, s.exampleOption(ex))
		}
	}
	render(w, r, web.Campaign(p))
}

// exampleOption describes a shipped example for the picker: its ruleset,
// what the ruleset is like and the position model its battlefield uses.
func (s *Server) exampleOption(ex prep.Example) web.ExampleOption {
	o := web.ExampleOption{Name: ex.Name, Label: ex.Title}
	var head struct {
		Ruleset     string `json:"ruleset"`
		Battlefield struct {
			Model string `json:"model"`
		} `json:"battlefield"`
	}
	_ = json.Unmarshal(ex.Data, &head)
	o.Ruleset, o.Model = head.Ruleset, head.Battlefield.Model
	if rs, err := s.rules.Get(head.Ruleset); err == nil {
		o.RulesetTitle = rs.Title()
		if d, ok := rs.(engine.Describer); ok {
			o.Description = d.Description()
		}
		if b, ok := rs.(engine.Boarder); ok && o.Model == "" {
			o.Model = b.Editor().Model
		}
	}
	return o
}

// campaignRedirect goes back to the campaign page, leaving msg as its
// notice or error (key flashNotice or flashError).
func campaignRedirect(w http.ResponseWriter, r *http.Request, id, key, msg string) {
	setFlash(w, r, key, msg)
	http.Redirect(w, r, "/campaigns/"+url.PathEscape(id), http.StatusSeeOther)
}
