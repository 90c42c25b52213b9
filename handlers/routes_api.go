package handlers

import (
	"github.com/labstack/echo/v4"
)

// apiRoutes lists the JSON calls: the payment calls under the spec's /pay
// base and the API under /api, all answering in the spec's
// {result, message, data} envelope.
func (s *Server) apiRoutes(e *echo.Echo, l routeLimits) {
	// Payment calls (the spec's /pay base)
	pay := e.Group("/pay")
	pay.POST("/pay/order/create", s.payCreate, l.write)
	pay.POST("/pay/order/payPackage", s.payPackage, l.write)
	pay.POST("/pay/check/status", s.payStatus, l.write)
	pay.POST("/pay/check/payInfo", s.payInfo, l.write)
	pay.POST("/sandbox/confirm", s.sandboxConfirm, l.write)
	pay.POST("/exam/order/report/retrieve", s.apiRetrieve, l.retrieve)
	pay.POST("/subscription/changeSubscription", s.apiChangeSubscription, l.write, s.requireUser)

	// JSON API: the spec's paths and {result, message, data} envelope
	// The limit is set per route, not on the group: a group's middleware
	// makes echo answer a wrong method with 404 instead of 405.
	api := e.Group("/api")
	api.GET("/app/language/list/:examId", s.apiLanguageList, l.api)
	api.GET("/app/v2/view", s.apiView, l.api)
	api.GET("/app/help/list/:examId/:hl", s.apiHelpList, l.api)
	api.GET("/app/help/info/:id", s.apiHelpInfo, l.api)
	api.GET("/app/protocol/list/:examId/:hl", s.apiProtocolList, l.api)
	api.GET("/app/protocol/getPrivacyAndAgreement/:examId/:hl", s.apiPrivacyAndAgreement, l.api)
	api.GET("/app/protocol/info/:id", s.apiProtocolInfo, l.api)
	api.POST("/consent", s.apiConsent, l.api, l.write)
	api.GET("/exam/question/list/:examId/:lang", s.apiQuestionList, l.api)
	api.GET("/exam/info/:id", s.apiExamInfo, l.api)
	api.GET("/exam/category/list", s.apiCategoryList, l.api)
	api.POST("/exam/order/info", s.apiSubmitAnswers, l.api, l.write)
	api.POST("/exam/order/update/email", s.apiUpdateEmail, l.api, l.write)
	api.GET("/exam/sku/list/:examId/:country/:hl", s.apiSKUList, l.api)
	api.GET("/exam/sku/info/:examId/:skuId/:country/:hl", s.apiSKUInfo, l.api)
	api.GET("/exam/sku/package/list/:code", s.apiPackageList, l.api)
	api.GET("/app/payment/list/:examId/:country", s.apiPaymentList, l.api)
	api.GET("/exam/order/country/list", s.apiCountryList, l.api)
	api.GET("/exam/order/info/:orderNumber", s.apiOrderInfo, l.api)
	api.GET("/exam/order/sku/check/:orderNumber", s.apiOrderSKUCheck, l.api)
	api.GET("/exam/extra/package/list/:orderNumber", s.apiExtraPackageList, l.api)
	api.POST("/exam/order/file/down/info", s.apiFileDownInfo, l.api, l.write)
	api.POST("/user/register", s.apiUserRegister, l.api, l.auth)
	api.POST("/user/login", s.apiUserLogin, l.api, l.auth)
	api.POST("/user/logout", s.apiUserLogout, l.api, l.write)
	api.GET("/user/get", s.apiUserGet, l.api, s.requireUser)
	api.POST("/user/update", s.apiUserUpdate, l.api, l.write, s.requireUser)
	api.GET("/user/privilege", s.apiUserPrivilege, l.api, s.requireUser)
	api.GET("/privilege/vip/detail", s.apiVipDetail, l.api, s.requireUser)
	api.GET("/user/center/data", s.apiUserCenterData, l.api, s.requireUser)
	api.GET("/user/order/list", s.apiUserOrderList, l.api, s.requireUser)
	api.GET("/user/order/laster", s.apiUserOrderLatest, l.api, s.requireUser)
	api.GET("/cms/notices", s.apiNotices, l.api)
	api.GET("/secondPhase/plan/sku/list/:examId/:country", s.apiPlanList, l.api)
	api.POST("/user/subscribe/create", s.apiSubscribeCreate, l.api, l.write, s.requireUser)
}
