package api

import (
	"github.com/labstack/echo/v4"

	"selfmap/handlers/httpx"
)

// routes lists the JSON calls: the payment calls under the spec's /pay
// base and the API under /api, all answering in the spec's
// {result, message, data} envelope.
func (s *Server) routes(e *echo.Echo, l httpx.RouteLimits) {
	// Payment calls (the spec's /pay base)
	pay := e.Group("/pay")
	pay.POST("/pay/order/create", s.payCreate, l.Write)
	pay.POST("/pay/order/payPackage", s.payPackage, l.Write)
	pay.POST("/pay/check/status", s.payStatus, l.Write)
	pay.POST("/pay/check/payInfo", s.payInfo, l.Write)
	pay.POST("/sandbox/confirm", s.sandboxConfirm, l.Write)
	pay.POST("/exam/order/report/retrieve", s.apiRetrieve, l.Retrieve)
	pay.POST("/subscription/changeSubscription", s.apiChangeSubscription, l.Write, s.RequireUser)

	// JSON API: the spec's paths and {result, message, data} envelope
	// The limit is set per route, not on the group: a group's middleware
	// makes echo answer a wrong method with 404 instead of 405.
	api := e.Group("/api")
	api.GET("/app/language/list/:examId", s.apiLanguageList, l.Api)
	api.GET("/app/v2/view", s.apiView, l.Api)
	api.GET("/app/help/list/:examId/:hl", s.apiHelpList, l.Api)
	api.GET("/app/help/info/:id", s.apiHelpInfo, l.Api)
	api.GET("/app/protocol/list/:examId/:hl", s.apiProtocolList, l.Api)
	api.GET("/app/protocol/getPrivacyAndAgreement/:examId/:hl", s.apiPrivacyAndAgreement, l.Api)
	api.GET("/app/protocol/info/:id", s.apiProtocolInfo, l.Api)
	api.POST("/consent", s.apiConsent, l.Api, l.Write)
	api.GET("/exam/question/list/:examId/:lang", s.apiQuestionList, l.Api)
	api.GET("/exam/info/:id", s.apiExamInfo, l.Api)
	api.GET("/exam/category/list", s.apiCategoryList, l.Api)
	api.POST("/exam/order/info", s.apiSubmitAnswers, l.Api, l.Write)
	api.POST("/exam/order/update/email", s.apiUpdateEmail, l.Api, l.Write)
	api.GET("/exam/sku/list/:examId/:country/:hl", s.apiSKUList, l.Api)
	api.GET("/exam/sku/info/:examId/:skuId/:country/:hl", s.apiSKUInfo, l.Api)
	api.GET("/exam/sku/package/list/:code", s.apiPackageList, l.Api)
	api.GET("/app/payment/list/:examId/:country", s.apiPaymentList, l.Api)
	api.GET("/exam/order/country/list", s.apiCountryList, l.Api)
	api.GET("/exam/order/info/:orderNumber", s.apiOrderInfo, l.Api)
	api.GET("/exam/order/sku/check/:orderNumber", s.apiOrderSKUCheck, l.Api)
	api.GET("/exam/extra/package/list/:orderNumber", s.apiExtraPackageList, l.Api)
	api.POST("/exam/order/file/down/info", s.apiFileDownInfo, l.Api, l.Write)
	api.POST("/user/register", s.apiUserRegister, l.Api, l.Auth)
	api.POST("/user/login", s.apiUserLogin, l.Api, l.Auth)
	api.POST("/user/logout", s.apiUserLogout, l.Api, l.Write)
	api.GET("/user/get", s.apiUserGet, l.Api, s.RequireUser)
	api.POST("/user/update", s.apiUserUpdate, l.Api, l.Write, s.RequireUser)
	api.GET("/user/privilege", s.apiUserPrivilege, l.Api, s.RequireUser)
	api.GET("/privilege/vip/detail", s.apiVipDetail, l.Api, s.RequireUser)
	api.GET("/user/center/data", s.apiUserCenterData, l.Api, s.RequireUser)
	api.GET("/user/order/list", s.apiUserOrderList, l.Api, s.RequireUser)
	api.GET("/user/order/laster", s.apiUserOrderLatest, l.Api, s.RequireUser)
	api.GET("/cms/notices", s.apiNotices, l.Api)
	api.GET("/secondPhase/plan/sku/list/:examId/:country", s.apiPlanList, l.Api)
	api.POST("/user/subscribe/create", s.apiSubscribeCreate, l.Api, l.Write, s.RequireUser)
}
