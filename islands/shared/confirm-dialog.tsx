// The "are you sure" dialog the islands share: a title, a text, a button
// that keeps things as they are, and the caller's way on (a link or a form).
// Focus goes back to what opened it, as no Dialog.Trigger is used.
import { useState, type ReactNode } from "react";
import * as Dialog from "@radix-ui/react-dialog";

type Props = {
  testid: string;
  title: string;
  text: string;
  stay: string;
  stayTestid: string;
  /** Returns the actions: the stay button it is given, and the way on. */
  actions: (stay: ReactNode) => ReactNode;
  onDone: () => void;
};

export function ConfirmDialog({ testid, title, text, stay, stayTestid, actions, onDone }: Props) {
  const [open, setOpen] = useState(true);
  const stayButton = (
    <Dialog.Close asChild>
      <button type="button" className="btn btn-primary" data-testid={stayTestid}>
        {stay}
      </button>
    </Dialog.Close>
  );
  return (
    <Dialog.Root open={open} onOpenChange={setOpen}>
      <Dialog.Portal>
        <Dialog.Overlay className="dialog-overlay" />
        <Dialog.Content
          className="dialog"
          data-testid={testid}
          onCloseAutoFocus={(e) => {
            // Hand focus back once the focus trap has let go.
            e.preventDefault();
            onDone();
          }}
        >
          <Dialog.Title className="dialog-title">{title}</Dialog.Title>
          <Dialog.Description className="dialog-text">{text}</Dialog.Description>
          {actions(stayButton)}
        </Dialog.Content>
      </Dialog.Portal>
    </Dialog.Root>
  );
}
