package server

import (
	"context"
	"encoding/json"
	"net/http"
	"unicode/utf8"

	"github.com/fray-vtt/fray/internal/deadlines"
	"github.com/fray-vtt/fray/internal/engine"
	"github.com/fray-vtt/fray/internal/fray"
	"github.com/fray-vtt/fray/internal/say"
	"github.com/fray-vtt/fray/internal/store"
)

// Playing by words (docs/protocol.md, "Saying a command"): the page's
// command line, bots and chat bridges send a sentence; package say reads
// it against the sender's own view as one of the commands that view
// advertises, and it is submitted as that command — so its result and its
// refusals are the page's. A question to the table ("describe the board",
// "status", "help") is answered from the view and changes nothing.

// maxSayRunes bounds a sentence.
const maxSayRunes = 500

type sayRequest struct {
	ID   string `json:"id"`
	Text string `json:"text"`
}

// Said is the answer to a sentence: what it was read as and what came of
// it (the events of its command the sender may see), or the answer to a
// question to the table.
type Said struct {
	// Said is the command as Fray read it, every value named: "Attack
	// Outlaw 1, Weapon Knife"; empty for a question to the table.
	Said   string         `json:"said,omitempty"`
	Seq    int64          `json:"seq,omitempty"`
	Events []engine.Event `json:"events,omitempty"`
	// Answer is one text to read out: the events' lines, or the table's
	// answer.
	Answer string `json:"answer"`
}

// handleAPISay reads and submits one sentence:
// POST /api/encounters/{id}/say {"id":"…","text":"attack Sal with the knife"}.
func (s *Server) handleAPISay(w http.ResponseWriter, r *http.Request) {
	e, ok := s.viewed(w, r, s.Table.Current)
	if !ok {
		return
	}
	var req sayRequest
	if err := readJSON(r, &req); err != nil {
		writeError(w, r, err)
		return
	}
	out, err := s.say(r.Context(), &e, req.ID, req.Text)
	if err != nil {
		writeError(w, r, err)
		return
	}
	writeJSON(w, http.StatusOK, out)
}

// handleAPISayComplete offers ways to finish a sentence, from the
// caller's view: GET /api/encounters/{id}/say?text=att.
func (s *Server) handleAPISayComplete(w http.ResponseWriter, r *http.Request) {
	e, ok := s.viewed(w, r, s.Table.Current)
	if !ok {
		return
	}
	text := r.URL.Query().Get("text")
	if utf8.RuneCountInString(text) > maxSayRunes {
		writeError(w, r, fray.Errorf(fray.EINVALID, "text is longer than %d characters", maxSayRunes))
		return
	}
	completions := say.Complete(engine.Project(e.ruleset, e.state, e.viewer), text)
	if completions == nil {
		completions = []string{}
	}
	writeJSON(w, http.StatusOK, map[string]any{"completions": completions})
}

// say reads text as e's viewer's command and submits it with id cmdID
// (one is made when empty); a sealed answer is committed to for the
// player, as a notice's link does, and revealed once its group has
// answered.
func (s *Server) say(ctx context.Context, e *viewedEncounter, cmdID, text string) (Said, error) {
	if utf8.RuneCountInString(text) > maxSayRunes {
		return Said{}, fray.Errorf(fray.EINVALID, "text is longer than %d characters", maxSayRunes)
	}
	view := engine.Project(e.ruleset, e.state, e.viewer)
	reading, err := say.Parse(view, text)
	if err != nil {
		if answer, ok := say.Inform(view, text); ok {
			return Said{Answer: answer}, nil
		}
		return Said{}, err
	}
	if cmdID == "" {
		cmdID = "say-" + store.NewID()
	}
	cmd := reading.Command
	if reading.Sealed && !e.viewer.GM {
		if cmd, err = s.holdSealed(ctx, e.id, view, cmd); err != nil {
			return Said{}, err
		}
	}
	from := e.state.Core().Seq
	seq, err := s.submit(ctx, e, cmdID, cmd)
	if err != nil {
		return Said{}, err
	}
	out := Said{Said: reading.Words, Seq: seq}
	_, st, err := s.Table.Current(ctx, e.id)
	if err != nil {
		return Said{}, err
	}
	events, err := s.Events.Events(ctx, e.id, from, 1000)
	if err != nil {
		return Said{}, err
	}
	var mine []engine.Event
	for _, ev := range events {
		if ev.Command == cmdID {
			mine = append(mine, ev)
		}
	}
	out.Events = engine.FilterEvents(st, e.viewer, mine)
	out.Answer = reading.Words + "."
	for _, ev := range out.Events {
		if ev.Text != "" {
			out.Answer += " " + ev.Text
		}
	}
	if reading.Sealed && !e.viewer.GM {
		out.Answer += " (Sealed until everyone has answered.)"
	}
	return out, nil
}

// holdSealed turns a sealed decision's answer in the clear into the
// commitment the player sends, the server keeping the answer until the
// group has answered (as for a notice's link).
func (s *Server) holdSealed(ctx context.Context, encounterID string, view engine.View, cmd engine.Command) (engine.Command, error) {
	var args struct {
		Decision string          `json:"decision"`
		Choice   string          `json:"choice"`
		Values   json.RawMessage `json:"values,omitempty"`
	}
	if err := json.Unmarshal(cmd.Args, &args); err != nil {
		return engine.Command{}, err
	}
	for _, d := range view.Pending {
		if d.ID != args.Decision {
			continue
		}
		h, err := deadlines.NewHeld(d, args.Choice, args.Values, "")
		if err != nil {
			return engine.Command{}, err
		}
		h.EncounterID = encounterID
		if err := s.ActLog.HoldAnswer(ctx, h); err != nil {
			return engine.Command{}, err
		}
		return engine.NewCommand(engine.KindAnswer, "", map[string]any{"decision": d.ID, "commitment": h.Commitment}), nil
	}
	return engine.Command{}, fray.Errorf(fray.EILLEGAL, "that question no longer waits for your answer")
}

// handleSayForm is the command line without the script: POST
// /encounters/{id}/say (text), back to the page with the answer, or the
// refusal, shown.
func (s *Server) handleSayForm(w http.ResponseWriter, r *http.Request) {
	e, ok := s.viewed(w, r, s.Table.Current)
	if !ok {
		return
	}
	if err := r.ParseForm(); err != nil {
		setFlash(w, r, flashError, "The form could not be read.")
	} else if out, err := s.say(r.Context(), &e, "", r.PostForm.Get("text")); err != nil {
		setFlash(w, r, flashError, errMessage(err))
	} else {
		setFlash(w, r, flashNotice, out.Answer)
	}
	http.Redirect(w, r, encounterURL(e.id, "", e.as, nil), http.StatusSeeOther)
}
