package web

// NotificationsProps is the data of the notifications page: where a member
// is told that their turn came or a decision waits while Fray is closed.
type NotificationsProps struct {
	// Email is the account's address; EmailOffered whether the server
	// sends e-mail at all (otherwise the option is not shown).
	Email        string
	EmailOffered bool
	// PushKey is the server's VAPID public key (base64url), which the
	// script subscribes this browser with; "" when push is not offered.
	PushKey string
	// Browsers is how many browsers of the user are subscribed.
	Browsers      int
	Campaigns     []NoticeCampaign
	Notice, Error string
}

// NoticeCampaign is one campaign's row: the channels chosen for it.
type NoticeCampaign struct {
	ID, Name, Role string
	Push, Email    bool
}

// WebhooksProps is the data of a campaign's webhooks page (its GMs').
type WebhooksProps struct {
	CampaignID, CampaignName string
	Webhooks                 []WebhookRow
	// New is a webhook just made, with its secret shown this once.
	New           *WebhookRow
	Notice, Error string
}

// WebhookRow is one webhook, with what became of its deliveries.
type WebhookRow struct {
	ID, URL, Format, Created string
	Secret                   string // only for a webhook just made
	Delivered, Failed        int
	Pending                  int
	LastError                string
}

func formatName(f string) string {
	if f == "discord" {
		return "Discord"
	}
	return "JSON (signed)"
}
