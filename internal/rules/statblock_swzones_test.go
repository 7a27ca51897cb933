package rules_test

import "testing"

// The Savage Worlds book's stat blocks (written for these tests in its
// format), clean and as PDF copies mangle them.
func TestSWZonesStatBlocks(t *testing.T) {
	attrs := func(ag, sm, sp, st, vi string) map[string]string {
		return map[string]string{"attributes.agility": ag, "attributes.smarts": sm, "attributes.spirit": sp,
			"attributes.strength": st, "attributes.vigor": vi}
	}
	with := func(m map[string]string, kv ...string) map[string]string {
		for i := 0; i < len(kv); i += 2 {
			m[kv[i]] = kv[i+1]
		}
		return m
	}
	checkBlocks(t, "sw-zones", "sw-zones-goblin-ford", "goblin-1", []blockCase{
		{name: "orc", wantName: "Orc", text: `Orc
Attributes: Agility d6, Smarts d4, Spirit d6, Strength d8, Vigor d8
Skills: Fighting d8, Intimidation d8, Notice d6, Shooting d6, Stealth d4
Pace: 6; Parry: 6; Toughness: 8 (2)
Edges: Brawny
Gear: Leather armor (+2), short sword (Str+d6), short bow (Range 12/24/48, Damage 2d6).
Special Abilities:
• Infravision: Orcs halve penalties for Dim and Dark lighting.
• Size +1: Orcs are slightly larger than humans.`,
			want: with(attrs("d6", "d4", "d6", "d8", "d8"), "skills.fighting", "d8", "skills.intimidation", "d8", "skills.notice", "d6",
				"skills.shooting", "d6", "skills.stealth", "d4", "armor", "2", "wildCard", "",
				"weapons.0.name", "Short sword", "weapons.0.damage", "Str+d6",
				"weapons.1.name", "Short bow", "weapons.1.damage", "2d6", "weapons.1.range", "12/24/48"),
			assumed: []string{"wildCard"}},
		{name: "pdf copy: spaced dice, hyphenated lines, page header", wantName: "Orc Chieftain", text: "Orc Chieftain (WC)\n" +
			"Attributes: Agility d 8, Smarts d6, Spirit d8, Strength d 10, Vigor d10\n" +
			"Skills: Fighting d10, Intimi-\ndation d8, Notice d6, Shoot-\ning d6\n" +
			"142 SAVAGE WORLDS\n" +
			"Pace: 6; Parry: 7; Toughness: 10 (3)\n" +
			"Edges: Brawny, Command, Sweep\n" +
			"Gear: Plate corselet (+3), great axe (Str+d10, AP 2, Parry –1).",
			want: with(attrs("d8", "d6", "d8", "d10", "d10"), "skills.fighting", "d10", "skills.intimidation", "d8", "skills.notice", "d6",
				"skills.shooting", "d6", "armor", "3", "wildCard", "on", "weapons.0.name", "Great axe", "weapons.0.damage", "Str+d10")},
		{name: "ligature and skull", wantName: "Officer", text: `Ofﬁcer ☠
Attributes: Agility d6, Smarts d8, Spirit d8, Strength d6, Vigor d6
Skills: Battle d8, Fighting d6, Notice d6, Persuasion d8, Shooting d8
Pace: 6; Parry: 5; Toughness: 7 (2)
Hindrances: Arrogant
Edges: Command, Inspire
Gear: Sabre (Str+d6), pistol (Range 12/24/48, Damage 2d6+1, AP 1)`,
			want: with(attrs("d6", "d8", "d8", "d6", "d6"), "skills.battle", "d8", "skills.fighting", "d6", "skills.notice", "d6",
				"skills.persuasion", "d8", "skills.shooting", "d8", "armor", "2", "wildCard", "on",
				"weapons.0.name", "Sabre", "weapons.0.damage", "Str+d6",
				"weapons.1.name", "Pistol", "weapons.1.damage", "2d6+1", "weapons.1.range", "12/24/48")},
		{name: "animal with a bite", wantName: "Wolf", text: `Wolf
Attributes: Agility d8, Smarts d6 (A), Spirit d6, Strength d6, Vigor d6
Skills: Athletics d8, Fighting d6, Intimidation d6, Notice d10, Stealth d8, Survival d6
Pace: 8; Parry: 5; Toughness: 4
Special Abilities
• Bite: Str+d6.
• Fleet-Footed: Wolves roll a d10 running die instead of a d6.
• Go for the Throat: Wolves instinctively go for an opponent's soft spots.`,
			want: with(attrs("d8", "d6", "d6", "d6", "d6"), "skills.athletics", "d8", "skills.fighting", "d6", "skills.intimidation", "d6",
				"skills.notice", "d10", "skills.stealth", "d8", "skills.survival", "d6", "wildCard", "",
				"weapons.0.name", "Bite", "weapons.0.damage", "Str+d6"),
			assumed: []string{"wildCard"}},
		{name: "wrapped list and armour ability", wantName: "Zombie", text: `Zombie
Attributes: Agility d6, Smarts d4, Spirit d4, Strength d6, Vigor d6
Skills: Fighting d6, Intimidation d6, Notice d4,
Shooting d6
Pace: 4; Parry: 5; Toughness: 7 (2)
Special Abilities:
• Armor +2: Zombies are tough.
• Claws: Str+d4.
• Fearless: Zombies are immune to Fear and Intimidation.`,
			want: with(attrs("d6", "d4", "d4", "d6", "d6"), "skills.fighting", "d6", "skills.intimidation", "d6", "skills.notice", "d4",
				"skills.shooting", "d6", "armor", "2", "wildCard", "", "weapons.0.name", "Claws", "weapons.0.damage", "Str+d4"),
			assumed: []string{"wildCard"}},
		{name: "flavour text is an unknown line", wantName: "Bandit", text: `Bandit
These cutthroats haunt the high passes.
Attributes: Agility d8, Smarts d6, Spirit d6, Strength d6, Vigor d6
Skills: Fighting d6, Notice d6, Shooting d6, Stealth d8, Thievery d6
Pace: 6; Parry: 5; Toughness: 6 (1)
Gear: Leather (+1), short sword (Str+d6), bow (Range 12/24/48, Damage 2d6)`,
			want: with(attrs("d8", "d6", "d6", "d6", "d6"), "skills.fighting", "d6", "skills.notice", "d6", "skills.shooting", "d6",
				"skills.stealth", "d8", "skills.thievery", "d6", "armor", "1", "wildCard", "",
				"weapons.0.name", "Short sword", "weapons.0.damage", "Str+d6",
				"weapons.1.name", "Bow", "weapons.1.damage", "2d6", "weapons.1.range", "12/24/48"),
			unknown: []int{2}, assumed: []string{"wildCard"}},
		{name: "CRLF, Unicode minus, d12+3", wantName: "Ogre", text: "Ogre (Wild Card)\r\n" +
			"Attributes: Agility d6, Smarts d4, Spirit d6, Strength d12+3, Vigor d12\r\n" +
			"Skills: Fighting d8, Intimidation d10, Notice d4, Athletics d6\r\n" +
			"Pace: 7; Parry: 6; Toughness: 13 (1)\r\n" +
			"Gear: Hides (+1), club (Str+d8 − 1).\r\n" +
			"Special Abilities:\r\n" +
			"• Size +3: Ogres are massive.\r\n" +
			"• Sweep: May attack all adjacent foes at −2.\r\n",
			want: with(attrs("d6", "d4", "d6", "d12+3", "d12"), "skills.fighting", "d8", "skills.intimidation", "d10", "skills.notice", "d4",
				"skills.athletics", "d6", "armor", "1", "wildCard", "on", "weapons.0.name", "Club", "weapons.0.damage", "Str+d8-1")},
		{name: "skills and powers Fray does not model", wantName: "Cultist", text: `Cultist
Attributes: Agility d6, Smarts d6, Spirit d8, Strength d6, Vigor d6
Skills: Fighting d6, Knowledge (Occult) d8, Notice d6, Spellcasting d8, Occult d6
Pace: 6; Parry: 5; Toughness: 5
Gear: Robes, ritual dagger (Str+d4).
Powers: Bolt, armor.
Power Points: 10`,
			want: with(attrs("d6", "d6", "d8", "d6", "d6"), "skills.fighting", "d6", "skills.notice", "d6", "skills.spellcasting", "d8",
				"wildCard", "", "weapons.0.name", "Ritual dagger", "weapons.0.damage", "Str+d4"),
			assumed: []string{"wildCard"}},
		{name: "a misprinted die and an entry the book format lacks", wantName: "Guard Dog", text: `Guard Dog
Attributes: Agility d8, Smarts d4 (A), Spirit d6, Strength d4, Vigor d7
Skills: Fighting d6, Notice d10
Pace: 8; Parry: 5; Toughness: 4
Languages: none
Special Abilities:
• Bite: Str+d4.
• Size -1: Dogs are small.`,
			want: map[string]string{"attributes.agility": "d8", "attributes.smarts": "d4", "attributes.spirit": "d6", "attributes.strength": "d4",
				"attributes.vigor": "d6",
				"skills.fighting":  "d6", "skills.notice": "d10", "wildCard": "", "weapons.0.name": "Bite", "weapons.0.damage": "Str+d4"},
			unknown: []int{2, 5}, assumed: []string{"attributes.vigor", "wildCard"}},
		{name: "thrown weapons", wantName: "Goblin Skirmisher", text: `Goblin Skirmisher
Attributes: Agility d8, Smarts d6, Spirit d6, Strength d4, Vigor d6
Skills: Athletics d8, Fighting d6, Notice d6, Shooting d8, Stealth d10, Taunt d6
Pace: 5; Parry: 5; Toughness: 4
Gear: Spear (Str+d6, Range 3/6/12, Reach 1), sling (Range 4/8/16, Damage Str+d4).
Special Abilities:
• Infravision: Goblins see in the dark.
• Size -1: Goblins stand 3-4' tall.`,
			want: with(attrs("d8", "d6", "d6", "d4", "d6"), "skills.athletics", "d8", "skills.fighting", "d6", "skills.notice", "d6",
				"skills.shooting", "d8", "skills.stealth", "d10", "skills.taunt", "d6", "wildCard", "",
				"weapons.0.name", "Spear", "weapons.0.damage", "Str+d6", "weapons.0.range", "3/6/12", "weapons.0.thrown", "on",
				"weapons.1.name", "Sling", "weapons.1.damage", "Str+d4", "weapons.1.range", "4/8/16", "weapons.1.thrown", "on"),
			assumed: []string{"wildCard", "weapons.0.thrown", "weapons.1.thrown"}},
		{name: "page numbers between lines", wantName: "Sergeant Rourke", text: `Sergeant Rourke (Wild Card)
Attributes: Agility d8, Smarts d6, Spirit d8, Strength d8, Vigor d8
87
Skills: Fighting d8, Intimidation d8, Notice d8, Shooting d10
BESTIARY 88
Pace: 6; Parry: 6; Toughness: 8 (2)
Gear: Flak vest (+2), M1 Garand (Range 24/48/96, Damage 2d8, AP 2), bayonet (Str+d4)`,
			want: with(attrs("d8", "d6", "d8", "d8", "d8"), "skills.fighting", "d8", "skills.intimidation", "d8", "skills.notice", "d8",
				"skills.shooting", "d10", "armor", "2", "wildCard", "on",
				"weapons.0.name", "M1 Garand", "weapons.0.damage", "2d8", "weapons.0.range", "24/48/96",
				"weapons.1.name", "Bayonet", "weapons.1.damage", "Str+d4")},
	})
}
