package httpx

import (
	"net/http"
	"net/url"
	"strings"

	"github.com/labstack/echo/v4"
)

// legacyAlias is an old path of the product that now lives elsewhere.
type legacyAlias struct {
	From, To string
}

// LegacyAliases lists every alias of ../shared/spec/routes.tsv; each takes
// the {code}-{examId} pair and answers 301 to its target, query kept.
var LegacyAliases = []legacyAlias{
	{"/landing/girl-old", "/landing/girl"},
	{"/relaxPage", "/landing/relax"},
	{"/homePage", "/homepage"},
	{"/thirdPage", "/landing/third"},
	{"/newPage", "/landing/new"},
	{"/girlPage", "/landing/girl"},
	{"/typesPage", "/landing/types"},
	{"/free", "/landing/free"},
	{"/founder", "/landing/founder"},
	{"/young", "/landing/young"},
	{"/rolesPage", "/landing/roles"},
	{"/psychological", "/landing/psychological"},
	{"/personalPage", "/landing/personal"},
	{"/retrieve", "/report/retrieve"},
	{"/question", "/answer/question"},
	{"/email", "/answer/email"},
	{"/answer_submit", "/answer/submit"},
	{"/scheme_select", "/paying/scheme"},
	{"/scheme_select", "/paying/scheme"},
	{"/cancel-subscription", "/cancel/subscription"},
	{"/cancel-success", "/cancel/success"},
	{"/help-detail", "/helpDetail"},
	{"/payment", "/paying/payment"},
	{"/payPage", "/paying/paypage"},
	{"/pay_success", "/paying/success"},
	{"/pay_failed", "/paying/failed"},
	{"/pay_check", "/paying/check"},
	{"/pay_package", "/paying/package"},
}

// RedirectAlias answers an old path with a permanent redirect to its target
// in the same locale, keeping the pair and the query.
func RedirectAlias(to string) echo.HandlerFunc {
	return func(c echo.Context) error {
		st := State(c)
		return c.Redirect(http.StatusMovedPermanently, st.WithQuery(st.LocalPath(to+"/"+Pair(c).String())))
	}
}

// ToHomePair answers a screen path given without its pair (/types, /tests)
// with a redirect to the host's home pair, in the same locale, query kept.
func ToHomePair(screen string) echo.HandlerFunc {
	return func(c echo.Context) error {
		st := State(c)
		return c.Redirect(http.StatusMovedPermanently, st.WithQuery(st.LocalPath(screen+"/"+st.Home.String())))
	}
}

// englishPrefix answers /en and /en/... with the unprefixed path, English
// being the default locale (it has no prefix); hl=EN keeps the choice.
func englishPrefix(path, rawQuery string) (string, bool) {
	rest, ok := strings.CutPrefix(path, "/en")
	if !ok || (rest != "" && rest[0] != '/') {
		return "", false
	}
	if rest == "" {
		rest = "/"
	}
	q, _ := url.ParseQuery(rawQuery)
	q.Set("hl", "EN")
	return rest + "?" + q.Encode(), true
}
