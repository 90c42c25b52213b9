package views

import (
	"context"

	"github.com/a-h/templ"

	"selfmap/internal/tracking"
)

// trackingJS loads the scripts the server planned (internal/tracking) and
// reports the page's ad events to the pixels among them; the checkout
// island reports add_payment_info with a "selfmap:ad" DOM event. It is
// rendered only after the visitor consented, and only with something to
// load. Each vendor gets its documented loader snippet, then its script.
const trackingJS = `(()=>{const n=document.currentScript.nonce,d=document,w=window,c=JSON.parse(d.getElementById("tracking-props").textContent),` +
	`add=(u,f)=>{const s=d.createElement("script");s.async=true;s.src=u;s.nonce=n;if(f)s.onload=f;d.head.appendChild(s)},` +
	`que=(g,m,id)=>{const t=w[g]=w[g]||[];t.methods=m;for(const k of m)t[k]=t[k]||function(){t.push([k].concat([].slice.call(arguments)))};` +
	`t._i=t._i||{};t._i[id]=[];t._i[id]._u="";t._t=t._t||{};t._t[id]=+new Date;t._o=t._o||{};t._o[id]={};return t},` +
	`names={meta:["ViewContent","InitiateCheckout","AddPaymentInfo","Purchase","StartTrial"],tiktok:["ViewContent","InitiateCheckout","AddPaymentInfo","CompletePayment","Subscribe"],` +
	`snapchat:["VIEW_CONTENT","START_CHECKOUT","ADD_BILLING","PURCHASE","START_TRIAL"],bing:["view_item","begin_checkout","add_payment_info","purchase","start_trial"],` +
	`kwai:["EVENT_CONTENT_VIEW","EVENT_INITIATED_CHECKOUT","EVENT_ADD_PAYMENT_INFO","EVENT_PURCHASE","EVENT_SUBSCRIBE"]},` +
	`order=["view_content","initiate_checkout","add_payment_info","purchase","start_trial"],send={};` +
	`for(const l of c.loads){const id=l.id;switch(l.v){` +
	`case"meta":if(!w.fbq){const f=w.fbq=function(){f.callMethod?f.callMethod.apply(f,arguments):f.queue.push(arguments)};w._fbq=f;f.push=f;f.loaded=true;f.version="2.0";f.queue=[]}` +
	`w.fbq("init",id);w.fbq("track","PageView");add("https://connect.facebook.net/en_US/fbevents.js");send.meta=(e,p,i)=>w.fbq("track",e,p,{eventID:i});break;` +
	`case"tiktok":{w.TiktokAnalyticsObject="ttq";const t=que("ttq",["page","track","identify","instances","debug","on","off","once","ready","alias","group","enableCookie","disableCookie"],id);` +
	`add("https://analytics.tiktok.com/i18n/pixel/events.js?sdkid="+id+"&lib=ttq");t.page();send.tiktok=(e,p,i)=>t.track(e,Object.assign({event_id:i},p));break}` +
	`case"kwai":{w.KwaiAnalyticsObject="kwaiq";const t=que("kwaiq",["page","track","identify","instances","debug","on","off","once","ready","alias","group","enableCookie","disableCookie"],id);` +
	`add("https://s1.kwai.net/kos/s101/nlav11187/pixel/events.js?sdkid="+id+"&lib=kwaiq");t.page();send.kwai=(e,p)=>t.track(e,p);break}` +
	`case"snapchat":if(!w.snaptr){const a=w.snaptr=function(){a.handleRequest?a.handleRequest.apply(a,arguments):a.queue.push(arguments)};a.queue=[]}` +
	`add("https://sc-static.net/scevent.min.js");w.snaptr("init",id);w.snaptr("track","PAGE_VIEW");send.snapchat=(e,p,i)=>w.snaptr("track",e,{price:p.value,currency:p.currency,client_dedup_id:i});break;` +
	`case"bing":w.uetq=w.uetq||[];add("https://bat.bing.com/bat.js",()=>{const o={ti:id,enableAutoSpaLoad:true};o.q=w.uetq;w.uetq=new UET(o);w.uetq.push("pageLoad")});` +
	`send.bing=(e,p)=>w.uetq.push("event",e,{revenue_value:p.value,currency:p.currency});break;` +
	`case"tagmanager":w.dataLayer=w.dataLayer||[];w.dataLayer.push({"gtm.start":Date.now(),event:"gtm.js"});add("https://www.googletagmanager.com/gtm.js?id="+id);break;` +
	`case"sessionreplay":w.clarity=w.clarity||function(){(w.clarity.q=w.clarity.q||[]).push(arguments)};add("https://www.clarity.ms/tag/"+id);break;` +
	`case"botprotection":w.selfmapTurnstileKey=id;add("https://challenges.cloudflare.com/turnstile/v0/api.js?render=explicit");break}}` +
	`const fire=e=>{const k=order.indexOf(e.name);if(k<0)return;const p=e.value?{value:e.value,currency:e.currency}:{};for(const v in send)send[v](names[v][k],p,e.id||"")};` +
	`(c.events||[]).forEach(fire);d.addEventListener("selfmap:ad",e=>fire(e.detail||{}))})();`

// trackingProps is what the tracking script reads.
type trackingProps struct {
	Loads  tracking.Plan    `json:"loads"`
	Events []tracking.Event `json:"events,omitempty"`
}

// trackingScripts renders the planned third-party scripts, or nothing.
func trackingScripts(ctx context.Context) templ.Component {
	r := req(ctx)
	if len(r.Tracking) == 0 {
		return templ.NopComponent
	}
	return templ.Join(
		templ.JSONScript("tracking-props", trackingProps{Loads: r.Tracking, Events: r.AdEvents}),
		templ.Raw(`<script nonce="`+templ.GetNonce(ctx)+`">`+trackingJS+`</script>`),
	)
}
