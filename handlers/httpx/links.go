package httpx

import (
	"net/url"

	"github.com/labstack/echo/v4"

	"selfmap/internal/subscription"
	"selfmap/internal/web"
)

// LegalPath is a legal document's path in the default locale.
func LegalPath(slug, pair string) string { return "/legal/" + slug + "/" + pair }

// SubscribePath is a subscription screen of the request's pair and locale.
func SubscribePath(c echo.Context, screen string, q url.Values) string {
	pr := Pair(c)
	if pr.Code == "" {
		// The JSON calls have no pair in their path: the site's home pair.
		pr = State(c).Home
	}
	p := State(c).LocalPath(screen + "/" + pr.String())
	if len(q) > 0 {
		p += "?" + q.Encode()
	}
	return p
}

// UpgradeHref is where a user of tier has buys more: the upgrade page for
// a basic subscriber, the plans for anyone else.
func UpgradeHref(c echo.Context, has subscription.Tier) string {
	home := State(c).Home.String()
	if has == subscription.TierBasic {
		return State(c).LocalPath("/paying/upgrade/" + home)
	}
	return State(c).LocalPath("/paying/scheme/" + home)
}

// ReturnToKey is the session value naming the screen a guest was on when
// sent to log in; the log-in and register forms go back to it.
const ReturnToKey = "return_to"

// TrackingQuery keeps the tracking parameters of a raw query
// (web.TrackingQuery), as values a step can add to.
func TrackingQuery(raw string) url.Values {
	out, _ := url.ParseQuery(web.TrackingQuery(raw))
	return out
}
