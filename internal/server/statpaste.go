package server

import (
	"net/http"
	"strings"

	"github.com/go-chi/chi/v5"

	"github.com/fray-vtt/fray/internal/fray"
	"github.com/fray-vtt/fray/internal/prep"
	"github.com/fray-vtt/fray/internal/statblock"
	"github.com/fray-vtt/fray/web"
)

// handleStatPaste reads a stat block pasted from the ruleset's book into
// the stat editor, unsaved: POST /campaigns/{id}/{bestiary|pcs}/paste (a
// new one) or …/{entry}/paste (GMs). The editor comes back filled in,
// the assumed values highlighted and every line it did not understand
// listed; the GM corrects and saves it the editor's way. A block that
// cannot be read (too long, no name) changes nothing and says why.
func (s *Server) handleStatPaste(w http.ResponseWriter, r *http.Request) {
	m, ok := s.gmOf(w, r, chi.URLParam(r, "id"))
	if !ok {
		return
	}
	if err := r.ParseForm(); err != nil {
		writeError(w, r, fray.Errorf(fray.EINVALID, "the form could not be read"))
		return
	}
	kind, id := chi.URLParam(r, "kind"), chi.URLParam(r, "entry")
	p := web.StatBlockProps{CampaignID: m.campaign, Kind: kind, ID: id, Ruleset: r.PostForm.Get("ruleset"), PasteText: r.PostForm.Get("block")}
	if id != "" {
		old, err := s.StatBlocks.StatBlock(r.Context(), storeKind(kind), m.campaign, id)
		if err != nil {
			writeError(w, r, err)
			return
		}
		p.Ruleset, p.Name, p.Portrait = old.Ruleset, old.Name, old.Portrait
	}
	rs, err := s.Rulesets.Get(p.Ruleset)
	if err != nil {
		writeError(w, r, err)
		return
	}
	parser, ok := rs.(statblock.Parser)
	if !ok {
		writeError(w, r, fray.Errorf(fray.EINVALID, "Fray does not read %s stat blocks: use the form", rs.ID()))
		return
	}
	rep, err := statblock.Parse(p.PasteText, parser.StatBlockFormat())
	if err != nil {
		p.Error = "The stat block was not read: " + errMessage(err)
		w.WriteHeader(failStatus(r, err))
		s.renderStat(w, r, p, nil, map[string]string{})
		return
	}
	if id == "" || strings.TrimSpace(p.Name) == "" {
		p.Name = rep.Name
	}
	p.Paste = &rep
	values := map[string]string{}
	for k := range rep.Values {
		values[k] = rep.Values.Get(k)
	}
	schema, err := prep.SchemaOf(rs)
	if err != nil {
		writeError(w, r, err)
		return
	}
	stats, err := schema.ParseForm(rep.Values)
	if err != nil {
		p.Problem = errMessage(err)
		stats = nil
	}
	s.renderStat(w, r, p, stats, values)
}
