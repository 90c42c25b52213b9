// The one-click cancel of the user centre: a click on "Cancel subscription"
// asks first, then posts the form with the CSRF token. Without JavaScript
// the same link opens a confirmation page that posts the same form.
import { useState } from "react";
import * as Dialog from "@radix-ui/react-dialog";
import { setNonce } from "get-nonce";
import { mountDialog } from "./mount";
import { format, readProps, type Messages } from "./props";

type Props = { action: string; csrf: string; until: string; messages: Messages };

function Confirm({ props, onDone }: { props: Props; onDone: () => void }) {
  const t = props.messages;
  const [open, setOpen] = useState(true);
  const [sending, setSending] = useState(false);
  return (
    <Dialog.Root open={open} onOpenChange={setOpen}>
      <Dialog.Portal>
        <Dialog.Overlay className="dialog-overlay" />
        <Dialog.Content
          className="dialog"
          data-testid="cancel-dialog"
          onCloseAutoFocus={(e) => {
            // No Dialog.Trigger: hand focus back to the button that opened it.
            e.preventDefault();
            onDone();
          }}
        >
          <Dialog.Title className="dialog-title">{t.title}</Dialog.Title>
          <Dialog.Description className="dialog-text">{format(t.text, { Date: props.until })}</Dialog.Description>
          <form method="post" action={props.action} className="dialog-actions" onSubmit={() => setSending(true)}>
            <input type="hidden" name="_csrf" value={props.csrf} />
            <Dialog.Close asChild>
              <button type="button" className="btn btn-primary" data-testid="cancel-keep">
                {t.keep}
              </button>
            </Dialog.Close>
            <button type="submit" className="btn btn-secondary" disabled={sending} data-testid="cancel-confirm">
              {t.confirm}
            </button>
          </form>
        </Dialog.Content>
      </Dialog.Portal>
    </Dialog.Root>
  );
}

/** Opens the dialog; the page's loader calls this on a click of the cancel button. */
export function open(trigger: HTMLElement, nonce: string) {
  setNonce(nonce);
  const props = readProps<Props>(trigger.dataset.props || "cancel-props");
  mountDialog("cancel-island", <Confirm key={Date.now()} props={props} onDone={() => trigger.focus()} />);
}
