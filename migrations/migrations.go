// Package migrations holds the database schema as golang-migrate SQL files
// (NNNN_name.up.sql / NNNN_name.down.sql), embedded so the server binary
// carries them. internal/store applies them.
package migrations

import "embed"

// FS holds the migration files.
//
//go:embed *.sql
var FS embed.FS
