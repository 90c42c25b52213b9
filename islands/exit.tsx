// The "are you sure" dialog of the upsell steps. The Leave link works
// without JavaScript (it opens the report); with it, a click asks first.
import { setNonce } from "get-nonce";
import { mountDialog } from "./mount";
import { readProps, type Messages } from "./props";
import { ConfirmDialog } from "./shared/confirm-dialog";

type Props = { leaveHref: string; messages: Messages };

function Confirm({ props, onDone }: { props: Props; onDone: () => void }) {
  const t = props.messages;
  return (
    <ConfirmDialog
      testid="exit-dialog"
      title={t.title}
      text={t.text}
      stay={t.stay}
      stayTestid="exit-stay"
      onDone={onDone}
      actions={(stay) => (
        <div className="dialog-actions">
          {stay}
          <a className="btn btn-secondary" href={props.leaveHref} data-testid="exit-leave">
            {t.leave}
          </a>
        </div>
      )}
    />
  );
}

/** Opens the dialog; the page's loader calls this on a click of the Leave link. */
export function open(trigger: HTMLElement, nonce: string) {
  setNonce(nonce);
  const props = readProps<Props>(trigger.dataset.props || "exit-props");
  mountDialog("exit-island", <Confirm key={Date.now()} props={props} onDone={() => trigger.focus()} />);
}
