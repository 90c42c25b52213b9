package httpx

import (
	"net/url"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/labstack/echo/v4"

	"selfmap/internal/apperr"
	"selfmap/internal/consent"
	"selfmap/internal/content"
	"selfmap/internal/i18n"
	"selfmap/internal/money"
	"selfmap/internal/notice"
	"selfmap/internal/subscription"
	"selfmap/views"
)

// PlanCard words a plan's prices: its first charge, what follows and the
// price per day (the period's price over its days, rounded to the cent).
// trial is whether the visitor is offered the plan's trial.
func PlanCard(t *i18n.Translator, p subscription.Offer, trial bool) views.PlanCard {
	price := MustFormat(p.Price, p.Currency)
	// "a month", "每月", "月額": a period of one has words of its own, which
	// a plural form cannot give in languages with only "other".
	every := t.TN("subscribe.every."+p.TimeUnit, p.Period, map[string]any{"Price": price})
	if p.Period == 1 {
		every = t.TD("subscribe.every_one."+p.TimeUnit, map[string]any{"Price": price})
	}
	card := views.PlanCard{ID: p.ID, Tier: p.Tier, Title: t.T("subscribe.tier." + p.Tier), Headline: every}
	if days := p.PeriodDays; days > 0 {
		card.PerDay = t.TD("subscribe.per_day", map[string]any{"Price": MustFormat((p.Price+int64(days)/2)/int64(days), p.Currency)})
	}
	if trial && p.HasTrial() {
		card.Trial = true
		card.Headline = t.TN("subscribe.trial", p.TrialDays, map[string]any{"Price": MustFormat(p.TrialPrice.Int64, p.Currency)})
		card.Then = t.TD("subscribe.then", map[string]any{"Every": every})
	}
	return card
}

// MaxNoticeSearch bounds the words searched for, in characters.
const MaxNoticeSearch = 100

// NoticeQuery reads ?q= and ?page= of a notice list. A search too long is
// a message for the search field; a page that is not a positive number is
// a bad request.
func NoticeQuery(c echo.Context) (q string, page int, msg string, err error) {
	q = strings.TrimSpace(c.QueryParam("q"))
	if utf8.RuneCountInString(q) > MaxNoticeSearch {
		msg = Tr(c).TD("usercenter.notices.search_too_long", map[string]any{"Max": MaxNoticeSearch})
	}
	page = 1
	if p := c.QueryParam("page"); p != "" {
		n, convErr := strconv.Atoi(p)
		if convErr != nil || n < 1 || n > 10000 {
			return q, 0, msg, apperr.BadRequest("usercenter.notices.bad_page", nil)
		}
		page = n
	}
	return q, page, msg, nil
}

// UserNotice is a notice as the user centre shows it; a notice above the
// user's plan is locked: its title shows, its text does not.
func UserNotice(c echo.Context, n notice.Notice, has subscription.Tier) views.UserNotice {
	un := views.UserNotice{ID: n.ID, Title: n.Title, Date: Day(n.PublishedAt), Read: n.Read, Audience: n.Audience,
		Href: State(c).LocalPath("/userCenter/notification/detail") + "?id=" + URLQueryEscape(n.ID)}
	if notice.Locked(n, has) {
		un.Locked, un.Read = true, true
		un.Summary = Tr(c).T("usercenter.notices.locked_" + n.Audience)
		return un
	}
	un.Summary = content.Summary(content.Plain(n.Body), 140)
	return un
}

// NoticeReader is the signed-in user reading notices with their plan's
// tier, in the page's locale.
func NoticeReader(c echo.Context, has subscription.Tier) notice.Reader {
	return notice.Reader{UserID: User(c).ID, Locale: State(c).Locale.Tag, Tier: has}
}

func APIInvalid(name string) error {
	return apperr.BadRequest("api.invalid_param", map[string]any{"Name": name})
}

func ConsentView(s consent.State) map[string]bool {
	return map[string]bool{"analytics": s.Analytics, "marketing": s.Marketing}
}

// Sensitive marks a response that carries a report link's token, a report
// or an e-mail address: no third-party script, no Referer to whatever the
// page links to, and no copy in any cache.
func Sensitive(c echo.Context) {
	Private(c)
	c.Response().Header().Set("Referrer-Policy", "no-referrer")
	c.Response().Header().Set("Cache-Control", "no-store")
}

// MustFormat formats an amount of a currency from our own catalogue, whose
// codes are checked by the money tests; an error there is a data bug, shown
// as the plain amount rather than a broken page.
func MustFormat(amount int64, currency string) string {
	out, err := money.Format(amount, currency)
	if err != nil {
		return currency + " " + money.Plain(amount)
	}
	return out
}

func URLQueryEscape(s string) string { return url.QueryEscape(s) }
