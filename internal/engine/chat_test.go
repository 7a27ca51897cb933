package engine_test

import (
	"strings"
	"testing"

	"github.com/fray-vtt/fray/internal/engine"
	"github.com/fray-vtt/fray/internal/engine/enginetest"
	"github.com/fray-vtt/fray/internal/fray"
)

func chat(text, to string) engine.Command {
	return engine.NewCommand(engine.KindChat, "", map[string]any{"text": text, "to": to})
}

// twoPlayers is the toy setup with the orc played by a second player.
func twoPlayers() engine.Setup {
	s := enginetest.Setup()
	s.Combatants[1].PC = true
	return s
}

func named(v engine.Viewer, name string) engine.Viewer {
	v.Name = name
	return v
}

// TestChatAudience: a public message reaches everyone; a whisper reaches
// its author, its addressee and the GM only — in the live filter and in
// the history, which uses the same one.
func TestChatAudience(t *testing.T) {
	g := newGame(t, twoPlayers())
	ana, bo := named(heroPl, "ana"), named(orcPl, "bo")
	public := g.do(ana, engine.KindChat, "", map[string]any{"text": "  Hello, table!  "})
	if len(public) != 1 || public[0].Kind != engine.KindChatMessage || public[0].Text != "ana: Hello, table!" {
		t.Fatalf("public message: %+v", public)
	}
	var c engine.Chat
	if err := public[0].Decode(&c); err != nil || c.From != "ana" || c.Text != "Hello, table!" || len(c.As) != 1 || c.As[0] != "hero" || c.GM {
		t.Fatalf("chat data %+v (%v)", c, err)
	}
	toGM := g.do(ana, engine.KindChat, "", map[string]any{"text": "I palm the key.", "to": "gm"})
	gmToBo := g.do(named(gm, "Dana"), engine.KindChat, "", map[string]any{"text": "You smell smoke.", "to": "orc"})
	if gmToBo[0].Text != "Dana → Orc: You smell smoke." || toGM[0].Text != "ana → GM: I palm the key." {
		t.Fatalf("whisper lines: %q, %q", toGM[0].Text, gmToBo[0].Text)
	}
	if !engine.Involves(gmToBo[0], "orc") || !engine.Involves(toGM[0], "hero") || engine.Involves(toGM[0], "orc") {
		t.Error("a whisper does not involve its author's character and its addressee")
	}
	sees := func(v engine.Viewer) string {
		var out []string
		for _, ev := range engine.FilterEvents(g.st, v, g.log) {
			out = append(out, ev.Text)
		}
		return strings.Join(out, " | ")
	}
	for _, c := range []struct {
		name string
		v    engine.Viewer
		want string
	}{
		{"gm", gm, "ana: Hello, table! | ana → GM: I palm the key. | Dana → Orc: You smell smoke."},
		{"ana", heroPl, "ana: Hello, table! | ana → GM: I palm the key."},
		{"bo", bo, "ana: Hello, table! | Dana → Orc: You smell smoke."},
		{"spectator", engine.PlayerViewer(), "ana: Hello, table!"},
	} {
		if got := sees(c.v); got != c.want {
			t.Errorf("%s sees %q, want %q", c.name, got, c.want)
		}
	}
	if st := g.st.Core(); st.Status != engine.StatusSetup || st.Seq != 3 {
		t.Fatalf("chat changed the state: %+v", st)
	}
	g.replayMatches()
}

func TestChatRefusals(t *testing.T) {
	g := newGame(t, twoPlayers())
	for _, c := range []struct {
		name string
		v    engine.Viewer
		cmd  engine.Command
		code string
	}{
		{"empty", heroPl, chat("   ", ""), fray.EINVALID},
		{"too long", heroPl, chat(strings.Repeat("a", engine.MaxChatRunes+1), ""), fray.EINVALID},
		{"player to player", heroPl, chat("psst", "orc"), fray.EFORBIDDEN},
		{"spectator whisper", engine.PlayerViewer(), chat("psst", "gm"), fray.EILLEGAL},
		{"gm to an NPC", gm, chat("psst", "spy"), fray.EINVALID},
		{"gm to nobody", gm, chat("psst", "nobody"), fray.EINVALID},
		{"unknown slash command", heroPl, chat("/dance", ""), fray.EINVALID},
		{"actor", heroPl, engine.NewCommand(engine.KindChat, "hero", map[string]any{"text": "hi"}), fray.EINVALID},
		{"unknown field", heroPl, engine.NewCommand(engine.KindChat, "", map[string]any{"text": "hi", "loud": true}), fray.EINVALID},
		{"chat with dice", heroPl, engine.NewCommand(engine.KindChat, "", map[string]any{"text": "hi", "dice": "d6"}), fray.EINVALID},
		{"bad roll", heroPl, chat("/roll 2x6", ""), fray.EINVALID},
		{"too many dice", heroPl, chat("/roll 101d6", ""), fray.EINVALID},
		{"roll nothing", heroPl, chat("/roll", ""), fray.EINVALID},
	} {
		_, err := g.try(c.v, c.cmd.Kind, c.cmd.Actor, argsOf(t, c.cmd))
		if code := fray.ErrorCode(err); code != c.code {
			t.Errorf("%s: %v (code %s), want %s", c.name, err, code, c.code)
		}
	}
	if g.st.Core().Seq != 0 {
		t.Fatal("a refused message left events")
	}
}

func argsOf(t *testing.T, c engine.Command) map[string]any {
	t.Helper()
	var m map[string]any
	if err := c.Decode(&m); err != nil {
		t.Fatal(err)
	}
	return m
}

// TestFreeRolls: /roll in chat and the free-roll command roll on the
// server with the encounter's dice, record every die (dropped ones
// marked) and keep a GM's secret roll secret.
func TestFreeRolls(t *testing.T) {
	g := newGame(t, twoPlayers())
	cases := []struct {
		v     engine.Viewer
		cmd   engine.Command
		faces []int
		line  string
		total int
	}{
		{heroPl, chat("/roll 2d6+1 fire damage", ""), []int{3, 5}, "Hero rolls 2d6+1 for fire damage: 9", 9},
		{heroPl, chat("/r d20 - 2", ""), []int{12}, "Hero rolls d20-2: 10", 10},
		{heroPl, engine.NewCommand(engine.KindFreeRoll, "", map[string]any{"dice": "4d6kh3", "label": "Strength"}), []int{2, 6, 1, 5}, "Hero rolls 4d6kh3 for Strength: 13", 13},
		{heroPl, chat("/roll 2d6!", ""), []int{6, 2, 3}, "Hero rolls 2d6!: 11", 11},
		{gm, chat("/roll 1d100", "gm"), []int{42}, "GM (GM only) rolls d100: 42", 42},
	}
	for _, c := range cases {
		events := g.do(c.v, c.cmd.Kind, "", argsOf(t, c.cmd), c.faces...)
		ev := events[0]
		if ev.Kind != engine.KindFreeRolled || ev.Text != c.line || len(ev.Rolls) != 1 || ev.Rolls[0].Total != c.total {
			t.Errorf("%v: %q %+v", c.cmd, ev.Text, ev.Rolls)
		}
	}
	kh := g.log[2].Rolls[0]
	if !kh.Dice[2].Dropped || kh.Dice[0].Dropped || kh.Dice[1].Dropped || kh.Dice[3].Dropped {
		t.Fatalf("4d6kh3 should drop the 1: %+v", kh.Dice)
	}
	if r := g.log[0].Rolls[0]; r.Who != "hero" || r.Mod != 1 || len(r.Mods) != 1 || r.Label != "fire damage (2d6+1)" {
		t.Fatalf("2d6+1: %+v", r)
	}
	if n := len(engine.FilterEvents(g.st, orcPl, g.log)); n != 4 {
		t.Fatalf("a player sees %d free rolls, want the 4 public ones", n)
	}
	g.replayMatches()
}

// TestTalkAtAnyStage: chat goes on while a question waits, while paused
// and after the end, and a rewind neither counts it as an action nor
// undoes it.
func TestTalkAtAnyStage(t *testing.T) {
	tb := newTable(t)
	tb.do(gm, engine.NewCommand(engine.KindStart, "", nil))
	tb.do(heroPl, engine.NewCommand("hit", "hero", map[string]any{"target": "orc"}), 6)
	hit := tb.last().Seq
	tb.do(heroPl, chat("Take that!", ""))
	said := tb.last().Seq
	tb.do(gm, engine.NewCommand("cover", "", nil))
	if !tb.st.Core().Waiting() {
		t.Fatal("the cover question should wait")
	}
	tb.do(heroPl, chat("What cover?", ""))
	tb.do(gm, rewind(1)) // undoes the question, not the chat
	tb.do(gm, rewind(1)) // undoes the hit
	var d engine.Rewound
	if err := tb.last().Decode(&d); err != nil {
		t.Fatal(err)
	}
	if d.To >= hit {
		t.Fatalf("second rewind goes to %d, want before the hit (%d)", d.To, hit)
	}
	for _, s := range d.Undone {
		if s == said {
			t.Fatal("a rewind undid a chat message")
		}
	}
	tb.do(gm, engine.NewCommand(engine.KindPause, "", nil))
	tb.do(heroPl, chat("Coffee break?", ""))
	tb.do(gm, engine.NewCommand(engine.KindEnd, "", nil))
	tb.do(heroPl, chat("gg", ""))
	if tb.last().Kind != engine.KindChatMessage {
		t.Fatalf("after the end: %+v", tb.last())
	}
}
