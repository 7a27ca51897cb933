package engine

import (
	"github.com/fray-vtt/fray/internal/fray"
	"github.com/fray-vtt/fray/internal/strictjson"
)

// MaxSetupBytes bounds a setup document (an imported encounter).
const MaxSetupBytes = 1 << 20

// DecodeSetup parses a setup document strictly (strictjson): one JSON
// value of at most MaxSetupBytes and nothing after it, nested at most
// strictjson.DefaultMaxDepth levels, without NUL characters, and unknown
// fields are errors, so a misspelt key never silently becomes a default.
// It checks no limit of the content (prep.ReadSetup does).
func DecodeSetup(data []byte) (Setup, error) {
	var s Setup
	err := strictjson.DecodeWith(data, &s, strictjson.Limits{MaxBytes: MaxSetupBytes, File: "encounter file"})
	switch fray.ErrorCode(err) {
	case "":
		return s, nil
	case fray.EBUSY:
		return Setup{}, err
	case fray.ETOOLARGE:
		return Setup{}, fray.Errorf(fray.ETOOLARGE, "encounter file is larger than %d bytes", MaxSetupBytes)
	}
	return Setup{}, fray.Errorf(fray.EINVALID, "encounter file is not a valid setup document: %s", fray.ErrorMessage(err))
}
