package board

import (
	"errors"

	"github.com/fray-vtt/fray/internal/fray"
	"github.com/fray-vtt/fray/internal/strictjson"
)

// strictJSON reads raw strictly (strictjson); its error is plain text, for
// the callers to prefix with what they were reading.
func strictJSON(raw []byte, v any) error {
	if err := strictjson.Decode(raw, v); err != nil {
		return errors.New(fray.ErrorMessage(err))
	}
	return nil
}
