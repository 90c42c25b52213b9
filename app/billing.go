package app

import (
	"bytes"
	"context"
	"fmt"

	"selfmap/handlers"
	"selfmap/internal/i18n"
	"selfmap/internal/pdf"
	"selfmap/internal/receipt"
	"selfmap/internal/store"
	"selfmap/internal/web"
	"selfmap/views"
)

// receiptStylesheets are the receipt page's styles, inlined in the
// document its PDF is printed from.
var receiptStylesheets = []string{"static/css/app.css", "themes/home/theme.css", "static/css/billing.css"}

// wireBilling builds the billing page's receipts, printed to PDF by the
// Chromium the report PDFs use (none found: the PDF link says so).
func wireBilling(st *store.Store, d *handlers.Deps) {
	printer, _ := pdf.Find(d.Config.ChromiumPath)
	d.Receipts = &receipt.Service{Store: st, Now: d.Now, Printer: printer,
		Document: func(ctx context.Context, r receipt.Receipt, tag string) ([]byte, error) {
			return receiptDocument(ctx, d, r, tag)
		}}
}

// receiptDocument is a receipt as one self-contained HTML document in a
// locale, drawn by the receipt page's own view.
func receiptDocument(ctx context.Context, d *handlers.Deps, r receipt.Receipt, tag string) ([]byte, error) {
	l, ok := i18n.ByTag(tag)
	if !ok {
		return nil, fmt.Errorf("app: receipt %s: unknown locale %q", r.ID, tag)
	}
	var css bytes.Buffer
	for _, name := range receiptStylesheets {
		b := d.Assets.Bytes(name)
		if b == nil || bytes.Contains(b, []byte("</")) {
			return nil, fmt.Errorf("app: stylesheet %s cannot go inline in a receipt", name)
		}
		css.Write(b)
		css.WriteByte('\n')
	}
	doc := i18n.WithTranslator(web.With(ctx, &web.Request{Locale: l, BaseURL: d.Config.BaseURL}), d.Catalog.Translator(l))
	var html bytes.Buffer
	if err := views.ReceiptDocument(r, css.String()).Render(doc, &html); err != nil {
		return nil, err
	}
	return html.Bytes(), nil
}
