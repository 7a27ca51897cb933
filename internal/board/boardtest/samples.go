// Package boardtest holds sample encounters, one per position model, as a
// viewer sees them: the page's tests, its accessibility checks and the
// README's screenshots draw them. They are hand-built views, so the page
// can be tried on every model before a ruleset of that model exists.
package boardtest

import (
	"github.com/fray-vtt/fray/internal/board"
	"github.com/fray-vtt/fray/internal/dice"
	"github.com/fray-vtt/fray/internal/engine"
)

// Sample is one sample encounter: the view of the player (or the GM) and
// the log they see.
type Sample struct {
	Name string // file-friendly: "zones", "grid-bands", …
	View engine.View
	Log  []engine.Event
}

// All returns every sample, zones first.
func All() []Sample {
	return []Sample{Zones(), GridBands(), GridSquares(), Pairs(), Ladder()}
}

func tok(id, name, side string, pc bool) board.Token {
	return board.Token{ID: id, Name: name, Side: side, PC: pc}
}

func combatants(ts []board.Token) []engine.Combatant {
	out := make([]engine.Combatant, len(ts))
	for i, t := range ts {
		out[i] = engine.Combatant{ID: t.ID, Name: t.Name, Side: t.Side, PC: t.PC, Out: t.Out, Down: t.Down, Hidden: t.Hidden}
	}
	return out
}

func ids(ts []board.Token) []string {
	out := make([]string, len(ts))
	for i, t := range ts {
		out[i] = t.ID
	}
	return out
}

var (
	shaken  = board.Condition{ID: "shaken", Label: "Shaken", Icon: board.Icon{Glyph: "✶", Legend: "Shaken"}, Text: "Can only move until recovered."}
	bleed   = board.Condition{ID: "bleeding", Label: "Bleeding out", Icon: board.Icon{Glyph: "♥", Legend: "Bleeding out", Tone: board.Bad}, Text: "Rolls each round to stay alive."}
	aiming  = board.Condition{ID: "aiming", Label: "Aiming", Icon: board.Icon{Glyph: "◎", Legend: "Aiming", Tone: board.Good}, Text: "+2 to the next shot."}
	grabbed = board.Condition{ID: "grappled", Label: "Grappled", Icon: board.Icon{Glyph: "⊗", Legend: "Grappled"}, Text: "Held by the troll."}
	prone   = &board.Pose{ID: "prone", Label: "Prone", Icon: board.Icon{Glyph: "⇊", Legend: "Prone"}, Shape: board.Flat, Text: "−2 to hit in melee; harder to shoot."}
	crouch  = &board.Pose{ID: "crouched", Label: "Crouched", Icon: board.Icon{Glyph: "⇣", Legend: "Crouched"}, Shape: board.Low, Text: "Half cover; half speed."}
)

func wounds(n, max int) *board.Meter {
	return &board.Meter{Label: "Wounds", Value: n, Max: max, Text: "Wounds " + itoa(n) + "/" + itoa(max)}
}

func hp(n, max int) *board.Meter {
	return &board.Meter{Label: "HP", Value: n, Max: max, Text: "HP " + itoa(n) + "/" + itoa(max), Low: true}
}

func itoa(n int) string {
	if n < 0 {
		return "−" + itoa(-n)
	}
	s := ""
	for {
		s = string(rune('0'+n%10)) + s
		n /= 10
		if n == 0 {
			return s
		}
	}
}

// attack is the player's main action: a target picked on the board.
func attack(actor, kind, label string, targets ...engine.Choice) engine.Action {
	return engine.Action{Kind: kind, Actor: actor, Label: label, Main: true, Help: "Roll to hit the target.",
		Fields: []engine.Field{{Name: "target", Label: "Target", Type: engine.FieldSelect, Options: targets, Target: true}}}
}

func roll(label, who string, total, target int, result string, mods []dice.Mod, ds ...dice.Die) dice.Roll {
	m := 0
	for _, x := range mods {
		m += x.Value
	}
	return dice.Roll{Label: label, Who: who, Dice: ds, Mod: m, Mods: mods, Total: total, Target: target, Compare: dice.AtLeast, Result: result}
}

func chat(seq int64, from, text string, gm bool, to string) engine.Event {
	ev := engine.NewEvent(engine.KindChatMessage, "", from+": "+text, engine.Chat{From: from, GM: gm, To: to, Text: text})
	ev.Seq = seq
	return ev
}

// Zones is a zones battlefield: four areas, a melee at the ford, cover on
// the hill; the player acts.
func Zones() Sample {
	ts := []board.Token{
		tok("brak", "Brak", "heroes", true), tok("lyra", "Lyra", "heroes", true),
		tok("chief", "Grishnak the chief", "goblins", false), tok("g1", "Goblin 1", "goblins", false),
		tok("g2", "Goblin 2", "goblins", false), tok("g3", "Goblin archer", "goblins", false),
	}
	ts[0].Acting, ts[0].Health, ts[0].Tags, ts[0].Initiative = true, wounds(1, 3), []string{"Wild Card"}, "K♠"
	ts[0].Stats = []board.Stat{{Label: "Parry", Value: "7"}, {Label: "Toughness", Value: "8 (2)"}, {Label: "Movement", Value: "6"}}
	ts[0].Sheet = []board.Section{{Title: "Attributes", Stats: []board.Stat{{Label: "Agility", Value: "d8"}, {Label: "Strength", Value: "d10"}}},
		{Title: "Weapons", Stats: []board.Stat{{Label: "Battle axe", Value: "Str+d8", Note: "melee"}}}}
	ts[1].Health, ts[1].Tags, ts[1].Initiative = wounds(0, 3), []string{"Wild Card"}, "9♦"
	ts[2].Health, ts[2].Tags, ts[2].Initiative = wounds(2, 3), []string{"Wild Card"}, "Q♣"
	ts[3].Conditions, ts[3].Initiative = []board.Condition{shaken}, "7♥"
	ts[4].Initiative = "5♠"
	ts[5].Pose, ts[5].Initiative = prone, "3♦"
	b := &board.Board{Model: board.Zones, Tokens: ts, Facts: []board.Stat{{Label: "Deck", Value: "43 cards left"}},
		Zones: &board.ZoneMap{
			Areas: []board.Area{
				{ID: "road", Name: "Road", Description: "A muddy cart road."},
				{ID: "ford", Name: "Ford", Description: "Knee-deep water over slick stones."},
				{ID: "woods", Name: "Alder woods", Features: []string{"Light cover"}, Shade: 1},
				{ID: "hill", Name: "Rocky hill", Features: []string{"Medium cover", "Cover Armour 10"}, Shade: 2},
			},
			Links:  []board.Link{{A: "road", B: "ford"}, {A: "road", B: "woods"}, {A: "ford", B: "woods"}, {A: "ford", B: "hill"}},
			Groups: []board.Group{{ID: "m1", Area: "ford", Members: []string{"brak", "g1", "g2"}, Label: "Melee 1"}},
			Places: []board.Placed{
				{Token: "brak", Area: "ford", Group: "m1"}, {Token: "g1", Area: "ford", Group: "m1"}, {Token: "g2", Area: "ford", Group: "m1"},
				{Token: "lyra", Area: "road"}, {Token: "chief", Area: "hill"}, {Token: "g3", Area: "woods"},
			},
		}}
	v := engine.View{ID: "zones", Name: "Goblin ambush at the ford", Ruleset: "sample-zones", Status: engine.StatusRunning,
		Round: 2, Seq: 10, Viewer: engine.PlayerViewer("brak"),
		Sides:      []engine.Side{{ID: "heroes", Name: "Heroes"}, {ID: "goblins", Name: "Goblins"}},
		Combatants: combatants(ts), Order: []string{"brak", "chief", "lyra", "g1", "g2", "g3"}, Current: "brak", Acting: []string{"brak"},
		Board: finished(b),
		Actions: []engine.Action{
			attack("brak", "fight", "Fight", engine.Choice{Value: "g1", Label: "Goblin 1"}, engine.Choice{Value: "g2", Label: "Goblin 2"}),
			{Kind: "disengage", Actor: "brak", Label: "Disengage", Main: true, Help: "Leave the melee; each foe gets a free attack."},
			{Kind: "end-turn", Actor: "brak", Label: "End turn", Main: true},
			{Kind: "defend", Actor: "brak", Label: "Defend", Help: "+4 Parry until your next turn."},
			{Kind: "prone", Actor: "brak", Label: "Drop prone"},
		},
	}
	fight := engine.NewEvent("attack", "brak", "Brak attacks Goblin 1 with the battle axe: hit.", nil,
		roll("Fighting", "brak", 9, 5, "hit", []dice.Mod{{Label: "wounds", Value: -1}, {Label: "gang-up", Value: 1}},
			dice.Die{Sides: 10, Faces: []int{9}, Role: "trait die"}, dice.Die{Sides: 6, Faces: []int{4}, Role: "Wild Die", Dropped: true}))
	fight.Rolls[0].Kept, fight.Rolls[0].Outcome = 1, dice.Good
	fight.Seq, fight.Round, fight.Command = 8, 2, "c-8"
	damage := engine.NewEvent("damage", "brak", "Goblin 1 takes 11 damage against Toughness 5: out.", nil,
		roll("Damage", "brak", 11, 5, "out", nil, dice.Die{Sides: 10, Faces: []int{7}}, dice.Die{Sides: 8, Faces: []int{4}}))
	damage.Rolls[0].Outcome = dice.Good
	damage.Seq, damage.Round, damage.Command = 9, 2, "c-8"
	deal := engine.NewEvent("cards-dealt", "", "Round 2: cards are dealt.", nil,
		dice.Roll{Label: "Deal: K♠", Who: "brak", Dice: []dice.Die{{Sides: 52, Faces: []int{13}, Role: dice.RolePick}}, Total: 13})
	deal.Seq, deal.Round = 7, 2
	start := engine.NewEvent(engine.KindStarted, "", "The encounter begins.", nil)
	start.Seq = 1
	return Sample{Name: "zones", View: v, Log: []engine.Event{start, deal, fight, damage, chat(10, "Dana", "Nice swing!", true, "")}}
}

// GridBands is a 30 m band grid: a contact group, cover and smoke, one
// token off the map at Extreme range.
func GridBands() Sample {
	ts := []board.Token{
		tok("kit", "Kit Marlowe", "crew", true), tok("rana", "Rana", "crew", true), tok("doc", "Doc Ibarra", "crew", true),
		tok("r1", "Raider 1", "raiders", false), tok("r2", "Raider 2", "raiders", false), tok("boss", "Raider boss", "raiders", false),
		tok("sniper", "Sniper", "raiders", false),
	}
	ts[0].Acting, ts[0].Health = true, hp(9, 12)
	ts[0].Stats = []board.Stat{{Label: "Defence", Value: "3D"}, {Label: "Ammo", Value: "4"}}
	ts[1].Health = hp(4, 10)
	ts[1].Conditions = []board.Condition{aiming}
	ts[2].Health = hp(10, 10)
	ts[3].Health, ts[3].Conditions = hp(2, 8), []board.Condition{{ID: "pinned", Label: "Pinned", Icon: board.Icon{Glyph: "⚓", Legend: "Pinned"}, Text: "Cannot move this round."}}
	ts[4].Health = hp(8, 8)
	ts[5].Health = hp(14, 14)
	ts[6].Health = hp(6, 6)
	for i := range ts {
		ts[i].Initiative = itoa(18 - 2*i)
	}
	b := &board.Board{Model: board.Grid, Tokens: ts, Notes: []string{"Dust storm: −1D to Perception beyond Medium."},
		Grid: &board.GridMap{Width: 8, Height: 6, Scale: "30 m", Bands: []string{"Close", "Medium", "Long", "Very Long"},
			Cells: []board.Cell{
				{X: 3, Y: 2, Label: "Ruined wall", Features: []string{"Cover +2D"}, Shade: 2},
				{X: 3, Y: 3, Label: "Ruined wall", Features: []string{"Cover +2D"}, Shade: 2},
				{X: 5, Y: 1, Label: "Smoke", Features: []string{"Blocks sight"}, Shade: 3, Blocks: true},
				{X: 1, Y: 4, Label: "Rubble", Features: []string{"Difficult"}, Shade: 1},
			},
			Places: []board.Placed{
				{Token: "kit", X: 1, Y: 2}, {Token: "rana", X: 2, Y: 3, Group: "c1"}, {Token: "r1", X: 2, Y: 3, Group: "c1"},
				{Token: "doc", X: 0, Y: 1}, {Token: "r2", X: 6, Y: 2}, {Token: "boss", X: 7, Y: 4}, {Token: "sniper", Off: true},
			}}}
	v := engine.View{ID: "grid-bands", Name: "Raid on the water station", Ruleset: "sample-bands", Status: engine.StatusRunning,
		Round: 3, Seq: 30, Viewer: engine.PlayerViewer("kit"),
		Sides:      []engine.Side{{ID: "crew", Name: "Crew"}, {ID: "raiders", Name: "Raiders"}},
		Combatants: combatants(ts), Order: ids(ts), Current: "kit", Acting: []string{"kit"}, Board: finished(b),
		Actions: []engine.Action{
			attack("kit", "shoot", "Shoot", engine.Choice{Value: "r1", Label: "Raider 1 (Close)"}, engine.Choice{Value: "r2", Label: "Raider 2 (Long)"},
				engine.Choice{Value: "boss", Label: "Raider boss (Long)"}),
			{Kind: "move", Actor: "kit", Label: "Move", Main: true, Fields: []engine.Field{{Name: "to", Label: "To", Type: engine.FieldSelect,
				Options: []engine.Choice{{Value: "1,3", Label: "B4"}, {Value: "2,2", Label: "C3"}}}}},
			{Kind: "end-turn", Actor: "kit", Label: "End turn", Main: true},
		},
	}
	shot := engine.NewEvent("shot", "rana", "Rana shoots Raider 1: 2 successes.", nil,
		dice.Roll{Label: "Shooting", Who: "rana", Dice: []dice.Die{{Sides: 6, Faces: []int{6}}, {Sides: 6, Faces: []int{5}}, {Sides: 6, Faces: []int{2}}, {Sides: 6, Faces: []int{1}}},
			Mods: []dice.Mod{{Label: "aiming", Value: 1, Unit: "D"}, {Label: "cover", Value: -1, Unit: "D"}}, Total: 2, Target: 1, Compare: dice.AtLeast, Result: "2 successes"})
	shot.Seq, shot.Round = 30, 3
	shot.Rolls[0].Outcome = dice.Good
	return Sample{Name: "grid-bands", View: v, Log: []engine.Event{shot}}
}

// GridSquares is a 5-ft grid with poses: the GM's view, with a hidden
// foe and a question waiting.
func GridSquares() Sample {
	ts := []board.Token{
		tok("sera", "Sera", "party", true), tok("tam", "Tam", "party", true), tok("orla", "Orla", "party", true),
		tok("troll", "Cave troll", "monsters", false), tok("k1", "Kobold 1", "monsters", false), tok("k2", "Kobold 2", "monsters", false),
		tok("k3", "Kobold shaman", "monsters", false),
	}
	ts[0].Health, ts[0].Conditions = hp(22, 31), []board.Condition{grabbed}
	ts[1].Health, ts[1].Down, ts[1].Pose, ts[1].Conditions = hp(0, 24), true, prone, []board.Condition{bleed}
	ts[2].Health = hp(18, 18)
	ts[3].Health, ts[3].Acting = hp(61, 84), true
	ts[4].Health, ts[4].Pose = hp(5, 5), crouch
	ts[5].Health, ts[5].Out = hp(0, 5), true
	ts[6].Health, ts[6].Hidden = hp(12, 12), true
	ts[3].Stats = []board.Stat{{Label: "AC", Value: "15"}, {Label: "Speed", Value: "30 ft"}}
	b := &board.Board{Model: board.Grid, Tokens: ts,
		Grid: &board.GridMap{Width: 12, Height: 9, Scale: "5 ft",
			Cells: []board.Cell{
				{X: 5, Y: 0, Label: "Pillar", Blocks: true, Shade: 3}, {X: 5, Y: 1, Label: "Pillar", Blocks: true, Shade: 3},
				{X: 8, Y: 6, Label: "Rubble", Features: []string{"Difficult terrain"}, Shade: 1},
				{X: 9, Y: 6, Label: "Rubble", Features: []string{"Difficult terrain"}, Shade: 1},
				{X: 2, Y: 7, Label: "Pool", Features: []string{"Deep water"}, Shade: 2},
			},
			Places: []board.Placed{
				{Token: "sera", X: 4, Y: 4, Group: "t"}, {Token: "troll", X: 5, Y: 4, Group: "t"}, {Token: "tam", X: 4, Y: 5},
				{Token: "orla", X: 1, Y: 2}, {Token: "k1", X: 8, Y: 2}, {Token: "k2", X: 9, Y: 3},
				{Token: "k3", X: 10, Y: 7},
			}}}
	v := engine.View{ID: "grid-squares", Name: "The troll's cave", Ruleset: "sample-squares", Status: engine.StatusRunning,
		Round: 4, Seq: 60, Viewer: engine.GMViewer(),
		Sides:      []engine.Side{{ID: "party", Name: "Party"}, {ID: "monsters", Name: "Monsters"}},
		Combatants: combatants(ts), Order: ids(ts), Current: "troll", Acting: []string{"troll"}, Board: finished(b),
		Pending: []engine.Decision{{ID: "d58", For: engine.GM, Kind: "ruling", Prompt: "Does the troll's reach cover Orla?",
			Options: []engine.Choice{{Value: "yes", Label: "Yes"}, {Value: "no", Label: "No"}}, Default: "no"}},
		Actions: []engine.Action{
			{Kind: engine.KindPause, Label: "Pause"},
			{Kind: engine.KindAcceptDefaults, Label: "Accept defaults", Help: "Answers every pending question that has a default with it."},
			{Kind: engine.KindRewind, Label: "Undo last action", Danger: true, Help: "Rewinds the encounter to just before the last action; the log keeps both."},
			{Kind: engine.KindEnd, Label: "End encounter", Danger: true, Fields: []engine.Field{{Name: "winner", Label: "Winner", Type: engine.FieldSelect,
				Options: []engine.Choice{{Value: "", Label: "No winner"}, {Value: "party", Label: "Party"}, {Value: "monsters", Label: "Monsters"}}}}},
		},
	}
	bite := engine.NewEvent("attack", "troll", "The troll bites Tam: 14 damage.", nil,
		roll("Bite", "troll", 19, 16, "hit", []dice.Mod{{Label: "Strength", Value: 6}, {Label: "prone target", Value: 2}},
			dice.Die{Sides: 20, Faces: []int{11}, Role: "black"}, dice.Die{Sides: 20, Faces: []int{4}, Role: "white", Dropped: true}))
	bite.Seq, bite.Round, bite.Command = 59, 4, "c-59"
	bite.Rolls[0].Outcome = dice.Good
	whisper := chat(60, "Dana", "Tam, you hear chanting from the dark.", true, "tam")
	whisper.Audience = []string{engine.GM, "tam"}
	return Sample{Name: "grid-squares", View: v, Log: []engine.Event{bite, whisper}}
}

// Pairs is pairwise engagements: a duel at Striking distance, a grapple,
// and one fighter apart; poses shown after the exchange.
func Pairs() Sample {
	ts := []board.Token{
		tok("ines", "Inês", "school", true), tok("bo", "Bo", "school", true), tok("vex", "Vex", "rivals", false),
		tok("rook", "Rook", "rivals", false), tok("mara", "Mara", "rivals", false),
	}
	ts[0].Health, ts[0].Acting = hp(7, 10), true
	ts[1].Health, ts[1].Conditions = hp(4, 10), []board.Condition{grabbed}
	ts[2].Health = hp(9, 10)
	ts[3].Health = hp(10, 10)
	ts[4].Health = hp(10, 10)
	b := &board.Board{Model: board.Pairs, Tokens: ts, Pairs: &board.PairMap{
		Engagements: []board.Engagement{
			{A: "ines", B: "vex", Distance: "Striking", Shown: map[string]string{"ines": "Feint", "vex": "Guard"}},
			{A: "bo", B: "rook", Distance: "Grappling", Note: "Rook holds Bo."},
		},
		Apart: []string{"mara"},
	}}
	v := engine.View{ID: "pairs", Name: "Duel in the courtyard", Ruleset: "sample-pairs", Status: engine.StatusRunning,
		Round: 2, Seq: 20, Viewer: engine.PlayerViewer("ines"),
		Sides:      []engine.Side{{ID: "school", Name: "The school"}, {ID: "rivals", Name: "Rivals"}},
		Combatants: combatants(ts), Order: ids(ts), Current: "ines", Acting: []string{"ines", "vex"}, Phase: "Exchange", Board: finished(b),
		Committed: []engine.Committed{{Decision: "d19", For: "ines", Prompt: "Your pose?", Choice: "feint", Label: "Feint"}},
		Waiting:   []string{"Vex"},
		Actions: []engine.Action{
			attack("ines", "strike", "Strike", engine.Choice{Value: "vex", Label: "Vex"}),
			{Kind: "close", Actor: "ines", Label: "Close to grappling", Main: true},
			{Kind: "withdraw", Actor: "ines", Label: "Withdraw"},
		},
	}
	strike := engine.NewEvent("strike", "ines", "Inês strikes Vex: a wound to the sword arm.", nil,
		roll("Strike", "ines", 17, 14, "wound", []dice.Mod{{Label: "feint against guard", Value: 2}},
			dice.Die{Sides: 20, Faces: []int{15}, Role: "white"}, dice.Die{Sides: 20, Faces: []int{6}, Role: "black", Dropped: true}))
	strike.Rolls[0].Outcome = dice.Good
	strike.Seq, strike.Round, strike.Command = 19, 2, "c-19"
	return Sample{Name: "pairs", View: v, Log: []engine.Event{strike}}
}

// Ladder is distance categories between sides: two sides at Medium, a
// third at Long.
func Ladder() Sample {
	ts := []board.Token{
		tok("juno", "Juno", "hunters", true), tok("pike", "Pike", "hunters", true),
		tok("w1", "Wolf 1", "wolves", false), tok("w2", "Wolf 2", "wolves", false), tok("alpha", "Alpha wolf", "wolves", false),
		tok("crow", "Crow witch", "witch", false),
	}
	ts[0].Health, ts[0].Acting = hp(11, 14), true
	ts[1].Health = hp(6, 12)
	ts[2].Health = hp(5, 9)
	ts[3].Health = hp(9, 9)
	ts[4].Health = hp(15, 15)
	ts[5].Health = hp(8, 8)
	ts[5].Conditions = []board.Condition{{ID: "hidden", Label: "Hidden", Icon: board.Icon{Glyph: "◌", Legend: "Hidden", Tone: board.Good}, Text: "Cannot be targeted until seen."}}
	b := &board.Board{Model: board.Ladder, Tokens: ts, Ladder: &board.LadderMap{
		Rungs: []board.Rung{{Name: "Close", Help: "Melee; +2 to hit"}, {Name: "Short", Help: "Thrown weapons"}, {Name: "Medium", Help: "Bows and pistols"},
			{Name: "Long", Help: "Rifles, −2"}, {Name: "Extreme", Help: "Only scoped rifles"}},
		Gaps: []board.SideGap{{A: "hunters", B: "wolves", Rung: 2, Note: "One move to Short."}, {A: "hunters", B: "witch", Rung: 3}},
	}}
	v := engine.View{ID: "ladder", Name: "Wolves at the treeline", Ruleset: "sample-ladder", Status: engine.StatusRunning,
		Round: 1, Seq: 5, Viewer: engine.PlayerViewer("juno"),
		Sides:      []engine.Side{{ID: "hunters", Name: "Hunters"}, {ID: "wolves", Name: "Wolves"}, {ID: "witch", Name: "The witch"}},
		Combatants: combatants(ts), Order: ids(ts), Current: "juno", Acting: []string{"juno"}, Board: finished(b),
		Actions: []engine.Action{
			attack("juno", "shoot", "Shoot", engine.Choice{Value: "w1", Label: "Wolf 1"}, engine.Choice{Value: "w2", Label: "Wolf 2"}, engine.Choice{Value: "alpha", Label: "Alpha wolf"}),
			{Kind: "advance", Actor: "juno", Label: "Advance", Main: true, Fields: []engine.Field{{Name: "towards", Label: "Towards", Type: engine.FieldSelect,
				Options: []engine.Choice{{Value: "wolves", Label: "Wolves (to Short)"}, {Value: "witch", Label: "The witch (to Medium)"}}}}},
			{Kind: "end-turn", Actor: "juno", Label: "End turn", Main: true},
		},
	}
	shot := engine.NewEvent("shoot", "juno", "Juno shoots at Wolf 1 at Medium range: a miss.", nil,
		roll("Shooting", "juno", 9, 12, "miss", []dice.Mod{{Label: "Medium range", Value: -2}}, dice.Die{Sides: 20, Faces: []int{11}}))
	shot.Rolls[0].Outcome = dice.Bad
	shot.Seq, shot.Round, shot.Command = 4, 1, "c-4"
	return Sample{Name: "ladder", View: v, Log: []engine.Event{shot}}
}

// finished is b with its legend, as engine.Project hands boards out.
func finished(b *board.Board) *board.Board {
	b.Finish()
	return b
}
