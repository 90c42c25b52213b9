package main

import (
	"context"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"time"

	"github.com/jmoiron/sqlx"

	"selfmap/internal/exam"
	"selfmap/internal/i18n"
	"selfmap/internal/ids"
	"selfmap/internal/store"
)

// demoCountries are where the demo test-takers say they live.
var demoCountries = []string{"US", "US", "US", "GB", "DE", "DE", "FR", "ES", "MX", "BR", "BR", "JP", "JP", "KR", "CN", "HK", "CA", "AU", "IT", "NL", ""}

// seedDemoResults adds a month of demo test results to a database that has
// none: most spread over 30 days, a few in the last 45 minutes (so activity
// notices show right after seeding), about a tenth paid, and accuracy
// ratings for half of them. The answers are random and scored for real.
func seedDemoResults(ctx context.Context, st *store.Store, now time.Time) (int, error) {
	n, err := st.CountResults(ctx, st.DB)
	if err != nil || n > 0 {
		return 0, err
	}
	reg, err := exam.LoadRegistry()
	if err != nil {
		return 0, err
	}
	e, ok := reg.Exam(exam.DefaultPair.ExamID)
	if !ok {
		return 0, fmt.Errorf("seed: exam %d is not served", exam.DefaultPair.ExamID)
	}
	rng := rand.New(rand.NewPCG(1807, 2026))
	const total = 240
	for i := range total {
		age := time.Duration(rng.Int64N(int64(30 * 24 * time.Hour)))
		if i < 8 {
			age = time.Duration(rng.Int64N(int64(44 * time.Minute)))
		}
		at := now.Add(-age).UTC().Truncate(time.Second)
		answers := make([]int, e.Instrument.ItemCount())
		for j := range answers {
			answers[j] = 1 + rng.IntN(5)
		}
		scored, err := e.Instrument.Score(answers, exam.Profile{})
		if err != nil {
			return i, err
		}
		a, _ := json.Marshal(answers)
		sc, _ := json.Marshal(scored.Detail)
		locale := i18n.Locales[rng.IntN(len(i18n.Locales))].Tag
		r := store.Result{ID: ids.New(), ExamID: e.ID, PageCode: exam.DefaultPair.Code, Locale: locale, Answers: string(a),
			ExamVersion: e.FullVersion(), ItemsVersion: scored.ItemsVersion, NormsVersion: scored.NormsVersion,
			NormGroup: scored.NormGroup, Scores: string(sc), ResultCode: scored.Code, DurationSeconds: 480 + rng.IntN(480),
			CreatedAt: at, UpdatedAt: at}
		o := store.Order{ID: ids.New(), OrderNumber: ids.OrderNumber(at) + fmt.Sprintf("%03d", i), ResultID: r.ID, ExamID: e.ID,
			Status: store.OrderCreated, CreatedAt: at, UpdatedAt: at}
		if err := st.InTx(ctx, func(tx *sqlx.Tx) error { return st.CreateResultWithOrder(ctx, tx, r, o) }); err != nil {
			return i, err
		}
		country := demoCountries[rng.IntN(len(demoCountries))]
		if country != "" {
			d := store.Details{FirstName: "Demo", LastName: "Demo", Country: country}
			if err := st.SetResultDetails(ctx, st.DB, r.ID, d, store.Rescored{NormGroup: r.NormGroup, Scores: r.Scores, ResultCode: r.ResultCode}, at); err != nil {
				return i, err
			}
		}
		if i%10 == 3 {
			if err := st.MarkDemoOrderPaid(ctx, st.DB, o.ID, country, at.Add(time.Minute)); err != nil {
				return i, err
			}
		}
		if i%2 == 0 {
			score := []int{3, 4, 4, 4, 5, 5, 5, 5, 2, 4}[rng.IntN(10)]
			if err := st.SaveRating(ctx, st.DB, r.ID, score, at.Add(2*time.Minute)); err != nil {
				return i, err
			}
		}
	}
	return total, nil
}

// demoReview is one demo review in one locale.
type demoReview struct {
	name, typeCode, location, content string
}

// demoReviews are the demo reviews per locale; their names say "demo" so
// nobody takes them for real people.
var demoReviews = map[string][]demoReview{
	"en": {
		{"Alex (demo)", "INFJ", "Leeds, UK", "The description of how I handle stress was uncomfortably accurate. Useful, too."},
		{"Sam (demo)", "ESTP", "Austin, USA", "Quick, clear and no fluff. The facet scores explained things my type alone didn't."},
		{"Jordan (demo)", "ISFJ", "Toronto, Canada", "I liked that it says what the test can't tell you. Felt honest."},
	},
	"zh-CN": {
		{"小林（演示）", "INTP", "上海", "五个维度的百分位讲得很清楚，比只看四个字母有用多了。"},
		{"王同学（演示）", "ENFJ", "成都", "十分钟左右就做完了，结果里关于人际关系的部分很准。"},
		{"阿杰（演示）", "ISTJ", "北京", "喜欢它坦白说明测试的局限，感觉很靠谱。"},
	},
	"zh-HK": {
		{"阿詠（示範）", "INFP", "香港", "結果對我處理壓力的描述好貼切，亦有實際建議。"},
		{"Kelvin（示範）", "ENTJ", "九龍", "題目簡單直接，十分鐘左右完成，報告清楚易明。"},
		{"美欣（示範）", "ESFJ", "新界", "欣賞佢講明唔係診斷，感覺好誠實。"},
	},
	"fr": {
		{"Camille (démo)", "ENFP", "Lyon", "La partie sur ma façon de gérer le stress m’a vraiment parlé. Clair et utile."},
		{"Hugo (démo)", "ISTP", "Nantes", "Rapide, sans blabla, et les 30 facettes expliquent bien les nuances."},
		{"Léa (démo)", "INFJ", "Bruxelles", "J’apprécie qu’on dise honnêtement ce que le test ne peut pas dire."},
	},
	"es": {
		{"Lucía (demo)", "ESFP", "Sevilla", "Me sorprendió lo bien que describe cómo me relaciono con los demás."},
		{"Mateo (demo)", "INTJ", "Ciudad de México", "Rápido y claro. Los percentiles ayudan a entender el resultado."},
		{"Valentina (demo)", "ISFJ", "Bogotá", "Me gustó que explique los límites del test. Se siente honesto."},
	},
	"ja": {
		{"さくら（デモ）", "INFP", "東京", "ストレスへの向き合い方の説明がとても当たっていて驚きました。"},
		{"ケンタ（デモ）", "ESTJ", "大阪", "10分ほどで終わり、結果もわかりやすかったです。"},
		{"ユイ（デモ）", "ISFP", "福岡", "診断ではないとはっきり書いてあるのが誠実だと思いました。"},
	},
	"de": {
		{"Lena (Demo)", "INTJ", "Hamburg", "Erstaunlich treffend, wie ich mit Stress umgehe. Und dabei sachlich."},
		{"Jonas (Demo)", "ENFP", "Wien", "Schnell gemacht, klar erklärt. Die 30 Facetten sind richtig aufschlussreich."},
		{"Mia (Demo)", "ISTJ", "Zürich", "Gut, dass offen gesagt wird, was der Test nicht leisten kann."},
	},
	"pt": {
		{"Ana (demo)", "ENFJ", "São Paulo", "A parte sobre relacionamentos me descreveu muito bem. Recomendo!"},
		{"Pedro (demo)", "ISTP", "Recife", "Rápido e direto. Os percentis ajudam a entender cada dimensão."},
		{"Júlia (demo)", "INFP", "Porto Alegre", "Gostei da honestidade sobre os limites do teste."},
	},
	"ko": {
		{"지민 (데모)", "ENFP", "서울", "스트레스를 다루는 방식에 대한 설명이 정말 정확했어요."},
		{"현우 (데모)", "INTJ", "부산", "10분 정도면 끝나고 결과도 이해하기 쉬웠어요."},
		{"서연 (데모)", "ISFJ", "대구", "진단이 아니라고 분명히 말해 줘서 믿음이 갔어요."},
	},
}

// seedDemoReviews adds (or refreshes) the approved demo reviews of every
// locale, under fixed ids.
func seedDemoReviews(ctx context.Context, st *store.Store, now time.Time) (int, error) {
	n := 0
	for locale, list := range demoReviews {
		for i, r := range list {
			err := st.SaveReview(ctx, st.DB, store.Review{
				ID: fmt.Sprintf("demo-%s-%d", locale, i+1), Name: r.name, TypeCode: r.typeCode, Content: r.content,
				Location: r.location, Locale: locale, Approved: true, CreatedAt: now.Add(-time.Duration(3+i*9) * 24 * time.Hour),
			})
			if err != nil {
				return n, err
			}
			n++
		}
	}
	return n, nil
}
