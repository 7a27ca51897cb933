package engine

import (
	"bytes"
	"encoding/json"

	"github.com/fray-vtt/fray/internal/fray"
)

// MaxSetupBytes bounds a setup document (an imported encounter).
const MaxSetupBytes = 1 << 20

// DecodeSetup parses a setup document strictly: unknown fields are errors,
// so a misspelt key never silently becomes a default.
func DecodeSetup(data []byte) (Setup, error) {
	var s Setup
	if len(data) > MaxSetupBytes {
		return s, fray.Errorf(fray.ETOOLARGE, "encounter file is larger than %d bytes", MaxSetupBytes)
	}
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&s); err != nil {
		return Setup{}, fray.Errorf(fray.EINVALID, "encounter file is not a valid setup document: %v", err)
	}
	if dec.More() {
		return Setup{}, fray.Errorf(fray.EINVALID, "encounter file has data after the setup document")
	}
	return s, nil
}
