package engine

import (
	"fmt"
	"regexp"
	"slices"
	"strconv"
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
			expr, label := SplitRoll(rest)
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
	ex, err := ParseDice(expr)
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

// Free roll expressions.
const (
	maxDiceTerms = 10
	maxDice      = 100 // dice in one roll
	maxSides     = 1000
	maxFlat      = 1000 // a flat modifier's size
)

// DiceExpr is a parsed free-roll expression: a sum of dice terms and flat
// modifiers, "2d6+1", "d20-2", "4d6kh3", "3d6!" (exploding).
type DiceExpr struct {
	Terms []DiceTerm
	Flat  int
}

// DiceTerm is N dice of Sides sides: negative when subtracted, Keep > 0
// keeps only the Keep highest (or lowest, with Low), Explode rerolls and
// adds maximum faces.
type DiceTerm struct {
	N, Sides int
	Neg      bool
	Keep     int
	Low      bool
	Explode  bool
}

var (
	diceTermRE = regexp.MustCompile(`^(\d*)d(\d+)(?:k([hl]?)(\d+))?(!?)$`)
	rollExprRE = regexp.MustCompile(`^\s*([+-]?\s*(?:\d*[dD]\d+(?:[kK][hHlL]?\d+)?!?|\d+)(?:\s*[+-]\s*(?:\d*[dD]\d+(?:[kK][hHlL]?\d+)?!?|\d+))*)(?:\s+(.*))?$`)
)

// SplitRoll splits "2d6+1 fire damage" into the expression and the label.
// Without a leading expression the whole text is the expression, so that
// ParseDice explains what is wrong with it.
func SplitRoll(s string) (expr, label string) {
	m := rollExprRE.FindStringSubmatch(s)
	if m == nil {
		return strings.TrimSpace(s), ""
	}
	return strings.TrimSpace(m[1]), strings.TrimSpace(m[2])
}

// ParseDice reads a free-roll expression.
func ParseDice(s string) (DiceExpr, error) {
	var ex DiceExpr
	src := strings.ToLower(strings.ReplaceAll(s, " ", ""))
	bad := func(format string, args ...any) (DiceExpr, error) {
		return DiceExpr{}, fray.Errorf(fray.EINVALID, "cannot roll %q: "+format, append([]any{s}, args...)...)
	}
	if src == "" || len(src) > 64 {
		return bad("write dice like 2d6+1, d20-2, 4d6kh3 or 3d6!")
	}
	total := 0
	neg := false
	rest := src
	if rest[0] == '+' || rest[0] == '-' {
		neg, rest = rest[0] == '-', rest[1:]
	}
	for {
		i := strings.IndexAny(rest, "+-")
		part := rest
		if i >= 0 {
			part = rest[:i]
		}
		if part == "" {
			return bad("a sign with nothing after it")
		}
		if m := diceTermRE.FindStringSubmatch(part); m != nil {
			t := DiceTerm{N: 1, Neg: neg, Low: m[3] == "l", Explode: m[5] == "!"}
			if m[1] != "" {
				t.N, _ = strconv.Atoi(m[1])
			}
			t.Sides, _ = strconv.Atoi(m[2])
			if m[4] != "" {
				t.Keep, _ = strconv.Atoi(m[4])
			}
			switch {
			case t.N < 1:
				return bad("roll at least one die")
			case t.Sides < 2 || t.Sides > maxSides:
				return bad("dice have 2 to %d sides", maxSides)
			case t.Keep > t.N || (m[4] != "" && t.Keep < 1):
				return bad("keep between 1 and the number of dice")
			}
			total += t.N
			ex.Terms = append(ex.Terms, t)
		} else if n, err := strconv.Atoi(part); err == nil && n <= maxFlat {
			if neg {
				n = -n
			}
			ex.Flat += n
		} else {
			return bad("%q is neither dice (2d6) nor a number up to %d", part, maxFlat)
		}
		if total > maxDice || len(ex.Terms) > maxDiceTerms {
			return bad("at most %d dice in %d terms", maxDice, maxDiceTerms)
		}
		if i < 0 {
			break
		}
		neg, rest = rest[i] == '-', rest[i+1:]
	}
	if len(ex.Terms) == 0 {
		return bad("no dice in it")
	}
	return ex, nil
}

// String writes the expression back canonically: "2d6+1".
func (ex DiceExpr) String() string {
	var b strings.Builder
	for i, t := range ex.Terms {
		switch {
		case t.Neg:
			b.WriteByte('-')
		case i > 0:
			b.WriteByte('+')
		}
		if t.N > 1 {
			b.WriteString(strconv.Itoa(t.N))
		}
		b.WriteString("d" + strconv.Itoa(t.Sides))
		if t.Keep > 0 {
			b.WriteString("k")
			if t.Low {
				b.WriteString("l")
			} else {
				b.WriteString("h")
			}
			b.WriteString(strconv.Itoa(t.Keep))
		}
		if t.Explode {
			b.WriteByte('!')
		}
	}
	switch {
	case ex.Flat > 0:
		b.WriteString("+" + strconv.Itoa(ex.Flat))
	case ex.Flat < 0:
		b.WriteString(strconv.Itoa(ex.Flat))
	}
	return b.String()
}

// Roll rolls the expression: every die recorded, dropped ones marked, the
// flat modifier in Mod.
func (ex DiceExpr) Roll(r *dice.Roller) dice.Roll {
	roll := dice.Roll{Mod: ex.Flat}
	if ex.Flat != 0 {
		roll.Mods = []dice.Mod{{Label: "modifier", Value: ex.Flat}}
	}
	total := ex.Flat
	for _, t := range ex.Terms {
		dd := make([]dice.Die, t.N)
		for i := range dd {
			if t.Explode {
				dd[i] = r.Ace(t.Sides)
			} else {
				dd[i] = r.Die(t.Sides)
			}
			if t.Neg {
				dd[i].Role = "minus"
			}
		}
		if t.Keep > 0 {
			order := make([]int, len(dd))
			for i := range order {
				order[i] = i
			}
			slices.SortStableFunc(order, func(a, b int) int {
				if t.Low {
					return dd[a].Total() - dd[b].Total()
				}
				return dd[b].Total() - dd[a].Total()
			})
			for _, i := range order[t.Keep:] {
				dd[i].Dropped = true
			}
		}
		for _, d := range dd {
			if d.Dropped {
				continue
			}
			if t.Neg {
				total -= d.Total()
			} else {
				total += d.Total()
			}
		}
		roll.Dice = append(roll.Dice, dd...)
	}
	roll.Total = total
	return roll
}
