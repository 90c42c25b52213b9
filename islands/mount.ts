// Where the dialog islands render: a host element of their own at the end
// of the body, made on the first open and reused after.
import type { ReactNode } from "react";
import { createRoot, type Root } from "react-dom/client";

const roots = new Map<string, Root>();

/** Renders node into the host element with this id, creating it once. */
export function mountDialog(id: string, node: ReactNode) {
  let host = document.getElementById(id);
  if (!host) {
    host = document.createElement("div");
    host.id = id;
    document.body.appendChild(host);
  }
  let root = roots.get(id);
  if (!root) {
    root = createRoot(host);
    roots.set(id, root);
  }
  root.render(node);
}
