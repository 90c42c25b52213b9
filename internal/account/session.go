package account

import (
	"context"
	"errors"
	"fmt"
	"time"

	"selfmap/internal/apperr"
)

// SessionIdle is how long a session lasts unused: a session that has not
// been used for that long signs nobody in, wherever its cookie was copied
// to. SessionTouch is how often a session in use has its last use written
// back: often enough for the limit, seldom enough that the handlers do not
// send a new cookie with every page.
const (
	SessionIdle  = 30 * 24 * time.Hour
	SessionTouch = time.Hour
)

// ErrSessionEnded is returned for a session that no longer signs anyone
// in; whoever keeps the session drops the user from it.
var ErrSessionEnded = errors.New("account: session ended")

// Session is what a browser's session says about who is signed in: the
// user, the session generation it was made in, and when it was last used
// (zero when the session does not say). Where it is kept (a cookie) is the
// handlers' business; whether it still signs in is this package's.
type Session struct {
	UserID string
	Gen    int64
	SeenAt time.Time
}

// NewSession is the session that signs u in from now.
func (s *Service) NewSession(u User) Session {
	return Session{UserID: u.ID, Gen: u.SessionGen, SeenAt: s.Now()}
}

// SessionUser is the user a session signs in, with the session as it is to
// be kept: a new SeenAt when its last use is due to be written back. A
// session of an older generation (the password changed or the user logged
// out since), of a deleted account or unused for SessionIdle ends
// (ErrSessionEnded). A session that does not say when it was last used
// (made before that was kept) counts from now: its cookie is at most 30
// days old, the cookie codec's own limit.
func (s *Service) SessionUser(ctx context.Context, sess Session) (User, Session, error) {
	now := s.Now()
	known := !sess.SeenAt.IsZero()
	if known && now.Sub(sess.SeenAt) > SessionIdle {
		return User{}, sess, ErrSessionEnded
	}
	u, err := s.Store.GetUser(ctx, s.Store.DB, sess.UserID)
	if errors.Is(err, apperr.ErrNotFound) {
		return User{}, sess, ErrSessionEnded
	}
	if err != nil {
		return User{}, sess, fmt.Errorf("account: session user: %w", err)
	}
	if u.SessionGen != sess.Gen {
		return User{}, sess, ErrSessionEnded
	}
	if !known || now.Sub(sess.SeenAt) > SessionTouch {
		sess.SeenAt = now
	}
	return u, sess, nil
}
