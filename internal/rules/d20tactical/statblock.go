package d20tactical

import (
	"fmt"
	"regexp"
	"strconv"
	"strings"

	"github.com/fray-vtt/fray/internal/statblock"
)

// The book's stat block is one paragraph of entries after the name:
//
//	Street Thug (Strong Ordinary 1): CR 1/2; Medium-size human; HD 1d8+1;
//	hp 5; Mas 12; Init +1; Spd 30 ft.; Defense 13, touch 12, flat-footed 12
//	(+1 Dex, +1 class, +1 leather); BAB +1; Grap +2; Atk +2 melee (1d6+1
//	nonlethal, unarmed strike), or +2 ranged (2d6, Colt Python); FS 5 ft. by
//	5 ft.; Reach 5 ft.; AL street gang; SV Fort +2, Ref +1, Will -1; AP 0;
//	Rep +0; Str 13, Dex 12, Con 12, Int 10, Wis 9, Cha 8.
//	Skills: Intimidate +3, Jump +3, Treat Injury +1.
//	Feats: Brawl, Simple Weapons Proficiency.
//	Possessions: Leather jacket, Colt Python, 20 rounds.
//
// The book prints totals (initiative, saves, attacks); Fray's sheet keeps
// what is added to the ability modifiers, worked out once the abilities
// are read.

var (
	attackItem = regexp.MustCompile(`(?i)^([+-]\d+)(?:/[+-]\d+)*\s+(melee|ranged)(?:\s+touch)?\s*\((.*)\)$`)
	diceExpr   = regexp.MustCompile(`^\d+d\d+(?:[+-]\d+)?$`)
	defenseBit = regexp.MustCompile(`([+-]\d+)\s+([A-Za-z][A-Za-z -]*)`)
	hdTerm     = regexp.MustCompile(`(\d+)d(\d+)([+-]\d+)?`)
	abilityIDs = []struct{ label, id string }{{"Str", "str"}, {"Dex", "dex"}, {"Con", "con"}, {"Int", "int"}, {"Wis", "wis"}, {"Cha", "cha"}}
	number     = regexp.MustCompile(`^[-+]?\d`)
)

// StatBlockFormat implements statblock.Parser.
func (Ruleset) StatBlockFormat() statblock.Format {
	es := []statblock.Entry{
		{Labels: []string{"CR"}, Skip: "a challenge rating, for the GM"},
		{Labels: []string{"Fine", "Diminutive", "Tiny", "Small", "Medium-size", "Medium", "Large", "Huge", "Gargantuan", "Colossal"},
			Skip: "size and type (the size modifier comes from Defense)"},
		{Labels: []string{"HD"}, Read: func(b *statblock.Builder, it string) error {
			b.Note("hd", it)
			b.Skip("hit dice: Fray keeps the hit points")
			return nil
		}},
		{Labels: []string{"hp"}, Value: number, Read: intField("hp", "hp")},
		{Labels: []string{"Mas"}, Skip: "massive damage threshold: Fray's is the Constitution score"},
		{Labels: []string{"Init"}, Value: number, Read: noteInt("init", "Init")},
		{Labels: []string{"Spd", "Speed"}, Value: number, Read: func(b *statblock.Builder, it string) error {
			f := strings.Fields(it)
			n, err := strconv.Atoi(f[0])
			if err != nil {
				return fmt.Errorf("Spd: %q is not a speed in feet", it)
			}
			b.Set("speed", strconv.Itoa(n))
			return nil
		}},
		{Labels: []string{"Defense"}, Value: number, Read: readDefense},
		{Labels: []string{"BAB"}, Value: number, Read: intField("bab", "BAB")},
		{Labels: []string{"Grap"}, Skip: "the grapple bonus: Fray works it out"},
		{Labels: []string{"Atk"}, Read: readAttack},
		{Labels: []string{"Full Atk"}, Skip: "full attacks: Fray plays the attacks of Atk"},
		{Labels: []string{"FS"}, Skip: "fighting space: one square"},
		{Labels: []string{"Reach"}, Skip: "reach: give it per weapon in the form"},
		{Labels: []string{"SQ", "SA"}, Skip: "special qualities and attacks Fray does not model"},
		{Labels: []string{"AL"}, Skip: "allegiances, for the GM"},
		{Labels: []string{"SV"}, Read: func(b *statblock.Builder, it string) error {
			f := strings.Fields(it)
			if len(f) != 2 {
				return fmt.Errorf("a save is its name and bonus, like Fort +2")
			}
			n, err := strconv.Atoi(f[1])
			if err != nil {
				return fmt.Errorf("save %q: %q is not a bonus", f[0], f[1])
			}
			switch strings.ToLower(f[0]) {
			case "fort", "ref", "will":
				b.Note("sv."+strings.ToLower(f[0]), strconv.Itoa(n))
				return nil
			}
			return fmt.Errorf("%q is not a save (Fort, Ref, Will)", f[0])
		}},
		{Labels: []string{"AP"}, Skip: "action points Fray does not model"},
		{Labels: []string{"Rep"}, Skip: "reputation, for the GM"},
		{Labels: []string{"Occupation"}, Skip: "for the GM"},
		{Labels: []string{"Skills"}, Read: readSkill},
		{Labels: []string{"Feats"}, Skip: "feats Fray does not model"},
		{Labels: []string{"Talents"}, Skip: "talents Fray does not model"},
		{Labels: []string{"Possessions"}, Skip: "possessions (weapons come from Atk)"},
		{Labels: []string{"Advanced Class"}, Skip: "for the GM"},
	}
	for _, a := range abilityIDs {
		es = append(es, statblock.Entry{Labels: []string{a.label}, Value: regexp.MustCompile(`^(\d|-$)`), Read: func(b *statblock.Builder, it string) error {
			if it == "-" {
				b.Skip("no score")
				return nil
			}
			n, err := strconv.Atoi(it)
			if err != nil {
				return fmt.Errorf("%s: %q is not a score", a.label, it)
			}
			b.Set("abilities."+a.id, strconv.Itoa(n))
			return nil
		}})
	}
	return statblock.Format{Entries: es, Finish: finishTactical}
}

func intField(field, what string) func(*statblock.Builder, string) error {
	return func(b *statblock.Builder, it string) error {
		n, err := strconv.Atoi(strings.TrimSpace(it))
		if err != nil {
			return fmt.Errorf("%s: %q is not a number", what, it)
		}
		b.Set(field, strconv.Itoa(n))
		return nil
	}
}

func noteInt(key, what string) func(*statblock.Builder, string) error {
	return func(b *statblock.Builder, it string) error {
		n, err := strconv.Atoi(strings.TrimSpace(it))
		if err != nil {
			return fmt.Errorf("%s: %q is not a number", what, it)
		}
		b.Note(key, strconv.Itoa(n))
		return nil
	}
}

// readDefense reads "13", "touch 12" and "flat-footed 12 (+1 Dex, +1
// class, +1 leather)": the total, and the bonuses in brackets.
func readDefense(b *statblock.Builder, it string) error {
	head, inner, _ := strings.Cut(it, "(")
	head = strings.TrimSpace(head)
	low := strings.ToLower(head)
	switch {
	case strings.HasPrefix(low, "touch"), strings.HasPrefix(low, "flat"):
	default:
		n, err := strconv.Atoi(head)
		if err != nil {
			return fmt.Errorf("Defense: %q is not a number", head)
		}
		b.Note("defense", strconv.Itoa(n))
	}
	if inner == "" {
		return nil
	}
	for _, m := range defenseBit.FindAllStringSubmatch(inner, -1) {
		n, _ := strconv.Atoi(m[1])
		what := strings.TrimSpace(m[2])
		switch strings.ToLower(what) {
		case "dex":
		case "class":
			b.Set("classDefense", strconv.Itoa(n))
		case "size":
			b.Set("size", strconv.Itoa(n))
		case "natural":
			// Fray's sheet has no natural armour: Finish counts it in
			// the class Defense bonus.
		default:
			b.Set("armor.defense", strconv.Itoa(n))
			if !strings.EqualFold(what, "equipment") && !strings.EqualFold(what, "armor") {
				b.Set("armor.name", strings.ToUpper(what[:1])+what[1:])
			}
		}
	}
	return nil
}

// readAttack reads "+2 melee (1d6+1 nonlethal, unarmed strike)" as a
// weapon, keeping its total for Finish.
func readAttack(b *statblock.Builder, it string) error {
	m := attackItem.FindStringSubmatch(it)
	if m == nil {
		return fmt.Errorf("an attack reads like +3 melee (1d6+1, club)")
	}
	parts := strings.SplitN(m[3], ",", 2)
	dmg := ""
	if f := strings.Fields(parts[0]); len(f) > 0 {
		dmg = f[0]
	}
	if !diceExpr.MatchString(dmg) {
		return fmt.Errorf("attack %q: %q is not damage dice", it, dmg)
	}
	name := dmg
	if len(parts) == 2 {
		name = strings.TrimSpace(parts[1])
	}
	i := 0
	for b.Has("weapons." + strconv.Itoa(i) + ".name") {
		i++
	}
	p := "weapons." + strconv.Itoa(i) + "."
	b.Set(p+"name", strings.ToUpper(name[:1])+name[1:])
	b.Set(p+"damage", dmg)
	ranged := strings.EqualFold(m[2], "ranged")
	if ranged {
		b.Assume(p+"range", "30", "the block gives no range increment")
	}
	b.Note("atk."+strconv.Itoa(i), m[1])
	if ranged {
		b.Note("atk."+strconv.Itoa(i)+".ranged", "yes")
	}
	return nil
}

func readSkill(b *statblock.Builder, it string) error {
	i := strings.LastIndex(it, " ")
	if i < 0 {
		return fmt.Errorf("a skill is its name and bonus, like Jump +3")
	}
	name, v := strings.ToLower(strings.TrimSpace(it[:i])), strings.TrimSpace(it[i+1:])
	n, err := strconv.Atoi(v)
	if err != nil {
		return fmt.Errorf("skill %q: %q is not a bonus", it[:i], v)
	}
	switch name {
	case "jump":
		b.Set("skills.jump", strconv.Itoa(n))
	case "treat injury":
		b.Set("skills.treatInjury", strconv.Itoa(n))
	default:
		b.Skip("a skill Fray's rules do not roll")
	}
	return nil
}

// finishTactical turns the printed totals into what the sheet adds to
// the ability modifiers, and assumes what the block does not give.
func finishTactical(b *statblock.Builder) {
	score := func(id string) int {
		if v := b.Get("abilities." + id); v != "" {
			n, _ := strconv.Atoi(v)
			return n
		}
		return 10
	}
	for _, a := range abilityIDs {
		if !b.Has("abilities." + a.id) {
			b.Assume("abilities."+a.id, "10", "the block gives no readable "+a.label+": the sheet's 10")
		}
	}
	noted := func(k string) (int, bool) {
		v, ok := b.Noted(k)
		n, _ := strconv.Atoi(v)
		return n, ok
	}
	if n, ok := noted("init"); ok && n != mod(score("dex")) {
		b.Set("initiative", strconv.Itoa(n-mod(score("dex"))))
	}
	for _, s := range []struct{ save, ab string }{{"fort", "con"}, {"ref", "dex"}, {"will", "wis"}} {
		if n, ok := noted("sv." + s.save); ok {
			b.Set("saves."+s.save, strconv.Itoa(n-mod(score(s.ab))))
		}
	}
	bab, _ := strconv.Atoi(b.Get("bab"))
	for i := 0; b.Has("weapons." + strconv.Itoa(i) + ".name"); i++ {
		total, ok := noted("atk." + strconv.Itoa(i))
		if !ok {
			continue
		}
		m := mod(score("str"))
		if _, ranged := b.Noted("atk." + strconv.Itoa(i) + ".ranged"); ranged {
			m = mod(score("dex"))
		}
		if extra := total - bab - m; extra != 0 {
			b.Set("weapons."+strconv.Itoa(i)+".attack", strconv.Itoa(extra))
		}
	}
	if def, ok := noted("defense"); ok && !b.Has("classDefense") {
		size, _ := strconv.Atoi(b.Get("size"))
		arm, _ := strconv.Atoi(b.Get("armor.defense"))
		if c := def - 10 - mod(score("dex")) - size - arm; c != 0 {
			b.Assume("classDefense", strconv.Itoa(c), "the rest of Defense after Dexterity, size and armour (natural armour counts here)")
		}
	}
	if !b.Has("hp") {
		hp := 0
		if hd, ok := b.Noted("hd"); ok {
			for _, m := range hdTerm.FindAllStringSubmatch(hd, -1) {
				n, _ := strconv.Atoi(m[1])
				d, _ := strconv.Atoi(m[2])
				k, _ := strconv.Atoi(m[3])
				hp += n*(d+1)/2 + k
			}
		}
		if hp < 1 {
			hp = 1
		}
		b.Assume("hp", strconv.Itoa(hp), "the block gives no hit points: the average of its hit dice")
	}
	// "Thug (Strong Ordinary 1)": the class is for the GM.
	if n := b.Name(); strings.HasSuffix(n, ")") {
		if i := strings.LastIndex(n, "("); i > 0 {
			b.SetName(strings.TrimSpace(n[:i]))
		}
	}
}
