package views

import (
	"context"

	"github.com/a-h/templ"
)

// loaderJS is the only script a page runs before interaction (budget 2 KB).
// It loads an island's module on the first click of a [data-island] trigger
// (a modified click, such as one for a new tab, is left to the browser; a
// link whose island fails to load is followed instead),
// and sends the consent forms with fetch so the page does not reload; without
// JavaScript the forms still work through a redirect.
const loaderJS = `(()=>{const n=document.currentScript.nonce;` +
	`document.addEventListener("click",e=>{const b=e.target.closest("[data-island]");if(!b||e.button||e.metaKey||e.ctrlKey||e.shiftKey||e.altKey)return;e.preventDefault();` +
	`b.setAttribute("aria-busy","true");import(b.dataset.src).then(m=>m.open(b,n)).catch(()=>{b.removeAttribute("aria-busy");b.href?location.assign(b.href):alert(b.dataset.error)}).then(()=>b.removeAttribute("aria-busy"))});` +
	`document.addEventListener("submit",e=>{const f=e.target;if(!f.matches("[data-consent-form]"))return;e.preventDefault();` +
	`fetch(f.action,{method:"POST",body:new FormData(f),headers:{Accept:"application/json"},credentials:"same-origin"})` +
	`.then(r=>{if(!r.ok)throw r;const b=document.getElementById("consent-banner");b&&b.remove();const s=document.getElementById("consent-status");s&&(s.textContent=f.dataset.saved)})` +
	`.catch(()=>f.submit())})})();`

func loaderScript(ctx context.Context) templ.Component {
	return templ.Raw(`<script nonce="` + templ.GetNonce(ctx) + `">` + loaderJS + `</script>`)
}
