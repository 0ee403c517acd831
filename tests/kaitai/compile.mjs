// Compiles every generated/kaitai/*.ksy with the Kaitai Struct compiler (the npm build the
// Web IDE runs) to Python and JavaScript, into target/kaitai/<language>/; any compiler
// error fails the run. Imports resolve against generated/kaitai/.
// Usage: node tests/kaitai/compile.mjs
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { createRequire } from "node:module";

const require = createRequire(import.meta.url);
const compiler = require("kaitai-struct-compiler");
const yaml = require("js-yaml");

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");
const dir = path.join(root, "generated/kaitai");
const out = path.join(root, "target/kaitai");
const languages = ["python", "javascript"];

// The YAML loader fails on a duplicate key, which a .ksy must not have either.
const load = (name) => yaml.load(fs.readFileSync(path.join(dir, name), "utf8"), { filename: name });
const importer = { importYaml: (name) => Promise.resolve(load(`${name}.ksy`)) };

const files = fs.readdirSync(dir).filter((f) => f.endsWith(".ksy")).sort();
if (files.length === 0) throw new Error(`no .ksy file in ${dir}`);
for (const lang of languages) {
  fs.rmSync(path.join(out, lang), { recursive: true, force: true });
  fs.mkdirSync(path.join(out, lang), { recursive: true });
}
let failed = 0;
let written = 0;
for (const file of files) {
  const ksy = load(file);
  for (const lang of languages) {
    let compiled;
    try {
      compiled = await compiler.compile(lang, ksy, importer, false);
    } catch (e) {
      failed += 1;
      console.error(`${file} (${lang}): ${e && e.message ? e.message : e}`);
      continue;
    }
    // Each file's own parser; the imported files' come from their own compilation.
    const own = Object.keys(compiled).filter((n) => n.toLowerCase().replace(/\.(py|js)$/, "") === ksy.meta.id.replace(/_/g, lang === "python" ? "_" : ""));
    if (own.length !== 1) {
      failed += 1;
      console.error(`${file} (${lang}): no output named for ${ksy.meta.id} among ${Object.keys(compiled)}`);
      continue;
    }
    fs.writeFileSync(path.join(out, lang, own[0]), compiled[own[0]]);
    written += 1;
  }
}
console.log(`kaitai-struct-compiler ${compiler.version}: ${files.length} .ksy files, ${written} parsers (${languages.join(", ")}) in target/kaitai, ${failed} errors`);
if (failed) process.exit(1);
