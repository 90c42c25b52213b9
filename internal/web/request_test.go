package web_test

import (
	"strings"
	"testing"

	"selfmap/internal/exam"
	"selfmap/internal/i18n"
	"selfmap/internal/theme"
	"selfmap/internal/web"
)

// Links keep only the tracking parameters, in the order they came: never a
// report link's token, an e-mail address, a result id or anything else.
// A redirect to another address of the same page keeps the whole query.
func TestLinksKeepOnlyTheTrackingParameters(t *testing.T) {
	fr, _ := i18n.ByTag("fr")
	r := &web.Request{Locale: fr, Path: "/report/result/BMBTI-1807", Home: exam.DefaultPair, Theme: &theme.Theme{Name: "relax"},
		Query: "t=secret&gclid=g1&email=ana%40example.com&hl=FR&r=abc&fbclid=f%26b&token=x&gclid=again&ttclid=&theme=relax"}
	for _, tc := range []struct{ name, got, want string }{
		{"a link", r.WithTracking("/fr/types/BMBTI-1807"), "/fr/types/BMBTI-1807?gclid=g1&hl=FR&fbclid=f%26b&theme=relax"},
		{"go back home", r.HomePath(), "/fr/landing/relax/BMBTI-1807?gclid=g1&hl=FR&fbclid=f%26b&theme=relax"},
		{"another language", r.SwitchLocaleURL(i18n.Default), "/report/result/BMBTI-1807?gclid=g1&fbclid=f%26b&theme=relax&hl=EN"},
		{"a link built elsewhere", web.TrackingLink("/answer/question/BMBTI-1807?" + r.Query), "/answer/question/BMBTI-1807?gclid=g1&hl=FR&fbclid=f%26b&theme=relax"},
		{"a link without a query", web.TrackingLink("/help/BMBTI-1807"), "/help/BMBTI-1807"},
		{"a link with nothing to keep", web.TrackingLink("/x?t=secret&email=a"), "/x"},
		{"the same page elsewhere", r.WithQuery("/report/result/BMBTI-1807"), "/report/result/BMBTI-1807?" + r.Query},
	} {
		if tc.got != tc.want {
			t.Errorf("%s: %q, want %q", tc.name, tc.got, tc.want)
		}
	}
	long := &web.Request{Locale: i18n.Default, Path: "/", Query: "gclid=" + strings.Repeat("a", 201) + "&logid=%zz&fbclid=ok"}
	if got := long.WithTracking("/"); got != "/?fbclid=ok" {
		t.Errorf("an over-long or malformed value is kept: %q", got)
	}
	plain := &web.Request{Locale: i18n.Default, Path: "/", Query: "t=secret"}
	if got := plain.HomePath(); got != "/" {
		t.Errorf("home of a page opened by a token: %q", got)
	}
}
