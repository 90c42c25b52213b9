// Bundles every islands/*.tsx entry with esbuild into static/dist: ES modules
// with content hashes, shared code split into chunks (React loads once for all
// islands), and manifest.json mapping each island to its files for the Go side.
import * as esbuild from "esbuild";
import { readdirSync, rmSync, writeFileSync } from "node:fs";
import path from "node:path";

const root = path.dirname(path.dirname(new URL(import.meta.url).pathname));
const outdir = path.join(root, "static", "dist");
const entries = readdirSync(path.join(root, "islands"))
  .filter((f) => f.endsWith(".tsx"))
  .map((f) => path.join(root, "islands", f));

rmSync(outdir, { recursive: true, force: true });
const result = await esbuild.build({
  entryPoints: entries,
  bundle: true,
  splitting: true,
  format: "esm",
  target: ["es2020"],
  outdir,
  entryNames: "[name]-[hash]",
  chunkNames: "chunks/[name]-[hash]",
  minify: true,
  sourcemap: false,
  metafile: true,
  legalComments: "none",
  define: { "process.env.NODE_ENV": '"production"' },
  logLevel: "warning",
});

// manifest: { "<island>": { "file": "consent-AB12.js", "imports": ["chunks/chunk-CD34.js"] } }
const manifest = {};
for (const [out, meta] of Object.entries(result.metafile.outputs)) {
  // Dynamic imports (Stripe.js's loader) are entry points to esbuild but
  // not islands: only islands/*.tsx go into the manifest.
  if (!meta.entryPoint || !meta.entryPoint.startsWith("islands/")) continue;
  const name = path.basename(meta.entryPoint, ".tsx");
  manifest[name] = {
    file: path.relative(outdir, path.join(root, out)),
    imports: meta.imports.filter((i) => i.kind === "import-statement").map((i) => path.relative(outdir, path.join(root, i.path))),
  };
}
writeFileSync(path.join(outdir, "manifest.json"), JSON.stringify(manifest, null, 2) + "\n");
console.log(`islands: built ${Object.keys(manifest).join(", ")} into static/dist`);
