package api

import (
	"regexp"
	"strconv"

	"github.com/labstack/echo/v4"

	"selfmap/handlers/httpx"
	"selfmap/internal/apperr"
	"selfmap/internal/exam"
	"selfmap/internal/i18n"
	"selfmap/internal/theme"
)

// apiLanguage is one entry of the language list.
type apiLanguage struct {
	Code    string `json:"code"`
	Locale  string `json:"locale"`
	Name    string `json:"name"`
	Prefix  string `json:"prefix"`
	Default bool   `json:"default"`
}

func apiLanguages() []apiLanguage {
	out := make([]apiLanguage, len(i18n.Locales))
	for i, l := range i18n.Locales {
		out[i] = apiLanguage{Code: l.Spec, Locale: l.Tag, Name: l.Name, Prefix: l.Prefix, Default: l.Tag == i18n.Default.Tag}
	}
	return out
}

// apiLanguageList serves GET /api/app/language/list/{examId}.
func (s *Server) apiLanguageList(c echo.Context) error {
	id, err := strconv.Atoi(c.Param("examId"))
	if err != nil {
		return httpx.APIInvalid("examId")
	}
	if _, ok := s.Exams.Exam(id); !ok {
		return apiUnknownExam()
	}
	return s.APIOK(c, apiLanguages())
}

// apiTheme is a theme's assets as the view call returns them.
type apiTheme struct {
	Name       string `json:"name"`
	CSS        string `json:"css"`
	Logo       string `json:"logo"`
	FooterLogo string `json:"footerLogo"`
	Icon       string `json:"icon"`
}

// apiViewData is the runtime configuration of GET /api/app/v2/view.
type apiViewData struct {
	HL        string        `json:"hl"`
	Locale    string        `json:"locale"`
	Code      string        `json:"code"`
	ExamID    int           `json:"examId"`
	Theme     apiTheme      `json:"theme"`
	Languages []apiLanguage `json:"languages"`
}

var hostPattern = regexp.MustCompile(`^[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?(\.[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?)*(:[0-9]{1,5})?$`)

// apiView serves GET /api/app/v2/view: the runtime configuration an app
// needs for a domain (dl), page code (id) and exam (eid) in a language (hl).
// The site of dl decides the theme and home pair; id and eid, when given,
// must name a page code of a known exam.
func (s *Server) apiView(c echo.Context) error {
	st := httpx.State(c)
	q := c.QueryParams()
	home := exam.DefaultPair
	th := s.Themes.Default()
	if dl := q.Get("dl"); dl != "" {
		if len(dl) > 253 || !hostPattern.MatchString(dl) {
			return httpx.APIInvalid("dl")
		}
		if found, ok := s.Sites.Lookup(c.Request().Context(), theme.NormalizeHost(dl)); ok {
			home = found.Home
			th = s.SiteTheme(found)
		}
	}
	p := home
	if id, eid := q.Get("id"), q.Get("eid"); id != "" || eid != "" {
		if eid == "" {
			eid = strconv.Itoa(home.ExamID)
		}
		if id == "" {
			id = home.Code
		}
		parsed, ok := s.Exams.ParsePair(id + "-" + eid)
		if !ok {
			return apiUnknownExam()
		}
		p = parsed
	}
	return s.APIOK(c, apiViewData{
		HL: st.Locale.Spec, Locale: st.Locale.Tag, Code: p.Code, ExamID: p.ExamID,
		Theme:     apiTheme{Name: th.Name, CSS: th.CSSURL, Logo: th.LogoURL, FooterLogo: th.FooterLogoURL, Icon: th.IconURL},
		Languages: apiLanguages(),
	})
}

func apiUnknownExam() error { return apperr.NotFound("api.unknown_exam") }
