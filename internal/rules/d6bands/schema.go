package d6bands

import "github.com/fray-vtt/fray/internal/sheet"

// commonSkills are the skills the stat block editor offers: the seed's,
// Willpower for Terror, Medicine for first aid, and common weapon skills.
var commonSkills = []string{
	"acrobatics", "athletics", "swimming", "stealth", "perception", "tactics", "willpower", "medicine",
	"archery", "firearms", "crossbows", "throwing", "melee", "unarmed",
}

// Schema implements sheet.Schemaer: the stat block for generated editors.
func (Ruleset) Schema() sheet.Schema {
	fs := []sheet.Field{
		{Name: "toughness", Label: "Toughness", Type: sheet.FieldInt, Group: "Body", Default: "10",
			Help: "Damage of Toughness or more is a Serious wound, of twice Toughness a Lethal one (lethal-threshold); less is a Light wound."},
		{Name: "blood", Label: "Blood", Type: sheet.FieldInt, Group: "Body",
			Help: "Blood loss that knocks the combatant out; twice this kills. Empty: Toughness."},
		{Name: "armor", Label: "Armour", Type: sheet.FieldInt, Group: "Body", Default: "0", Help: "Taken off every blow's damage."},
		{Name: "bulk", Label: "Bulk", Type: sheet.FieldInt, Group: "Body", Default: "0",
			Help: "Penalty to terrain checks in impassable terrain or medium and heavy cover, and to Stealth in medium and heavy cover."},
		{Name: "defense", Label: "Defense Pool", Type: sheet.FieldInt, Group: "Combat", Default: "2",
			Help: "Dice a round to spend against melee attacks and shots in close contact, each +1D to the attacker."},
		{Name: "initiative", Label: "Initiative", Type: sheet.FieldInt, Group: "Combat", Default: "10", Help: "Added to 1d6 for the turn order."},
		{Name: "attributes.agility", Label: "Agility", Type: sheet.FieldInt, Group: "Attributes", Default: "10",
			Help: "Quick loading archery and firearms, with quick-load-base \"attribute\"."},
		{Name: "attributes.vigor", Label: "Vigor", Type: sheet.FieldInt, Group: "Attributes", Default: "10",
			Help: "Quick loading crossbows, with quick-load-base \"attribute\"."},
	}
	for _, s := range commonSkills {
		fs = append(fs, sheet.Field{Name: "skills." + s, Label: skillName(s), Type: sheet.FieldInt, Group: "Skills",
			Help: "A check succeeds when its dice sum to at most this. Empty: untrained."})
	}
	fs = append(fs,
		sheet.Field{Name: "mount.name", Label: "Mount", Type: sheet.FieldText, Group: "Mount", Help: "A rider's mount: a shot missing the rider by 3 or less hits it."},
		sheet.Field{Name: "mount.toughness", Label: "Mount toughness", Type: sheet.FieldInt, Group: "Mount", Help: "A Serious wound brings the mount down."},
		sheet.Field{Name: "mount.armor", Label: "Mount armour", Type: sheet.FieldInt, Group: "Mount"},
		sheet.Field{Name: "weapons", Label: "Weapon", Type: sheet.FieldList, Group: "Weapons", IDFrom: "name",
			Help: "Damage like 2D+1. Ranged weapons name one or two optimal bands (very close, close, distant, far, very far) like \"close/distant\"; melee weapons none.",
			Items: []sheet.Field{
				{Name: "name", Label: "Name", Type: sheet.FieldText},
				{Name: "skill", Label: "Skill", Type: sheet.FieldText, Help: "archery, firearms, crossbows, melee …"},
				{Name: "damage", Label: "Damage", Type: sheet.FieldText},
				{Name: "optimal", Label: "Optimal range", Type: sheet.FieldText},
				{Name: "class", Label: "Class", Type: sheet.FieldText, Help: "firearm, crossbow, bow, thrown, melee or other: aiming three rounds helps firearms and crossbows only."},
				{Name: "reload", Label: "Reload (actions)", Type: sheet.FieldInt},
				{Name: "long", Label: "Long (reaches the whole band)", Type: sheet.FieldBool},
				{Name: "area", Label: "Area fire", Type: sheet.FieldBool},
				{Name: "terror", Label: "Terror (dice)", Type: sheet.FieldInt, Help: "The Terror check its area fire causes."},
				{Name: "id", Label: "Id", Type: sheet.FieldText, Help: "Empty: made from the name."},
			}},
	)
	for _, f := range carryFields() {
		fs = append(fs, f.Field)
	}
	return sheet.Schema{Fields: fs}
}
