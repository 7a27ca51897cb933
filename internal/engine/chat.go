package engine

import (
	"fmt"
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/fray-vtt/fray/internal/dice"
	"github.com/fray-vtt/fray/internal/fray"
)

// Table talk: chat messages and free dice rolls. They are core commands
// any viewer may send at any stage of an encounter — before it starts,
// while a decision waits, when it is paused or over — and they are events
// like any other, so they are stored, replayed, exported and shown in the
// history. They never change the state (the engine does not even show
// them to the ruleset), a rewind neither counts nor undoes them, and an
// event's Audience keeps a whisper between its author, its addressee and
// the GM on every socket, page and export.
const (
	// KindChat says something at the table:
	// {"kind":"chat","text":"Watch the left flank!","to":"gm"}. A text
	// starting with "/roll " (or "/r ") is a free roll instead:
	// "/roll 2d6+1 fire damage".
	KindChat = "chat"
	// KindFreeRoll rolls dice outside the rules:
	// {"kind":"free-roll","dice":"2d6+1","label":"fire damage","to":""}.
	KindFreeRoll = "free-roll"

	// KindChatMessage is the event of a chat message, KindFreeRolled that of
	// a free roll (its roll in Rolls). Both carry a Chat.
	KindChatMessage = "chat-message"
	KindFreeRolled  = "free-rolled"
)

// MaxChatRunes bounds a chat message.
const MaxChatRunes = 500

// Chat is the data of KindChatMessage and KindFreeRolled.
type Chat struct {
	// From is the author's display name, set by the server from the
	// signed-in account (Viewer.Name).
	From string `json:"from"`
	// GM is set when the GM wrote it; As lists the combatants the author
	// plays otherwise.
	GM bool     `json:"gm,omitempty"`
	As []string `json:"as,omitempty"`
	// To is who it is for: "" everyone, "gm" the GM alone, or a player
	// character's id (the GM whispering to that character's player).
	To string `json:"to,omitempty"`
	// Text is the message, or a free roll's label.
	Text string `json:"text"`
	// Dice is a free roll's expression as written ("2d6+1").
	Dice string `json:"dice,omitempty"`
}

// involved are the combatants a message concerns, for the per-character
// history: its author's and its addressee.
func (c Chat) involved() []string {
	if c.To != "" && c.To != GM {
		return append(slices.Clone(c.As), c.To)
	}
	return c.As
}

// IsTableTalk reports whether kind is a chat message or a free roll.
func IsTableTalk(kind string) bool { return kind == KindChatMessage || kind == KindFreeRolled }

// visibleTo reports whether v may read an event with this audience: the
// GM always; a player when they command a combatant it names.
func visibleTo(audience []string, v Viewer) bool {
	if len(audience) == 0 || v.GM {
		return true
	}
	return slices.ContainsFunc(audience, func(id string) bool { return id != GM && v.CanCommand(id) })
}

func decideTalk(tx *Tx, cmd Command) error {
	if cmd.Actor != "" {
		return fray.Errorf(fray.EINVALID, "%q names no actor: it is written by whoever sends it", cmd.Kind)
	}
	var args struct {
		Text  string `json:"text"`
		Dice  string `json:"dice"`
		Label string `json:"label"`
		To    string `json:"to"`
	}
	if err := cmd.Decode(&args); err != nil {
		return err
	}
	if cmd.Kind == KindChat && args.Dice+args.Label != "" {
		return fray.Errorf(fray.EINVALID, "a chat message has a text and a recipient only; roll with /roll or the %q command", KindFreeRoll)
	}
	if cmd.Kind == KindFreeRoll && args.Text != "" {
		return fray.Errorf(fray.EINVALID, "a free roll has dice, a label and a recipient; say things with %q", KindChat)
	}
	c, audience, err := talker(tx, args.To)
	if err != nil {
		return err
	}
	text := strings.TrimSpace(args.Text)
	if cmd.Kind == KindChat {
		if rest, ok := rollPrefix(text); ok {
			expr, label := dice.SplitRoll(rest)
			return freeRoll(tx, c, audience, expr, label)
		}
		if strings.HasPrefix(text, "/") {
			word, _, _ := strings.Cut(text, " ")
			return fray.Errorf(fray.EINVALID, "unknown chat command %s: try /roll 2d6+1", word)
		}
		if text == "" {
			return fray.Errorf(fray.EINVALID, "say something: the message is empty")
		}
		if n := utf8.RuneCountInString(text); n > MaxChatRunes {
			return fray.Errorf(fray.EINVALID, "a message is at most %d characters, this one has %d", MaxChatRunes, n)
		}
		c.Text = text
		ev := NewEvent(KindChatMessage, "", talkLine(tx, c, ": "+text), c)
		ev.Audience = audience
		return tx.Emit(ev.With(c.involved()...))
	}
	return freeRoll(tx, c, audience, strings.TrimSpace(args.Dice), strings.TrimSpace(args.Label))
}

// rollPrefix strips "/roll " or "/r " from a chat text.
func rollPrefix(text string) (string, bool) {
	for _, p := range []string{"/roll", "/r"} {
		if rest, ok := strings.CutPrefix(text, p); ok && (rest == "" || rest[0] == ' ') {
			return strings.TrimSpace(rest), true
		}
	}
	return "", false
}

// talker is the author of a chat command and its audience.
func talker(tx *Tx, to string) (Chat, []string, error) {
	v, b := tx.viewer, tx.Base()
	c := Chat{From: strings.TrimSpace(v.Name), GM: v.GM, To: to}
	if !v.GM {
		for _, id := range v.Controls {
			if b.Combatant(id) != nil {
				c.As = append(c.As, id)
			}
		}
	}
	if c.From == "" {
		switch {
		case v.GM:
			c.From = "GM"
		case len(c.As) > 0:
			c.From = b.name(c.As[0])
		default:
			c.From = "A player"
		}
	}
	switch {
	case to == "":
		return c, nil, nil
	case to == GM:
		if !v.GM && len(c.As) == 0 {
			return c, nil, fray.Errorf(fray.EILLEGAL, "only a player with a character here can whisper to the GM")
		}
		return c, append([]string{GM}, c.As...), nil
	case !v.GM:
		return c, nil, fray.Errorf(fray.EFORBIDDEN, "players whisper to the GM only (to: %q)", GM)
	}
	t := b.Combatant(to)
	if t == nil || !t.PC {
		return c, nil, fray.Errorf(fray.EINVALID, "whisper to %q: no player character with that id", to)
	}
	return c, []string{GM, t.ID}, nil
}

// talkLine is the log line: "Ana: text", "Ana → GM: text",
// "GM → Brak: text", "GM (GM only) rolls d100: 42".
func talkLine(tx *Tx, c Chat, rest string) string {
	who := c.From
	switch {
	case c.To == GM && c.GM:
		who += " (GM only)"
	case c.To == GM:
		who += " → GM"
	case c.To != "":
		who += " → " + tx.Base().name(c.To)
	}
	return who + rest
}

func freeRoll(tx *Tx, c Chat, audience []string, expr, label string) error {
	if expr == "" {
		return fray.Errorf(fray.EINVALID, "roll what? Try /roll 2d6+1")
	}
	if utf8.RuneCountInString(label) > 100 {
		return fray.Errorf(fray.EINVALID, "a roll's label is at most 100 characters")
	}
	ex, err := dice.ParseExpr(expr)
	if err != nil {
		return err
	}
	roll := ex.Roll(tx.Dice)
	roll.Label = ex.String()
	if label != "" {
		roll.Label = label + " (" + ex.String() + ")"
	}
	if len(c.As) > 0 {
		roll.Who = c.As[0]
	}
	c.Text, c.Dice = label, ex.String()
	text := fmt.Sprintf(" rolls %s: %d", ex.String(), roll.Total)
	if label != "" {
		text = fmt.Sprintf(" rolls %s for %s: %d", ex.String(), label, roll.Total)
	}
	ev := NewEvent(KindFreeRolled, "", talkLine(tx, c, text), c, roll)
	ev.Audience = audience
	return tx.Emit(ev.With(c.involved()...))
}
