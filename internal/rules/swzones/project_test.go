package swzones

import (
	"encoding/json"
	"slices"
	"strings"
	"testing"

	"github.com/fray-vtt/fray/internal/engine"
)

func hiddenSetup() engine.Setup {
	return newSetup(nil, chain(2, nil, []string{"z1", "brak", "lurker", "gob1"}),
		spec{ID: "brak", Side: "heroes", Zone: "z1", WC: true, PC: true, Armor: 2},
		spec{ID: "lyra", Side: "heroes", Zone: "z2", WC: true, PC: true},
		spec{ID: "lurker", Side: "goblins", Zone: "z1", Hidden: true},
		spec{ID: "gob1", Side: "goblins", Zone: "z1"},
		spec{ID: "sneak", Side: "goblins", Zone: "z2", Hidden: true},
	)
}

func TestProjectHidesHiddenFighters(t *testing.T) {
	_, st := startWith(t, newState(t, hiddenSetup()), []string{"A♠", "K♠", "Q♠", "J♠", "10♠"})
	player := engine.PlayerViewer("brak")
	v := view(st, player)
	if _, seen := tokenOf(v, "lurker"); seen {
		t.Fatal("player sees the hidden lurker")
	}
	if _, seen := tokenOf(v, "sneak"); seen {
		t.Fatal("player sees the hidden sneak")
	}
	eq(t, "fighters", len(v.Tokens), 3)
	if g := v.Zones.Groups; len(g) != 1 || g[0].Area != "z1" || !slices.Equal(g[0].Members, []string{"brak", "gob1"}) {
		t.Fatalf("z1 melees = %+v", g)
	}
	var z2 []string
	for _, p := range v.Zones.Places {
		if p.Area == "z2" && p.Group == "" {
			z2 = append(z2, p.Token)
		}
	}
	if !slices.Equal(z2, []string{"lyra"}) {
		t.Fatalf("z2 unengaged = %v", z2)
	}
	raw, _ := json.Marshal(v)
	for _, secret := range []string{"lurker", "sneak"} {
		if strings.Contains(string(raw), `"`+secret+`"`) {
			t.Fatalf("projection mentions %s: %s", secret, raw)
		}
	}
	// Full sheets: only for the player's own fighter.
	b, _ := tokenOf(v, "brak")
	l, _ := tokenOf(v, "lyra")
	gob1, _ := tokenOf(v, "gob1")
	eq(t, "own full", b.Sheet != nil, true)
	eq(t, "own parry", statOf(b, "Parry"), "5")
	eq(t, "own toughness and armor", statOf(b, "Toughness"), "7 (2)")
	fighting, _ := sheetStat(b, "Skills", "Fighting")
	eq(t, "own traits", fighting.Value, "d6")
	eq(t, "own weapons", sheetLen(b, "Weapons"), 2)
	pistol, _ := sheetStat(b, "Weapons", "Pistol")
	eq(t, "pistol range in zones", pistol.Note, "range 2/4/8")
	eq(t, "own bennies", statOf(b, "Bennies"), "3")
	eq(t, "own movement", statOf(b, "Movement"), "2")
	eq(t, "other full", l.Sheet != nil, false)
	eq(t, "other parry hidden", statOf(l, "Parry"), "")
	eq(t, "public card", l.Initiative, "K♠")
	eq(t, "public max wounds", l.Health.Max, 3)
	eq(t, "extra max wounds", gob1.Health == nil, true)
	eq(t, "deck", factOf(v, "Deck"), "49 cards left")

	// The GM sees everyone, in full.
	g := view(st, gm)
	eq(t, "gm fighters", len(g.Tokens), 5)
	eq(t, "gm sees lurker in the melee", slices.Equal(g.Zones.Groups[0].Members, []string{"brak", "lurker", "gob1"}), true)
	sneak, _ := tokenOf(g, "sneak")
	eq(t, "gm full", sneak.Sheet != nil, true)
}

func TestHiddenCardsDealtSecretly(t *testing.T) {
	events, st := startWith(t, newState(t, hiddenSetup()), []string{"A♠", "K♠", "Q♠", "J♠", "10♠"})
	deals := find(events, KindCardsDealt)
	eq(t, "deal events", len(deals), 3) // the public one and one per hidden fighter
	var public CardsDealt
	if err := deals[0].Decode(&public); err != nil {
		t.Fatal(err)
	}
	if _, leaked := public.Cards["lurker"]; leaked || len(public.Cards) != 3 || deals[0].Secret {
		t.Fatalf("public deal = %+v secret=%v", public.Cards, deals[0].Secret)
	}
	eq(t, "public rolls", len(deals[0].Rolls), 3)
	for _, d := range deals[1:] {
		eq(t, "hidden deal is secret", d.Secret, true)
		eq(t, "hidden deal rolls", len(d.Rolls), 1)
		if _, ok := engine.VisibleEvent(st, engine.PlayerViewer("brak"), d); ok {
			t.Fatal("a player sees a hidden fighter's card")
		}
	}
}

func TestActionsListOnlyLegalChoices(t *testing.T) {
	st := skirmish(t, nil)
	actions := New().Actions(st, gm)
	eq(t, "gm kinds", kindsOf(actions), "run hold prone disengage fight grapple push defend drop set-cover end-turn")
	player := engine.PlayerViewer("brak")
	actions = New().Actions(st, player)
	eq(t, "kinds", kindsOf(actions), "run hold prone disengage fight grapple push defend end-turn")
	fight := action(t, actions, CmdFight)
	eq(t, "fight targets", choiceValues(fight.Fields[0]), "gob1 gob2")
	eq(t, "fight weapons", choiceValues(fight.Fields[1]), "sword unarmed")
	eq(t, "declare field", fight.Fields[2].Name, "actions")
	dis := action(t, actions, CmdDisengage)
	eq(t, "disengage help", dis.Help, "Leave the melee (1 MP); 2 free attack(s) first. You may then run in the same action.")
	eq(t, "disengage fields", dis.Fields[0].Name+" "+dis.Fields[1].Name, "defend run")
	push := action(t, actions, CmdPush)
	eq(t, "push targets", choiceValues(push.Fields[0]), "gob1 gob2")
	eq(t, "push where", choiceValues(push.Fields[1]), "out")
	eq(t, "run trait", action(t, actions, CmdRun).Fields[0].Default, "agility")

	// Lyra's player sees nothing to do on brak's turn.
	eq(t, "lyra's player", len(New().Actions(st, engine.PlayerViewer("lyra"))), 0)

	// After disengaging (both free attacks miss), brak is unengaged with 1 MP:
	// too late to run or hold.
	_, st = do(t, st, gm, cmd(CmdDisengage, "brak"), 1, 1)
	actions = New().Actions(st, player)
	eq(t, "kinds", kindsOf(actions), "prone move engage shoot defend end-turn")
	eq(t, "move to", choiceValues(action(t, actions, CmdMove).Fields[0]), "z2")
	eq(t, "engage", choiceValues(action(t, actions, CmdEngage).Fields[0]), "gob1 gob2")
	eq(t, "shoot targets", choiceValues(action(t, actions, CmdShoot).Fields[0]), "gob1 gob2 gob3")
	eq(t, "shoot weapons", choiceValues(action(t, actions, CmdShoot).Fields[1]), "pistol")

	_, st = do(t, st, gm, cmd(CmdMove, "brak", "to", "z2"))
	eq(t, "no Movement left", kindsOf(New().Actions(st, player)), "prone shoot defend end-turn")
	// One action declared and taken: only free actions are left.
	_, st = do(t, st, gm, cmd(CmdShoot, "brak", "target", "gob3", "weapon", "pistol", "cover", "none"), 1, 1)
	eq(t, "spent", kindsOf(New().Actions(st, player)), "prone end-turn")
	st.Fighters["brak"].Shaken = true
	eq(t, "Benny", kindsOf(New().Actions(st, player)), "prone end-turn unshake")
}

// action returns the action of kind in actions.
func action(t *testing.T, actions []engine.Action, kind string) engine.Action {
	t.Helper()
	for _, a := range actions {
		if a.Kind == kind {
			return a
		}
	}
	t.Fatalf("no %s action in %s", kind, kindsOf(actions))
	return engine.Action{}
}

func kindsOf(actions []engine.Action) string {
	var out []string
	for _, a := range actions {
		out = append(out, a.Kind)
	}
	return strings.Join(out, " ")
}

func choiceValues(f engine.Field) string {
	var out []string
	for _, c := range f.Options {
		out = append(out, c.Value)
	}
	return strings.Join(out, " ")
}

// TestCardsStayTrue plays every example, keeping the fighters' cards (see
// card) from the first view on through every event, and checks that the
// GM's view of the fight's end is the view of the same state decoded from
// its snapshot, which builds every card afresh: nothing a fight does may
// change what a card shows.
func TestCardsStayTrue(t *testing.T) {
	bot := fightingBot()
	for name, setup := range loadExamples(t) {
		t.Run(name, func(t *testing.T) {
			played := bot.Play(t, New(), setup, 3)
			st, err := engine.Copy(played.Initial)
			if err != nil {
				t.Fatal(err)
			}
			engine.Project(New(), st, engine.GMViewer()) // builds every card
			for _, ev := range played.Log {
				if err := engine.Apply(New(), st, ev); err != nil {
					t.Fatal(err)
				}
			}
			snap, err := engine.Snapshot(st)
			if err != nil {
				t.Fatal(err)
			}
			fresh, err := New().Decode(snap)
			if err != nil {
				t.Fatal(err)
			}
			kept, _ := json.Marshal(engine.Project(New(), st, engine.GMViewer()))
			want, _ := json.Marshal(engine.Project(New(), fresh, engine.GMViewer()))
			if string(kept) != string(want) {
				t.Fatalf("the view with kept cards\n%s\nis not the view with fresh ones\n%s", kept, want)
			}
		})
	}
}
