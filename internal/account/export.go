package account

import (
	"context"
	"encoding/json"
	"time"
)

// Export is everything the service keeps about a person, as the JSON they
// download.
type Export struct {
	ExportedAt time.Time      `json:"exportedAt"`
	Profile    ExportProfile  `json:"profile"`
	Results    []ExportResult `json:"results"`
	Orders     []ExportOrder  `json:"orders"`
}

// ExportProfile is the account's own data (the picture is left out: it can
// be downloaded from the profile page).
type ExportProfile struct {
	Name          string     `json:"name"`
	Email         string     `json:"email"`
	EmailVerified *time.Time `json:"emailVerifiedAt"`
	Nickname      string     `json:"nickName"`
	Phone         string     `json:"phone"`
	Birthday      string     `json:"birthday"`
	Sex           string     `json:"sex"`
	Introduction  string     `json:"introduction"`
	HasAvatar     bool       `json:"hasAvatar"`
	CreatedAt     time.Time  `json:"createdAt"`
}

// ExportResult is one test result with its answers and scores.
type ExportResult struct {
	ID        string          `json:"id"`
	ExamID    int             `json:"examId"`
	Locale    string          `json:"locale"`
	Type      string          `json:"type"`
	Answers   json.RawMessage `json:"answers"`
	Scores    json.RawMessage `json:"scores"`
	Email     string          `json:"email,omitempty"`
	FirstName string          `json:"firstName,omitempty"`
	LastName  string          `json:"lastName,omitempty"`
	BirthYear int64           `json:"birthYear,omitempty"`
	Gender    string          `json:"gender,omitempty"`
	Country   string          `json:"country,omitempty"`
	DurationS int             `json:"durationSeconds"`
	CreatedAt time.Time       `json:"createdAt"`
}

// ExportOrder is one order.
type ExportOrder struct {
	OrderNumber string    `json:"orderNumber"`
	ResultID    string    `json:"resultId"`
	Kind        string    `json:"kind"`
	Status      string    `json:"status"`
	SKU         string    `json:"skuId,omitempty"`
	Currency    string    `json:"currency,omitempty"`
	Total       int64     `json:"total"`
	Email       string    `json:"email,omitempty"`
	CreatedAt   time.Time `json:"createdAt"`
}

// rawJSON keeps stored JSON as it is, or null when it is not JSON.
func rawJSON(s string) json.RawMessage {
	if !json.Valid([]byte(s)) {
		return json.RawMessage("null")
	}
	return json.RawMessage(s)
}

// Export gathers the account's data.
func (s *Service) Export(ctx context.Context, userID string) (Export, error) {
	u, err := s.Store.GetUser(ctx, s.Store.DB, userID)
	if err != nil {
		return Export{}, err
	}
	out := Export{ExportedAt: s.Now().UTC(), Results: []ExportResult{}, Orders: []ExportOrder{}, Profile: ExportProfile{
		Name: u.Name, Email: u.Email, EmailVerified: u.EmailVerifiedAt, Nickname: u.Nickname, Phone: u.Phone, Birthday: u.Birthday,
		Sex: u.Sex, Introduction: u.Introduction, HasAvatar: u.AvatarType != "", CreatedAt: u.CreatedAt,
	}}
	results, err := s.Store.UserResults(ctx, s.Store.DB, userID)
	if err != nil {
		return Export{}, err
	}
	for _, r := range results {
		out.Results = append(out.Results, ExportResult{ID: r.ID, ExamID: r.ExamID, Locale: r.Locale, Type: r.ResultCode,
			Answers: rawJSON(r.Answers), Scores: rawJSON(r.Scores), Email: r.Email.String, FirstName: r.FirstName.String,
			LastName: r.LastName.String, BirthYear: r.BirthYear.Int64, Gender: r.Gender.String, Country: r.Country.String,
			DurationS: r.DurationSeconds, CreatedAt: r.CreatedAt})
	}
	orders, err := s.Store.UserOrders(ctx, s.Store.DB, userID)
	if err != nil {
		return Export{}, err
	}
	for _, o := range orders {
		out.Orders = append(out.Orders, ExportOrder{OrderNumber: o.OrderNumber, ResultID: o.ResultID, Kind: o.Kind, Status: string(o.Status),
			SKU: o.SKUID.String, Currency: o.Currency.String, Total: o.Total, Email: o.Email.String, CreatedAt: o.CreatedAt})
	}
	return out, nil
}
