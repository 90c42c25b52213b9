// Replaces a subscription's card with Stripe's own card form on the billing
// page (/userCenter/setting/billing), when the provider is Stripe. The card
// never reaches our server: the island asks the server for a SetupIntent
// (its client secret), Stripe.js confirms it with the Payment Element, and
// the island posts only the SetupIntent's id, which the server reads back
// from Stripe before making its card the subscription's.
import type { StripeElementLocale } from "@stripe/stripe-js";
import { readProps, type Messages } from "./props";

type Props = {
  publishableKey: string;
  stripeLocale: string;
  csrf: string;
  subscription: string;
  setupAction: string;
  finishAction: string;
  messages: Messages;
};

/** Posts a form with the CSRF token and returns the JSON answer. */
async function postForm<T>(url: string, csrf: string, fields: Record<string, string>): Promise<T> {
  const body = new URLSearchParams({ _csrf: csrf, ...fields });
  const res = await fetch(url, { method: "POST", credentials: "same-origin", headers: { Accept: "application/json" }, body });
  if (!res.ok) throw new Error(`HTTP ${res.status}`);
  return (await res.json()) as T;
}

/** Submits a real form, so the page answers as without this island. */
function submit(action: string, fields: Record<string, string>) {
  const form = document.createElement("form");
  form.method = "post";
  form.action = action;
  for (const [name, value] of Object.entries(fields)) {
    const input = document.createElement("input");
    input.type = "hidden";
    input.name = name;
    input.value = value;
    form.appendChild(input);
  }
  document.body.appendChild(form);
  form.submit();
}

async function mount(host: HTMLElement, props: Props) {
  const t = props.messages;
  const status = document.createElement("p");
  status.setAttribute("role", "status");
  status.textContent = t.loading;
  const element = document.createElement("div");
  element.id = "billing-card-element";
  const button = document.createElement("button");
  button.type = "button";
  button.className = "btn btn-primary btn-block";
  button.textContent = t.submit;
  button.disabled = true;
  button.dataset.testid = "billing-card-stripe-submit";
  host.append(element, status, button);

  const fail = (msg?: string) => {
    status.textContent = msg || t.failed;
    button.disabled = false;
    button.textContent = t.submit;
  };
  try {
    const { clientSecret } = await postForm<{ clientSecret: string }>(props.setupAction, props.csrf, {
      subscription: props.subscription,
    });
    const { loadStripe } = await import("@stripe/stripe-js/pure");
    const stripe = await loadStripe(props.publishableKey, { locale: (props.stripeLocale || "auto") as StripeElementLocale });
    if (!stripe) throw new Error("stripe");
    const elements = stripe.elements({ clientSecret });
    elements.create("payment").mount(element);
    status.textContent = "";
    button.disabled = false;
    button.addEventListener("click", () => {
      button.disabled = true;
      button.textContent = t.saving;
      void (async () => {
        const { error, setupIntent } = await stripe.confirmSetup({ elements, redirect: "if_required" });
        if (error || !setupIntent) {
          fail(error?.message);
          return;
        }
        submit(props.finishAction, { _csrf: props.csrf, subscription: props.subscription, setup_intent: setupIntent.id });
      })();
    });
  } catch {
    fail();
  }
}

const host = document.querySelector<HTMLElement>('[data-island="billing_card"]');
if (host) {
  void mount(host, readProps<Props>("billing_card-props"));
}
