package d20under

import (
	"fmt"
	"slices"

	"github.com/fray-vtt/fray/internal/fray"
	"github.com/fray-vtt/fray/internal/rules/kit"
)

// Homebrew (seed: Rapid Fire // Bloodthirst // Code of Honor (Koj);
// Polearm Mastery; spec c10). A character bound by Koj fights with Novice
// Rapid Fire only until it is Roused — once hit, or once an ally takes
// damage at or above their Pain Threshold (damage.go) — and from then on
// may use Adept or Master Rapid Fire after a passed Quick test (option
// koj-quick-test: once per turn, or for each volley). Polearm Mastery
// (Adept) gives its free attack only when the enemy approaches
// (movement.go).

// rapidWeapon reports whether Rapid Fire works with w: bows and thrown
// weapons.
func rapidWeapon(w Weapon) bool { return w.Type == "bow" || w.Type == "thrown" }

// rapidShots is how many shots a Rapid Fire volley at level makes, if f
// may fire one.
func (s *State) rapidShots(f *Fighter, w Weapon, level string) (int, error) {
	n := slices.Index(levels, level) + 1
	if n == 0 {
		return 0, fray.Errorf(fray.EINVALID, "Rapid Fire level %q must be novice, adept or master", level)
	}
	if f.Level(AbRapidFire) < n {
		return 0, fray.Errorf(fray.EILLEGAL, "%s does not know Rapid Fire at %s level", s.NameOf(f.ID), level)
	}
	if !rapidWeapon(w) {
		return 0, fray.Errorf(fray.EILLEGAL, "Rapid Fire needs a bow or a thrown weapon")
	}
	if f.Koj && n > 1 && !f.Roused {
		return 0, fray.Errorf(fray.EILLEGAL, "Koj: %s may use only Novice Rapid Fire until roused", s.NameOf(f.ID))
	}
	return kit.OptInt(&s.Base, []string{OptRapidNovice, OptRapidAdept, OptRapidMaster}[n-1]), nil
}

// rapidLevels are the Rapid Fire levels f may use with w now.
func (s *State) rapidLevels(f *Fighter, w Weapon) []string {
	var out []string
	for _, l := range levels {
		if _, err := s.rapidShots(f, w, l); err == nil {
			out = append(out, l)
		}
	}
	return out
}

// kojCheck is the Quick test a Roused Koj character passes to fire an
// Adept or Master volley; failing it, the volley is a Novice one.
func kojCheck(tx *Tx, f *Fighter, level string, shots int) (int, error) {
	st := tx.State
	if !f.Koj || level == Novice {
		return shots, nil
	}
	novice := kit.OptInt(&st.Base, OptRapidNovice)
	perTurn := kit.Opt(&st.Base, OptKojTest) == PerTurn
	if perTurn && f.KojTest != 0 {
		if f.KojTest > 0 {
			return shots, nil
		}
		return novice, nil
	}
	o := rollTest(tx, st.plainTest(f.ID, Quick, "Koj: Rapid Fire", testOther))
	text := fmt.Sprintf("%s, roused, looses %s volley.", st.NameOf(f.ID), aOrAn(level))
	result := 1
	if !o.Pass {
		text = fmt.Sprintf("%s fails the Quick test: a Novice volley only.", st.NameOf(f.ID))
		result, shots = -1, novice
	}
	var set []Change
	if perTurn {
		set = append(set, change.KojTest.To(f.ID, result))
	}
	return shots, note(tx, KindRapidFire, f.ID, text, Note{Fighter: f.ID, What: level, Value: result, Set: set}, o.Roll)
}
