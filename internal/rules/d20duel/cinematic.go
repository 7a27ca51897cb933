package d20duel

import (
	"fmt"

	"github.com/fray-vtt/fray/internal/engine"
	"github.com/fray-vtt/fray/internal/fray"
	"github.com/fray-vtt/fray/internal/rules/kit"
)

// The cinematic option (seed, last paragraph): in epic duels the first
// few successful attacks do not hit but drive the victim backwards; the
// victim may retreat or keep trying. The GM does not tell how many.
//
// With option cinematic "on" the GM sets a fighter's count with
// drive-back, any time. The event is secret (no actor: only the GM sees
// it) and the count is in the GM's view only. Each melee hit on that
// fighter then only drives them back and counts one down; the log says a
// blow drove them back, never how many remain.

// MaxDriveBack bounds the count.
const MaxDriveBack = 5

func decideDriveBack(tx *Tx, cmd engine.Command) error {
	var args struct {
		Fighter string `json:"fighter"`
		Blows   int    `json:"blows"`
	}
	if err := cmd.Decode(&args); err != nil {
		return err
	}
	if kit.Opt(tx.Base(), OptCinematic) != On {
		return fray.Errorf(fray.EILLEGAL, "the cinematic option is off in this encounter")
	}
	f, err := tx.Named(args.Fighter)
	if err != nil {
		return err
	}
	if args.Blows < 0 || args.Blows > MaxDriveBack {
		return fray.Errorf(fray.EINVALID, "blows must be between 0 and %d", MaxDriveBack)
	}
	ev := engine.NewEvent(KindDriveBack, "", fmt.Sprintf("The GM secretly rules that the next %d successful blows on %s only drive them back.", args.Blows, tx.State.NameOf(f.ID)),
		DriveBackSet{Fighter: f.ID, Blows: args.Blows})
	ev.Secret = true // no actor: the GM's eyes only
	return tx.Emit(ev.With(f.ID))
}
