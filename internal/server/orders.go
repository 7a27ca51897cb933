package server

import (
	"context"
	"net/http"
	"slices"

	"github.com/fray-vtt/fray/internal/engine"
	"github.com/fray-vtt/fray/internal/fray"
	"github.com/fray-vtt/fray/internal/store"
	"github.com/fray-vtt/fray/web"
)

// Standing orders (engine.StandingOrders): a player's, for their own
// characters, under an encounter's ruleset — how the prompts it declares
// are answered while the player is away (Away: at once) or their time
// runs out. Only that player reads or sets them: the GM gets no page, no
// API and no order's words, only the log's "by Sam's standing order".
// GET|POST /encounters/{id}/orders (the page), GET|PUT
// /api/encounters/{id}/orders.

// StandingOrders keeps the players' standing orders; *store.DB is one.
type StandingOrders interface {
	UserStanding(ctx context.Context, campaignID, userID, ruleset string) (map[string]store.Standing, error)
	SetStanding(ctx context.Context, campaignID, characterID, ruleset, userID string, s store.Standing) error
}

// ordersJSON is one character's orders as the API reads and writes them.
type ordersJSON struct {
	Character string                `json:"character"`
	Name      string                `json:"name,omitempty"`
	Away      bool                  `json:"away"`
	Orders    engine.StandingOrders `json:"orders"`
}

// myOrders is e's user's characters in the encounter, each with their
// orders: a player's own (a GM, previewing or not, has none).
func (s *Server) myOrders(ctx context.Context, e viewedEncounter) ([]ordersJSON, error) {
	if e.gm() || e.viewer.GM {
		return nil, nil
	}
	mine, err := s.Standing.UserStanding(ctx, e.campaign, e.user.ID, e.ruleset.ID())
	if err != nil {
		return nil, err
	}
	var out []ordersJSON
	for _, id := range e.viewer.Controls {
		o := mine[id]
		if o.Orders == nil {
			o.Orders = engine.StandingOrders{}
		}
		out = append(out, ordersJSON{Character: id, Name: e.state.Core().NameOf(id), Away: o.Away, Orders: o.Orders})
	}
	return out, nil
}

// setOrders checks o against the encounter's ruleset and keeps it for e's
// user, who must play o's character there.
func (s *Server) setOrders(ctx context.Context, e viewedEncounter, o ordersJSON) error {
	if e.gm() || e.viewer.GM || !slices.Contains(e.viewer.Controls, o.Character) {
		return fray.Errorf(fray.EFORBIDDEN, "standing orders are a player's, for a character they play here")
	}
	if err := engine.CheckOrders(e.ruleset, o.Orders); err != nil {
		return err
	}
	return s.Standing.SetStanding(ctx, e.campaign, o.Character, e.ruleset.ID(), e.user.ID, store.Standing{Orders: o.Orders, Away: o.Away})
}

// handleOrdersPage is GET /encounters/{id}/orders.
func (s *Server) handleOrdersPage(w http.ResponseWriter, r *http.Request) {
	e, ok := s.viewed(w, r, s.Table.Current)
	if !ok {
		return
	}
	mine, err := s.myOrders(r.Context(), e)
	if err != nil {
		writeError(w, r, err)
		return
	}
	p := web.OrdersProps{EncounterName: e.state.Core().Name, EncounterURL: encounterURL(e.id, "", "", nil),
		RulesetTitle: e.ruleset.Title(), PostURL: encounterURL(e.id, "/orders", "", nil), Prompts: engine.Prompts(e.ruleset),
		Notice: takeFlash(w, r, flashNotice), Error: takeFlash(w, r, flashError)}
	for _, o := range mine {
		p.Characters = append(p.Characters, web.OrdersCharacter{ID: o.Character, Name: o.Name, Away: o.Away, Orders: o.Orders})
	}
	render(w, r, web.Orders(p))
}

// handleOrdersForm is POST /encounters/{id}/orders (character, away, and
// for each prompt kind when.<kind> — empty: no order —, then.<kind>,
// else.<kind>): back to the page with what happened.
func (s *Server) handleOrdersForm(w http.ResponseWriter, r *http.Request) {
	e, ok := s.viewed(w, r, s.Table.Current)
	if !ok {
		return
	}
	back := encounterURL(e.id, "/orders", "", nil)
	if err := r.ParseForm(); err != nil {
		setFlash(w, r, flashError, "The form could not be read.")
		http.Redirect(w, r, back, http.StatusSeeOther)
		return
	}
	f := r.PostForm
	o := ordersJSON{Character: f.Get("character"), Away: f.Get("away") != "", Orders: engine.StandingOrders{}}
	for _, q := range engine.Prompts(e.ruleset) {
		if when := f.Get("when." + q.Kind); when != "" {
			o.Orders[q.Kind] = engine.StandingOrder{When: when, Then: f.Get("then." + q.Kind), Else: f.Get("else." + q.Kind)}
			if when == engine.Always {
				o.Orders[q.Kind] = engine.StandingOrder{When: when, Then: f.Get("then." + q.Kind)}
			}
		}
	}
	if err := s.setOrders(r.Context(), e, o); err != nil {
		if serverFault(err) {
			writeError(w, r, err)
			return
		}
		setFlash(w, r, flashError, "The standing orders were not saved: "+errMessage(err))
	} else {
		setFlash(w, r, flashNotice, e.state.Core().NameOf(o.Character)+"'s standing orders are saved.")
	}
	http.Redirect(w, r, back, http.StatusSeeOther)
}

// handleAPIOrders is GET /api/encounters/{id}/orders: the ruleset's
// prompts and the caller's characters there with their orders,
// {"ruleset","prompts":[…],"characters":[{"character","name","away","orders"}]}.
func (s *Server) handleAPIOrders(w http.ResponseWriter, r *http.Request) {
	e, ok := s.viewed(w, r, s.Table.Current)
	if !ok {
		return
	}
	mine, err := s.myOrders(r.Context(), e)
	if err != nil {
		writeError(w, r, err)
		return
	}
	prompts := engine.Prompts(e.ruleset)
	if prompts == nil {
		prompts = []engine.PromptSpec{}
	}
	if mine == nil {
		mine = []ordersJSON{}
	}
	writeJSON(w, http.StatusOK, map[string]any{"ruleset": e.ruleset.ID(), "prompts": prompts, "characters": mine})
}

// handleAPISetOrders is PUT /api/encounters/{id}/orders
// {"character":"ana","away":false,"orders":{"<prompt kind>":{"when":"<condition>","then":"<answer>","else":"<answer>"}}}:
// replaces that character's orders under the encounter's ruleset.
func (s *Server) handleAPISetOrders(w http.ResponseWriter, r *http.Request) {
	e, ok := s.viewed(w, r, s.Table.Current)
	if !ok {
		return
	}
	var o ordersJSON
	if err := readJSON(r, &o); err != nil {
		writeError(w, r, err)
		return
	}
	if o.Name != "" {
		writeError(w, r, fray.Errorf(fray.EINVALID, "name is not set here"))
		return
	}
	if o.Orders == nil {
		o.Orders = engine.StandingOrders{}
	}
	if err := s.setOrders(r.Context(), e, o); err != nil {
		writeError(w, r, err)
		return
	}
	o.Name = e.state.Core().NameOf(o.Character)
	writeJSON(w, http.StatusOK, o)
}
