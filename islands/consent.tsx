// The consent banner's "Manage preferences" dialog. The banner itself is
// plain server-rendered HTML with Accept and Reject forms; this island loads
// only when a visitor asks to choose category by category.
import { useState } from "react";
import * as Dialog from "@radix-ui/react-dialog";
import { setNonce } from "get-nonce";
import { mountDialog } from "./mount";
import { readProps, postJSON, type Messages } from "./props";

type Props = {
  analytics: boolean;
  marketing: boolean;
  csrf: string;
  endpoint: string;
  messages: Messages;
};

type CategoryProps = { name: string; title: string; text: string; checked: boolean; onChange: (v: boolean) => void };

/** One optional cookie category: a checkbox labelled by its title and what it is for. */
function Category({ name, title, text, checked, onChange }: CategoryProps) {
  return (
    <label className="consent-option">
      <input type="checkbox" name={name} checked={checked} onChange={(e) => onChange(e.target.checked)} />
      <span>
        <strong>{title}</strong>
        <small>{text}</small>
      </span>
    </label>
  );
}

function Preferences({ props, onDone }: { props: Props; onDone: () => void }) {
  const t = props.messages;
  const [open, setOpen] = useState(true);
  const [analytics, setAnalytics] = useState(props.analytics);
  const [marketing, setMarketing] = useState(props.marketing);
  const [saving, setSaving] = useState(false);
  const [error, setError] = useState("");

  const close = (next: boolean) => {
    setOpen(next);
    if (!next) onDone();
  };

  async function save(e: React.FormEvent) {
    e.preventDefault();
    setSaving(true);
    setError("");
    try {
      await postJSON(props.endpoint, { analytics, marketing }, props.csrf);
      document.getElementById("consent-banner")?.remove();
      const status = document.getElementById("consent-status");
      if (status) status.textContent = t.saved;
      close(false);
    } catch {
      setError(t.failed);
    } finally {
      setSaving(false);
    }
  }

  return (
    <Dialog.Root open={open} onOpenChange={close}>
      <Dialog.Portal>
        <Dialog.Overlay className="dialog-overlay" />
        <Dialog.Content className="dialog" data-testid="consent-dialog">
          <Dialog.Title className="dialog-title">{t.dialog_title}</Dialog.Title>
          <Dialog.Description className="dialog-text">{t.dialog_text}</Dialog.Description>
          <form onSubmit={save}>
            <fieldset className="consent-options" disabled={saving}>
              <label className="consent-option">
                <input type="checkbox" checked disabled />
                <span>
                  <strong>{t.necessary}</strong> <em className="consent-always">{t.always_on}</em>
                  <small>{t.necessary_text}</small>
                </span>
              </label>
              <Category name="analytics" title={t.analytics} text={t.analytics_text} checked={analytics} onChange={setAnalytics} />
              <Category name="marketing" title={t.marketing} text={t.marketing_text} checked={marketing} onChange={setMarketing} />
            </fieldset>
            {error && (
              <p className="form-error" role="alert">
                {error}
              </p>
            )}
            <div className="dialog-actions">
              <Dialog.Close asChild>
                <button type="button" className="btn btn-secondary">
                  {t.close}
                </button>
              </Dialog.Close>
              <button type="submit" className="btn btn-primary" disabled={saving} data-testid="consent-save">
                {saving ? t.saving : t.save}
              </button>
            </div>
          </form>
        </Dialog.Content>
      </Dialog.Portal>
    </Dialog.Root>
  );
}

/** Opens the dialog; the page's loader calls this on a click of any trigger. */
export function open(trigger: HTMLElement, nonce: string) {
  setNonce(nonce);
  const props = readProps<Props>(trigger.dataset.props || "consent-props");
  mountDialog("consent-island", <Preferences key={Date.now()} props={props} onDone={() => trigger.focus()} />);
}
