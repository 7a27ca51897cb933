package web

// orNone is s, or "nothing" when it is empty (a clock without increment).
func orNone(s string) string {
	if s == "" {
		return "nothing"
	}
	return s
}
