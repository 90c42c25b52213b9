// Runs every islands/*.test.ts: Node 20 cannot run TypeScript itself, so each
// test is bundled by esbuild into a temporary directory and the bundles are
// run by `node --test`. Exits with node's status, so `npm test` fails when a
// test does.
import * as esbuild from "esbuild";
import { spawnSync } from "node:child_process";
import { mkdtempSync, readdirSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";

const islands = path.dirname(fileURLToPath(import.meta.url));
const tests = readdirSync(islands)
  .filter((f) => f.endsWith(".test.ts"))
  .sort();
if (tests.length === 0) {
  console.error("islands/test.mjs: no islands/*.test.ts found");
  process.exit(1);
}

const outdir = mkdtempSync(path.join(os.tmpdir(), "selfmap-islands-test-"));
let status = 1;
try {
  // One build per test, so each sees its own source location as
  // import.meta.url and can find fixtures relative to islands/, not to the
  // temporary directory it runs from.
  await Promise.all(
    tests.map((f) =>
      esbuild.build({
        entryPoints: [path.join(islands, f)],
        bundle: true,
        platform: "node",
        format: "esm",
        target: ["node20"],
        outdir,
        // .mjs: the temporary directory has no package.json saying "type": "module".
        outExtension: { ".js": ".mjs" },
        sourcemap: "inline",
        define: { "import.meta.url": JSON.stringify(pathToFileURL(path.join(islands, f)).href) },
        logLevel: "warning",
      }),
    ),
  );
  const bundles = tests.map((f) => path.join(outdir, f.replace(/\.ts$/, ".mjs")));
  const run = spawnSync(process.execPath, ["--enable-source-maps", "--test", ...bundles], { stdio: "inherit" });
  if (run.error) throw run.error;
  status = run.status ?? 1; // null when node was killed by a signal
} finally {
  rmSync(outdir, { recursive: true, force: true });
}
process.exit(status);
