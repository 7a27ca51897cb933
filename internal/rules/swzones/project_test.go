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
	v, ok := New().Project(st, player).(View)
	if !ok {
		t.Fatal("Project must return a View value")
	}
	if _, seen := v.Fighters["lurker"]; seen {
		t.Fatal("player sees the hidden lurker")
	}
	if _, seen := v.Fighters["sneak"]; seen {
		t.Fatal("player sees the hidden sneak")
	}
	eq(t, "fighters", len(v.Fighters), 3)
	z1, z2 := v.Zones[0], v.Zones[1]
	if len(z1.Melees) != 1 || !slices.Equal(z1.Melees[0].Members, []string{"brak", "gob1"}) {
		t.Fatalf("z1 melees = %+v", z1.Melees)
	}
	if !slices.Equal(z2.Unengaged, []string{"lyra"}) {
		t.Fatalf("z2 unengaged = %v", z2.Unengaged)
	}
	raw, _ := json.Marshal(v)
	for _, secret := range []string{"lurker", "sneak"} {
		if strings.Contains(string(raw), `"`+secret+`"`) {
			t.Fatalf("projection mentions %s: %s", secret, raw)
		}
	}
	// Full sheets: only for the player's own fighter.
	b, l := v.Fighters["brak"], v.Fighters["lyra"]
	eq(t, "own full", b.Full, true)
	eq(t, "own parry", b.Parry, 5)
	eq(t, "own toughness", b.Toughness, 7)
	eq(t, "own armor", b.Armor, 2)
	eq(t, "own traits", b.Traits["Fighting"], "d6")
	eq(t, "own weapons", len(b.Weapons), 2)
	eq(t, "pistol range in zones", b.Weapons[1].Range, "2/4/8")
	eq(t, "own bennies", b.Bennies, 3)
	eq(t, "own movement", b.Movement, 2)
	eq(t, "other full", l.Full, false)
	eq(t, "other traits hidden", l.Traits == nil, true)
	eq(t, "other parry hidden", l.Parry, 0)
	eq(t, "public card", l.Card, "K♠")
	eq(t, "public max wounds", l.MaxWounds, 3)
	eq(t, "extra max wounds", v.Fighters["gob1"].MaxWounds, 0)
	eq(t, "deck", v.Deck, 49)

	// The GM sees everyone, in full.
	g := New().Project(st, gm).(View)
	eq(t, "gm fighters", len(g.Fighters), 5)
	eq(t, "gm sees lurker in the melee", slices.Equal(g.Zones[0].Melees[0].Members, []string{"brak", "lurker", "gob1"}), true)
	eq(t, "gm full", g.Fighters["sneak"].Full, true)
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
