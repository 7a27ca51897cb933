package server

import (
	"context"
	"encoding/json"
	"net/http"
	"net/url"
	"strconv"
	"strings"

	"github.com/go-chi/chi/v5"

	"github.com/fray-vtt/fray/internal/characters"
	"github.com/fray-vtt/fray/internal/engine"
	"github.com/fray-vtt/fray/internal/sheet"
	"github.com/fray-vtt/fray/internal/store"
	"github.com/fray-vtt/fray/web"
)

// Characters are a campaign's versioned characters; *characters.Service
// keeps them.
type Characters interface {
	// Character is one r may read; ENOTFOUND, as for an unknown one, if not.
	Character(ctx context.Context, campaignID, id string, r characters.Reader) (store.Character, error)
	Visible(ctx context.Context, campaignID string, r characters.Reader) ([]store.Character, error)
	Revisions(ctx context.Context, campaignID, characterID string) ([]store.Revision, error)
	// Owner is the name of the member who owns a character ("" for nobody).
	Owner(ctx context.Context, campaignID, characterID string) (string, error)
	Export(ctx context.Context, campaignID string) ([]characters.Entry, error)
	Import(ctx context.Context, campaignID string, by characters.User, data []byte) (int, error)
}

// reader is who m is to the campaign's characters.
func (m membership) reader() characters.Reader {
	return characters.Reader{GM: m.gm(), Characters: m.characters}
}

// characterOf resolves the request's character {character} of campaign
// {id} for someone who may see it: the campaign's GMs and the player who
// owns it. Anyone else is told it does not exist, as for an unknown one,
// so players cannot learn about others' characters. On error it has
// answered.
func (s *Server) characterOf(w http.ResponseWriter, r *http.Request) (membership, store.Character, bool) {
	m, ok := s.member(w, r, chi.URLParam(r, "id"))
	if !ok {
		return membership{}, store.Character{}, false
	}
	ch, err := s.Characters.Character(r.Context(), m.campaign, chi.URLParam(r, "character"), m.reader())
	if err != nil {
		writeError(w, r, err)
		return membership{}, store.Character{}, false
	}
	return m, ch, true
}

// handleCharacterPage shows a campaign character's sheet and history to
// the GMs and the player who owns it: GET /campaigns/{id}/characters/{character}.
func (s *Server) handleCharacterPage(w http.ResponseWriter, r *http.Request) {
	m, ch, ok := s.characterOf(w, r)
	if !ok {
		return
	}
	ctx := r.Context()
	c, err := s.Campaigns.Campaign(ctx, m.campaign)
	if err != nil {
		writeError(w, r, err)
		return
	}
	revs, err := s.Characters.Revisions(ctx, m.campaign, ch.ID)
	if err != nil {
		writeError(w, r, err)
		return
	}
	p := web.CharacterProps{CampaignID: m.campaign, CampaignName: c.Name, ID: ch.ID, Name: ch.Name, Ruleset: ch.Ruleset, Revision: ch.Revision, Portrait: ch.Portrait}
	if p.Owner, err = s.Characters.Owner(ctx, m.campaign, ch.ID); err != nil {
		writeError(w, r, err)
		return
	}
	if m.gm() {
		p.EditURL = "/campaigns/" + url.PathEscape(m.campaign) + "/pcs/" + url.PathEscape(ch.ID)
	}
	// The GMs and the character's own player may change its portrait.
	p.PortraitURL = "/campaigns/" + url.PathEscape(m.campaign) + "/pcs/" + url.PathEscape(ch.ID) + "/portrait"
	if rs, err := s.Rulesets.Get(ch.Ruleset); err == nil {
		p.Derived, p.Problem = derived(rs, ch.Stats)
		p.Condition, p.Groups = sheetOf(rs, ch.Stats)
	}
	for _, v := range revs {
		p.Revisions = append(p.Revisions, revisionRow(v))
	}
	render(w, r, web.Character(p))
}

func revisionRow(v store.Revision) web.RevisionRow {
	row := web.RevisionRow{Revision: v.Revision, Kind: v.Kind, By: v.UserName, EncounterName: v.EncounterName, Changes: v.Changes,
		When: v.CreatedAt.UTC().Format("2 Jan 2006, 15:04 UTC"), WhenISO: v.CreatedAt.UTC().Format("2006-01-02T15:04:05Z")}
	if v.EncounterID != "" {
		row.EncounterURL = "/encounters/" + url.PathEscape(v.EncounterID) + "/log"
	}
	return row
}

// sheetOf reads stats for people: the carried values (the character's
// condition) and the rest of the schema by group. Empty values, untrained
// skills and unticked boxes are left out; list items are one line each.
func sheetOf(rs engine.Ruleset, stats json.RawMessage) (condition []web.SheetValue, groups []web.SheetGroup) {
	carried := map[string]bool{}
	if c, ok := rs.(sheet.Carrier); ok {
		fields := c.CarryFields()
		values, err := sheet.ReadCarried(fields, stats)
		if err == nil {
			for _, f := range fields {
				carried[f.Name] = true
				condition = append(condition, web.SheetValue{Path: f.Name, Label: f.Label, Value: sheet.FormatCarried(f, values[f.Name])})
			}
		}
	}
	sc, ok := rs.(sheet.Schemaer)
	if !ok {
		return condition, nil
	}
	schema := sc.Schema()
	values, rows, err := schema.FormValues(stats)
	if err != nil {
		return condition, nil
	}
	for _, g := range schema.Groups() {
		var group web.SheetGroup
		group.Name = g
		for _, f := range schema.Fields {
			if f.Group != g || carried[f.Name] {
				continue
			}
			if f.Type == sheet.FieldList {
				for i := 0; i < rows; i++ {
					var parts []string
					title := ""
					for _, it := range f.Items {
						v := values[f.Name+"."+strconv.Itoa(i)+"."+it.Name]
						switch {
						case v == "" || it.Name == "id":
						case it.Name == "name":
							title = v
						case it.Type == sheet.FieldBool:
							parts = append(parts, strings.ToLower(it.Label))
						default:
							parts = append(parts, it.Label+" "+v)
						}
					}
					if title != "" || len(parts) > 0 {
						group.List = true
						group.Values = append(group.Values, web.SheetValue{Path: f.Name, Label: orDash(title), Value: strings.Join(parts, " · ")})
					}
				}
				continue
			}
			v := values[f.Name]
			switch {
			case v == "":
				continue
			case f.Type == sheet.FieldBool:
				v = "yes"
			}
			group.Values = append(group.Values, web.SheetValue{Path: f.Name, Label: f.Label, Value: v})
		}
		if len(group.Values) > 0 {
			groups = append(groups, group)
		}
	}
	return condition, groups
}

func orDash(s string) string {
	if s == "" {
		return "—"
	}
	return s
}

// handleAPICharacters lists the campaign characters the caller may see
// (GMs: all; players: their own) with their current stats: GET
// /api/campaigns/{id}/characters.
func (s *Server) handleAPICharacters(w http.ResponseWriter, r *http.Request) {
	m, ok := s.member(w, r, chi.URLParam(r, "id"))
	if !ok {
		return
	}
	chars, err := s.Characters.Visible(r.Context(), m.campaign, m.reader())
	if err != nil {
		writeError(w, r, err)
		return
	}
	out := []characters.Entry{}
	for _, c := range chars {
		out = append(out, characters.EntryOf(c))
	}
	writeJSON(w, http.StatusOK, out)
}

// handleAPIRevisions returns a character with its revisions, newest first,
// to the GMs and the player who owns it: GET
// /api/campaigns/{id}/characters/{character}/revisions.
func (s *Server) handleAPIRevisions(w http.ResponseWriter, r *http.Request) {
	m, ch, ok := s.characterOf(w, r)
	if !ok {
		return
	}
	revs, err := s.Characters.Revisions(r.Context(), m.campaign, ch.ID)
	if err != nil {
		writeError(w, r, err)
		return
	}
	out := struct {
		Character characters.Entry           `json:"character"`
		Revisions []characters.RevisionEntry `json:"revisions"`
	}{characters.EntryOf(ch), []characters.RevisionEntry{}}
	for _, v := range revs {
		out.Revisions = append(out.Revisions, characters.RevisionOf(v))
	}
	writeJSON(w, http.StatusOK, out)
}

// handleExportCharacters downloads a campaign's characters with their
// whole history, oldest revision first: GET /campaigns/{id}/characters.json
// (GMs). The file imports into any campaign (handleImportCharacters).
func (s *Server) handleExportCharacters(w http.ResponseWriter, r *http.Request) {
	m, ok := s.gmOf(w, r, chi.URLParam(r, "id"))
	if !ok {
		return
	}
	out, err := s.Characters.Export(r.Context(), m.campaign)
	if err != nil {
		writeError(w, r, err)
		return
	}
	writeJSONFile(w, "characters.json", out)
}

// handleImportCharacters adds the characters of a characters file (the
// export's format; revisions optional) to the campaign, all or none: POST
// /campaigns/{id}/characters/import (GMs, multipart "file").
func (s *Server) handleImportCharacters(w http.ResponseWriter, r *http.Request) {
	m, ok := s.gmOf(w, r, chi.URLParam(r, "id"))
	if !ok {
		return
	}
	n, ok := importUpload(w, r, m.campaign, "The characters were not imported", func(data []byte) (int, error) {
		return s.Characters.Import(r.Context(), m.campaign, characters.User{ID: m.user.ID, Name: m.user.Name}, data)
	})
	if !ok {
		return
	}
	campaignRedirect(w, r, m.campaign, flashNotice, "Imported "+strconv.Itoa(n)+" characters with their history.")
}
