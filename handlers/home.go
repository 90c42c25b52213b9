package handlers

import (
	"net/http"

	"github.com/labstack/echo/v4"

	"selfmap/internal/exam"
	"selfmap/views"
)

// home serves / with the site's home pair, and /homepage/{p}.
func (s *Server) home(c echo.Context) error {
	st := state(c)
	p := st.Home
	if v, ok := c.Get(pairKey).(exam.Pair); ok {
		p = v
	}
	return s.render(c, http.StatusOK, views.Home(homePage(c, p)))
}

// landing serves /landing/{name}/{p}: the landing's own theme unless the
// host name has chosen one.
func (s *Server) landing(c echo.Context) error {
	name := c.Param("name")
	th, ok := s.Themes.Get(name)
	if !ok {
		return notFound()
	}
	st := state(c)
	if !st.FromSite {
		st.Theme = th
	}
	return s.render(c, http.StatusOK, views.Home(homePage(c, pair(c))))
}

func homePage(c echo.Context, p exam.Pair) views.HomePage {
	return views.HomePage{StartHref: state(c).WithQuery(state(c).LocalPath("/answer/question/" + p.String()))}
}
