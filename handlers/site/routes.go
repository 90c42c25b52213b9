package site

import (
	"net/http"

	"github.com/labstack/echo/v4"

	"selfmap/handlers/httpx"
	"selfmap/internal/assets"
	"selfmap/internal/islands"
)

// routes lists every screen: the HTML pages, their forms and the
// platform's files. Paths are declared without their locale prefix: the
// platform middleware strips /fr, /ja, ... before routing. {code}-{examId}
// is the :pair parameter, validated by RequirePair.
func (s *Server) routes(e *echo.Echo, l httpx.RouteLimits) {
	get := func(path string, h echo.HandlerFunc, m ...echo.MiddlewareFunc) {
		e.Match([]string{http.MethodGet, http.MethodHead}, path, h, m...)
	}

	// Platform
	get("/healthz", s.Healthz)
	if s.PublicMetrics() {
		// In prod /metrics is on METRICS_ADDR, or here behind METRICS_TOKEN.
		get("/metrics", s.MetricsEndpoint())
	}
	get("/robots.txt", s.robots)
	get("/sitemap.xml", s.sitemap)
	get(assets.Prefix+"*", echo.WrapHandler(s.Assets))
	get(islands.Prefix+"*", echo.WrapHandler(s.Islands.Handler()))
	get("/favicon.ico", s.favicon)
	get("/og/type/:file", s.socialCard)

	// Landing and home
	get("/", s.home)
	get("/homepage/:pair", s.home, s.RequirePair)
	get("/landing/:name/:pair", s.landing, s.RequirePair)

	// Personality types, tests, help centre, support and legal documents
	get("/types", httpx.ToHomePair("/types"))
	get("/tests", httpx.ToHomePair("/tests"))
	get("/types/:pair", s.typesList, s.RequirePair)
	get("/types/:pair/:code", s.typePage, s.RequirePair)
	get("/tests/:pair", s.testsList, s.RequirePair)
	get("/help/:pair", s.help, s.RequirePair)
	get("/helpDetail/:pair", s.helpDetail, s.RequirePair)
	get("/support/:pair", s.supportPage, s.RequirePair)
	e.POST("/support/:pair", s.supportPost, l.Contact, s.RequirePair)
	get("/legal/:doc/:pair", s.legal, s.RequirePair)

	// Test flow
	get("/answer/question/:pair", s.quiz, s.RequirePair)
	get("/quiz/standard/:pair", s.quiz, s.RequirePair)
	get("/answer/submit/:pair", s.answerSubmitted, s.RequirePair)
	get("/quiz/submit/:pair", s.answerSubmitted, s.RequirePair)
	get("/answer/email/:pair", s.answerEmail, s.RequirePair)
	e.POST("/answer/email/:pair", s.answerEmailPost, s.RequirePair, l.Write)
	get("/report/result-free-test/:pair", s.resultFree, s.RequirePair)
	get("/report/result/:pair", s.reportResult, s.RequirePair)
	get("/report/result-download/:pair", s.reportDownload, s.RequirePair)
	e.POST("/report/rating/:pair", s.reportRating, s.RequirePair, l.Write)

	// Report retrieval by e-mail
	get("/report/retrieve/:pair", s.retrievePage, s.RequirePair)
	e.POST("/report/retrieve/:pair", s.retrievePost, s.RequirePair, l.Retrieve)

	// Subscription cancel by e-mail
	get("/cancel/subscription/:pair", s.cancelPage, s.RequirePair)
	e.POST("/cancel/subscription/:pair", s.cancelPost, s.RequirePair, l.Cancel)
	get("/cancel/confirm/:pair", s.cancelConfirmPage, s.RequirePair)
	e.POST("/cancel/confirm/:pair", s.cancelConfirmPost, s.RequirePair, l.Write)
	e.POST("/cancel/resend/:pair", s.cancelResend, s.RequirePair, l.Cancel)
	get("/cancel/success/:pair", s.cancelSuccess, s.RequirePair)

	// Checkout
	get("/paying/buyreport/:pair", s.payingBuy, s.RequirePair)
	get("/paying/payment/:pair", s.payingPayment, s.RequirePair)
	get("/paying/paypage/:pair", s.payingPayment, s.RequirePair)
	get("/paying/check/:pair", s.payingCheck, s.RequirePair)
	get("/paying/success/:pair", s.payingSuccess, s.RequirePair)
	get("/paying/failed/:pair", s.payingFailed, s.RequirePair)
	get("/paying/package/:pair", s.payingPackage, s.RequirePair)
	get("/pay/sandbox/3ds/:attemptId", s.sandbox3DS)
	e.POST("/pay/sandbox/3ds/:attemptId", s.sandbox3DSPost, l.Write)

	// Subscriptions (docs/subscriptions.md, "The screens")
	get("/paying/scheme/:pair", s.payingScheme, s.RequirePair)
	get("/paying/premiumSubscriptions/:pair", s.payingSubscribe, s.RequirePair, s.requireSubscriber)
	e.POST("/paying/premiumSubscriptions/:pair", s.payingSubscribePost, s.RequirePair, l.Write, s.requireSubscriber)
	get("/paying/subscribe/check/:pair", s.payingSubscribeCheck, s.RequirePair, s.requireSubscriber)
	e.POST("/paying/subscribe/abandon/:pair", s.payingSubscribeAbandon, s.RequirePair, l.Write, s.requireSubscriber)
	get("/paying/upgrade/:pair", s.payingUpgrade, s.RequirePair, s.requireSubscriber)
	e.POST("/paying/upgrade/:pair", s.payingUpgradePost, s.RequirePair, l.Write, s.requireSubscriber)
	get("/payinsider/:pair", s.payingUpgrade, s.RequirePair, s.requireSubscriber)
	e.POST("/payinsider/:pair", s.payingUpgradePost, s.RequirePair, l.Write, s.requireSubscriber)

	// Accounts
	get("/user/register", s.userRegister)
	e.POST("/user/register", s.userRegisterPost, l.Auth)
	get("/user/login", s.userLogin)
	e.POST("/user/login", s.userLoginPost, l.Auth)
	e.POST("/user/logout", s.userLogout, l.Write)
	get("/user/verify", s.userVerify, s.RequireUser)
	e.POST("/user/verify", s.userVerifyPost, l.Auth, s.RequireUser)
	e.POST("/user/verify/resend", s.userVerifyResend, l.Auth, s.RequireUser)
	get("/user/forgot-password", s.userForgot)
	e.POST("/user/forgot-password", s.userForgotPost, l.Auth)
	e.POST("/user/reset-password", s.userResetPost, l.Auth)
	get("/user/edit-password", s.userEditPassword, s.RequireUser)
	e.POST("/user/edit-password", s.userEditPasswordPost, l.Auth, s.RequireUser)
	get("/user/info", s.userInfo, s.RequireUser)
	get("/userCenter/setting/userInfo", s.userInfo, s.RequireUser)
	e.POST("/user/info", s.userInfoPost, l.Write, s.RequireUser)
	get("/user/avatar", s.userAvatar, s.RequireUser)
	e.POST("/user/avatar", s.userAvatarPost, l.Write, s.RequireUser)
	get("/user/setting", s.userSetting, s.RequireUser)
	get("/user/setting/export", s.userExport, s.RequireUser)
	e.POST("/user/setting/delete", s.userDeletePost, l.Auth, s.RequireUser)

	// User centre
	get("/userCenter", s.userCenterHome, s.RequireUser)
	get("/userCenter/home", s.userCenterHome, s.RequireUser)
	get("/userCenter/reportList", s.userCenterReports, s.RequireUser)
	get("/userCenter/rightsInterests", s.userCenterRights, s.RequireUser)
	get("/userCenter/resultReport", s.userResultReport, s.RequireUser)
	get("/userCenter/exploreMore/testCenter", s.testCenter, s.RequireUser)
	get("/userCenter/exploreMore/testCenter/list", s.testCenterList, s.RequireUser)
	get("/userCenter/notification", s.userNotification, s.RequireUser)
	get("/userCenter/notification/detail", s.userNotificationDetail, s.RequireUser)
	get("/userCenter/setting", s.userSetting, s.RequireUser)
	get("/userCenter/user-info", s.userInfo, s.RequireUser)
	get("/userCenter/cancel", s.userCancelPage, s.RequireUser)
	e.POST("/userCenter/cancel", s.userCancelPost, l.Write, s.RequireUser)
	e.POST("/userCenter/reportLinks/revoke", s.userRevokeReportLinks, l.Write, s.RequireUser)
	e.POST("/userCenter/reportList/unlock", s.userUnlockReport, l.Write, s.RequireUser)

	// Billing (the member's plan, card, receipts, address and name)
	get("/userCenter/setting/billing", s.userBilling, s.RequireUser)
	get("/userCenter/setting/billing/receipt/:id", s.userReceipt, s.RequireUser)
	get("/userCenter/setting/billing/receipt/:id/pdf", s.userReceiptPDF, l.Write, s.RequireUser) // printing runs Chromium: limited like a write
	e.POST("/userCenter/setting/billing/resume", s.userBillingResume, l.Write, s.RequireUser)
	e.POST("/userCenter/setting/billing/card", s.userBillingCard, l.Write, s.RequireUser)
	e.POST("/userCenter/setting/billing/card/setup", s.userBillingCardSetup, l.Write, s.RequireUser)
	e.POST("/userCenter/setting/billing/card/stripe", s.userBillingCardStripe, l.Write, s.RequireUser)
	e.POST("/userCenter/setting/billing/email", s.userBillingEmail, l.Auth, s.RequireUser)
	e.POST("/userCenter/setting/billing/email/confirm", s.userBillingEmailConfirm, l.Auth, s.RequireUser)
	e.POST("/userCenter/setting/billing/name", s.userBillingName, l.Write, s.RequireUser)

	// Development only
	get("/dev/mail", s.devMail)
	get("/dev/mail/:id/html", s.devMailHTML)

	// Consent
	e.POST("/consent", s.consentForm, l.Write)

	// Legacy aliases: 301 to their targets, query kept
	for _, a := range httpx.LegacyAliases {
		get(a.From+"/:pair", httpx.RedirectAlias(a.To), s.RequirePair)
	}
}

// favicon sends browsers that ask for /favicon.ico to the theme's icon.
func (s *Server) favicon(c echo.Context) error {
	return c.Redirect(http.StatusMovedPermanently, s.Themes.Default().IconURL)
}
