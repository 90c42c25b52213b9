package site

import (
	"errors"
	"net/http"

	"github.com/labstack/echo/v4"

	"selfmap/handlers/httpx"
	"selfmap/internal/apperr"
	"selfmap/views"
)

// userReceipt serves GET /userCenter/setting/billing/receipt/:id: one of
// the member's receipts. Another member's answers as a missing one.
func (s *Server) userReceipt(c echo.Context) error {
	r, err := s.Receipts.Get(c.Request().Context(), httpx.User(c).ID, c.Param("id"))
	if errors.Is(err, apperr.ErrNotFound) {
		return httpx.NotFound()
	}
	if err != nil {
		return err
	}
	frame, err := s.userCenterPage(c, "settings")
	if err != nil {
		return err
	}
	href := accountPath(c, "/userCenter/setting/billing/receipt/"+r.ID)
	return s.Render(c, http.StatusOK, views.Receipt(views.ReceiptPage{Frame: frame, CSS: s.Assets.URL("static/css/billing.css"),
		Receipt: r, PDFHref: href + "/pdf", BackHref: accountPath(c, "/userCenter/setting/billing")}))
}

// userReceiptPDF serves GET /userCenter/setting/billing/receipt/:id/pdf:
// the receipt printed from its own page, in the request's language. Without
// a Chromium to print it, the error page says the PDF cannot be made.
func (s *Server) userReceiptPDF(c echo.Context) error {
	r, out, err := s.Receipts.PDF(c.Request().Context(), httpx.User(c).ID, c.Param("id"), httpx.State(c).Locale.Tag)
	if errors.Is(err, apperr.ErrNotFound) {
		return httpx.NotFound()
	}
	if err != nil {
		return err
	}
	c.Response().Header().Set("Cache-Control", "private, no-store")
	c.Response().Header().Set("Content-Disposition", `attachment; filename="selfmap-receipt-`+r.Number+`.pdf"`)
	return c.Blob(http.StatusOK, "application/pdf", out)
}
