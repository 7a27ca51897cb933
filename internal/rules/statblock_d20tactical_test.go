package rules_test

import "testing"

// The d20-tactical book's stat blocks (written for these tests in its
// format): one paragraph of entries after the name, printed totals, the
// Defense breakdown in brackets; clean and as PDF copies wrap them.
func TestD20TacticalStatBlocks(t *testing.T) {
	abil := func(str, dex, con, in, wis, cha string, kv ...string) map[string]string {
		m := map[string]string{"abilities.str": str, "abilities.dex": dex, "abilities.con": con, "abilities.int": in,
			"abilities.wis": wis, "abilities.cha": cha}
		for i := 0; i < len(kv); i += 2 {
			m[kv[i]] = kv[i+1]
		}
		return m
	}
	checkBlocks(t, "d20-tactical", "d20-tactical-alley-brawl", "boone", []blockCase{
		{name: "street thug", wantName: "Street Thug", text: `Street Thug (Strong Ordinary 1): CR 1/2; Medium-size human; HD 1d8+1; hp 5; Mas 12; Init +1; Spd 30 ft.; Defense 13, touch 12, flat-footed 12 (+1 Dex, +1 class, +1 leather); BAB +1; Grap +2; Atk +2 melee (1d6+1 nonlethal, unarmed strike), or +2 ranged (2d6, Colt Python); FS 5 ft. by 5 ft.; Reach 5 ft.; AL street gang; SV Fort +2, Ref +1, Will -1; AP 0; Rep +0; Str 13, Dex 12, Con 12, Int 10, Wis 9, Cha 8.
Occupation: Criminal (Bluff, Hide)
Skills: Intimidate +3, Jump +3, Treat Injury +1.
Feats: Brawl, Simple Weapons Proficiency.
Possessions: Leather jacket, Colt Python, 20 rounds.`,
			want: abil("13", "12", "12", "10", "9", "8", "hp", "5", "speed", "30", "classDefense", "1", "armor.defense", "1", "armor.name", "Leather",
				"bab", "1", "weapons.0.name", "Unarmed strike", "weapons.0.damage", "1d6+1",
				"weapons.1.name", "Colt Python", "weapons.1.damage", "2d6", "weapons.1.range", "30",
				"saves.fort", "1", "saves.ref", "0", "saves.will", "0", "skills.jump", "3", "skills.treatInjury", "1"),
			assumed: []string{"weapons.1.range"}},
		{name: "pdf copy wrapped mid-entry", wantName: "Gang Leader", text: `Gang Leader (Charismatic Ordinary 3): CR 2; Medium-size human; HD 3d6+3; hp 14; Mas 12;
Init +2; Spd 30 ft.; Defense 16, touch 15, flat-
footed 14 (+2 Dex, +3 class, +1 leather); BAB +1; Grap +1; Atk +1 melee (1d4, knife), or +4 ranged
(2d6, Beretta 92F); FS 5 ft. by 5 ft.; Reach 5 ft.; AL gang; SV Fort +2, Ref +4, Will +1; AP 1;
Rep +2; Str 10, Dex 14, Con 12, Int 13, Wis 8, Cha 15.
Skills: Bluff +8, Diplomacy +6, Intimidate +8.
Feats: Personal Firearms Proficiency, Simple Weapons Proficiency.`,
			want: abil("10", "14", "12", "13", "8", "15", "hp", "14", "speed", "30", "classDefense", "3", "armor.defense", "1", "armor.name", "Leather",
				"bab", "1", "weapons.0.name", "Knife", "weapons.0.damage", "1d4",
				"weapons.1.name", "Beretta 92F", "weapons.1.damage", "2d6", "weapons.1.range", "30", "weapons.1.attack", "1",
				"saves.fort", "1", "saves.ref", "2", "saves.will", "2"),
			assumed: []string{"weapons.1.range"}},
		{name: "animal with natural armour", wantName: "Rottweiler", text: `Rottweiler: CR 1; Medium-size animal; HD 2d8+4; hp 13; Mas 15; Init +2; Spd 40 ft.; Defense 14, touch 12, flat-footed 12 (+2 Dex, +2 natural); BAB +1; Grap +3; Atk +3 melee (1d6+3, bite); FS 5 ft. by 5 ft.; Reach 5 ft.; SQ scent, low-light vision; AL none; SV Fort +5, Ref +5, Will +1; AP 0; Rep +0; Str 15, Dex 15, Con 15, Int 2, Wis 12, Cha 6.
Skills: Jump +6, Listen +5, Spot +5, Swim +4.
Feats: Track.`,
			want: abil("15", "15", "15", "2", "12", "6", "hp", "13", "speed", "40", "classDefense", "2", "bab", "1",
				"weapons.0.name", "Bite", "weapons.0.damage", "1d6+3", "saves.fort", "3", "saves.ref", "3", "saves.will", "0", "skills.jump", "6"),
			assumed: []string{"classDefense"}},
		{name: "misread score and a line of background", wantName: "Bouncer", text: `Bouncer (Tough Ordinary 2): CR 1; Medium-size human; HD 2d10+4; hp 19; Mas 14; Init +0; Spd 30 ft.; Defense 12, touch 12, flat-footed 12 (+2 class); BAB +1; Grap +4; Atk +4 melee (1d6+3 nonlethal, unarmed strike); AL club; SV Fort +5, Ref +0, Will +0; AP 0; Rep +0; Str 16, Dex l0, Con 14, Int 8, Wis 10, Cha 10.
Background: ex-boxer, owes money to the club's owner.
Skills: Intimidate +4, Jump +5.`,
			want: abil("16", "10", "14", "8", "10", "10", "hp", "19", "speed", "30", "classDefense", "2", "bab", "1",
				"weapons.0.name", "Unarmed strike", "weapons.0.damage", "1d6+3", "saves.fort", "3", "saves.ref", "0", "saves.will", "0", "skills.jump", "5"),
			unknown: []int{1, 2, 2}, assumed: []string{"abilities.dex"}},
		{name: "hit dice only, a page number", wantName: "Cultist", text: `Cultist: CR 1; Medium-size human; HD 2d8
87
Init +1; Spd 30 ft.; Defense 13; BAB +1; Atk +1 melee (1d4, sacrificial dagger); SV Fort +1, Ref +1, Will +3; Str 10, Dex 12, Con 10, Int 10, Wis 13, Cha 12.`,
			want: abil("10", "12", "10", "10", "13", "12", "hp", "9", "speed", "30", "classDefense", "2", "bab", "1",
				"weapons.0.name", "Sacrificial dagger", "weapons.0.damage", "1d4", "saves.fort", "1", "saves.ref", "0", "saves.will", "2"),
			assumed: []string{"classDefense", "hp"}},
		{name: "small, Unicode minus, full attack", wantName: "Goblin Raider", text: `Goblin Raider: CR 1/3; Small humanoid; HD 1d8+1; hp 5; Mas 12; Init +1; Spd 30 ft.; Defense 15, touch 12, flat-footed 14 (+1 size, +1 Dex, +3 leather armor); BAB +1; Grap −3; Atk +1 melee (1d6−1, club), or +3 ranged (1d6, shortbow); Full Atk +1 melee (1d6−1, club); FS 5 ft. by 5 ft.; Reach 5 ft.; SQ darkvision 60 ft.; AL evil; SV Fort +3, Ref +1, Will −1; AP 0; Rep +0; Str 8, Dex 13, Con 12, Int 10, Wis 9, Cha 6.`,
			want: abil("8", "13", "12", "10", "9", "6", "hp", "5", "speed", "30", "size", "1", "armor.defense", "3", "armor.name", "Leather armor",
				"bab", "1", "weapons.0.name", "Club", "weapons.0.damage", "1d6-1", "weapons.0.attack", "1",
				"weapons.1.name", "Shortbow", "weapons.1.damage", "1d6", "weapons.1.range", "30", "weapons.1.attack", "1",
				"saves.fort", "2", "saves.ref", "0", "saves.will", "0"),
			assumed: []string{"weapons.1.range"}},
		{name: "bracket over two lines", wantName: "Enforcer", text: `Enforcer (Strong Ordinary 4): CR 3; Medium-size human; HD 4d8+8; hp 26; Mas 14; Init +1; Spd 30 ft.; Defense 16, touch 14, flat-footed 15 (+1 Dex, +3 class, +2 undercover
vest); BAB +4; Grap +7; Atk +8 melee (1d6+4, baseball bat), or +5 ranged (2d8, Remington 700); SV Fort +4, Ref +2, Will +1; AP 0; Rep +1; Str 17, Dex 12, Con 14, Int 8, Wis 10, Cha 10.
Skills: Climb +6, Jump +6, Treat Injury +2.`,
			want: abil("17", "12", "14", "8", "10", "10", "hp", "26", "speed", "30", "classDefense", "3", "armor.defense", "2", "armor.name", "Undercover vest",
				"bab", "4", "weapons.0.name", "Baseball bat", "weapons.0.damage", "1d6+4", "weapons.0.attack", "1",
				"weapons.1.name", "Remington 700", "weapons.1.damage", "2d8", "weapons.1.range", "30",
				"saves.fort", "2", "saves.ref", "1", "saves.will", "1", "skills.jump", "6", "skills.treatInjury", "2"),
			assumed: []string{"weapons.1.range"}},
		{name: "an attack without dice", wantName: "Mad Scientist", text: `Mad Scientist (Smart Ordinary 2): CR 1; Medium-size human; HD 2d6; hp 7; Mas 10; Init +0; Spd 30 ft.; Defense 11, touch 11, flat-footed 11 (+1 class); BAB +1; Grap +0; Atk +0 melee (see text), or +1 ranged (2d4, dart gun); SV Fort +0, Ref +0, Will +3; AP 1; Rep +1; Str 9, Dex 10, Con 10, Int 17, Wis 13, Cha 8.
Occupation: Academic (Research, Knowledge [technology])
Possessions: Lab coat, dart gun, notebook.`,
			want: abil("9", "10", "10", "17", "13", "8", "hp", "7", "speed", "30", "classDefense", "1", "bab", "1",
				"weapons.0.name", "Dart gun", "weapons.0.damage", "2d4", "weapons.0.range", "30",
				"saves.fort", "0", "saves.ref", "0", "saves.will", "2"),
			unknown: []int{1}, assumed: []string{"weapons.0.range"}},
		{name: "ligature, minus signs, nothing extra", wantName: "Office Worker", text: `Ofﬁce Worker (Ordinary 1): CR 1/4; Medium-size human; HD 1d6; hp 3; Mas 10; Init −1; Spd 30 ft.; Defense 9, touch 9, flat-footed 9 (−1 Dex); BAB +0; Grap +0; Atk +0 melee (1d3 nonlethal, unarmed strike); SV Fort +0, Ref −1, Will +1; AP 0; Rep +0; Str 10, Dex 8, Con 10, Int 12, Wis 12, Cha 10.`,
			want: abil("10", "8", "10", "12", "12", "10", "hp", "3", "speed", "30", "bab", "0",
				"weapons.0.name", "Unarmed strike", "weapons.0.damage", "1d3", "saves.fort", "0", "saves.ref", "0", "saves.will", "0")},
		{name: "construct without scores", wantName: "Guard Robot", text: `Guard Robot: CR 2; Medium-size construct; HD 3d10+20; hp 36; Mas —; Init +0; Spd 30 ft.; Defense 16, touch 10, flat-footed 16 (+6 natural); BAB +2; Grap +4; Atk +4 melee (1d8+2, slam), and +2 ranged (2d8, built-in taser); SQ construct; AL owner; SV Fort +1, Ref +1, Will +1; AP 0; Rep +0; Str 14, Dex 10, Con —, Int —, Wis 10, Cha 1.`,
			want: abil("14", "10", "10", "10", "10", "1", "hp", "36", "speed", "30", "classDefense", "6", "bab", "2",
				"weapons.0.name", "Slam", "weapons.0.damage", "1d8+2",
				"weapons.1.name", "Built-in taser", "weapons.1.damage", "2d8", "weapons.1.range", "30",
				"saves.fort", "1", "saves.ref", "1", "saves.will", "1"),
			assumed: []string{"abilities.con", "abilities.int", "classDefense", "weapons.1.range"}},
	})
}
