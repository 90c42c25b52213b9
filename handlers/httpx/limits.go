package httpx

import (
	"github.com/labstack/echo/v4"
)

// RouteLimits are the rate limits the routes of every surface wrap their
// handlers in, built once so the surfaces share their buckets.
type RouteLimits struct {
	// Write guards every form and API write; api every JSON read.
	Write, Api echo.MiddlewareFunc
	// Contact, retrieve, cancel and auth guard what writes to a person
	// (support, mailed links) or guesses a secret (log-in, codes).
	Contact, Retrieve, Cancel, Auth echo.MiddlewareFunc
}

// RouteLimits builds the limits from the configuration.
func (s *Server) RouteLimits() RouteLimits {
	var l RouteLimits
	scale := s.Config.RateLimitScale
	// The security limits are shared by every instance (their buckets are
	// in the database); the API read limit is per instance: see "Rate
	// limits" in README.md. Writes fail open when the check cannot be made
	// (the write itself needs the database anyway); the limits that guard
	// passwords and mailboxes fail closed. The write limit, on the
	// checkout's hot path, is shared on PostgreSQL only: SQLite serves one
	// instance, where a bucket in the database shares nothing and its extra
	// write cost a third of the checkout's ceiling (docs/reliability.md).
	l.Write = rateLimit(2*scale, int(20*scale))
	if s.Limits.Shared {
		l.Write = s.sharedLimit("write", 2*scale, int(20*scale), failOpen)
	}
	l.Api = rateLimit(20*scale, int(60*scale))
	// A person writes to support a few times, not every second.
	l.Contact = s.sharedLimit("contact", scale/60, int(5*scale), failClosed)
	// Retrieval mails a mailbox: a few tries, then one a minute per client
	// address, shared by the page and the API; the service also limits
	// each mailbox.
	l.Retrieve = s.sharedLimit("retrieve", scale/60, int(5*scale), failClosed)
	// Log-in and the mailed codes: a few tries, then one every twelve
	// seconds per client address; the account service also limits each
	// address typed (failed log-ins) and each mailbox (codes sent).
	// Cancel links are mailed like retrieval links.
	l.Cancel = s.sharedLimit("cancel", scale/60, int(5*scale), failClosed)
	l.Auth = s.sharedLimit("auth", scale/12, int(10*scale), failClosed)
	return l
}
