// Package examples embeds the example encounters shipped with Fray, so
// `server demo` can seed them and tests can load every one.
package examples

import "embed"

// Encounters holds encounters/*.json, each an engine.Setup document.
//
//go:embed encounters/*.json
var Encounters embed.FS
