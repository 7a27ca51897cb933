package auth

import (
	_ "embed"
	"strings"
	"sync"
	"unicode"
	"unicode/utf8"

	"github.com/fray-vtt/fray/internal/fray"
)

// Password and name lengths, in characters.
const (
	MinPasswordLen = 10
	MaxPasswordLen = 200
	MinNameLen     = 3
	MaxNameLen     = 32
)

// commonPasswords is a list of commonly used and breached passwords (see
// the file's header for where it comes from).
//
//go:embed common-passwords.txt
var commonPasswords string

var common = sync.OnceValue(func() map[string]bool {
	m := make(map[string]bool, 12000)
	for _, line := range strings.Split(commonPasswords, "\n") {
		if line != "" && !strings.HasPrefix(line, "#") {
			m[line] = true
		}
	}
	// Words of this service, which an attacker tries first here.
	for _, w := range []string{"fray", "frayvtt", "fraytabletop", "tabletop", "virtualtabletop", "gamemaster", "dungeonmaster"} {
		m[w] = true
	}
	return m
})

// IsCommonPassword reports whether password, case ignored, is on the list
// of common passwords, or is one of them followed by digits and
// punctuation ("Password2024!").
func IsCommonPassword(password string) bool {
	p := strings.ToLower(password)
	if common()[p] {
		return true
	}
	core := strings.TrimRightFunc(p, func(r rune) bool { return unicode.IsDigit(r) || unicode.IsPunct(r) || unicode.IsSymbol(r) || r == ' ' })
	return utf8.RuneCountInString(core) >= 4 && common()[core]
}

// ValidatePassword checks a new password the way NIST SP 800-63B asks,
// without composition rules: MinPasswordLen to MaxPasswordLen characters of
// valid text without control characters; not a common or breached password
// (IsCommonPassword); not one character or a few repeated, nor a run of
// consecutive characters ("abcdefghij", "9876543210"); and not containing
// the user's name. Errors are EINVALID with a message for the user.
func ValidatePassword(password, name string) error {
	if !utf8.ValidString(password) {
		return fray.Errorf(fray.EINVALID, "a password must be valid text")
	}
	if strings.ContainsFunc(password, unicode.IsControl) {
		return fray.Errorf(fray.EINVALID, "a password may not contain control characters (such as tabs, line breaks or NUL)")
	}
	if n := utf8.RuneCountInString(password); n < MinPasswordLen || n > MaxPasswordLen {
		return fray.Errorf(fray.EINVALID, "a password must have %d to %d characters", MinPasswordLen, MaxPasswordLen)
	}
	runes := []rune(strings.ToLower(password))
	if unit := repeatedUnit(runes); unit == 1 {
		return fray.Errorf(fray.EINVALID, "a password may not be one character repeated")
	} else if unit > 0 {
		return fray.Errorf(fray.EINVALID, "a password may not be a few characters repeated")
	}
	if consecutive(runes) {
		return fray.Errorf(fray.EINVALID, "a password may not be a run of consecutive characters")
	}
	if n := strings.ToLower(strings.TrimSpace(name)); len(n) >= MinNameLen && strings.Contains(string(runes), n) {
		return fray.Errorf(fray.EINVALID, "a password may not contain your name")
	}
	if IsCommonPassword(password) {
		return fray.Errorf(fray.EINVALID, "that password is one of the most commonly used or breached; choose another (a few unrelated words make a good one)")
	}
	return nil
}

// repeatedUnit is the length (1–4) of the unit p repeats ("ababab": 2), or
// 0 when it is no such repetition.
func repeatedUnit(p []rune) int {
	for unit := 1; unit <= 4 && unit < len(p); unit++ {
		repeats := true
		for i := unit; i < len(p) && repeats; i++ {
			repeats = p[i] == p[i-unit]
		}
		if repeats {
			return unit
		}
	}
	return 0
}

// consecutive reports whether each character of p follows the one before
// it, up or down by one ("abcdefghij", "9876543210").
func consecutive(p []rune) bool {
	if len(p) < 2 {
		return false
	}
	step := p[1] - p[0]
	if step != 1 && step != -1 {
		return false
	}
	for i := 2; i < len(p); i++ {
		if p[i]-p[i-1] != step {
			return false
		}
	}
	return true
}

// ValidateName checks a new login name: MinNameLen to MaxNameLen ASCII
// letters, digits, '.', '_' or '-'. (ASCII only: no look-alike letters, and
// case-insensitive uniqueness means the same in every database collation.)
// Errors are EINVALID with a message for the user.
func ValidateName(name string) error {
	ok := len(name) >= MinNameLen && len(name) <= MaxNameLen
	for i := 0; ok && i < len(name); i++ {
		c := name[i]
		ok = 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9' || c == '.' || c == '_' || c == '-'
	}
	if !ok {
		return fray.Errorf(fray.EINVALID, "a name must have %d to %d characters, each a letter, a digit, '.', '_' or '-'", MinNameLen, MaxNameLen)
	}
	return nil
}
