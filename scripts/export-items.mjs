// Exports the IPIP-NEO-120 items of our nine locales from the pinned npm
// package @alheimsins/b5-johnson-120-ipip-neo-pi-r into
// internal/exam/ipipneo/items.gen.json, which the Go binary embeds. The file
// is generated, not committed: the items stay in their package.
//
// Each language keeps its own id, domain, facet and keying as the package
// has them, so the Go tests can check them against English; the Go side
// scores with the English keying only.
import { createRequire } from "node:module";
import { writeFileSync, readFileSync } from "node:fs";
import path from "node:path";

const require = createRequire(import.meta.url);
const pkgName = "@alheimsins/b5-johnson-120-ipip-neo-pi-r";
const pkg = JSON.parse(readFileSync(require.resolve(`${pkgName}/package.json`), "utf8"));
const { getQuestions } = require(pkgName);

// package language folder -> our locale tag
const languages = { en: "en", "zh-cn": "zh-CN", "zh-hk": "zh-HK", fr: "fr", es: "es", ja: "ja", de: "de", "pt-br": "pt", ko: "ko" };

const out = { package: pkgName, version: pkg.version, languages: {} };
for (const [from, to] of Object.entries(languages)) {
  out.languages[to] = getQuestions(from).map(({ id, text, keyed, domain, facet }) => ({ id, text, keyed, domain, facet }));
}
const root = path.dirname(path.dirname(new URL(import.meta.url).pathname));
const file = path.join(root, "internal", "exam", "ipipneo", "items.gen.json");
writeFileSync(file, JSON.stringify(out) + "\n");
console.log(`items: exported ${Object.keys(languages).length} languages of ${pkgName}@${pkg.version}`);
