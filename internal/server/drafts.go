package server

import (
	"context"
	"net/http"
	"net/url"
	"slices"
	"strings"

	"github.com/go-chi/chi/v5"

	"github.com/fray-vtt/fray/internal/assets"
	"github.com/fray-vtt/fray/internal/battlemap"
	"github.com/fray-vtt/fray/internal/board"
	"github.com/fray-vtt/fray/internal/engine"
	"github.com/fray-vtt/fray/internal/fray"
	"github.com/fray-vtt/fray/internal/images"
	"github.com/fray-vtt/fray/internal/intake"
	"github.com/fray-vtt/fray/internal/prep"
	"github.com/fray-vtt/fray/internal/store"
	"github.com/fray-vtt/fray/internal/uvtt"
	"github.com/fray-vtt/fray/web"
)

// Drafts are the GMs' encounter drafts and their editor; *prep.Service is
// one.
type Drafts interface {
	Draft(ctx context.Context, id string) (store.Draft, error)
	NewDraft(ctx context.Context, campaignID, rulesetID, name string) (store.Draft, error)
	// ImportDraft and ReplaceDraft read a setup document.
	ImportDraft(ctx context.Context, campaignID string, data []byte) (store.Draft, error)
	ReplaceDraft(ctx context.Context, d store.Draft, data []byte) error
	// ImportMap makes the draft's battlefield from a battlemap, with
	// scene as its scene when not "".
	ImportMap(ctx context.Context, d store.Draft, m *uvtt.Map, scene string, o battlemap.Options) (prep.MapReport, error)
	// Edit applies one form of the editor (its op says which).
	Edit(ctx context.Context, d store.Draft, form url.Values) error
	View(ctx context.Context, d store.Draft) (prep.DraftView, error)
	// Playable is the draft as its encounter would be created, for the
	// odds: its ruleset, its setup, and why it cannot be created yet.
	Playable(ctx context.Context, d store.Draft) (engine.Ruleset, engine.Setup, string, error)
	// Create turns a valid draft into an encounter.
	Create(ctx context.Context, d store.Draft) (store.Encounter, error)
	DeleteDraft(ctx context.Context, id string) error
	// Shelf is what a campaign's GMs prepared (a player sees the sheets only).
	Shelf(ctx context.Context, campaignID string, gm bool) (prep.Shelf, error)
}

// draftOf loads the request's draft for one of its campaign's GMs; others
// are told it does not exist or is forbidden, as for campaigns. On error
// it has answered.
func (s *Server) draftOf(w http.ResponseWriter, r *http.Request) (store.Draft, bool) {
	if _, ok := requireUser(w, r); !ok {
		return store.Draft{}, false
	}
	d, err := s.Drafts.Draft(r.Context(), chi.URLParam(r, "draft"))
	if err != nil {
		writeError(w, r, err)
		return store.Draft{}, false
	}
	_, ok := s.gmOf(w, r, d.CampaignID)
	return d, ok
}

// handleNewDraft starts a draft: POST /campaigns/{id}/drafts (ruleset,
// name; GMs).
func (s *Server) handleNewDraft(w http.ResponseWriter, r *http.Request) {
	m, ok := s.gmOf(w, r, chi.URLParam(r, "id"))
	if !ok {
		return
	}
	d, err := s.Drafts.NewDraft(r.Context(), m.campaign, r.PostFormValue("ruleset"), r.PostFormValue("name"))
	if err != nil {
		campaignRedirect(w, r, m.campaign, flashError, errMessage(err))
		return
	}
	draftRedirect(w, r, d.ID, flashNotice, "Started the draft "+d.Name+": add sides, combatants and the battlefield, then create the encounter.")
}

// handleImportDraft stores an uploaded setup as a new draft; a malformed or
// oversized file stores nothing. The draft may still be incomplete:
// POST /campaigns/{id}/drafts/import (multipart file; GMs).
func (s *Server) handleImportDraft(w http.ResponseWriter, r *http.Request) {
	m, ok := s.gmOf(w, r, chi.URLParam(r, "id"))
	if !ok {
		return
	}
	d, ok := importUpload(w, r, m.campaign, "The file was not imported", func(data []byte) (store.Draft, error) {
		return s.Drafts.ImportDraft(r.Context(), m.campaign, data)
	})
	if !ok {
		return
	}
	draftRedirect(w, r, d.ID, flashNotice, "Imported "+d.Name+" as a draft.")
}

// handleDraftPage renders the encounter editor: settings, sides, the
// battlefield as the ruleset's editor describes it, and the combatants:
// GET /drafts/{draft} (GMs).
func (s *Server) handleDraftPage(w http.ResponseWriter, r *http.Request) {
	d, ok := s.draftOf(w, r)
	if !ok {
		return
	}
	p, err := s.draftProps(r.Context(), d, r.URL.Query().Get("stats"))
	if err != nil {
		writeError(w, r, err)
		return
	}
	p.Notice, p.Error = takeFlash(w, r, flashNotice), takeFlash(w, r, flashError)
	render(w, r, web.Draft(p))
}

// draftProps is the encounter editor's data for draft d, with the stat
// block of combatant statsFor opened (when it is not a player character
// and the ruleset has a stat editor).
func (s *Server) draftProps(ctx context.Context, d store.Draft, statsFor string) (web.DraftProps, error) {
	v, err := s.Drafts.View(ctx, d)
	if err != nil {
		return web.DraftProps{}, err
	}
	rs, setup := v.Ruleset, v.Setup
	p := web.DraftProps{ID: d.ID, CampaignID: d.CampaignID, Name: setup.Name, RulesetTitle: rs.Title(),
		Sides: setup.Sides, Problem: v.Problem, ProblemFix: v.ProblemFix, ProblemAt: v.ProblemAt,
		Undos: d.Undos, Redos: d.Redos}
	for _, o := range rs.Options() {
		val := o.Default
		if x, ok := setup.Options[o.Name]; ok {
			val = x
		}
		p.Options = append(p.Options, web.OptionView{OptionSpec: o, Value: val})
	}
	if v.Boarded {
		p.Board = draftBoard(v.Board, v.Battlefield, setup)
	}
	for _, c := range setup.Combatants {
		st := prep.StartOf(c)
		row := web.CombatantRow{ID: c.ID, Name: c.Name, Side: c.Side, PC: c.PC, Hidden: c.Hidden,
			Start: st, Where: whereStarts(v.Battlefield, st), Portrait: c.Portrait}
		if c.ID == statsFor && !c.PC {
			if schema, err := prep.SchemaOf(rs); err == nil {
				row.Stats = &web.DraftStats{Schema: schema}
				if row.Stats.Values, row.Stats.ListRows, err = schema.FormValues(c.Stats); err != nil {
					row.Stats = nil
				}
			}
		}
		p.Combatants = append(p.Combatants, row)
	}
	pics, err := s.Pictures.List(ctx, d.CampaignID)
	if err != nil {
		return web.DraftProps{}, err
	}
	for _, pic := range pics {
		p.Pictures = append(p.Pictures, web.Picture{URL: pic.URL, Thumb: pic.Thumb, Name: pic.Name, Width: pic.Width, Height: pic.Height})
	}
	p.Scene, p.Handouts, p.SceneFit = setup.Scene, setup.Handouts, setup.SceneFit
	for _, n := range setup.Notes {
		if n.Subject == "encounter" {
			p.Note = n.Text
		}
	}
	for _, b := range v.Bestiary {
		p.Bestiary = append(p.Bestiary, engine.Choice{Value: b.ID, Label: b.Name})
	}
	for _, b := range v.Characters {
		p.Characters = append(p.Characters, engine.Choice{Value: b.ID, Label: b.Name})
	}
	p.Odds = s.oddsProps(d.ID, d.CampaignID, v.Problem)
	return p, nil
}

// whereStarts says in words where a combatant starts: its zone's name or
// its square.
func whereStarts(bf board.Battlefield, st board.Start) string {
	if st.Zone != "" {
		for _, z := range bf.Zones {
			if z.ID == st.Zone {
				return z.Name
			}
		}
	}
	if st.X != nil && st.Y != nil {
		return board.SquareName(*st.X, *st.Y)
	}
	return ""
}

// handleDraftEdit applies one editor form to the draft: POST
// /drafts/{draft}/edit (op and its fields, see prep.DraftEditor; GMs).
// Edits that leave the draft invalid are stored: the page shows why. An
// edit made in place (htmx: HX-Request) is answered with the editor
// fragment, a refused one with its status and the reason inside; a plain
// form post redirects back to the page.
func (s *Server) handleDraftEdit(w http.ResponseWriter, r *http.Request) {
	d, ok := s.draftOf(w, r)
	if !ok {
		return
	}
	err := r.ParseForm()
	if err == nil {
		err = s.Drafts.Edit(r.Context(), d, r.PostForm)
	}
	if !isHTMX(r) {
		if err != nil {
			draftRedirect(w, r, d.ID, flashError, errMessage(err))
			return
		}
		draftRedirect(w, r, d.ID, flashNotice, "Saved.")
		return
	}
	if err == nil {
		d, err = s.Drafts.Draft(r.Context(), d.ID)
	}
	// A refused stat block stays open.
	statsFor := ""
	if err != nil && r.PostForm.Get("op") == "combatant-stats" {
		statsFor = r.PostForm.Get("combatant")
	}
	p, perr := s.draftProps(r.Context(), d, statsFor)
	if perr != nil {
		writeError(w, r, perr)
		return
	}
	p.InPlace = true
	if err != nil {
		p.Error = errMessage(err)
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		w.WriteHeader(statusOf(fray.ErrorCode(store.Classify(err))))
	}
	render(w, r, web.DraftEditor(p))
}

// handleDraftPicture uploads a picture to the draft's campaign and puts it
// in its place: POST /drafts/{draft}/pictures (multipart: file, and use:
// "scene", "portrait:<combatant>", "zone:<zone>", or "handout" with title
// and text, for which the picture is optional; GMs).
func (s *Server) handleDraftPicture(w http.ResponseWriter, r *http.Request) {
	d, ok := s.draftOf(w, r)
	if !ok {
		return
	}
	fail := func(err error) { draftRedirect(w, r, d.ID, flashError, "The picture was not used: "+errMessage(err)) }
	if err := r.ParseMultipartForm(maxUploadBytes); err != nil {
		fail(bodyError(err))
		return
	}
	defer func() { _ = r.MultipartForm.RemoveAll() }()
	use := r.PostForm.Get("use")
	var pic string
	if f, h, err := r.FormFile("file"); err == nil {
		data, err := intake.Read(f, images.MaxBytes, "picture")
		_ = f.Close()
		if err == nil && len(data) > 0 {
			var p assets.Picture
			p, err = s.Pictures.Upload(r.Context(), d.CampaignID, userFrom(r).ID, h.Filename, data)
			pic = p.URL
		}
		if err != nil {
			fail(err)
			return
		}
	}
	edit := url.Values{}
	combatant, portrait := strings.CutPrefix(use, "portrait:")
	zone, inZone := strings.CutPrefix(use, "zone:")
	switch {
	case use == "scene":
		edit = url.Values{"op": {"scene"}, "scene": {pic}}
	case inZone:
		edit = url.Values{"op": {"zone-picture"}, "zone": {zone}, "image": {pic}}
	case portrait:
		edit = url.Values{"op": {"portrait"}, "combatant": {combatant}, "portrait": {pic}}
	case use == "handout":
		edit = url.Values{"op": {"handout-add"}, "title": {r.PostForm.Get("title")}, "text": {r.PostForm.Get("text")}, "image": {pic}}
	default:
		fail(fray.Errorf(fray.EINVALID, "use the picture as %q, %q, %q or %q", "scene", "portrait:<combatant>", "zone:<zone>", "handout"))
		return
	}
	if pic == "" && use != "handout" {
		fail(fray.Errorf(fray.EINVALID, "choose a picture to upload"))
		return
	}
	if err := s.Drafts.Edit(r.Context(), d, edit); err != nil {
		fail(err)
		return
	}
	draftRedirect(w, r, d.ID, flashNotice, "Saved.")
}

// handleDraftReplace replaces the draft with an uploaded setup:
// POST /drafts/{draft}/import (multipart file; GMs).
func (s *Server) handleDraftReplace(w http.ResponseWriter, r *http.Request) {
	d, ok := s.draftOf(w, r)
	if !ok {
		return
	}
	data, err := readJSONFile(r)
	if err == nil {
		err = s.Drafts.ReplaceDraft(r.Context(), d, data)
	}
	if err != nil {
		draftRedirect(w, r, d.ID, flashError, "The file was not imported: "+errMessage(err))
		return
	}
	draftRedirect(w, r, d.ID, flashNotice, "Draft replaced from the file.")
}

// handleDraftExport downloads the draft's setup: GET /drafts/{draft}/setup.json (GMs).
func (s *Server) handleDraftExport(w http.ResponseWriter, r *http.Request) {
	d, ok := s.draftOf(w, r)
	if !ok {
		return
	}
	writeSetupFile(w, d.Name, d.Setup)
}

// handleDraftDelete: POST /drafts/{draft}/delete (GMs).
func (s *Server) handleDraftDelete(w http.ResponseWriter, r *http.Request) {
	d, ok := s.draftOf(w, r)
	if !ok {
		return
	}
	if err := s.Drafts.DeleteDraft(r.Context(), d.ID); err != nil {
		writeError(w, r, err)
		return
	}
	campaignRedirect(w, r, d.CampaignID, flashNotice, "Draft deleted.")
}

// handleDraftCreate turns a valid draft into an encounter in status setup:
// POST /drafts/{draft}/create (GMs).
func (s *Server) handleDraftCreate(w http.ResponseWriter, r *http.Request) {
	d, ok := s.draftOf(w, r)
	if !ok {
		return
	}
	e, err := s.Drafts.Create(r.Context(), d)
	if err != nil {
		draftRedirect(w, r, d.ID, flashError, "Not created: "+errMessage(err))
		return
	}
	setFlash(w, r, flashNotice, "Created "+e.Name+". Start it when your players are here.")
	http.Redirect(w, r, "/encounters/"+url.PathEscape(e.ID), http.StatusSeeOther)
}

// draftBoard is the editor's view of a draft's battlefield.
func draftBoard(e board.Editor, bf board.Battlefield, setup engine.Setup) *web.DraftBoard {
	b := &web.DraftBoard{Editor: e, Model: prep.ModelOf(e, bf), Width: bf.Width, Height: bf.Height, Edges: bf.Edges}
	names := map[string]string{}
	for _, z := range bf.Zones {
		names[z.ID] = z.Name
	}
	for _, z := range bf.Zones {
		row := web.ZoneRow{ID: z.ID, Name: z.Name, Description: z.Description, X: z.X, Y: z.Y, W: z.W, H: z.H, Props: z.Props,
			Features: board.Features(e.Area, z.Props), Image: zonePicture(setup, z.ID)}
		for _, a := range prep.Adjacent(bf, z.ID) {
			row.Adjacent = append(row.Adjacent, engine.Choice{Value: a, Label: cmp(names[a], a)})
		}
		b.Zones = append(b.Zones, row)
	}
	if b.Model == board.Zones {
		b.Scale = bf.Scale
		for _, r := range prep.ZoneRanges(bf) {
			b.Ranges = append(b.Ranges, web.RangeRow{A: r.A, B: r.B, Hops: r.Hops, Squares: r.Squares})
		}
	}
	combatants := map[string]string{}
	var tokens []board.Token
	starts := map[string]board.Start{}
	for _, c := range setup.Combatants {
		combatants[c.ID] = c.Name
		tokens = append(tokens, board.Token{ID: c.ID, Name: c.Name, Side: c.Side, PC: c.PC, Hidden: c.Hidden})
		starts[c.ID] = prep.StartOf(c)
	}
	for _, ml := range bf.Melees {
		row := web.MeleeRow{ID: ml.ID, Zone: cmp(names[ml.Zone], ml.Zone)}
		for _, id := range ml.Members {
			row.Members = append(row.Members, cmp(combatants[id], id))
		}
		b.Melees = append(b.Melees, row)
	}
	for _, c := range bf.Cells {
		b.Cells = append(b.Cells, web.CellRow{X: c.X, Y: c.Y, Name: board.SquareName(c.X, c.Y), Features: board.Features(e.Area, c.Props)})
	}
	for i, pr := range bf.Pairs {
		b.Pairs = append(b.Pairs, web.PairRow{Index: i, A: pr.A, B: pr.B, Distance: pr.Distance})
	}
	if pl := bf.Places; pl != nil && (b.Model == board.Ladder || b.Model == board.Pairs) {
		if pl.Width > 0 && pl.Height > 0 {
			b.PlaceMap = &web.PlaceMap{W: pl.Width, H: pl.Height}
		}
		for _, r := range pl.Rooms {
			b.Rooms = append(b.Rooms, engine.Choice{Value: r.ID, Label: r.Name})
			if b.PlaceMap != nil {
				b.PlaceMap.Marks = append(b.PlaceMap.Marks, web.PlaceMark{Name: r.Name, X: r.CX, Y: r.CY})
			}
		}
		if b.Model == board.Ladder {
			for _, sd := range setup.Sides {
				b.Placed = append(b.Placed, web.PlacedRow{ID: sd.ID, Name: sd.Name, Room: pl.At[sd.ID]})
			}
		} else {
			for _, c := range setup.Combatants {
				if !c.Hidden { // engages no one: Place refuses it
					b.Placed = append(b.Placed, web.PlacedRow{ID: c.ID, Name: c.Name, Room: pl.At[c.ID]})
				}
			}
		}
		// What the places give, as Place wrote it: derived on a copy.
		derived := bf
		derived.Distances, derived.Pairs = slices.Clone(bf.Distances), slices.Clone(bf.Pairs)
		for _, r := range prep.DerivePlaces(e, b.Model, setup, &derived) {
			b.PlaceRanges = append(b.PlaceRanges, web.PlaceRangeRow{A: r.A, From: r.From, B: r.B, To: r.To, Metres: r.Metres, Distance: r.Distance, NoPath: r.NoPath})
		}
		b.PlacesChanged = !prep.PlacesHold(e, b.Model, setup, bf)
	}
	if b.Model == board.Ladder && len(e.Distances) > 0 {
		for i, sa := range setup.Sides {
			for _, sb := range setup.Sides[i+1:] {
				row := web.DistanceRow{A: sa.ID, B: sb.ID, AName: sa.Name, BName: sb.Name, Rung: e.Distances[0]}
				for _, d := range bf.Distances {
					if d.A == sa.ID && d.B == sb.ID || d.A == sb.ID && d.B == sa.ID {
						row.Rung = d.Rung
					}
				}
				b.Distances = append(b.Distances, row)
			}
		}
		for _, row := range b.Distances {
			if !hasDistance(bf, row.A, row.B) {
				bf.Distances = append(bf.Distances, board.DistanceSetup{A: row.A, B: row.B, Rung: row.Rung})
			}
		}
	}
	b.Preview = engine.View{ID: "preview", Name: setup.Name, Status: engine.StatusSetup, Viewer: engine.GMViewer(), Sides: setup.Sides,
		Board: board.Preview(e, bf, tokens, starts), Scene: setup.Scene, SceneFit: setup.SceneFit}
	for _, c := range setup.Combatants {
		b.Preview.Combatants = append(b.Preview.Combatants, c.Combatant)
	}
	if b.Preview.Board != nil && b.Preview.Board.Zones != nil {
		zm := b.Preview.Board.Zones
		for i := range zm.Areas {
			zm.Areas[i].Image = zonePicture(setup, zm.Areas[i].ID)
		}
	}
	return b
}

// zonePicture is the picture the setup puts inside zone id, "" for none.
func zonePicture(setup engine.Setup, id string) string {
	for _, z := range setup.ZoneScenes {
		if z.Zone == id {
			return z.Image
		}
	}
	return ""
}

func hasDistance(bf board.Battlefield, a, b string) bool {
	for _, d := range bf.Distances {
		if d.A == a && d.B == b || d.A == b && d.B == a {
			return true
		}
	}
	return false
}
