// The "are you sure" dialog of the upsell steps. The Leave link works
// without JavaScript (it opens the report); with it, a click asks first.
import { useState } from "react";
import * as Dialog from "@radix-ui/react-dialog";
import { setNonce } from "get-nonce";
import { mountDialog } from "./mount";
import { readProps, type Messages } from "./props";

type Props = { leaveHref: string; messages: Messages };

function Confirm({ props, onDone }: { props: Props; onDone: () => void }) {
  const t = props.messages;
  const [open, setOpen] = useState(true);
  return (
    <Dialog.Root open={open} onOpenChange={setOpen}>
      <Dialog.Portal>
        <Dialog.Overlay className="dialog-overlay" />
        <Dialog.Content
          className="dialog"
          data-testid="exit-dialog"
          onCloseAutoFocus={(e) => {
            // No Dialog.Trigger here: hand focus back to the Leave link
            // once the focus trap has let go.
            e.preventDefault();
            onDone();
          }}
        >
          <Dialog.Title className="dialog-title">{t.title}</Dialog.Title>
          <Dialog.Description className="dialog-text">{t.text}</Dialog.Description>
          <div className="dialog-actions">
            <Dialog.Close asChild>
              <button type="button" className="btn btn-primary" data-testid="exit-stay">
                {t.stay}
              </button>
            </Dialog.Close>
            <a className="btn btn-secondary" href={props.leaveHref} data-testid="exit-leave">
              {t.leave}
            </a>
          </div>
        </Dialog.Content>
      </Dialog.Portal>
    </Dialog.Root>
  );
}

/** Opens the dialog; the page's loader calls this on a click of the Leave link. */
export function open(trigger: HTMLElement, nonce: string) {
  setNonce(nonce);
  const props = readProps<Props>(trigger.dataset.props || "exit-props");
  mountDialog("exit-island", <Confirm key={Date.now()} props={props} onDone={() => trigger.focus()} />);
}
