// Shared plumbing for islands: every island reads its props (including its
// translated messages) from a JSON script tag the server rendered.

export type Messages = Record<string, string>;

/** Fills the {{.Name}} placeholders of a Go template message; a placeholder
 * without a value is left as written. */
export function format(msg: string | undefined, data: Record<string, string | number>): string {
  return (msg ?? "").replace(/\{\{\s*\.(\w+)\s*\}\}/g, (m, name: string) => (name in data ? String(data[name]) : m));
}

/** Reads the JSON props of an island from the script tag with this id. */
export function readProps<T>(id: string): T {
  const el = document.getElementById(id);
  if (!el || !el.textContent) throw new Error(`island props #${id} missing`);
  return JSON.parse(el.textContent) as T;
}

/** Posts JSON to our API with the CSRF token and returns the envelope's data. */
export async function postJSON<T>(url: string, body: unknown, csrf: string): Promise<T> {
  const res = await fetch(url, {
    method: "POST",
    credentials: "same-origin",
    headers: { "Content-Type": "application/json", "X-CSRF-Token": csrf, Accept: "application/json" },
    body: JSON.stringify(body),
  });
  const env = (await res.json().catch(() => null)) as { result: number; message: string; data: T } | null;
  if (!res.ok || !env || env.result !== 200) {
    throw new Error(env?.message || `HTTP ${res.status}`);
  }
  return env.data;
}
