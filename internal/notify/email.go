package notify

import (
	"context"
	"fmt"
	"net/url"
	"strconv"
	"strings"
	"time"

	mail "github.com/wneessen/go-mail"
)

// Mail is one e-mail: a notice to one member.
type Mail struct {
	To, Subject, Text string
	// MessageID is the delivery id: every attempt sends the same
	// Message-ID, so a mail client shows a repeat once.
	MessageID string
}

// Mailer sends e-mail.
type Mailer interface {
	Send(ctx context.Context, m Mail) error
}

// SMTP sends e-mail through an SMTP server.
type SMTP struct {
	host     string
	port     int
	ssl      bool
	user     string
	password string
	from     string
}

// NewSMTP checks an SMTP server's URL and the sender's address:
// smtp://[user:password@]host[:port] (port 587 by default, STARTTLS when
// the server offers it) or smtps://… (TLS from the start, port 465).
func NewSMTP(rawURL, from string) (*SMTP, error) {
	u, err := url.Parse(rawURL)
	if err != nil || (u.Scheme != "smtp" && u.Scheme != "smtps") || u.Hostname() == "" {
		return nil, fmt.Errorf("the SMTP URL must be smtp://[user:password@]host[:port] or smtps://…")
	}
	s := &SMTP{host: u.Hostname(), ssl: u.Scheme == "smtps", from: from, port: 587}
	if s.ssl {
		s.port = 465
	}
	if p := u.Port(); p != "" {
		if s.port, err = strconv.Atoi(p); err != nil || s.port <= 0 || s.port > 65535 {
			return nil, fmt.Errorf("the SMTP URL's port %q is not a port", p)
		}
	}
	if u.User != nil {
		s.user = u.User.Username()
		s.password, _ = u.User.Password()
	}
	if from == "" {
		return nil, fmt.Errorf("e-mail needs a sender's address (-mail-from)")
	}
	if err := mail.NewMsg().From(from); err != nil {
		return nil, fmt.Errorf("the sender's address %q: %w", from, err)
	}
	return s, nil
}

// Send sends one e-mail.
func (s *SMTP) Send(ctx context.Context, m Mail) error {
	msg := mail.NewMsg()
	if err := msg.From(s.from); err != nil {
		return permanent(err)
	}
	if err := msg.To(m.To); err != nil {
		return permanent(fmt.Errorf("the address %q: %w", m.To, err))
	}
	msg.Subject(m.Subject)
	msg.SetMessageIDWithValue(m.MessageID + "@fray")
	msg.SetDate()
	msg.SetBodyString(mail.TypeTextPlain, m.Text)
	opts := []mail.Option{mail.WithPort(s.port), mail.WithTimeout(10 * time.Second)}
	if s.ssl {
		opts = append(opts, mail.WithSSL())
	} else {
		opts = append(opts, mail.WithTLSPolicy(mail.TLSOpportunistic))
	}
	if s.user != "" {
		opts = append(opts, mail.WithSMTPAuth(mail.SMTPAuthPlain), mail.WithUsername(s.user), mail.WithPassword(s.password))
	}
	c, err := mail.NewClient(s.host, opts...)
	if err != nil {
		return permanent(err)
	}
	return c.DialAndSendWithContext(ctx, msg)
}

// mailText is a notice's e-mail body.
func mailText(m Message, publicURL string) string {
	var b strings.Builder
	fmt.Fprintf(&b, "%s\n\n%s\n", m.Title, m.Text)
	if m.Due != nil {
		fmt.Fprintf(&b, "\nThe wait runs out at %s.\n", m.Due.UTC().Format("2006-01-02 15:04 MST"))
	}
	fmt.Fprintf(&b, "\nCampaign: %s\nEncounter: %s\n", m.Campaign.Name, m.Encounter.Name)
	if m.Act != nil && strings.HasPrefix(m.Act.URL, "http") {
		fmt.Fprintf(&b, "\nAct now: %s\n(a link for you alone, to use once, valid for a week)\n", m.Act.URL)
	}
	if m.Encounter.URL != "" {
		fmt.Fprintf(&b, "Open it: %s\n", m.Encounter.URL)
	}
	if publicURL != "" {
		fmt.Fprintf(&b, "\nChoose what you are sent: %s/account/notifications\n", publicURL)
	}
	fmt.Fprintf(&b, "\n-- \nFray · %s · delivery %s · event %d\n", m.Type, m.ID, m.Seq)
	return b.String()
}
