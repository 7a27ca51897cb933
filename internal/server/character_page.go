package server

import (
	"context"
	"encoding/json"
	"net/http"
	"net/url"
	"strconv"
	"strings"

	"github.com/fray-vtt/fray/internal/engine"
	"github.com/fray-vtt/fray/internal/sheet"
	"github.com/fray-vtt/fray/internal/store"
	"github.com/fray-vtt/fray/web"
)

// handleCharacterPage shows a campaign character's sheet and history to
// the GMs and the player who owns it: GET /campaigns/{id}/characters/{character}.
func (s *Server) handleCharacterPage(w http.ResponseWriter, r *http.Request) {
	m, ch, ok := s.characterOf(w, r)
	if !ok {
		return
	}
	ctx := r.Context()
	c, err := s.store.Campaign(ctx, m.campaign)
	if err != nil {
		writeError(w, r, err)
		return
	}
	revs, err := s.characters().Revisions(ctx, m.campaign, ch.ID)
	if err != nil {
		writeError(w, r, err)
		return
	}
	p := web.CharacterProps{CampaignID: m.campaign, CampaignName: c.Name, ID: ch.ID, Name: ch.Name, Ruleset: ch.Ruleset, Revision: ch.Revision}
	if p.Owner, err = s.ownerName(r, m.campaign, ch.ID); err != nil {
		writeError(w, r, err)
		return
	}
	if m.gm() {
		p.EditURL = "/campaigns/" + url.PathEscape(m.campaign) + "/pcs/" + url.PathEscape(ch.ID)
	}
	if rs, err := s.rules.Get(ch.Ruleset); err == nil {
		p.Derived, p.Problem = derived(rs, ch.Stats)
		p.Condition, p.Groups = sheetOf(rs, ch.Stats)
	}
	for _, v := range revs {
		p.Revisions = append(p.Revisions, revisionRow(v))
	}
	render(w, r, web.Character(p))
}

func (s *Server) ownerName(r *http.Request, campaignID, characterID string) (string, error) {
	owners, err := s.store.CharacterOwners(r.Context(), campaignID)
	if err != nil || owners[characterID] == "" {
		return "", err
	}
	members, err := s.store.Members(r.Context(), campaignID)
	if err != nil {
		return "", err
	}
	for _, mem := range members {
		if mem.UserID == owners[characterID] {
			return mem.Name, nil
		}
	}
	return "", nil
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

// saveCharacterSheet saves a character from the GM's stat editor as a
// revision by the GM, saying what changed from oldStats.
func (s *Server) saveCharacterSheet(ctx context.Context, m membership, schema sheet.Schema, b store.StatBlock, create bool, oldStats json.RawMessage) error {
	save := store.CharacterSave{Block: b, Create: create, Kind: store.RevisionEdited, UserID: m.user.ID, UserName: m.user.Name}
	if create {
		save.Kind = store.RevisionCreated
	} else if changes, err := schema.Diff(oldStats, b.Stats); err == nil {
		save.Changes = changes
	}
	_, err := s.characters().SaveCharacter(ctx, save)
	return err
}
