package swzones

// View is the sw-zones part of an engine.View: the battlefield and what the
// viewer may know of each fighter. The encounter page renders it.
type View struct {
	Zones    []ZoneView             `json:"zones"`
	Fighters map[string]FighterView `json:"fighters"` // visible combatants by id
	// Deck is how many action cards remain before the next shuffle.
	Deck int `json:"deck"`
	// GMBennies is the GM's pool (the GM's view only).
	GMBennies int `json:"gmBennies,omitempty"`
	// Interrupting is the fighter taking a held action in the middle of
	// Interrupted's turn.
	Interrupting string `json:"interrupting,omitempty"`
	Interrupted  string `json:"interrupted,omitempty"`
}

// ZoneView is one zone as seen: its features, neighbours, melees and the
// fighters in it who are not engaged.
type ZoneView struct {
	ID          string      `json:"id"`
	Name        string      `json:"name"`
	Description string      `json:"description,omitempty"`
	Cover       string      `json:"cover,omitempty"` // "", "light", "medium", "heavy", "near-total"
	Adjacent    []string    `json:"adjacent"`        // zone ids
	Melees      []MeleeView `json:"melees"`
	Unengaged   []string    `json:"unengaged"` // combatant ids, visible ones only
}

// MeleeView is one melee: the visible combatants engaged in it.
type MeleeView struct {
	ID      string   `json:"id"`
	Members []string `json:"members"`
}

// FighterView is what a viewer sees of one fighter. Every viewer sees the
// public condition (Shaken, wounds, card); Full is set only for the GM and the
// fighter's own player, and only then are Traits, Weapons and the numbers that
// give the stat block away filled in.
type FighterView struct {
	ID            string `json:"id"`
	WildCard      bool   `json:"wildCard"`
	Shaken        bool   `json:"shaken"`
	Wounds        int    `json:"wounds"`
	MaxWounds     int    `json:"maxWounds"` // 3 for Wild Cards, 0 for Extras (out at one wound)
	Incapacitated bool   `json:"incapacitated"`
	Status        string `json:"status,omitempty"` // "bleeding out", "dead", "stable", …
	Card          string `json:"card,omitempty"`   // this round's action card, e.g. "K♠" or "Red Joker"
	Zone          string `json:"zone"`
	Melee         string `json:"melee,omitempty"`
	Prone         bool   `json:"prone,omitempty"`
	Hold          bool   `json:"hold,omitempty"`    // on Hold: may interrupt
	Running       bool   `json:"running,omitempty"` // made a Running roll this turn
	Grip          string `json:"grip,omitempty"`    // "entangled" or "bound" when held
	GrippedBy     string `json:"grippedBy,omitempty"`
	Garrotte      bool   `json:"garrotte,omitempty"` // held by a garrotte
	Drop          string `json:"drop,omitempty"`     // has The Drop on this fighter

	Full      bool              `json:"full"`
	Movement  int               `json:"movement,omitempty"` // Movement points left this turn
	Actions   int               `json:"actions,omitempty"`  // actions taken this turn
	Parry     int               `json:"parry,omitempty"`
	Toughness int               `json:"toughness,omitempty"`
	Armor     int               `json:"armor,omitempty"`
	Traits    map[string]string `json:"traits,omitempty"` // "Agility":"d8", "Fighting":"d10", …
	Weapons   []WeaponView      `json:"weapons,omitempty"`
	Powers    []PowerView       `json:"powers,omitempty"`
	Bennies   int               `json:"bennies,omitempty"`
	// RunPenalty is the Running penalty on this turn's other actions, after
	// the Movement given up against it.
	RunPenalty int `json:"runPenalty,omitempty"`
}

// PowerView is one power on a fighter's sheet.
type PowerView struct {
	ID       string `json:"id"`
	Name     string `json:"name"`
	Skill    string `json:"skill"`
	Range    int    `json:"range"` // in zones
	Template string `json:"template,omitempty"`
	Effect   string `json:"effect"`
	Damage   string `json:"damage,omitempty"`
}

// WeaponView is one weapon on a fighter's sheet.
type WeaponView struct {
	ID     string `json:"id"`
	Name   string `json:"name"`
	Damage string `json:"damage"`          // "Str+d6", "2d6"
	Range  string `json:"range,omitempty"` // in zones, "2/4/8"; empty for melee weapons
	// Template is an area weapon's template: small, medium, large, cone, jet.
	Template string `json:"template,omitempty"`
}
