package web

import (
	"context"
	"net/url"
	"slices"
	"strings"

	"github.com/a-h/templ"
)

type userKey struct{}

// WithUser returns a context that makes Layout show name as the signed-in
// user, with links to the account page and a log-out button. Without it the
// header offers "Log in" and "Sign up".
func WithUser(ctx context.Context, name string) context.Context {
	return context.WithValue(ctx, userKey{}, name)
}

// UserFromContext returns the name set with WithUser, or "".
func UserFromContext(ctx context.Context) string {
	name, _ := ctx.Value(userKey{}).(string)
	return name
}

// AuthFormProps is the data of the log-in and sign-up pages.
type AuthFormProps struct {
	// Mode is "login" or "signup"; anything else is treated as "login".
	Mode string
	// Next is where to go after success, posted back as the hidden "next".
	Next string
	// Name refills the user name after a failed attempt.
	Name  string
	Error string
}

// ResetProps is the data of the password-reset page (see Reset).
type ResetProps struct {
	Step  string // "ask", "sent", "form" or "off"
	Token string // the link's token, for "form"
	User  string // the account's name, for "form"
	Error string
}

// AccountProps is the data of the account page.
type AccountProps struct {
	User   string
	Tokens []TokenRow
	// NewToken is a token just created, shown this once.
	NewToken      string
	Notice, Error string
}

// TokenRow is one personal API token on the account page. Created and
// LastUsed are ready to show; LastUsed "" means never used.
type TokenRow struct {
	ID, Name, Created, LastUsed string
	Revoked                     bool
}

// Password length limits, as the sign-up hint states them.
const (
	PasswordMin = 10
	PasswordMax = 200
)

func (p AuthFormProps) signup() bool { return p.Mode == "signup" }

func (p AuthFormProps) action() string {
	if p.signup() {
		return "/signup"
	}
	return "/login"
}

func (p AuthFormProps) title() string {
	if p.signup() {
		return "Sign up"
	}
	return "Log in"
}

// otherURL is the link to the other mode, keeping next.
func (p AuthFormProps) otherURL() string {
	if p.signup() {
		return withNext("/login", p.Next)
	}
	return withNext("/signup", p.Next)
}

// withNext appends ?next= to path. Slashes stay readable (they are legal in a
// query): /login?next=/join/abc.
func withNext(path, next string) string {
	if next == "" {
		return path
	}
	return path + "?next=" + strings.ReplaceAll(url.QueryEscape(next), "%2F", "/")
}

// describedBy is an aria-describedby attribute naming the non-empty ids, or
// no attribute when all are empty.
func describedBy(ids ...string) templ.Attributes {
	if ids = slices.DeleteFunc(ids, func(id string) bool { return id == "" }); len(ids) == 0 {
		return nil
	}
	return templ.Attributes{"aria-describedby": strings.Join(ids, " ")}
}

func revokeTokenURL(id string) string {
	return "/account/tokens/" + url.PathEscape(id) + "/revoke"
}

func lastUsed(t TokenRow) string {
	if t.LastUsed == "" {
		return "never used"
	}
	return "last used " + t.LastUsed
}

// ErrorProps is the data of an error page: a title ("Not found"), the
// message, and where "Go back" leads (the referring page of this site).
type ErrorProps struct {
	Title, Message string
	Back           string
}
