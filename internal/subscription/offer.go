package subscription

import (
	"context"
	"time"

	"selfmap/internal/geo"
	"selfmap/internal/store"
)

// OfferWindow is how long after a test its unpaid report is offered with
// the plan's trial: the landing counts down to the result's time plus this
// window, and at zero the trial is no longer offered for that report (pay
// now still is). Documented in docs/subscriptions.md.
const OfferWindow = 24 * time.Hour

// Visitor is who looks at the subscription screens: the signed-in
// customer ("" for a guest on the plans page) and the region their
// browser's language names ("" when none), which prices the plans when
// they gave no country with a test.
type Visitor struct {
	CustomerID string
	Email      string
	Locale     string
	Region     string
}

// ReportOffer is the trial offered with the customer's newest result while
// its report is unpaid: it ends at Deadline. Closed once that has passed;
// Left is the time still to go while it is open.
type ReportOffer struct {
	ResultCode string
	Deadline   time.Time
	Closed     bool
	Left       time.Duration
}

// Offer is a plan as the screens offer it: priced for the country, and
// with the days one period lasts from now (a month is the coming one), for
// its price per day; 0 when the plan's period cannot be counted.
type Offer struct {
	PricedPlan
	PeriodDays int
}

// visit is what the subscription screens know of a visitor before they
// choose anything: the country their plans are priced for and the trial
// offer of their newest report, if it is unpaid.
type visit struct {
	country  string
	offer    ReportOffer
	hasOffer bool
}

// trialsOffered reports whether the visit's report offer, if any, still
// offers the trial.
func (v visit) trialsOffered() bool { return !v.hasOffer || !v.offer.Closed }

// look reads what the screens know of a visitor at now. The newest result
// names the country (else the browser's region, else the default price
// '*') and, when withOffer, carries the report offer. A result that cannot
// be read is as none: the plans are still priced and no deadline is shown.
func (s *Service) look(ctx context.Context, v Visitor, now time.Time, withOffer bool) visit {
	out := visit{country: "*"}
	if geo.Valid(v.Region) {
		out.country = v.Region
	}
	if v.CustomerID == "" {
		return out
	}
	rs, err := s.Store.UserResults(ctx, s.Store.DB, v.CustomerID)
	if err != nil || len(rs) == 0 {
		return out
	}
	newest := rs[0]
	if newest.Country.Valid && newest.Country.String != "" {
		out.country = newest.Country.String
	}
	if withOffer {
		out.offer, out.hasOffer = s.reportOffer(ctx, newest, now)
	}
	return out
}

// reportOffer is the trial offer of a result whose report is unpaid. A
// report whose payment cannot be read now is offered no deadline: the
// countdown is only shown when it is known to be unpaid.
func (s *Service) reportOffer(ctx context.Context, r store.Result, now time.Time) (ReportOffer, bool) {
	if s.ReportPaid == nil {
		return ReportOffer{}, false
	}
	if paid, err := s.ReportPaid(ctx, r.ID); err != nil || paid {
		return ReportOffer{}, false
	}
	deadline := r.CreatedAt.Add(OfferWindow)
	o := ReportOffer{ResultCode: r.ResultCode, Deadline: deadline, Closed: !now.Before(deadline)}
	if left := deadline.Sub(now); left > 0 {
		o.Left = left
	}
	return o, true
}

// offers prices the plans for the screens at now.
func offers(plans []PricedPlan, now time.Time) []Offer {
	out := make([]Offer, 0, len(plans))
	for _, p := range plans {
		out = append(out, Offer{PricedPlan: p, PeriodDays: periodDays(p, now)})
	}
	return out
}

// periodDays is how many days one period of a plan lasts from now,
// rounded to the nearest day; 0 when the plan's period is not one we
// count.
func periodDays(p PricedPlan, now time.Time) int {
	end, err := AddPeriod(now, p.Interval, p.Period)
	if err != nil {
		return 0
	}
	return int(end.Sub(now).Hours()/24 + 0.5)
}

// Plans lists the active plans priced for a visitor (their country as look
// finds it), for the plans page.
func (s *Service) Plans(ctx context.Context, v Visitor) ([]Offer, error) {
	return s.CountryPlans(ctx, s.look(ctx, v, s.now(), false).country)
}

// CountryPlans lists the active plans priced for a country, as the API's
// plan list asks for them.
func (s *Service) CountryPlans(ctx context.Context, country string) ([]Offer, error) {
	plans, err := s.Store.ListPlans(ctx, s.Store.DB, country)
	if err != nil {
		return nil, err
	}
	return offers(plans, s.now()), nil
}
