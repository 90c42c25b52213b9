// The subscription form's card with the stripe provider (docs/subscriptions.md,
// "The screens"). The server renders the whole form (plan, promo, terms,
// buttons) and, with the sandbox, its own card fields that post to the
// server. With Stripe, this island mounts Stripe's Payment Element in setup
// mode into #sub-stripe; on Start trial or Pay now it asks Stripe for a
// PaymentMethod (stripe.createPaymentMethod) and posts the form with only
// that PaymentMethod's id: the card never reaches our server. The server
// checks everything else and answers as it does without this island.
//
// On the check page of a start whose first payment the bank wants
// authenticated (3-D Secure), the same island, given the payment's client
// secret, runs stripe.handleNextAction: authenticated, the page reloads and
// waits for Stripe's word; failed or closed, it posts the page's "use
// another card" form, which ends the start so another card can be tried.
import type { StripeElementLocale } from "@stripe/stripe-js";
import { readProps, type Messages } from "./props";

type Props = {
  publishableKey: string;
  stripeLocale: string;
  /** The first charge in Stripe's unit and its lower-case currency, shown
   * by the element (setup mode charges nothing itself). */
  amount: number;
  currency: string;
  email: string;
  /** Set on the check page only: the payment to authenticate. */
  clientSecret?: string;
  messages: Messages;
};

async function authenticate(props: Props) {
  const abandon = document.getElementById("sub-abandon") as HTMLFormElement | null;
  const status = document.getElementById("sub-auth-status");
  if (!abandon || !status || !props.clientSecret) return;
  const t = props.messages;
  const { loadStripe } = await import("@stripe/stripe-js/pure");
  const stripe = await loadStripe(props.publishableKey, {
    locale: (props.stripeLocale || "auto") as StripeElementLocale,
  }).catch(() => null);
  if (!stripe) {
    status.textContent = t.stripe_failed;
    return;
  }
  status.textContent = t.authenticating;
  const { error } = await stripe.handleNextAction({ clientSecret: props.clientSecret });
  if (error) {
    // Nothing was charged: end this start so another card can be tried.
    status.textContent = error.message || t.auth_failed;
    abandon.requestSubmit();
    return;
  }
  status.textContent = t.authenticated;
  window.location.reload();
}

async function mount(props: Props) {
  const form = document.getElementById("subscribe-form") as HTMLFormElement | null;
  const host = document.getElementById("sub-stripe");
  const method = document.getElementById("sub-payment-method") as HTMLInputElement | null;
  if (!form || !host || !method) return;
  const t = props.messages;
  const say = (msg: string) => {
    host.setAttribute("aria-busy", "false");
    host.innerHTML = "";
    const p = document.createElement("p");
    p.className = "field-error";
    p.setAttribute("role", "alert");
    p.textContent = msg;
    host.appendChild(p);
  };
  const { loadStripe } = await import("@stripe/stripe-js/pure");
  const stripe = await loadStripe(props.publishableKey).catch(() => null);
  if (!stripe) {
    say(t.stripe_failed);
    return;
  }
  const elements = stripe.elements({
    mode: "setup",
    currency: props.currency,
    paymentMethodCreation: "manual",
    locale: (props.stripeLocale || "auto") as StripeElementLocale,
  });
  host.innerHTML = "";
  const alert = document.createElement("p");
  alert.className = "field-error";
  alert.setAttribute("role", "alert");
  const mountPoint = document.createElement("div");
  host.append(mountPoint, alert);
  elements.create("payment", { defaultValues: { billingDetails: { email: props.email } } }).mount(mountPoint);
  host.setAttribute("aria-busy", "false");

  let working = false;
  form.addEventListener("submit", (ev) => {
    if (method.value) return; // the second, native submit
    ev.preventDefault();
    if (working) return;
    const submitter = (ev as SubmitEvent).submitter as HTMLButtonElement | null;
    const buttons = form.querySelectorAll<HTMLButtonElement>("button[type=submit]");
    working = true;
    buttons.forEach((b) => (b.disabled = true));
    alert.textContent = "";
    void (async () => {
      const { error: invalid } = await elements.submit();
      const made = invalid ? null : await stripe.createPaymentMethod({ elements, params: { billing_details: { email: props.email } } });
      const error = invalid ?? made?.error;
      if (error || !made?.paymentMethod) {
        // Stripe's own words, in the page's locale.
        alert.textContent = error?.message || t.stripe_failed;
        working = false;
        buttons.forEach((b) => (b.disabled = false));
        return;
      }
      method.value = made.paymentMethod.id;
      if (submitter?.name) {
        // form.submit() leaves the clicked button's value out.
        const mode = document.createElement("input");
        mode.type = "hidden";
        mode.name = submitter.name;
        mode.value = submitter.value;
        form.appendChild(mode);
      }
      form.submit();
    })();
  });
}

if (document.getElementById("sub-stripe")) {
  void mount(readProps<Props>("subscribe-props"));
} else if (document.getElementById("sub-abandon")) {
  void authenticate(readProps<Props>("subscribe-props"));
}
