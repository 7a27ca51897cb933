package swzones

import (
	"fmt"
	"slices"
	"strings"
)

// Powers are kept minimal: enough for the seed's templates and power
// ranges. A power on a sheet has a skill (Spellcasting unless named), a
// range kind (smarts, smarts-x2, smarts-x3: converted to zones by the seed's
// table for the caster's Smarts), an optional template, and an effect:
//   - "damage": a bolt (no template: one opponent, like a shot against 4
//     with the target's cover, no range penalty) or a blast (a template);
//   - "relief": a beneficial area that ends Shaken for everyone it covers
//     (the caster's enemies too, unless the casting roll gets a raise).
// Power Points, backlash, trappings and every other power are left to the
// GM.

// Power effects.
const (
	EffectDamage = "damage"
	EffectRelief = "relief"
)

// Power is one power on a fighter's sheet.
type Power struct {
	ID       string  `json:"id"`
	Name     string  `json:"name"`
	Skill    string  `json:"skill"`
	Range    string  `json:"range,omitempty"` // smarts, smarts-x2, smarts-x3
	Reach    int     `json:"reach"`           // the range in zones for the caster's Smarts
	Template string  `json:"template,omitempty"`
	Damage   *Damage `json:"damage,omitempty"`
	Effect   string  `json:"effect"`
}

type powerSetup struct {
	ID       string `json:"id"`
	Name     string `json:"name"`
	Skill    string `json:"skill"`
	Range    string `json:"range"`
	Template string `json:"template"`
	Damage   string `json:"damage"`
	Effect   string `json:"effect"`
}

func parsePower(ps powerSetup, smarts TraitDie, gaps string) (Power, error) {
	p := Power{ID: ps.ID, Name: strings.TrimSpace(ps.Name), Skill: strings.ToLower(strings.TrimSpace(ps.Skill)),
		Template: strings.ToLower(ps.Template), Effect: strings.ToLower(ps.Effect), Range: strings.ToLower(ps.Range)}
	if p.Name == "" {
		p.Name = p.ID
	}
	if p.Skill == "" {
		p.Skill = "spellcasting"
	}
	if !skillName.MatchString(p.Skill) || isAttribute(p.Skill) {
		return Power{}, fmt.Errorf("skill %q must be a skill name", ps.Skill)
	}
	if p.Template != "" && !slices.Contains(templates, p.Template) {
		return Power{}, fmt.Errorf("template %q must be small, medium, large, cone or jet", ps.Template)
	}
	if p.Effect == "" {
		p.Effect = EffectDamage
	}
	switch p.Effect {
	case EffectDamage:
		if ps.Damage == "" {
			return Power{}, fmt.Errorf("a damage power needs damage, e.g. 2d6")
		}
		d, err := ParseDamage(ps.Damage)
		if err != nil {
			return Power{}, err
		}
		if d.Str {
			return Power{}, fmt.Errorf("a power's damage cannot add Str")
		}
		p.Damage = &d
	case EffectRelief:
		if ps.Damage != "" {
			return Power{}, fmt.Errorf("relief does no damage")
		}
		if p.Template == "" {
			return Power{}, fmt.Errorf("relief needs a template (Fray automates only area relief)")
		}
	default:
		return Power{}, fmt.Errorf("effect %q must be damage or relief", ps.Effect)
	}
	switch {
	case p.Template == "cone" || p.Template == "jet":
		if p.Range != "" {
			return Power{}, fmt.Errorf("a %s has no range: it starts in the caster's zone", p.Template)
		}
	case p.Range == "":
		return Power{}, fmt.Errorf("needs a range: smarts, smarts-x2 or smarts-x3")
	default:
		r, err := powerRange(p.Range, smarts, gaps)
		if err != nil {
			return Power{}, err
		}
		p.Reach = r
	}
	return p, nil
}
