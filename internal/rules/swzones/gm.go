package swzones

import (
	"fmt"
	"slices"
	"strings"

	"github.com/fray-vtt/fray/internal/engine"
	"github.com/fray-vtt/fray/internal/fray"
)

// GM rulings as commands. The engine needs every ruleset command to name an
// actor: these take any fighter still in the fight (the page uses the one
// whose turn it is), and only the GM may issue them.
//   - drop: grant a fighter The Drop on an opponent: +4 to attack and damage
//     (a grapple too) until the end of the fighter's next turn ends.
//   - set-cover: change a zone's cover and the Armour of that cover (the
//     seed's obstacles) in the middle of the fight.

// DropGranted is the data of a drop event.
type DropGranted struct {
	Attacker string `json:"attacker"`
	Target   string `json:"target"`
}

// ZoneCover is the data of a zone-cover event.
type ZoneCover struct {
	Zone  string `json:"zone"`
	Cover string `json:"cover"`
	Armor int    `json:"armor"`
}

func gmOnly(tx *engine.Tx, kind string) error {
	if !tx.Viewer().GM {
		return fray.Errorf(fray.EFORBIDDEN, "only the GM may %s", kind)
	}
	return nil
}

func decideDrop(tx *engine.Tx, cmd engine.Command) error {
	var args struct {
		Kind     string `json:"kind"`
		Actor    string `json:"actor"`
		Attacker string `json:"attacker"`
		Target   string `json:"target"`
	}
	if err := cmd.Decode(&args); err != nil {
		return err
	}
	if err := gmOnly(tx, "grant The Drop"); err != nil {
		return err
	}
	st := state(tx)
	who := args.Attacker
	if who == "" {
		who = cmd.Actor
	}
	a := st.Fighters[who]
	if a == nil || st.Combatant(who).Out {
		return fray.Errorf(fray.ENOTFOUND, "no fighter %q in the fight", who)
	}
	t, err := target(tx, args.Target)
	if err != nil {
		return err
	}
	if !st.opponents(a.ID, t.ID) {
		return fray.Errorf(fray.EILLEGAL, "%s is on %s's side", st.name(t.ID), st.name(a.ID))
	}
	text := fmt.Sprintf("The GM rules that %s has The Drop on %s: +4 to attack and damage until the end of %s's turn.", st.name(a.ID), st.name(t.ID), st.name(a.ID))
	return tx.Emits(KindDrop, a.ID, text, DropGranted{Attacker: a.ID, Target: t.ID})
}

func decideSetCover(tx *engine.Tx, cmd engine.Command) error {
	var args struct {
		Kind  string  `json:"kind"`
		Actor string  `json:"actor"`
		Zone  string  `json:"zone"`
		Cover string  `json:"cover"`
		Armor flexInt `json:"armor"`
	}
	if err := cmd.Decode(&args); err != nil {
		return err
	}
	if err := gmOnly(tx, "change a zone's cover"); err != nil {
		return err
	}
	st := state(tx)
	z := st.zone(args.Zone)
	if z == nil {
		return fray.Errorf(fray.ENOTFOUND, "no zone %q", args.Zone)
	}
	cover := strings.ToLower(args.Cover)
	if cover == "none" {
		cover = ""
	}
	if cover != "" && !slices.Contains(coverLevels, cover) {
		return fray.Errorf(fray.EINVALID, "cover %q must be none, light, medium, heavy or near-total", args.Cover)
	}
	if args.Armor < 0 || args.Armor > 30 {
		return fray.Errorf(fray.EINVALID, "armor must be 0–30")
	}
	if args.Armor > 0 && cover == "" {
		return fray.Errorf(fray.EINVALID, "cover Armour needs a cover level")
	}
	text := fmt.Sprintf("The GM sets %s's cover to %s", z.Name, coverName(cover))
	if args.Armor > 0 {
		text += fmt.Sprintf(" (Armour %d)", args.Armor)
	}
	return tx.Emits(KindZoneCover, "", text+".", ZoneCover{Zone: z.ID, Cover: cover, Armor: int(args.Armor)})
}

func coverName(c string) string {
	if c == "" {
		return "none"
	}
	return c
}

func applyDrop(st *State, d DropGranted) error {
	a, err := st.fighter(d.Attacker)
	if err != nil {
		return err
	}
	a.Drop = d.Target
	return nil
}

func applyZoneCover(st *State, d ZoneCover) error {
	z := st.zone(d.Zone)
	if z == nil {
		return fmt.Errorf("sw-zones: no zone %q", d.Zone)
	}
	z.Cover, z.CoverArmor = d.Cover, d.Armor
	return nil
}
