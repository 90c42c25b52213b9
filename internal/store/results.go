package store

import (
	"context"
	"database/sql"
	"fmt"
	"time"
)

// Result is a stored, scored answer set.
type Result struct {
	ID              string    `db:"id"`
	ExamID          int       `db:"exam_id"`
	PageCode        string    `db:"page_code"`
	Locale          string    `db:"locale"`
	Answers         string    `db:"answers"`
	ExamVersion     string    `db:"exam_version"`
	ItemsVersion    string    `db:"items_version"`
	NormsVersion    string    `db:"norms_version"`
	NormGroup       string    `db:"norm_group"`
	Scores          string    `db:"scores"`
	ResultCode      string    `db:"result_code"`
	DurationSeconds int       `db:"duration_seconds"`
	Email           NullStr   `db:"email"`
	FirstName       NullStr   `db:"first_name"`
	LastName        NullStr   `db:"last_name"`
	BirthYear       NullInt   `db:"birth_year"`
	Gender          NullStr   `db:"gender"`
	Country         NullStr   `db:"country"`
	CreatedAt       time.Time `db:"created_at"`
	UpdatedAt       time.Time `db:"updated_at"`
}

// NullStr and NullInt are nullable columns.
type (
	NullStr = sql.NullString
	NullInt = sql.NullInt64
)

// Order is a report order, with what the server priced once payment
// started.
type Order struct {
	ID          string      `db:"id"`
	OrderNumber string      `db:"order_number"`
	ResultID    string      `db:"result_id"`
	ExamID      int         `db:"exam_id"`
	Kind        string      `db:"kind"`
	Status      OrderStatus `db:"status"`
	Email       NullStr     `db:"email"`
	SKUID       NullStr     `db:"sku_id"`
	Currency    NullStr     `db:"currency"`
	Subtotal    int64       `db:"subtotal"`
	Discount    int64       `db:"discount"`
	Tax         int64       `db:"tax"`
	Total       int64       `db:"total"`
	PromoCode   NullStr     `db:"promo_code"`
	Country     NullStr     `db:"country"`
	CreatedAt   time.Time   `db:"created_at"`
	UpdatedAt   time.Time   `db:"updated_at"`
}

const orderColumns = `id, order_number, result_id, exam_id, kind, status, email, sku_id, currency, subtotal, discount, tax, total,
	promo_code, country, created_at, updated_at`

// Order kinds: the report a submission opens, and a pack of the upsell
// steps. An order's SKU must be of its kind.
const (
	OrderReport = "report"
	OrderPack   = "pack"
)

const resultColumns = `id, exam_id, page_code, locale, answers, exam_version, items_version, norms_version, norm_group,
	scores, result_code, duration_seconds, email, first_name, last_name, birth_year, gender, country, created_at, updated_at`

// CreateResultWithOrder stores a result and the unpaid order it opens. Run
// it in a transaction: a result never stands without its order.
func (s *Store) CreateResultWithOrder(ctx context.Context, db Querier, r Result, o Order) error {
	if _, err := db.NamedExecContext(ctx, `INSERT INTO results (`+resultColumns+`) VALUES (:id, :exam_id, :page_code, :locale,
		:answers, :exam_version, :items_version, :norms_version, :norm_group, :scores, :result_code, :duration_seconds, :email,
		:first_name, :last_name, :birth_year, :gender, :country, :created_at, :updated_at)`, r); err != nil {
		return fmt.Errorf("store: insert result: %w", err)
	}
	if o.Kind == "" {
		o.Kind = OrderReport
	}
	if _, err := db.NamedExecContext(ctx, `INSERT INTO orders (id, order_number, result_id, exam_id, kind, status, email, created_at, updated_at)
		VALUES (:id, :order_number, :result_id, :exam_id, :kind, :status, :email, :created_at, :updated_at)`, o); err != nil {
		return fmt.Errorf("store: insert order: %w", err)
	}
	return nil
}

// GetResult reads a result by id.
func (s *Store) GetResult(ctx context.Context, db Querier, id string) (Result, error) {
	var r Result
	if err := db.GetContext(ctx, &r, db.Rebind(`SELECT `+resultColumns+` FROM results WHERE id = ?`), id); err != nil {
		return Result{}, notFound("get result", err)
	}
	return r, nil
}

// SetResultEmail records the e-mail address of a result and of its orders
// not yet paid. Run it in a transaction: the orders never keep an address
// their result has left.
func (s *Store) SetResultEmail(ctx context.Context, db Querier, id, email string, now time.Time) error {
	res, err := db.ExecContext(ctx, db.Rebind(`UPDATE results SET email = ?, updated_at = ? WHERE id = ?`), email, now.UTC(), id)
	if err != nil {
		return fmt.Errorf("store: set result email: %w", err)
	}
	if n, _ := res.RowsAffected(); n == 0 {
		return ErrNotFound
	}
	// An order paid for keeps the address its receipt went to.
	if _, err := db.ExecContext(ctx, db.Rebind(`UPDATE orders SET email = ?, updated_at = ? WHERE result_id = ?
		AND status NOT IN ('paid', 'refunded')`), email, now.UTC(), id); err != nil {
		return fmt.Errorf("store: set order email: %w", err)
	}
	return nil
}

// Details are the personal details a test-taker gives after the test.
type Details struct {
	FirstName, LastName string
	BirthYear           NullInt
	Gender              NullStr
	Country             string
}

// Rescored is a result's scores after its norm group changed.
type Rescored struct {
	NormGroup, Scores, ResultCode string
}

// SetResultDetails records the personal details of a result together with
// its scores against the norm group they select.
func (s *Store) SetResultDetails(ctx context.Context, db Querier, id string, d Details, sc Rescored, now time.Time) error {
	res, err := db.ExecContext(ctx, db.Rebind(`UPDATE results SET first_name = ?, last_name = ?, birth_year = ?, gender = ?,
		country = ?, norm_group = ?, scores = ?, result_code = ?, updated_at = ? WHERE id = ?`),
		d.FirstName, d.LastName, d.BirthYear, d.Gender, d.Country, sc.NormGroup, sc.Scores, sc.ResultCode, now.UTC(), id)
	if err != nil {
		return fmt.Errorf("store: set result details: %w", err)
	}
	if n, _ := res.RowsAffected(); n == 0 {
		return ErrNotFound
	}
	return nil
}

// GetOrderByNumber reads an order by its number.
func (s *Store) GetOrderByNumber(ctx context.Context, db Querier, number string) (Order, error) {
	if !storable(number) {
		return Order{}, ErrNotFound
	}
	var o Order
	err := db.GetContext(ctx, &o, db.Rebind(`SELECT `+orderColumns+` FROM orders WHERE order_number = ?`), number)
	if err != nil {
		return Order{}, notFound("get order", err)
	}
	return o, nil
}

// OrderForResult reads the report order a result opened.
func (s *Store) OrderForResult(ctx context.Context, db Querier, resultID string) (Order, error) {
	var o Order
	err := db.GetContext(ctx, &o, db.Rebind(`SELECT `+orderColumns+` FROM orders WHERE result_id = ? AND kind = ?
		ORDER BY created_at LIMIT 1`), resultID, OrderReport)
	if err != nil {
		return Order{}, notFound("order for result", err)
	}
	return o, nil
}

// PackOrder returns the result's order of a pack, opening it when there is
// none: of two concurrent calls, both get the one order.
func (s *Store) PackOrder(ctx context.Context, db Querier, o Order) (Order, error) {
	o.Kind = OrderPack
	if _, err := db.NamedExecContext(ctx, `INSERT INTO orders (id, order_number, result_id, exam_id, kind, status, email, sku_id,
		created_at, updated_at) VALUES (:id, :order_number, :result_id, :exam_id, :kind, :status, :email, :sku_id, :created_at, :updated_at)
		ON CONFLICT (result_id, sku_id) WHERE kind = 'pack' DO NOTHING`, o); err != nil {
		return Order{}, fmt.Errorf("store: open pack order: %w", err)
	}
	var out Order
	err := db.GetContext(ctx, &out, db.Rebind(`SELECT `+orderColumns+` FROM orders WHERE result_id = ? AND sku_id = ? AND kind = ?`),
		o.ResultID, o.SKUID, OrderPack)
	if err != nil {
		return Order{}, fmt.Errorf("store: read pack order: %w", err)
	}
	return out, nil
}

// PackOrders lists a result's pack orders, whatever their status.
func (s *Store) PackOrders(ctx context.Context, db Querier, resultID string) ([]Order, error) {
	var out []Order
	err := db.SelectContext(ctx, &out, db.Rebind(`SELECT `+orderColumns+` FROM orders WHERE result_id = ? AND kind = ?
		ORDER BY created_at`), resultID, OrderPack)
	if err != nil {
		return nil, fmt.Errorf("store: pack orders: %w", err)
	}
	return out, nil
}

// MoveOrder changes an order's status from one state to another, and only
// from that state: of two concurrent moves, one wins and the other reports
// false. Callers check that the move is allowed (order.CanMove).
func (s *Store) MoveOrder(ctx context.Context, db Querier, id, from, to string, now time.Time) (bool, error) {
	res, err := db.ExecContext(ctx, db.Rebind(`UPDATE orders SET status = ?, updated_at = ? WHERE id = ? AND status = ?`),
		to, now.UTC(), id, from)
	if err != nil {
		return false, fmt.Errorf("store: move order %s %s->%s: %w", id, from, to, err)
	}
	n, err := res.RowsAffected()
	return n == 1, err
}
