package swzones

import (
	"fmt"
	"slices"
	"strings"

	"github.com/fray-vtt/fray/internal/engine"
	"github.com/fray-vtt/fray/internal/fray"
	"github.com/fray-vtt/fray/internal/rules/kit"
)

// GM rulings, as GM commands that name no actor (only the GM may issue
// them):
//   - drop: grant a fighter (attacker) The Drop on an opponent (target): +4
//     to attack and damage (a grapple too) until the end of the fighter's
//     turn.
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

func decideDrop(tx *Tx, cmd engine.Command) error {
	var args struct {
		Attacker string `json:"attacker"`
		Target   string `json:"target"`
	}
	if err := cmd.Decode(&args); err != nil {
		return err
	}
	st := tx.State
	if args.Attacker == "" {
		return fray.Errorf(fray.EINVALID, "choose who has The Drop (attacker)")
	}
	a, err := tx.Named(args.Attacker)
	if err != nil {
		return err
	}
	t, err := tx.Named(args.Target)
	if err != nil {
		return err
	}
	if !st.opponents(a.ID, t.ID) {
		return kit.OwnSide(st.NameOf(t.ID), st.NameOf(a.ID), t.ID == a.ID)
	}
	text := fmt.Sprintf("The GM rules that %s has The Drop on %s: +4 to attack and damage until the end of %s's turn.", st.NameOf(a.ID), st.NameOf(t.ID), st.NameOf(a.ID))
	return tx.Emit(engine.NewEvent(KindDrop, a.ID, text, DropGranted{Attacker: a.ID, Target: t.ID}).With(t.ID))
}

func decideSetCover(tx *Tx, cmd engine.Command) error {
	var args struct {
		Zone  string  `json:"zone"`
		Cover string  `json:"cover"`
		Armor flexInt `json:"armor"`
	}
	if err := cmd.Decode(&args); err != nil {
		return err
	}
	st := tx.State
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
	if cover == "" {
		args.Armor = 0 // no cover, nothing for a shot to go through: the form's Armour is moot
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
	a, err := kit.Found(st.Fighter(d.Attacker), d.Attacker)
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
