package handlers

import (
	"net/http"

	"github.com/labstack/echo/v4"

	"selfmap/internal/assets"
	"selfmap/internal/islands"
)

// siteRoutes lists every screen: the HTML pages, their forms and the
// platform's files. Paths are declared without their locale prefix: the
// platform middleware strips /fr, /ja, ... before routing. {code}-{examId}
// is the :pair parameter, validated by requirePair.
func (s *Server) siteRoutes(e *echo.Echo, l routeLimits) {
	get := func(path string, h echo.HandlerFunc, m ...echo.MiddlewareFunc) {
		e.Match([]string{http.MethodGet, http.MethodHead}, path, h, m...)
	}

	// Platform
	get("/healthz", s.healthz)
	if s.publicMetrics() {
		// In prod /metrics is on METRICS_ADDR, or here behind METRICS_TOKEN.
		get("/metrics", s.metricsEndpoint())
	}
	get("/robots.txt", s.robots)
	get("/sitemap.xml", s.sitemap)
	get(assets.Prefix+"*", echo.WrapHandler(s.Assets))
	get(islands.Prefix+"*", echo.WrapHandler(s.Islands.Handler()))
	get("/favicon.ico", s.favicon)
	get("/og/type/:file", s.socialCard)

	// Landing and home
	get("/", s.home)
	get("/homepage/:pair", s.home, s.requirePair)
	get("/landing/:name/:pair", s.landing, s.requirePair)

	// Personality types, tests, help centre, support and legal documents
	get("/types", toHomePair("/types"))
	get("/tests", toHomePair("/tests"))
	get("/types/:pair", s.typesList, s.requirePair)
	get("/types/:pair/:code", s.typePage, s.requirePair)
	get("/tests/:pair", s.testsList, s.requirePair)
	get("/help/:pair", s.help, s.requirePair)
	get("/helpDetail/:pair", s.helpDetail, s.requirePair)
	get("/support/:pair", s.supportPage, s.requirePair)
	e.POST("/support/:pair", s.supportPost, l.contact, s.requirePair)
	get("/legal/:doc/:pair", s.legal, s.requirePair)

	// Test flow
	get("/answer/question/:pair", s.quiz, s.requirePair)
	get("/quiz/standard/:pair", s.quiz, s.requirePair)
	get("/answer/submit/:pair", s.answerSubmitted, s.requirePair)
	get("/quiz/submit/:pair", s.answerSubmitted, s.requirePair)
	get("/answer/email/:pair", s.answerEmail, s.requirePair)
	e.POST("/answer/email/:pair", s.answerEmailPost, s.requirePair, l.write)
	get("/report/result-free-test/:pair", s.resultFree, s.requirePair)
	get("/report/result/:pair", s.reportResult, s.requirePair)
	get("/report/result-download/:pair", s.reportDownload, s.requirePair)
	e.POST("/report/rating/:pair", s.reportRating, s.requirePair, l.write)

	// Report retrieval by e-mail
	get("/report/retrieve/:pair", s.retrievePage, s.requirePair)
	e.POST("/report/retrieve/:pair", s.retrievePost, s.requirePair, l.retrieve)

	// Subscription cancel by e-mail
	get("/cancel/subscription/:pair", s.cancelPage, s.requirePair)
	e.POST("/cancel/subscription/:pair", s.cancelPost, s.requirePair, l.cancel)
	get("/cancel/confirm/:pair", s.cancelConfirmPage, s.requirePair)
	e.POST("/cancel/confirm/:pair", s.cancelConfirmPost, s.requirePair, l.write)
	get("/cancel/success/:pair", s.cancelSuccess, s.requirePair)

	// Checkout
	get("/paying/buyreport/:pair", s.payingBuy, s.requirePair)
	get("/paying/payment/:pair", s.payingPayment, s.requirePair)
	get("/paying/paypage/:pair", s.payingPayment, s.requirePair)
	get("/paying/check/:pair", s.payingCheck, s.requirePair)
	get("/paying/success/:pair", s.payingSuccess, s.requirePair)
	get("/paying/failed/:pair", s.payingFailed, s.requirePair)
	get("/paying/package/:pair", s.payingPackage, s.requirePair)
	get("/pay/sandbox/3ds/:attemptId", s.sandbox3DS)
	e.POST("/pay/sandbox/3ds/:attemptId", s.sandbox3DSPost, l.write)

	// Subscriptions (docs/subscriptions.md, "The screens")
	get("/paying/scheme/:pair", s.payingScheme, s.requirePair)
	get("/paying/premiumSubscriptions/:pair", s.payingSubscribe, s.requirePair, s.requireSubscriber)
	e.POST("/paying/premiumSubscriptions/:pair", s.payingSubscribePost, s.requirePair, l.write, s.requireSubscriber)
	get("/paying/subscribe/check/:pair", s.payingSubscribeCheck, s.requirePair, s.requireSubscriber)
	e.POST("/paying/subscribe/abandon/:pair", s.payingSubscribeAbandon, s.requirePair, l.write, s.requireSubscriber)
	get("/paying/upgrade/:pair", s.payingUpgrade, s.requirePair, s.requireSubscriber)
	e.POST("/paying/upgrade/:pair", s.payingUpgradePost, s.requirePair, l.write, s.requireSubscriber)
	get("/payinsider/:pair", s.payingUpgrade, s.requirePair, s.requireSubscriber)
	e.POST("/payinsider/:pair", s.payingUpgradePost, s.requirePair, l.write, s.requireSubscriber)

	// Accounts
	get("/user/register", s.userRegister)
	e.POST("/user/register", s.userRegisterPost, l.auth)
	get("/user/login", s.userLogin)
	e.POST("/user/login", s.userLoginPost, l.auth)
	e.POST("/user/logout", s.userLogout, l.write)
	get("/user/verify", s.userVerify, s.requireUser)
	e.POST("/user/verify", s.userVerifyPost, l.auth, s.requireUser)
	e.POST("/user/verify/resend", s.userVerifyResend, l.auth, s.requireUser)
	get("/user/forgot-password", s.userForgot)
	e.POST("/user/forgot-password", s.userForgotPost, l.auth)
	e.POST("/user/reset-password", s.userResetPost, l.auth)
	get("/user/edit-password", s.userEditPassword, s.requireUser)
	e.POST("/user/edit-password", s.userEditPasswordPost, l.auth, s.requireUser)
	get("/user/info", s.userInfo, s.requireUser)
	get("/userCenter/setting/userInfo", s.userInfo, s.requireUser)
	e.POST("/user/info", s.userInfoPost, l.write, s.requireUser)
	get("/user/avatar", s.userAvatar, s.requireUser)
	e.POST("/user/avatar", s.userAvatarPost, l.write, s.requireUser)
	get("/user/setting", s.userSetting, s.requireUser)
	get("/user/setting/export", s.userExport, s.requireUser)
	e.POST("/user/setting/delete", s.userDeletePost, l.auth, s.requireUser)

	// User centre
	get("/userCenter", s.userCenterHome, s.requireUser)
	get("/userCenter/home", s.userCenterHome, s.requireUser)
	get("/userCenter/reportList", s.userCenterReports, s.requireUser)
	get("/userCenter/rightsInterests", s.userCenterRights, s.requireUser)
	get("/userCenter/resultReport", s.userResultReport, s.requireUser)
	get("/userCenter/notification", s.userNotification, s.requireUser)
	get("/userCenter/notification/detail", s.userNotificationDetail, s.requireUser)
	get("/userCenter/setting", s.userSetting, s.requireUser)
	get("/userCenter/user-info", s.userInfo, s.requireUser)
	get("/userCenter/cancel", s.userCancelPage, s.requireUser)
	e.POST("/userCenter/cancel", s.userCancelPost, l.write, s.requireUser)
	e.POST("/userCenter/reportLinks/revoke", s.userRevokeReportLinks, l.write, s.requireUser)

	// Development only
	get("/dev/mail", s.devMail)
	get("/dev/mail/:id/html", s.devMailHTML)

	// Consent
	e.POST("/consent", s.consentForm, l.write)

	// Legacy aliases: 301 to their targets, query kept
	for _, a := range legacyAliases {
		get(a.From+"/:pair", redirectAlias(a.To), s.requirePair)
	}
}

// favicon sends browsers that ask for /favicon.ico to the theme's icon.
func (s *Server) favicon(c echo.Context) error {
	return c.Redirect(http.StatusMovedPermanently, s.Themes.Default().IconURL)
}
