package auth

import (
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

// ValidatePassword checks a new password: MinPasswordLen to MaxPasswordLen
// characters of valid text. Errors are EINVALID with a message for the user.
func ValidatePassword(password string) error {
	if !utf8.ValidString(password) {
		return fray.Errorf(fray.EINVALID, "a password must be valid text")
	}
	if n := utf8.RuneCountInString(password); n < MinPasswordLen || n > MaxPasswordLen {
		return fray.Errorf(fray.EINVALID, "a password must have %d to %d characters", MinPasswordLen, MaxPasswordLen)
	}
	return nil
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
