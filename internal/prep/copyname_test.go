package prep

import "testing"

func TestCopyName(t *testing.T) {
	taken := map[string]bool{"Ambush": true, "Ambush (copy)": true, "Ambush (copy 2)": true, "Raid": true}
	for _, c := range []struct{ name, want string }{
		{"Raid", "Raid (copy)"},
		{"Ambush", "Ambush (copy 3)"},
		{"Ambush (copy)", "Ambush (copy 3)"},
		{"Ambush (copy 2)", "Ambush (copy 3)"},
		{"Ambush (copycat)", "Ambush (copycat) (copy)"},
		{"(copy)", "(copy) (copy)"},
	} {
		if got := copyName(c.name, taken); got != c.want {
			t.Errorf("copyName(%q) = %q, want %q", c.name, got, c.want)
		}
	}
}
