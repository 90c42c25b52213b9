package handlers

import (
	"net/http"

	"github.com/labstack/echo/v4"

	"selfmap/internal/assets"
	"selfmap/internal/islands"
)

// routes lists every route of the service. Paths are declared without their
// locale prefix: the platform middleware strips /fr, /ja, ... before routing.
// {code}-{examId} is the :pair parameter, validated by requirePair.
func (s *Server) routes(e *echo.Echo) {
	get := func(path string, h echo.HandlerFunc, m ...echo.MiddlewareFunc) {
		e.Match([]string{http.MethodGet, http.MethodHead}, path, h, m...)
	}
	scale := s.Config.RateLimitScale
	// The security limits are shared by every instance (their buckets are
	// in the database); the API read limit is per instance: see "Rate
	// limits" in README.md. Writes fail open when the check cannot be made
	// (the write itself needs the database anyway); the limits that guard
	// passwords and mailboxes fail closed. The write limit, on the
	// checkout's hot path, is shared on PostgreSQL only: SQLite serves one
	// instance, where a bucket in the database shares nothing and its extra
	// write cost a third of the checkout's ceiling (docs/reliability.md).
	writeLimit := rateLimit(2*scale, int(20*scale))
	if s.Limits.Shared {
		writeLimit = s.sharedLimit("write", 2*scale, int(20*scale), failOpen)
	}
	apiLimit := rateLimit(20*scale, int(60*scale))
	// A person writes to support a few times, not every second.
	contactLimit := s.sharedLimit("contact", scale/60, int(5*scale), failClosed)
	// Retrieval mails a mailbox: a few tries, then one a minute per client
	// address, shared by the page and the API; the service also limits
	// each mailbox.
	retrieveLimit := s.sharedLimit("retrieve", scale/60, int(5*scale), failClosed)
	// Log-in and the mailed codes: a few tries, then one every twelve
	// seconds per client address; the account service also limits each
	// address typed (failed log-ins) and each mailbox (codes sent).
	// Cancel links are mailed like retrieval links.
	cancelLimit := s.sharedLimit("cancel", scale/60, int(5*scale), failClosed)
	authLimit := s.sharedLimit("auth", scale/12, int(10*scale), failClosed)

	// Platform
	get("/healthz", s.healthz)
	if s.publicMetrics() {
		// In prod /metrics is on METRICS_ADDR, or here behind METRICS_TOKEN.
		get("/metrics", s.metrics())
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
	e.POST("/support/:pair", s.supportPost, contactLimit, s.requirePair)
	get("/legal/:doc/:pair", s.legal, s.requirePair)

	// Test flow
	get("/answer/question/:pair", s.quiz, s.requirePair)
	get("/quiz/standard/:pair", s.quiz, s.requirePair)
	get("/answer/submit/:pair", s.answerSubmitted, s.requirePair)
	get("/quiz/submit/:pair", s.answerSubmitted, s.requirePair)
	get("/answer/email/:pair", s.answerEmail, s.requirePair)
	e.POST("/answer/email/:pair", s.answerEmailPost, s.requirePair, writeLimit)
	get("/report/result-free-test/:pair", s.resultFree, s.requirePair)
	get("/report/result/:pair", s.reportResult, s.requirePair)
	get("/report/result-download/:pair", s.reportDownload, s.requirePair)
	e.POST("/report/rating/:pair", s.reportRating, s.requirePair, writeLimit)

	// Report retrieval by e-mail
	get("/report/retrieve/:pair", s.retrievePage, s.requirePair)
	e.POST("/report/retrieve/:pair", s.retrievePost, s.requirePair, retrieveLimit)

	// Subscription cancel by e-mail
	get("/cancel/subscription/:pair", s.cancelPage, s.requirePair)
	e.POST("/cancel/subscription/:pair", s.cancelPost, s.requirePair, cancelLimit)
	get("/cancel/confirm/:pair", s.cancelConfirmPage, s.requirePair)
	e.POST("/cancel/confirm/:pair", s.cancelConfirmPost, s.requirePair, writeLimit)
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
	e.POST("/pay/sandbox/3ds/:attemptId", s.sandbox3DSPost, writeLimit)

	// Subscriptions (docs/subscriptions.md, "The screens")
	get("/paying/scheme/:pair", s.payingScheme, s.requirePair)
	get("/paying/premiumSubscriptions/:pair", s.payingSubscribe, s.requirePair, s.requireSubscriber)
	e.POST("/paying/premiumSubscriptions/:pair", s.payingSubscribePost, s.requirePair, writeLimit, s.requireSubscriber)
	get("/paying/subscribe/check/:pair", s.payingSubscribeCheck, s.requirePair, s.requireSubscriber)
	e.POST("/paying/subscribe/abandon/:pair", s.payingSubscribeAbandon, s.requirePair, writeLimit, s.requireSubscriber)
	get("/paying/upgrade/:pair", s.payingUpgrade, s.requirePair, s.requireSubscriber)
	e.POST("/paying/upgrade/:pair", s.payingUpgradePost, s.requirePair, writeLimit, s.requireSubscriber)
	get("/payinsider/:pair", s.payingUpgrade, s.requirePair, s.requireSubscriber)
	e.POST("/payinsider/:pair", s.payingUpgradePost, s.requirePair, writeLimit, s.requireSubscriber)

	// Payment calls (the spec's /pay base) and the providers' webhook
	pay := e.Group("/pay")
	pay.POST("/pay/order/create", s.payCreate, writeLimit)
	pay.POST("/pay/order/payPackage", s.payPackage, writeLimit)
	pay.POST("/pay/check/status", s.payStatus, writeLimit)
	pay.POST("/pay/check/payInfo", s.payInfo, writeLimit)
	pay.POST("/sandbox/confirm", s.sandboxConfirm, writeLimit)
	pay.POST("/exam/order/report/retrieve", s.apiRetrieve, retrieveLimit)
	pay.POST("/subscription/changeSubscription", s.apiChangeSubscription, writeLimit, s.requireUser)
	e.POST("/pay/webhook/:provider", s.webhook)

	// Accounts
	get("/user/register", s.userRegister)
	e.POST("/user/register", s.userRegisterPost, authLimit)
	get("/user/login", s.userLogin)
	e.POST("/user/login", s.userLoginPost, authLimit)
	e.POST("/user/logout", s.userLogout, writeLimit)
	get("/user/verify", s.userVerify, s.requireUser)
	e.POST("/user/verify", s.userVerifyPost, authLimit, s.requireUser)
	e.POST("/user/verify/resend", s.userVerifyResend, authLimit, s.requireUser)
	get("/user/forgot-password", s.userForgot)
	e.POST("/user/forgot-password", s.userForgotPost, authLimit)
	e.POST("/user/reset-password", s.userResetPost, authLimit)
	get("/user/edit-password", s.userEditPassword, s.requireUser)
	e.POST("/user/edit-password", s.userEditPasswordPost, authLimit, s.requireUser)
	get("/user/info", s.userInfo, s.requireUser)
	get("/userCenter/setting/userInfo", s.userInfo, s.requireUser)
	e.POST("/user/info", s.userInfoPost, writeLimit, s.requireUser)
	get("/user/avatar", s.userAvatar, s.requireUser)
	e.POST("/user/avatar", s.userAvatarPost, writeLimit, s.requireUser)
	get("/user/setting", s.userSetting, s.requireUser)
	get("/user/setting/export", s.userExport, s.requireUser)
	e.POST("/user/setting/delete", s.userDeletePost, authLimit, s.requireUser)

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
	e.POST("/userCenter/cancel", s.userCancelPost, writeLimit, s.requireUser)
	e.POST("/userCenter/reportLinks/revoke", s.userRevokeReportLinks, writeLimit, s.requireUser)

	// Development only
	get("/dev/mail", s.devMail)
	get("/dev/mail/:id/html", s.devMailHTML)

	// Consent
	e.POST("/consent", s.consentForm, writeLimit)

	// Legacy aliases: 301 to their targets, query kept
	for _, a := range legacyAliases {
		get(a.From+"/:pair", redirectAlias(a.To), s.requirePair)
	}

	// JSON API: the spec's paths and {result, message, data} envelope
	// The limit is set per route, not on the group: a group's middleware
	// makes echo answer a wrong method with 404 instead of 405.
	api := e.Group("/api")
	api.GET("/app/language/list/:examId", s.apiLanguageList, apiLimit)
	api.GET("/app/v2/view", s.apiView, apiLimit)
	api.GET("/app/help/list/:examId/:hl", s.apiHelpList, apiLimit)
	api.GET("/app/help/info/:id", s.apiHelpInfo, apiLimit)
	api.GET("/app/protocol/list/:examId/:hl", s.apiProtocolList, apiLimit)
	api.GET("/app/protocol/getPrivacyAndAgreement/:examId/:hl", s.apiPrivacyAndAgreement, apiLimit)
	api.GET("/app/protocol/info/:id", s.apiProtocolInfo, apiLimit)
	api.POST("/consent", s.apiConsent, apiLimit, writeLimit)
	api.GET("/exam/question/list/:examId/:lang", s.apiQuestionList, apiLimit)
	api.GET("/exam/info/:id", s.apiExamInfo, apiLimit)
	api.GET("/exam/category/list", s.apiCategoryList, apiLimit)
	api.POST("/exam/order/info", s.apiSubmitAnswers, apiLimit, writeLimit)
	api.POST("/exam/order/update/email", s.apiUpdateEmail, apiLimit, writeLimit)
	api.GET("/exam/sku/list/:examId/:country/:hl", s.apiSKUList, apiLimit)
	api.GET("/exam/sku/info/:examId/:skuId/:country/:hl", s.apiSKUInfo, apiLimit)
	api.GET("/exam/sku/package/list/:code", s.apiPackageList, apiLimit)
	api.GET("/app/payment/list/:examId/:country", s.apiPaymentList, apiLimit)
	api.GET("/exam/order/country/list", s.apiCountryList, apiLimit)
	api.GET("/exam/order/info/:orderNumber", s.apiOrderInfo, apiLimit)
	api.GET("/exam/order/sku/check/:orderNumber", s.apiOrderSKUCheck, apiLimit)
	api.GET("/exam/extra/package/list/:orderNumber", s.apiExtraPackageList, apiLimit)
	api.POST("/exam/order/file/down/info", s.apiFileDownInfo, apiLimit, writeLimit)
	api.POST("/user/register", s.apiUserRegister, apiLimit, authLimit)
	api.POST("/user/login", s.apiUserLogin, apiLimit, authLimit)
	api.POST("/user/logout", s.apiUserLogout, apiLimit, writeLimit)
	api.GET("/user/get", s.apiUserGet, apiLimit, s.requireUser)
	api.POST("/user/update", s.apiUserUpdate, apiLimit, writeLimit, s.requireUser)
	api.GET("/user/privilege", s.apiUserPrivilege, apiLimit, s.requireUser)
	api.GET("/privilege/vip/detail", s.apiVipDetail, apiLimit, s.requireUser)
	api.GET("/user/center/data", s.apiUserCenterData, apiLimit, s.requireUser)
	api.GET("/user/order/list", s.apiUserOrderList, apiLimit, s.requireUser)
	api.GET("/user/order/laster", s.apiUserOrderLatest, apiLimit, s.requireUser)
	api.GET("/cms/notices", s.apiNotices, apiLimit)
	api.GET("/secondPhase/plan/sku/list/:examId/:country", s.apiPlanList, apiLimit)
	api.POST("/user/subscribe/create", s.apiSubscribeCreate, apiLimit, writeLimit, s.requireUser)
}

// favicon sends browsers that ask for /favicon.ico to the theme's icon.
func (s *Server) favicon(c echo.Context) error {
	return c.Redirect(http.StatusMovedPermanently, s.Themes.Default().IconURL)
}
