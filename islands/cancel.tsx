// The one-click cancel of the user centre: a click on "Cancel subscription"
// asks first, then posts the form with the CSRF token. Without JavaScript
// the same link opens a confirmation page that posts the same form.
import { useState } from "react";
import { setNonce } from "get-nonce";
import { mountDialog } from "./mount";
import { format, readProps, type Messages } from "./props";
import { ConfirmDialog } from "./shared/confirm-dialog";

type Props = { action: string; csrf: string; until: string; messages: Messages };

function Confirm({ props, onDone }: { props: Props; onDone: () => void }) {
  const t = props.messages;
  const [sending, setSending] = useState(false);
  return (
    <ConfirmDialog
      testid="cancel-dialog"
      title={t.title}
      text={format(t.text, { Date: props.until })}
      stay={t.keep}
      stayTestid="cancel-keep"
      onDone={onDone}
      actions={(stay) => (
        <form method="post" action={props.action} className="dialog-actions" onSubmit={() => setSending(true)}>
          <input type="hidden" name="_csrf" value={props.csrf} />
          {stay}
          <button type="submit" className="btn btn-secondary" disabled={sending} data-testid="cancel-confirm">
            {t.confirm}
          </button>
        </form>
      )}
    />
  );
}

/** Opens the dialog; the page's loader calls this on a click of the cancel button. */
export function open(trigger: HTMLElement, nonce: string) {
  setNonce(nonce);
  const props = readProps<Props>(trigger.dataset.props || "cancel-props");
  mountDialog("cancel-island", <Confirm key={Date.now()} props={props} onDone={() => trigger.focus()} />);
}
