package handlers

import (
	"net/url"

	"github.com/labstack/echo/v4"

	"selfmap/internal/subscription"
	"selfmap/internal/web"
)

// legalPath is a legal document's path in the default locale.
func legalPath(slug, pair string) string { return "/legal/" + slug + "/" + pair }

// subscribePath is a subscription screen of the request's pair and locale.
func subscribePath(c echo.Context, screen string, q url.Values) string {
	pr := pair(c)
	if pr.Code == "" {
		// The JSON calls have no pair in their path: the site's home pair.
		pr = state(c).Home
	}
	p := state(c).LocalPath(screen + "/" + pr.String())
	if len(q) > 0 {
		p += "?" + q.Encode()
	}
	return p
}

// upgradeHref is where a user of tier has buys more: the upgrade page for
// a basic subscriber, the plans for anyone else.
func upgradeHref(c echo.Context, has subscription.Tier) string {
	home := state(c).Home.String()
	if has == subscription.TierBasic {
		return state(c).LocalPath("/paying/upgrade/" + home)
	}
	return state(c).LocalPath("/paying/scheme/" + home)
}

// returnToKey is the session value naming the screen a guest was on when
// sent to log in; the log-in and register forms go back to it.
const returnToKey = "return_to"

// trackingQuery keeps the tracking parameters of a raw query
// (web.TrackingQuery), as values a step can add to.
func trackingQuery(raw string) url.Values {
	out, _ := url.ParseQuery(web.TrackingQuery(raw))
	return out
}
