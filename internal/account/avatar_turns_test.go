package account

import (
	"bytes"
	"context"
	"errors"
	"image"
	"image/png"
	"testing"
	"time"

	"selfmap/internal/store"
	"selfmap/internal/store/storetest"
)

// At most two pictures are decoded at once: with both turns taken an upload
// waits, and gives up when its request ends; a picture of 16 bits a
// channel, which weighs as much as two, waits for both turns.
func TestAvatarDecodingTurns(t *testing.T) {
	storetest.Each(t, func(t *testing.T, s *store.Store) {
		ctx := context.Background()
		svc := &Service{Store: s, Now: time.Now}
		u := store.User{ID: "u-turns", Email: "turns@example.com", Name: "T", PasswordHash: "x", SessionGen: 1, CreatedAt: time.Now(), UpdatedAt: time.Now()}
		if err := s.CreateUser(ctx, s.DB, u); err != nil {
			t.Fatal(err)
		}
		encode := func(img image.Image) []byte {
			var b bytes.Buffer
			if err := png.Encode(&b, img); err != nil {
				t.Fatal(err)
			}
			return b.Bytes()
		}
		plain, deep := encode(image.NewNRGBA(image.Rect(0, 0, 8, 8))), encode(image.NewNRGBA64(image.Rect(0, 0, 8, 8)))
		waits := func(data []byte) bool {
			t.Helper()
			short, cancel := context.WithTimeout(ctx, 50*time.Millisecond)
			defer cancel()
			msg, err := svc.SetAvatar(short, u.ID, data)
			if (err != nil && !errors.Is(err, context.DeadlineExceeded)) || msg != "" {
				t.Fatalf("SetAvatar: %q %v", msg, err)
			}
			return err != nil
		}

		if err := takeTurns(ctx, 1); err != nil {
			t.Fatal(err)
		}
		if !waits(deep) {
			t.Error("a 16-bit picture was decoded while one turn was taken")
		}
		if waits(plain) {
			t.Error("an 8-bit picture waited with a turn free")
		}
		if err := takeTurns(ctx, 1); err != nil {
			t.Fatal(err)
		}
		if !waits(plain) {
			t.Error("a picture was decoded while both turns were taken")
		}
		giveTurns(2)
		if waits(deep) || waits(plain) {
			t.Error("a picture waited with both turns free")
		}
		if len(avatarTurns) != 0 || len(avatarPair) != 0 {
			t.Errorf("turns left taken: %d, pair %d", len(avatarTurns), len(avatarPair))
		}
	})
}
