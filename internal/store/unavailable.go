package store

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"strings"
	"syscall"

	"github.com/jackc/pgx/v5/pgconn"

	"github.com/fray-vtt/fray/internal/fray"
)

// Unavailable reports whether err says the database could not be reached or
// used — a refused, lost or timed-out connection, a server shutting down,
// starting up or out of connections — rather than anything about the
// request.
func Unavailable(err error) bool {
	if err == nil {
		return false
	}
	var pe *pgconn.PgError
	if errors.As(err, &pe) {
		switch {
		case strings.HasPrefix(pe.Code, "08"), // connection exception
			pe.Code == "57P01", // admin shutdown
			pe.Code == "57P02", // crash shutdown
			pe.Code == "57P03", // cannot connect now (starting up, recovering)
			pe.Code == "53300": // too many connections
			return true
		}
		return false
	}
	var ce *pgconn.ConnectError
	var ne net.Error
	return errors.As(err, &ce) || errors.As(err, &ne) ||
		errors.Is(err, pgconn.ErrConnClosed) || strings.Contains(err.Error(), "conn closed") ||
		errors.Is(err, io.EOF) || errors.Is(err, io.ErrUnexpectedEOF) ||
		errors.Is(err, syscall.ECONNREFUSED) || errors.Is(err, syscall.ECONNRESET) || errors.Is(err, syscall.EPIPE) ||
		errors.Is(err, context.DeadlineExceeded)
}

// Classify gives err the code EUNAVAILABLE when the database is unavailable
// (see Unavailable) and err carries no code of its own, and EINVALID when
// the database refused a value a client sent — text with a NUL or a byte it
// cannot store, a malformed number or id: the callers check their inputs,
// and this keeps a check they missed a client's mistake, not a 500.
// Otherwise it returns err as is. The result still wraps err, for the logs.
func Classify(err error) error {
	var fe *fray.Error
	if err == nil || errors.As(err, &fe) {
		return err
	}
	switch pgCode(err) {
	case "22021", "22P05": // character not in repertoire, untranslatable character (NUL in text or jsonb)
		return fmt.Errorf("%w: %w", fray.Errorf(fray.EINVALID, "the text holds a character that cannot be stored (such as NUL)"), err)
	case "22001", "22003", "22P02": // string too long, number out of range, invalid text representation
		return fmt.Errorf("%w: %w", fray.Errorf(fray.EINVALID, "a value is too long, out of range or malformed"), err)
	}
	if !Unavailable(err) {
		return err
	}
	return fmt.Errorf("%w: %w", fray.Errorf(fray.EUNAVAILABLE, "the database is unavailable; try again in a moment"), err)
}
