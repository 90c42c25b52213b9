package handlers_test

import (
	"context"
	"encoding/json"
	"net/http"
	"strconv"
	"strings"
	"testing"
	"time"

	"selfmap/app/apptest"
	"selfmap/internal/ids"
	"selfmap/internal/notice"
	"selfmap/internal/store"
)

func noticeID(t *testing.T, s *store.Store, slug string) string {
	t.Helper()
	var id string
	if err := s.DB.GetContext(context.Background(), &id, s.DB.Rebind(`SELECT id FROM notices WHERE slug = ?`), slug); err != nil {
		t.Fatalf("notice %s: %v", slug, err)
	}
	return id
}

// addNotice stores a notice, saved at the kit's time.
func addNotice(t *testing.T, k *apptest.Kit, slug, audience, title string, published *time.Time) string {
	t.Helper()
	id, err := k.Store.SaveNotice(context.Background(), k.Store.DB, ids.New(), slug, audience, published,
		[]store.NoticeText{{Locale: "en", Title: title, Body: "Body of " + title + "."}}, k.Clock.Now())
	if err != nil {
		t.Fatal(err)
	}
	return id
}

// The notices: the shipped ones listed newest first, searched, opened and
// marked read; drafts, future and unknown ids answer like missing pages;
// a premium notice is listed locked and sends a free account to the plans
// and a basic subscriber to the upgrade; read state is per user.
func TestNotifications(t *testing.T) {
	apptest.Each(t, func(t *testing.T, k *apptest.Kit) {
		ctx := context.Background()
		s, e := k.Store, k.Handler
		if n, err := notice.Sync(ctx, s, k.Clock.Now()); err != nil || n != 4 {
			t.Fatalf("sync: %d %v", n, err)
		}
		// Synced again, nothing is duplicated.
		if _, err := notice.Sync(ctx, s, k.Clock.Now()); err != nil {
			t.Fatal(err)
		}
		later := k.Clock.Now().Add(48 * time.Hour)
		draft := addNotice(t, k, "draft", "all", "Draft notice", nil)
		future := addNotice(t, k, "future", "all", "Future notice", &later)
		welcome, premium := noticeID(t, s, "welcome"), noticeID(t, s, "premium-support")

		b := newBrowser(t, e)
		if rec := b.Get("/userCenter/notification"); rec.Code != http.StatusSeeOther || rec.Header().Get("Location") != "/user/login?next=%2FuserCenter%2Fnotification" {
			t.Fatalf("a visitor opened the notices: %d", rec.Code)
		}
		b.register("nia@example.com")
		b.Expect("/userCenter", http.StatusOK, `data-testid="uc-unread">3 unread`, "We updated our privacy policy")

		list := b.Expect("/userCenter/notification", http.StatusOK, "Welcome to your Selfmap account", "How subscriptions renew and how to cancel",
			"We updated our privacy policy", "Premium: your priority support line", "For Premium members. Upgrade to read it.").Body.String()
		for _, hidden := range []string{"Draft notice", "Future notice", "As a Premium member"} {
			if strings.Contains(list, hidden) {
				t.Errorf("the list shows %q", hidden)
			}
		}
		if strings.Index(list, "Premium: your priority") > strings.Index(list, "Welcome to your Selfmap") {
			t.Error("the list is not newest first")
		}

		found := b.Expect("/userCenter/notification?q=PRIVACY", http.StatusOK, "We updated our privacy policy").Body.String()
		if strings.Contains(found, "Welcome to your Selfmap account") {
			t.Error("the search kept a notice without the words")
		}
		// Words only in a locked notice's body find nothing: a search must
		// not spell out a text its reader may not open. Its title is found.
		b.Expect("/userCenter/notification?q=front+of+the+queue", http.StatusOK, `data-testid="notice-empty"`)
		b.Expect("/userCenter/notification?q=priority+support", http.StatusOK, "Premium: your priority support line")
		if rec := b.Get("/api/cms/notices?q=front+of+the+queue"); rec.Code != http.StatusOK || strings.Contains(rec.Body.String(), "priority") {
			t.Errorf("the notices call found a locked notice by its body: %d %s", rec.Code, rec.Body.String())
		}
		b.Expect("/userCenter/notification?q=100%25", http.StatusOK, `data-testid="notice-empty"`, "No notice matches")
		b.Expect("/userCenter/notification?q="+strings.Repeat("a", 101), http.StatusUnprocessableEntity, "Please use at most 100 characters.",
			`aria-invalid="true"`)
		b.Expect("/userCenter/notification?page=abc", http.StatusBadRequest)
		b.Expect("/userCenter/notification?page=3", http.StatusNotFound)

		b.Expect("/userCenter/notification/detail?id="+welcome, http.StatusOK, "Your account keeps every report", `href="/userCenter/reportList"`,
			`href="/help/BMBTI-1807"`)
		b.Expect("/userCenter", http.StatusOK, `data-testid="uc-unread">2 unread`)
		b.Expect("/userCenter/notification/detail?id="+welcome, http.StatusOK)
		b.Expect("/userCenter", http.StatusOK, `data-testid="uc-unread">2 unread`)
		for _, id := range []string{draft, future, ids.New(), ""} {
			b.Expect("/userCenter/notification/detail?id="+id, http.StatusNotFound)
		}

		rec := b.Get("/userCenter/notification/detail?id=" + premium)
		if rec.Code != http.StatusSeeOther || rec.Header().Get("Location") != "/paying/scheme/BMBTI-1807" {
			t.Fatalf("a free account opened a premium notice: %d %s", rec.Code, rec.Header().Get("Location"))
		}
		id := userID(t, s, "nia@example.com")
		sub := k.ActiveSubscription(t, id, "basic-weekly")
		rec = b.Get("/userCenter/notification/detail?id=" + premium)
		if rec.Code != http.StatusSeeOther || rec.Header().Get("Location") != "/paying/upgrade/BMBTI-1807" {
			t.Fatalf("a basic subscriber opened a premium notice: %d %s", rec.Code, rec.Header().Get("Location"))
		}
		b.Expect("/userCenter", http.StatusOK, "This is part of a higher plan.")
		k.Clock.Add(time.Minute)
		if _, err := k.App.Subscriptions.Upgrade(ctx, id, sub.ID, "premium-monthly"); err != nil {
			t.Fatal(err)
		}
		b.Expect("/userCenter", http.StatusOK, `data-testid="uc-unread">3 unread`)
		b.Expect("/userCenter/notification/detail?id="+premium, http.StatusOK, "As a Premium member")

		b.Expect("/fr/userCenter/notification", http.StatusOK, "Nous avons mis à jour notre politique de confidentialité")
		b.Expect("/ja/userCenter/notification/detail?id="+welcome, http.StatusOK, "Selfmapアカウントへようこそ", `href="/ja/userCenter/reportList"`)

		// Another user has read nothing.
		c := newBrowser(t, e)
		c.register("oto@example.com")
		c.Expect("/userCenter", http.StatusOK, `data-testid="uc-unread">3 unread`)

		// The call: a visitor sees the notices for all, without read state.
		var out struct {
			Result int
			Data   struct {
				List []struct {
					ID, Audience, Body string
					Read, Locked       bool
				}
				TotalCount, TotalPages, CurrentPage int
			}
		}
		anon := newBrowser(t, e)
		if err := json.Unmarshal(anon.Get("/api/cms/notices").Body.Bytes(), &out); err != nil || out.Result != 200 || out.Data.TotalCount != 3 {
			t.Fatalf("visitor's notices: %v %+v", err, out)
		}
		for _, n := range out.Data.List {
			if n.Audience != "all" || n.Read || n.Body == "" {
				t.Errorf("visitor's notice: %+v", n)
			}
		}
		if err := json.Unmarshal(b.Get("/api/cms/notices").Body.Bytes(), &out); err != nil || out.Data.TotalCount != 4 {
			t.Fatalf("premium user's notices: %v %+v", err, out)
		}
		read := 0
		for _, n := range out.Data.List {
			if n.Read {
				read++
				if n.ID != welcome && n.ID != premium {
					t.Errorf("unopened notice read: %+v", n)
				}
			}
		}
		if read != 2 {
			t.Errorf("%d notices read, want 2", read)
		}

		// Pages of ten, the search kept in the links.
		past := k.Clock.Now().Add(-time.Hour)
		for i := 0; i < 9; i++ {
			addNotice(t, k, "extra-"+strconv.Itoa(i), "all", "Maintenance window "+strconv.Itoa(i), &past)
		}
		b.Expect("/userCenter/notification", http.StatusOK, "Page 1 of 2 (13 in all)", `href="/userCenter/notification?page=2"`)
		b.Expect("/userCenter/notification?page=2", http.StatusOK, "Page 2 of 2", `href="/userCenter/notification"`, "Welcome to your Selfmap account")
		if one := b.Expect("/userCenter/notification?q=maintenance", http.StatusOK, "Maintenance window 0", "Maintenance window 8").Body.String(); strings.Contains(one, "notice-pager") {
			t.Error("one page of results has a pager")
		}
		for i := 9; i < 11; i++ {
			addNotice(t, k, "extra-"+strconv.Itoa(i), "all", "Maintenance window "+strconv.Itoa(i), &past)
		}
		b.Expect("/userCenter/notification?q=maintenance", http.StatusOK, "Page 1 of 2 (11 in all)", `href="/userCenter/notification?q=maintenance&amp;page=2"`)
	})
}
