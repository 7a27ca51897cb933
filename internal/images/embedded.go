package images

import (
	"encoding/base64"
	"strings"

	"github.com/fray-vtt/fray/internal/fray"
)

// Unembed returns the bytes of a picture carried inside another file (a
// map file's background, a character file's portrait): base64 in the
// standard or URL alphabet, padded or not, with line breaks or not, or a
// data: URL of a picture type holding such base64. Its size is checked
// from the text's length before anything is decoded (ETOOLARGE over
// MaxBytes); the bytes it returns still have to go through Process (or
// assets.Service.Upload), like any upload.
func Unembed(s string) ([]byte, error) {
	if rest, ok := strings.CutPrefix(s, "data:"); ok {
		meta, payload, found := strings.Cut(rest, ",")
		if !found || !strings.HasSuffix(meta, ";base64") || !strings.HasPrefix(meta, "image/") {
			return nil, fray.Errorf(fray.EINVALID, "the embedded picture is a data: URL but not a base64 picture (data:image/…;base64,…)")
		}
		s = payload
	}
	digits := len(s) - strings.Count(s, "=")
	for _, c := range []string{"\r", "\n", " ", "\t"} {
		digits -= strings.Count(s, c)
	}
	if int64(digits)*3/4 > MaxBytes {
		return nil, fray.Errorf(fray.ETOOLARGE, "the embedded picture is larger than %s, the most a picture may be", mib(MaxBytes))
	}
	s = strings.Map(func(r rune) rune {
		switch r {
		case '\r', '\n', ' ', '\t':
			return -1
		case '-':
			return '+'
		case '_':
			return '/'
		}
		return r
	}, s)
	data, err := base64.RawStdEncoding.DecodeString(strings.TrimRight(s, "="))
	if err != nil {
		return nil, fray.Errorf(fray.EINVALID, "the embedded picture is not valid base64")
	}
	return data, nil
}
