package d20duel

import (
	"fmt"
	"strings"

	"github.com/fray-vtt/fray/internal/dice"
	"github.com/fray-vtt/fray/internal/engine"
	"github.com/fray-vtt/fray/internal/fray"
	"github.com/fray-vtt/fray/internal/rules/kit"
)

// Attacks (spec b, "Attack"; seed "Combat options", "Two distances").
//
// The attacker rolls the black and the white d20. At Striking distance a
// die hits if the defender's Guard < die ≤ the attacker's Strike; at
// Grappling distance Grapple and Defense take their places. The attack
// hits when either die does, and the higher hitting die is the one that
// meets the armour: the armour protects when it is at or below Coverage.
// Damage is the weapon's damage plus the Damage Modifier (melee only),
// less the armour's Protection when it protects, and the wound table
// turns it into a wound.
//
// Find Weakness costs −2 (the first attack of an Auto burst only) and
// then the armour fails if either die, hit or miss, is above Coverage; all
// Grappling attacks have that advantage without the −2, and unarmed
// Grappling attacks ignore armour altogether, even Coverage 20. Disarm
// aims at an arm and Immobilize at a leg, −2 at range.

// Aims of an attack.
const (
	AimNormal     = "normal"
	AimWeakness   = "find-weakness"
	AimDisarm     = "disarm"
	AimImmobilize = "immobilize"
)

var aimLabels = map[string]string{AimNormal: "Head or torso", AimWeakness: "Find Weakness", AimDisarm: "Disarm (arm)", AimImmobilize: "Immobilize (leg)"}

func aimChoices() []engine.Choice {
	return kit.Choices(AimNormal, aimLabels[AimNormal], AimWeakness, aimLabels[AimWeakness]+" (−2)",
		AimDisarm, aimLabels[AimDisarm], AimImmobilize, aimLabels[AimImmobilize])
}

// Modes of an attack: the engagement's distance, or a shot.
const (
	Striking  = "striking"
	Grappling = "grappling"
	Ranged    = "ranged"
)

// Armour outcomes.
const (
	ArmorProtects = "protects"
	ArmorFails    = "fails"
	ArmorIgnored  = "ignored"
)

// Attack is the data of KindAttack: one attack roll and all it did.
type Attack struct {
	Attacker string `json:"attacker"`
	Target   string `json:"target"`
	Weapon   string `json:"weapon"`
	Mode     string `json:"mode"`
	Aim      string `json:"aim"`
	// Roll is the roll's number in an Auto burst (1 for the first);
	// Counter marks a Defensive fighter's counter-attack.
	Roll    int  `json:"roll"`
	Counter bool `json:"counter,omitempty"`
	// Strike is the window's top, Guard its bottom (excluded).
	Strike    int    `json:"strike"`
	Guard     int    `json:"guard"`
	Black     int    `json:"black"`
	White     int    `json:"white"`
	Hit       bool   `json:"hit"`
	HitDie    int    `json:"hitDie,omitempty"`
	Automatic string `json:"automatic,omitempty"` // "black 1", "black 20"
	// Blocked: a die fell within a Defensive target's Guard.
	Blocked      bool `json:"blocked,omitempty"`
	CompleteMiss bool `json:"completeMiss,omitempty"`
	// DrivenBack: the hit only drove the target back (cinematic option).
	DrivenBack bool   `json:"drivenBack,omitempty"`
	Armor      string `json:"armor,omitempty"`
	Damage     int    `json:"damage,omitempty"`
	Wound      *Wound `json:"wound,omitempty"`
	// Crippled is the Trait a would-kill Disarm or Immobilize leaves.
	Crippled string `json:"crippled,omitempty"`
}

// attackPlan is an attack before its dice: who, with what, and the
// numbers they roll against.
type attackPlan struct {
	attacker, target *Fighter
	weapon           Weapon
	mode, aim        string
	roll             int // 1-based, in an Auto burst
	counter          bool
	strike           int
	mods             []dice.Mod
	guard            int
	guardMods        []dice.Mod
	defensive        bool // the target fights Defensive
	weaknessArmor    bool // armour fails if either die is above Coverage
}

// planAttack works out an attack's numbers in the state as it stands. In
// an exchange (round > 0) wounds taken in that exchange do not count yet.
func planAttack(st *State, attacker, target, weaponID, mode, aim string, roll int, counter bool) (attackPlan, error) {
	a, t := st.Fighters[attacker], st.Fighters[target]
	if a == nil || t == nil {
		return attackPlan{}, fmt.Errorf("d20-duel: no fighter %q or %q", attacker, target)
	}
	w := a.weapon(weaponID)
	if w == nil {
		return attackPlan{}, fray.Errorf(fray.EINVALID, "%s has no weapon %q", st.NameOf(attacker), weaponID)
	}
	p := attackPlan{attacker: a, target: t, weapon: *w, mode: mode, aim: aim, roll: roll, counter: counter}
	b := &st.Base
	skip := 0
	var mine, theirs Declaration
	if st.Exchange != nil && mode != Ranged {
		skip = st.Exchange.Round
		mine, theirs = st.Exchange.Declared[attacker], st.Exchange.Declared[target]
	}
	first := roll <= 1
	switch mode {
	case Striking:
		p.strike = w.Strike
		p.mods = append(p.mods, dice.Mod{Label: "Close combat", Value: a.CloseCombat})
	case Grappling:
		p.strike = w.Grapple
		p.mods = append(p.mods, dice.Mod{Label: "Grappling modifier", Value: a.GrapplingMod()})
		p.weaknessArmor = true
	case Ranged:
		p.strike = w.Strike
		p.mods = append(p.mods, dice.Mod{Label: "Ranged", Value: a.Ranged})
	}
	if mine.Stance == StanceReckless {
		p.mods = append(p.mods, dice.Mod{Label: "Reckless", Value: 3})
	}
	if theirs.Stance == StanceReckless {
		p.mods = append(p.mods, dice.Mod{Label: st.NameOf(target) + " is Reckless", Value: 5})
	}
	switch {
	case aim == AimWeakness && first:
		p.weaknessArmor = true
		if mode != Grappling {
			p.mods = append(p.mods, dice.Mod{Label: "Find Weakness", Value: -2})
		}
	case (aim == AimDisarm || aim == AimImmobilize) && mode == Ranged:
		p.mods = append(p.mods, dice.Mod{Label: aimLabels[aim] + " at range", Value: -2})
	}
	p.mods = append(p.mods, woundMods(b, a, skip)...)
	if a.Fallen() {
		if n := kit.OptInt(b, OptFallenPenalty); n > 0 {
			p.mods = append(p.mods, dice.Mod{Label: "on the ground", Value: -n})
		}
	}
	p.mods = nonZero(p.mods)
	p.strike += sumMods(p.mods)

	// The defender's side of the window.
	dw := t.guardWeapon()
	if theirs.Weapon != "" {
		if x := t.weapon(theirs.Weapon); x != nil {
			dw = *x
		}
	}
	switch {
	case mode == Grappling:
		p.guard = dw.Defense
		p.guardMods = append(p.guardMods, dice.Mod{Label: "Grappling modifier", Value: t.GrapplingMod()})
	case mode == Striking || kit.Opt(b, OptRangedGuard) == GuardUse:
		p.guard = dw.Guard
		p.guardMods = append(p.guardMods, dice.Mod{Label: "Close combat", Value: t.CloseCombat})
	default:
		return p, nil // shots ignore Guard
	}
	if kit.Opt(b, OptWoundsLowerGuard) == Yes {
		p.guardMods = append(p.guardMods, woundMods(b, t, skip)...)
	}
	if t.Fallen() {
		if n := kit.OptInt(b, OptFallenPenalty); n > 0 {
			p.guardMods = append(p.guardMods, dice.Mod{Label: "on the ground", Value: -n})
		}
	}
	p.guardMods = nonZero(p.guardMods)
	p.guard = max(p.guard+sumMods(p.guardMods), 0)
	p.defensive = theirs.Stance == StanceDefensive && mode != Ranged
	return p, nil
}

func nonZero(mods []dice.Mod) []dice.Mod {
	var out []dice.Mod
	for _, m := range mods {
		if m.Value != 0 {
			out = append(out, m)
		}
	}
	return out
}

// judgeAttack reads the dice of a planned attack: hit or miss, the
// armour, the damage and the wound. It rolls nothing.
func judgeAttack(b *engine.Base, p attackPlan, black, white int) Attack {
	a := Attack{Attacker: p.attacker.ID, Target: p.target.ID, Weapon: p.weapon.ID, Mode: p.mode, Aim: p.aim,
		Roll: max(p.roll, 1), Counter: p.counter, Strike: p.strike, Guard: p.guard, Black: black, White: white}
	auto := kit.Opt(b, OptAutomaticAttacks) != Off
	inWindow := func(d int) bool { return p.guard < d && d <= p.strike }
	// Defensive (seed): "If either one of the opponent's dice are within
	// your Guard, the attack misses" — a black 1 too, unless the GM lets
	// the automatic success win (automatic-attacks: on).
	blocked := p.defensive && (black <= p.guard || white <= p.guard)
	switch {
	case auto && black == 1 && !(blocked && kit.Opt(b, OptAutomaticAttacks) == AutomaticGuarded):
		a.Hit, a.HitDie, a.Automatic = true, white, "black 1"
	case auto && black == 20:
		a.Automatic = "black 20"
	case blocked:
		a.Blocked = true
	default:
		for _, d := range []int{black, white} {
			if inWindow(d) && d > a.HitDie {
				a.Hit, a.HitDie = true, d
			}
		}
	}
	// "Missed completely" lets the opponent maneuver (complete-miss).
	switch kit.Opt(b, OptCompleteMiss) {
	case MissNoHit:
		a.CompleteMiss = !a.Hit
	case MissStrike:
		a.CompleteMiss = !a.Hit && black > p.strike && white > p.strike
	default: // the seed's words: a miss, "both dice … above Guard/Defense"
		a.CompleteMiss = !a.Hit && black > p.guard && white > p.guard
	}
	if !a.Hit {
		return a
	}
	if p.mode != Ranged && p.target.DriveBack > 0 {
		a.DrivenBack = true
		return a
	}
	armor := p.target.Armor
	protected := false
	switch {
	case p.weapon.Unarmed && p.mode == Grappling && armor.Protection > 0:
		a.Armor = ArmorIgnored
	case armor.Protection == 0 || armor.Coverage == 0:
	case p.weaknessArmor:
		protected = black <= armor.Coverage && white <= armor.Coverage
	default:
		protected = a.HitDie <= armor.Coverage
	}
	if a.Armor == "" && armor.Protection > 0 && armor.Coverage > 0 {
		a.Armor = ArmorFails
		if protected {
			a.Armor = ArmorProtects
		}
	}
	a.Damage = p.weapon.Damage
	if p.mode != Ranged {
		a.Damage += p.attacker.DamageMod
	}
	if protected {
		a.Damage -= armor.Protection
	}
	a.Damage = max(a.Damage, 0)
	a.Wound, a.Crippled = woundFor(b, a.Damage, p.aim)
	return a
}

// attackRoll is the roll record of a judged attack.
func attackRoll(st *State, p attackPlan, a Attack, black, white dice.Die) dice.Roll {
	total := a.HitDie
	if !a.Hit {
		total = max(a.Black, a.White)
	}
	result := "miss"
	switch {
	case a.Automatic == "black 1":
		result = fmt.Sprintf("automatic hit (black 1): white %d", a.White)
	case a.Automatic == "black 20":
		result = "automatic miss (black 20)"
	case a.Blocked:
		result = "blocked: a die within the Defensive Guard"
	case a.Hit:
		result = fmt.Sprintf("hit with %d", a.HitDie)
	case a.CompleteMiss:
		result = "complete miss"
	}
	label := fmt.Sprintf("%s → %s (%s)", st.NameOf(a.Attacker), st.NameOf(a.Target), p.weapon.Name)
	return dice.Roll{Label: label, Who: a.Attacker, Dice: []dice.Die{black, white}, Mod: sumMods(p.mods), Mods: p.mods,
		Total: total, Target: a.Strike, Low: a.Guard, Compare: dice.Window, Result: result, Outcome: dice.OutcomeOf(a.Hit)}
}

// attackText is an attack's log line.
func attackText(st *State, p attackPlan, a Attack) string {
	var sb strings.Builder
	who, whom := st.NameOf(a.Attacker), st.NameOf(a.Target)
	verb := "attacks"
	switch {
	case a.Counter:
		verb = "counter-attacks"
	case a.Mode == Ranged:
		verb = "shoots at"
	case a.Mode == Grappling:
		verb = "grapples with"
	}
	fmt.Fprintf(&sb, "%s %s %s with %s", who, verb, whom, p.weapon.Name)
	if a.Aim != AimNormal {
		fmt.Fprintf(&sb, " (%s)", aimLabels[a.Aim])
	}
	if a.Roll > 1 {
		fmt.Fprintf(&sb, ", attack %d", a.Roll)
	}
	// What happened; the roll shows the dice against Guard and Strike.
	switch {
	case a.Automatic == "black 20":
		sb.WriteString(": black 20, an automatic miss.")
		return sb.String()
	case a.Blocked:
		fmt.Fprintf(&sb, ": a die within %s's Defensive Guard, the attack misses.", whom)
		return sb.String()
	case !a.Hit && a.CompleteMiss:
		sb.WriteString(": a complete miss.")
		return sb.String()
	case !a.Hit:
		sb.WriteString(": a miss.")
		return sb.String()
	case a.Automatic == "black 1":
		fmt.Fprintf(&sb, ": black 1, an automatic hit with the white %d", a.White)
	default:
		fmt.Fprintf(&sb, ": a hit with %d", a.HitDie)
	}
	if a.DrivenBack {
		fmt.Fprintf(&sb, ", but the blow only drives %s back.", whom)
		return sb.String()
	}
	armor := p.target.Armor
	name := armor.Name
	if name == "" {
		name = "armour"
	}
	switch a.Armor {
	case ArmorIgnored:
		fmt.Fprintf(&sb, "; unarmed in Grappling, %s's %s does not count", whom, name)
	case ArmorProtects:
		fmt.Fprintf(&sb, "; the %s (Coverage %d) stops %d", name, armor.Coverage, armor.Protection)
	case ArmorFails:
		fmt.Fprintf(&sb, "; the %s (Coverage %d) does not cover it", name, armor.Coverage)
	}
	fmt.Fprintf(&sb, "; %d damage", a.Damage)
	switch {
	case a.Wound == nil:
		sb.WriteString(", no wound.")
	case a.Crippled != "":
		fmt.Fprintf(&sb, ", a wound that would kill: %s is left with a %s.", whom, strings.ToLower(a.Crippled))
	case a.Wound.Penalty >= Mortal:
		fmt.Fprintf(&sb, ", a wound that would kill %s.", whom)
	default:
		fmt.Fprintf(&sb, ": a −%d wound to the %s", a.Wound.Penalty, locationWords[a.Wound.Location])
		switch a.Wound.Effect {
		case EffectFallen:
			fmt.Fprintf(&sb, "; %s falls to the ground", whom)
		case EffectDisarmed:
			sb.WriteString("; the arm is useless")
		}
		sb.WriteString(".")
	}
	return sb.String()
}

var locationWords = map[string]string{LocBody: "head or torso", LocArm: "arm", LocLeg: "leg"}
