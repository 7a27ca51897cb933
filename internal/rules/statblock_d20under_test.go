package rules_test

import "testing"

// The d20-under book's stat blocks (written for these tests in its
// format): attributes with their modifiers in brackets, flat damage and
// armour, "Toughness N Pain Threshold N" on one line; clean, with colons,
// and as PDF copies give them (a table of attributes, Unicode minus,
// ligatures, hyphenated lines, page headers).
func TestD20UnderStatBlocks(t *testing.T) {
	attrs := func(kv ...string) map[string]string {
		m := map[string]string{}
		names := []string{"accurate", "cunning", "discreet", "persuasive", "quick", "resolute", "strong", "vigilant"}
		for i, n := range names {
			m["attributes."+n] = kv[i]
		}
		for i := len(names); i < len(kv); i += 2 {
			m[kv[i]] = kv[i+1]
		}
		return m
	}
	checkBlocks(t, "d20-under", "d20-under-crypt", "draugr-1", []blockCase{
		{name: "ogre", wantName: "Ogre", text: `Ogre
Race Ogre
Resistance Challenging
Traits Robust (II)
Accurate 10 (0), Cunning 5 (+5), Discreet 7 (+3), Persuasive 9 (+1),
Quick 11 (-1), Resolute 13 (-3), Strong 15 (-5), Vigilant 10 (0)
Abilities Man-at-arms (novice)
Weapons Club 7 (heavy)
Armor Thick skin 3
Defense -1
Toughness 15 Pain Threshold 8
Equipment 1d10 ortegs
Shadow Moss green (corruption: 0)
Tactics: The ogre charges the nearest foe.`,
			want: attrs("10", "5", "7", "9", "11", "13", "15", "10", "traits.robust", "2",
				"weapons.0.name", "Club", "weapons.0.type", "heavy", "weapons.0.bonus", "2",
				"armour.name", "Thick skin", "armour.type", "medium", "toughness", "15", "painThreshold", "8")},
		{name: "pdf table of attributes, Unicode minus, custom armour", wantName: "Draugr Warrior", text: `Draugr Warrior
Traits Undead, Armored (II)
Accurate Cunning Discreet Persuasive Quick Resolute Strong Vigilant
13 (−3) 7 (+3) 10 (0) 5 (+5) 12 (−2) 10 (0) 15 (−5) 10 (0)
Abilities Man-at-arms (adept), Polearm Mastery (novice)
Weapons Halberd 6 (long), Shield bash 3
Armor Rusty chainmail 5 (impeding)
Defense −1
Toughness 15 Pain Threshold –
Tactics: Draugar fight without fear and never flee.`,
			want: attrs("13", "7", "10", "5", "12", "10", "15", "10", "undead", "on", "abilities.polearm-mastery", "novice",
				"weapons.0.name", "Halberd", "weapons.0.type", "long", "weapons.0.bonus", "2",
				"weapons.1.name", "Shield bash", "weapons.1.type", "one-handed", "weapons.1.bonus", "-1",
				"armour.name", "Rusty chainmail", "armour.type", "custom", "armour.die", "10", "armour.impeding", "1", "toughness", "15"),
			assumed: []string{"weapons.1.type"}},
		{name: "ligature, hyphenated tactics, qualities", wantName: "Sharpshooter", text: `Sharpshooter
Race Human (ambrian)
Resistance Ordinary
Traits –
Accurate 15 (−5), Cunning 10 (0), Discreet 13 (−3), Persuasive 5 (+5), Quick 11 (−1), Resolute 9 (+1), Strong 7 (+3), Vigilant 10 (0)
Abilities Marksman (adept), Rapid Fire (novice), Quick Draw (master)
Weapons Longbow 5 (deep impact), Knife 3 (short)
Armor Woven silk 2 (ﬂexible)
Defense −1
Toughness 10 Pain Threshold 4
Equipment Quiver with 20 arrows
Shadow Faded yellow (corruption: 1)
Tactics: Keeps her distance and shoots the most dan-
gerous foe.`,
			want: attrs("15", "10", "13", "5", "11", "9", "7", "10", "abilities.rapid-fire", "novice", "abilities.quick-draw", "master",
				"weapons.0.name", "Longbow", "weapons.0.type", "bow", "weapons.0.qualities", "deep-impact",
				"weapons.1.name", "Knife", "weapons.1.type", "short",
				"armour.name", "Woven silk", "armour.type", "light", "toughness", "10", "painThreshold", "4"),
			assumed: []string{"weapons.0.type"}},
		{name: "an entry the format lacks", wantName: "Marsh Troll", text: `Marsh Troll
Race Troll
Resistance Strong
Traits Regeneration (II), Robust (III), Natural Weapon (II)
Accurate 11 (−1), Cunning 7 (+3), Discreet 9 (+1), Persuasive 5 (+5), Quick 10 (0), Resolute 13 (−3), Strong 17 (−7), Vigilant 12 (−2)
Abilities Iron Fist (master)
Weapons Claws 9 (natural), Bite 7
Armor Hide 4
Defense 0
Toughness 17 Pain Threshold 9
Lair: the troll sleeps under the old bridge.
Tactics: Rushes the closest enemy.`,
			want: attrs("11", "7", "9", "5", "10", "13", "17", "12", "traits.robust", "3",
				"weapons.0.name", "Claws", "weapons.0.type", "natural", "weapons.0.bonus", "6",
				"weapons.1.name", "Bite", "weapons.1.type", "natural", "weapons.1.bonus", "4",
				"armour.name", "Hide", "armour.type", "heavy", "toughness", "17", "painThreshold", "9"),
			unknown: []int{11}, assumed: []string{"weapons.1.type"}},
		{name: "no armour, terrifying", wantName: "Corrupted Wolf", text: `Corrupted Wolf
Traits Natural Weapon (I), Terrifying (I)
Accurate 13 (−3), Cunning 5 (+5), Discreet 11 (−1), Persuasive 5 (+5), Quick 15 (−5), Resolute 9 (+1), Strong 12 (−2), Vigilant 10 (0)
Abilities –
Weapons Bite 4 (natural)
Armor –
Defense −5
Toughness 12 Pain Threshold 6`,
			want: attrs("13", "5", "11", "5", "15", "9", "12", "10", "traits.terrify", "1",
				"weapons.0.name", "Bite", "weapons.0.type", "natural", "weapons.0.bonus", "1",
				"armour.type", "none", "toughness", "12", "painThreshold", "6")},
		{name: "misread digit and page header", wantName: "Bandit Chief", text: `Bandit Chief
Accurate 14 (−4), Cunning 10 (0), Discreet 10 (0), Persuasive 11 (−1), Quick l1 (−1), Resolute 10 (0), Strong 13 (−3), Vigilant 11 (−1)
MONSTER CODEX 47
Abilities Man-at-arms (adept), Polearm Mastery (adept), Acrobatics (novice)
Weapons Spear 5 (long), Throwing knives 3 (thrown)
Armor Leather 2
Defense +1
Toughness 13 Pain Threshold 7`,
			want: attrs("14", "10", "10", "11", "10", "10", "13", "11", "abilities.polearm-mastery", "adept", "abilities.acrobatics", "novice",
				"weapons.0.name", "Spear", "weapons.0.type", "long", "weapons.0.bonus", "1",
				"weapons.1.name", "Throwing knives", "weapons.1.type", "thrown", "weapons.1.count", "3",
				"armour.name", "Leather", "armour.type", "light", "toughness", "13", "painThreshold", "7"),
			unknown: []int{2}, assumed: []string{"attributes.quick", "weapons.1.count"}},
		{name: "labels with colons", wantName: "Queen's Ranger", text: `Queen’s Ranger
Race: Human
Accurate: 13 (−3), Cunning: 10 (0), Discreet: 12 (−2), Persuasive: 7 (+3), Quick: 13 (−3), Resolute: 10 (0), Strong: 10 (0), Vigilant: 5 (+5)
Abilities: Trapper (adept)
Weapons: Sword 4 (balanced), Crossbow 5
Armour: Studded leather 3
Defense: 0
Toughness: 10, Pain Threshold: 5`,
			want: attrs("13", "10", "12", "7", "13", "10", "10", "5", "abilities.trapper", "adept",
				"weapons.0.name", "Sword", "weapons.0.type", "one-handed", "weapons.0.qualities", "balanced",
				"weapons.1.name", "Crossbow", "weapons.1.type", "crossbow",
				"armour.name", "Studded leather", "armour.type", "medium", "toughness", "10", "painThreshold", "5"),
			assumed: []string{"weapons.0.type", "weapons.1.type"}},
		{name: "custom armour from the Defense value", wantName: "Dragon Fly", text: `Dragon Fly
Traits Armored (I), Natural Weapon (I), Flying
Accurate 13 (−3), Cunning 5 (+5), Discreet 10 (0), Persuasive 5 (+5), Quick 13 (−3), Resolute 7 (+3), Strong 9 (+1), Vigilant 15 (−5)
Weapons Sting 4 (natural)
Armor Chitin 1
Defense 11 (−1)
Toughness 10 Pain Threshold 5 Corruption Threshold 4`,
			want: attrs("13", "5", "10", "5", "13", "7", "9", "15",
				"weapons.0.name", "Sting", "weapons.0.type", "natural", "weapons.0.bonus", "1",
				"armour.name", "Chitin", "armour.type", "custom", "armour.die", "2", "armour.impeding", "2",
				"toughness", "10", "painThreshold", "5")},
		{name: "a line of prose, levels missing", wantName: "Cultist of the Dark", text: `Cultist of the Dark
Accurate 10 (0), Cunning 13 (−3), Discreet 10 (0), Persuasive 10 (0), Quick 10 (0), Resolute 15 (−5), Strong 7 (+3), Vigilant 5 (+5)
Abilities Alchemy, Medicus (adept)
Weapons Dagger 3, Alchemical grenade 6 (grenade)
Armor none
Roll on the table below for loot.
Defense 0
Toughness 10 Pain Threshold 4`,
			want: attrs("10", "13", "10", "10", "10", "15", "7", "5", "abilities.alchemy", "novice", "abilities.medicus", "adept",
				"weapons.0.name", "Dagger", "weapons.0.type", "short",
				"weapons.1.name", "Alchemical grenade", "weapons.1.type", "grenade", "weapons.1.count", "3",
				"armour.type", "none", "toughness", "10", "painThreshold", "4"),
			unknown: []int{6}, assumed: []string{"abilities.alchemy", "weapons.0.type", "weapons.1.count"}},
		{name: "wrapped attributes, an unreadable weapon", wantName: "Village Guard", text: `Village Guard
Accurate 11 (−1), Cunning 10 (0), Discreet 9 (+1), Persuasive 10 (0), Quick 12 (−2), Resolute 10 (0),
Strong 11 (−1), Vigilant 7 (+3)
Weapons Spear 4 (long), Whip
Armor Quilted jacket 2
Defense −1
Toughness 10 Pain Threshold 6`,
			want: attrs("11", "10", "9", "10", "12", "10", "11", "7",
				"weapons.0.name", "Spear", "weapons.0.type", "long",
				"armour.name", "Quilted jacket", "armour.type", "light", "toughness", "10", "painThreshold", "6"),
			unknown: []int{4}},
	})
}
