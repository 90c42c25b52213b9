// Runs every islands/*.test.ts: Node 20 cannot run TypeScript itself, so each
// test is bundled by esbuild into a temporary directory and the bundles are
// run by `node --test`. Quiet when all pass: one line with the count (which
// .ci/run reads). When one fails, node's whole report (spec reporter, with
// each failure and what the tests logged) is printed. Exits with node's
// status, so `npm test` fails when a test does.
import * as esbuild from "esbuild";
import { spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, readdirSync, rmSync } from "node:fs";
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
  const report = path.join(outdir, "report.txt");
  const run = spawnSync(
    process.execPath,
    ["--enable-source-maps", "--test", "--test-reporter=spec", `--test-reporter-destination=${report}`, ...bundles],
    { stdio: "inherit" },
  );
  if (run.error) throw run.error;
  status = run.status ?? 1; // null when node was killed by a signal
  let text = "";
  try {
    text = readFileSync(report, "utf8");
  } catch {
    // node stopped before writing it; its status says so
  }
  const passed = text.match(/^\u2139 pass (\d+)$/m); // the spec reporter's "ℹ pass N"
  if (status === 0 && passed) {
    console.log(`islands: ${passed[1]} node tests passed (${tests.join(", ")})`);
  } else {
    process.stderr.write(text);
    status ||= 1; // a report without its counts is a failure too
  }
} finally {
  rmSync(outdir, { recursive: true, force: true });
}
process.exit(status);
