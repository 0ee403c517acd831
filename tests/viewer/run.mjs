// The viewer's test, in a real browser: headless Chromium (Playwright) opens
// generated/docs/viewer/index.html from file://, decodes samples/dge_stream.hex through the
// page's own controls, then decodes random words of every kind per architecture (and
// random records of every record kind); every word's (record's) object must equal
// `dmaspec decode --json`'s (`--struct NAME`) byte for byte (the same JSON text).
// A screenshot goes to target/viewer/viewer.png (with --readme, also to assets/viewer.png).
// Usage: node tests/viewer/run.mjs [--readme] [--words N] [--node] [--checks]
// (--node: the same comparison with decode.js run by Node, no browser: quicker, for work
// on the interpreter; CI runs the browser. --checks: only the sample and the page's
// checks — verdicts, paging, editing, links, keys — without the random comparisons.)
import { execFileSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { createRequire } from "node:module";
import { chromium } from "playwright-core";

const require = createRequire(import.meta.url);
const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");
const viewer = path.join(root, "generated/docs/viewer");
const out = path.join(root, "target/viewer");
const bin = process.env.DMASPEC_BIN || path.join(root, "target/debug/dmaspec");
const chromiumPath = process.env.CHROMIUM || "/usr/bin/chromium";
const args = process.argv.slice(2);
const count = Number(args[args.indexOf("--words") + 1]) || 2000;
fs.mkdirSync(out, { recursive: true });

const { Dictionary, setLeaf } = require(path.join(viewer, "decode.js"));
const script = fs.readFileSync(path.join(viewer, "dmaspec.js"), "utf8");
const spec = JSON.parse(script.slice(script.indexOf("= ") + 2, script.lastIndexOf(";")));
const dict = new Dictionary(spec);

// A seeded generator (xorshift32), so a failure can be reproduced with the same seed.
const seed = Number(process.env.SEED) || 0x5eed1e55;
let state = seed >>> 0 || 1;
function rand() {
  state ^= state << 13;
  state >>>= 0;
  state ^= state >>> 17;
  state ^= state << 5;
  state >>>= 0;
  return state;
}

// One word of kind `w`: random bytes (half the time with about half of them zero, so
// small values, zero arms and NUL-padded text occur too), its opcode and sub-opcode set.
function wordOf(w) {
  const b = new Uint8Array(64);
  const sparse = rand() % 2 === 0;
  for (let i = 0; i < 64; i++) b[i] = sparse && rand() % 2 ? 0 : rand() & 0xff;
  const leaves = dict.leafConfidence.get(w.name);
  for (const l of leaves.filter((l) => l.type.startsWith("ascii")) ) {
    if (rand() % 2) {
      const n = rand() % l.size;
      for (let i = 0; i < l.size; i++) b[l.offset + i] = i < n ? 0x61 + (rand() % 26) : 0;
    }
  }
  b[0] = w.opcode.value;
  const sub = w.opcode.sub_opcode;
  if (sub) for (let i = 0; i < sub.size; i++) b[sub.offset + i] = (sub.value >> (8 * i)) & 0xff;
  return b;
}

// `n` words cycling through every kind of `arch`; an extension is put after one of its
// leads two times in three (else it stands alone: decode's "must immediately follow"),
// and every tenth word has an opcode no word of `arch` has.
function stream(arch, n) {
  const kinds = spec.words.filter((w) => w.arch.includes(arch));
  const taken = new Set(kinds.map((w) => w.opcode.value));
  const words = [];
  for (let i = 0; words.length < n; i++) {
    if (i % 10 === 9) {
      let op;
      do op = rand() & 0xff; while (taken.has(op));
      const b = wordOf(kinds[0]);
      b[0] = op;
      words.push(b);
      continue;
    }
    // Count only the kinds' turns: with i itself, a multiple of 10 kinds would never reach
    // the kinds whose turn falls on every tenth word (30 on maverick).
    const w = kinds[(i - Math.floor(i / 10)) % kinds.length];
    if (w.follows.length && rand() % 3) {
      const lead = dict.wordByName.get(w.follows[rand() % w.follows.length]);
      if (lead.arch.includes(arch)) words.push(wordOf(lead));
    }
    words.push(wordOf(w));
  }
  return words.slice(0, n);
}

const toHex = (words) =>
  words.map((b) => Array.from(b, (x) => x.toString(16).padStart(2, "0")).join("")).join("\n") + "\n";

// decode --json's instruction (or, with --struct, record) objects, one JSON text each.
function cli(file, arch, record) {
  const as = record ? ["--struct", record] : [];
  const text = execFileSync(bin, ["decode", "--hex", "--json", "--arch", arch, ...as, file], {
    maxBuffer: 1 << 30,
    encoding: "utf8",
  });
  return text.split("\n").filter((l) => l.startsWith('{"index"')).map((l) => l.replace(/,$/, ""));
}

// decode --asm's lines.
function cliAsm(file, arch) {
  const text = execFileSync(bin, ["decode", "--hex", "--asm", "--arch", arch, file], {
    maxBuffer: 1 << 30,
    encoding: "utf8",
  });
  return text.split("\n").slice(0, -1);
}

// The page's lines (`dmaspec decode --asm`'s syntax) equal the CLI's, line for line.
function compareLines(what, page, expected) {
  const bad = page.map((l, i) => [i, l]).filter(([i, l]) => l !== expected[i]);
  for (const [i, l] of bad.slice(0, 5)) console.error(`${what} word #${i}: page ${l}\n  vs CLI ${expected[i]}`);
  if (bad.length || page.length !== expected.length) {
    throw new Error(`${what}: ${bad.length} of ${page.length} lines (CLI ${expected.length}) differ from decode --asm`);
  }
}

// The first key path where two JSON texts differ, for the failure message.
function firstDiff(a, b, p = "") {
  if (JSON.stringify(a) === JSON.stringify(b)) return null;
  if (a && b && typeof a === "object" && typeof b === "object") {
    const ka = Object.keys(a);
    const kb = Object.keys(b);
    if (ka.join() !== kb.join()) return `${p}: keys [${ka}] vs [${kb}]`;
    for (const k of ka) {
      const d = firstDiff(a[k], b[k], `${p}/${k}`);
      if (d) return d;
    }
  }
  return `${p}: page ${JSON.stringify(a)} vs CLI ${JSON.stringify(b)}`;
}

function compare(what, page, expected) {
  if (page.length !== expected.length) {
    throw new Error(`${what}: the page decoded ${page.length} words, the CLI ${expected.length}`);
  }
  let bad = 0;
  for (let i = 0; i < page.length; i++) {
    if (page[i] !== expected[i]) {
      if (bad++ < 5) {
        console.error(`${what} word #${i}: ${firstDiff(JSON.parse(page[i]), JSON.parse(expected[i]))}`);
      }
    }
  }
  if (bad) throw new Error(`${what}: ${bad} of ${page.length} words differ from decode --json`);
}

// The verdict `dmaspec validate` gives and the findings `decode --json` lists, from an
// instruction (record) object: what the page must show under each word.
function expectedVerdict(o) {
  if (o.struct === null) return { state: "undecoded", findings: [["error", o.error]] };
  const findings = (o.violations || []).map((v) => ["violation", v.rule])
    .concat((o.constant_mismatches || []).map((c) => ["constant", c.field]))
    .concat((o.undecided || []).map((v) => ["undecided", v.rule]))
    .concat((o.compiler_findings || []).map((v) => ["compiler", v.rule]));
  const faults = findings.some((f) => f[0] !== "compiler" && f[0] !== "undecided");
  const state = faults ? "invalid" : o.undecided ? "undecided" : "valid";
  return { state, findings };
}

// The page's verdict in the same terms (an undecoded word's finding is its error text).
const pageVerdict = (v) => ({ state: v.state, findings: v.findings.map((f) => [f.kind, f.id === null ? f.text : f.id]) });

// `dmaspec validate`'s lines per word offset: [faults, undecided, warnings]. `--wide`: one
// line a finding (by default a long finding is wrapped to 120 columns).
function cliValidate(file, arch, record) {
  const as = record ? ["--struct", record] : [];
  let text;
  try {
    text = execFileSync(bin, ["validate", "--wide", "--hex", "--arch", arch, ...as, file], { maxBuffer: 1 << 30, encoding: "utf8", stdio: ["ignore", "pipe", "ignore"] });
  } catch (e) {
    text = e.stdout;
  }
  const at = new Map();
  for (const l of text.split("\n").filter(Boolean)) {
    const m = /^offset (\d+) (undecided: |warning: )?/.exec(l);
    const n = at.get(Number(m[1])) || [0, 0, 0];
    n[{ "undecided: ": 1, "warning: ": 2 }[m[2]] || 0] += 1;
    at.set(Number(m[1]), n);
  }
  return at;
}

// Every word's verdict and findings on the page equal decode --json's, and its validity
// and number of faults and warnings equal `dmaspec validate`'s.
function compareVerdicts(what, verdicts, expected, validated) {
  let bad = 0;
  for (let i = 0; i < expected.length; i++) {
    const o = JSON.parse(expected[i]);
    const want = JSON.stringify(expectedVerdict(o));
    const got = JSON.stringify(pageVerdict(verdicts[i]));
    const [faults, open, warnings] = validated.get(o.offset) || [0, 0, 0];
    const count = (kind) => verdicts[i].findings.filter((f) => f.kind === kind).length;
    const counted = verdicts[i].findings.length - count("compiler") - count("undecided");
    const problem = got !== want ? `page ${got} vs decode --json ${want}`
      : ["valid", "undecided"].includes(verdicts[i].state) !== (faults === 0) || counted !== faults ||
        count("undecided") !== open || count("compiler") !== warnings
        ? `page ${got} vs validate's ${faults} faults, ${open} undecided and ${warnings} warnings` : null;
    if (problem && bad++ < 5) console.error(`${what} word #${i}: ${problem}`);
  }
  if (bad) throw new Error(`${what}: the verdicts of ${bad} words differ from decode --json's or validate's`);
}

// The random streams of every architecture against the CLI; `decode` gives the page's
// (or Node's) JSON text per word.
async function randomStreams(decode, verdicts, asm) {
  let total = 0;
  for (const arch of spec.archs.map((a) => a.name)) {
    const file = path.join(out, `random-${arch}.hex`);
    const hex = toHex(stream(arch, count));
    fs.writeFileSync(file, hex);
    const t = Date.now();
    const expected = cli(file, arch);
    const tc = Date.now() - t;
    const got = await decode(hex, arch);
    compare(`${count} random words, ${arch}`, got, expected);
    if (verdicts) compareVerdicts(`${count} random words, ${arch}`, await verdicts(), expected, cliValidate(file, arch));
    compareLines(`${count} random words, ${arch}`, await asm(hex, arch), cliAsm(file, arch));
    const kinds = new Set(expected.map((l) => JSON.parse(l).struct));
    const want = spec.words.filter((w) => w.arch.includes(arch)).length;
    if (kinds.size - 1 !== want) throw new Error(`${arch}: the stream has ${kinds.size - 1} of its ${want} word kinds`);
    console.log(`${arch}: ${got.length} words of ${kinds.size - 1} kinds (and undecoded ones) ` +
      `and their lines equal decode --json's and decode --asm's (CLI ${tc} ms, viewer ${Date.now() - t - tc} ms)`);
    total += got.length;
  }
  return total;
}

// Random records of every record kind (decode --struct), a quarter as many per kind and
// architecture; `decode` gives the JSON text per record.
async function randomRecords(decode, verdicts) {
  let total = 0;
  const n = Math.ceil(count / 4);
  for (const arch of spec.archs.map((a) => a.name)) {
    for (const r of spec.records) {
      const recs = [];
      for (let i = 0; i < n; i++) {
        const sparse = rand() % 2 === 0;
        recs.push(Uint8Array.from({ length: r.size }, () => (sparse && rand() % 2 ? 0 : rand() & 0xff)));
      }
      const file = path.join(out, `random-${r.name}-${arch}.hex`);
      const hex = toHex(recs);
      fs.writeFileSync(file, hex);
      const expected = cli(file, arch, r.name);
      compare(`${n} random ${r.name} records, ${arch}`, await decode(hex, arch, r.name), expected);
      if (verdicts) {
        compareVerdicts(`${n} random ${r.name} records, ${arch}`, await verdicts(), expected, cliValidate(file, arch, r.name));
      }
      total += n;
    }
  }
  console.log(`records: ${total} random records of ${spec.records.length} kinds equal decode --struct --json's`);
  return total;
}

// `dmaspec regs --json`'s document for a dump, as one JSON text.
function cliRegs(file, name, arch, bundle) {
  const b = bundle ? ["--bundle", bundle] : [];
  const text = execFileSync(bin, ["regs", name, "--hex", "--json", "--arch", arch, ...b, file], {
    maxBuffer: 1 << 30,
    encoding: "utf8",
  });
  return JSON.stringify(JSON.parse(text));
}

// Random dumps of every register file's whole window on each of its architectures, and of
// one element of each array bundle: most slots zero, some random (in holes too, which the
// decoders must keep raw); `decode` gives the page's (or Node's) document as JSON text.
async function randomDumps(decode) {
  let total = 0;
  for (const f of spec.regfiles) {
    for (const arch of f.archs) {
      const own = f.arch_sizes.find(([a]) => a === arch);
      const dumps = [[null, own ? own[1] : f.size]];
      for (const b of f.bundles.filter((x) => x.count > 1 && x.archs.includes(arch))) {
        dumps.push([`${b.name}[${rand() % b.count}]`, b.size]);
      }
      for (const [bundle, size] of dumps) {
        const b = new Uint8Array(size);
        for (let i = 0; i < size; i += 4) {
          if (rand() % 16 === 0) for (let k = 0; k < 4; k++) b[i + k] = rand() & 0xff;
        }
        const file = path.join(out, `random-${f.name}-${arch}.hex`);
        const hex = toHex([b]);
        fs.writeFileSync(file, hex);
        const expected = cliRegs(file, f.name, arch, bundle);
        const got = await decode(hex, f.name, arch, bundle);
        if (got !== expected) {
          throw new Error(`${f.name} ${arch} ${bundle || "window"}: ` +
            firstDiff(JSON.parse(got), JSON.parse(expected)));
        }
        total += JSON.parse(got).registers.length;
      }
    }
  }
  console.log(`registers: random dumps of ${spec.regfiles.length} register files (${total} registers) ` +
    "equal dmaspec regs --json's");
  return total;
}

// Every word's verdict as the page computes it; the words drawn on its page must show
// exactly that (the verdict line's state, one list item per finding, in order).
async function shownVerdicts(page) {
  const [verdicts, wrong] = await page.evaluate(() => {
    const v = window.viewer.decoded.map(window.viewer.verdictOf);
    const wrong = [];
    for (const card of document.querySelectorAll(".word[id]")) {
      const i = Number(card.id.slice(1));
      const box = card.querySelector("[data-verdict]");
      const items = Array.from(box.querySelectorAll("li"), (li) => [li.dataset.kind, li.dataset.id]);
      const want = v[i].findings.map((f) => [f.kind, f.id || ""]);
      if (box.dataset.verdict !== v[i].state || JSON.stringify(items) !== JSON.stringify(want) ||
        (v[i].state !== "valid" && /valid for/.test(box.firstChild.textContent) && !/invalid/.test(box.firstChild.textContent))) {
        wrong.push(`#${i}: shows ${box.dataset.verdict} ${JSON.stringify(items)}, computed ${v[i].state} ${JSON.stringify(want)}`);
      }
    }
    return [v, wrong];
  });
  if (wrong.length) throw new Error(`drawn verdicts differ from the page's own: ${wrong.slice(0, 3).join("; ")}`);
  return verdicts;
}

const check = (name, ok, why) => {
  if (!ok) throw new Error(`${name}: ${why}`);
  console.log(`  ok ${name}`);
};

// A word of `name` from the sample (or made up) with `edit` applied to its bytes.
function crafted(name, edit = () => {}) {
  const w = dict.wordByName.get(name);
  const b = wordOf(w);
  edit(b);
  return b;
}

// The first random word of `arch` for which `want` holds on decode's object (found by the
// Node decoder, then checked against the CLI by the comparison itself).
let pool = null;
function findWord(arch, want) {
  // Random words nearly always break a constant (inst_word_len): these hold theirs.
  pool = pool || stream(arch, 4000).map((b) => {
    const [o] = dict.decodeStream(b, arch);
    for (const l of o.struct ? dict.leafConfidence.get(o.struct) : []) {
      if (l.constant !== null) setLeaf(b, l.offset, l.size, l.bits, l.constant);
    }
    return b;
  });
  for (const b of pool) {
    const [o] = dict.decodeStream(b, arch);
    if (want(o)) return b.slice();
  }
  throw new Error(`no random word found for a crafted case: ${want}`);
}

// The page's behaviour beyond decoding: each check names what it guards.
async function pageChecks(page) {
  const arch = "cayman";
  await page.selectOption("#arch", arch);
  const lead = dict.words.find((w) => w.follows.length === 0 && w.arch.includes(arch) &&
    spec.words.some((x) => x.follows.includes(w.name)));
  const ext = dict.words.find((w) => w.follows.includes(lead.name));
  const noRules = dict.words.find((w) => w.arch.includes(arch) && !dict.ruleSets.has(w.name) && !w.follows.length);
  const clean = (o) => o.struct && !o.violations.length && !o.constant_mismatches && !o.compiler_findings;
  // A stream with a word of every finding kind: valid, a constant that does not hold
  // (inst_word_len 0x11), a header rule broken, only a compiler rule broken, an unknown
  // opcode, an extension that follows nothing, a word no rule checks.
  const cases = {
    valid: findWord(arch, clean),
    constant: findWord(arch, (o) => clean(o) && dict.leafConfidence.get(o.struct).some((l) => l.path === "header.inst_word_len" && l.constant !== null)),
    violation: findWord(arch, (o) => o.struct && o.violations.length && !o.constant_mismatches),
    compiler: findWord(arch, (o) => o.struct && !o.violations.length && !o.constant_mismatches && o.compiler_findings),
    unknown: crafted(lead.name, (b) => { b[0] = 0x42; }),
    orphan: crafted(ext.name),
    norules: noRules ? findWord(arch, (o) => o.struct === noRules.name && !o.constant_mismatches) : null,
  };
  cases.constant[1] = 0x11;
  const names = Object.keys(cases).filter((k) => cases[k]);
  const words = names.map((k) => cases[k]);
  const file = path.join(out, "crafted.hex");
  fs.writeFileSync(file, toHex(words));
  const expected = cli(file, arch);
  const kinds = new Set(expected.flatMap((l) => expectedVerdict(JSON.parse(l)).findings.map((f) => f[0])));
  check("crafted words cover every finding kind", ["violation", "constant", "compiler", "error"].every((k) => kinds.has(k)),
    `decode --json lists only ${[...kinds]}`);
  await page.fill("#hex", toHex(words));
  await page.click("#decode");
  compare("crafted words", await page.evaluate(() => window.viewer.decoded.map(window.viewer.stringify)), expected);
  compareVerdicts("crafted words", await shownVerdicts(page), expected, cliValidate(file, arch));
  const constantVerdict = await page.textContent(`#w${names.indexOf("constant")} [data-verdict]`);
  check("a constant mismatch is not 'valid for cayman'", /^invalid for cayman/.test(constantVerdict), constantVerdict);
  const compilerVerdict = await page.textContent(`#w${names.indexOf("compiler")} [data-verdict]`);
  check("a compiler finding is a warning, not invalid", /^valid for cayman, but it breaks/.test(compilerVerdict), compilerVerdict);

  // Violating fields are marked in the map and the table (class and title).
  const mark = await page.$eval(`#w${names.indexOf("constant")}`, (c) => {
    const box = c.querySelector('.box[data-path="header.inst_word_len"]');
    const tr = c.querySelector('tr[data-path="header.inst_word_len"]');
    return [box.className, box.title, tr.className, tr.title];
  });
  check("a constant mismatch marks its field", /violating/.test(mark[0]) && /constant mismatch/.test(mark[1]) &&
    /violating/.test(mark[2]) && /constant mismatch/.test(mark[3]), JSON.stringify(mark));
  const violated = JSON.parse(expected[names.indexOf("violation")]).violations[0];
  const marked = await page.$$eval(`#w${names.indexOf("violation")} .violating`, (e) => e.map((x) => x.dataset.path));
  check("a violation marks the fields its rule reads",
    violated.fields.every((f) => marked.some((p) => p === f || p.startsWith(f + ".") || p.startsWith(f + "["))),
    `${violated.rule} reads ${violated.fields}, marked ${[...new Set(marked)]}`);

  // The details open beside the table, never over it, and new input clears them.
  await page.hover(`#w${names.indexOf("valid")} tr[data-path] td:last-child`);
  const overlap = await page.evaluate(() => {
    const d = document.getElementById("detail").getBoundingClientRect();
    return Array.from(document.querySelectorAll("table.fields td")).filter((td) => {
      const r = td.getBoundingClientRect();
      return r.width && r.left < d.right && d.left < r.right && r.top < d.bottom && d.top < r.bottom;
    }).length;
  });
  check("the details cover no table cell", overlap === 0 && await page.$("#detail h3"), `${overlap} cells covered`);
  await page.fill("#hex", "b8 1");
  await page.click("#decode");
  const after = await page.evaluate(() => [document.querySelectorAll(".word").length, document.getElementById("detail").querySelector("h3"),
    document.getElementById("status").className, document.getElementById("status").textContent]);
  check("bad input clears the words and the details and shows the error",
    after[0] === 0 && !after[1] && after[2] === "error" && /hex input line 1/.test(after[3]), JSON.stringify(after));

  // Narrow boxes show a name, an index or a bit range that fits, never a clipped name.
  await page.fill("#hex", fs.readFileSync(path.join(root, "samples/dge_stream.hex"), "utf8"));
  await page.click("#decode");
  await page.addStyleTag({ content: ".word { content-visibility: visible !important }" });
  const clipped = await page.$$eval(".bitmap .box", (b) => b.filter((x) => x.textContent && x.scrollWidth > x.clientWidth + 1)
    .map((x) => `${x.dataset.path}: ${x.textContent}`));
  check("no box's label is clipped", clipped.length === 0, clipped.slice(0, 5).join(", "));

  // Runs of reserved (unknown) array bytes fold into one row that opens.
  const fold = await page.$("tr.fold");
  check("runs of reserved bytes fold into one row", fold !== null, "no tr.fold in the sample");
  const before = await page.$$eval("tr[data-path]", (r) => r.filter((x) => !x.hidden).length);
  await fold.click();
  const opened = await page.$$eval("tr[data-path]", (r) => r.filter((x) => !x.hidden).length);
  check("a folded row opens", opened > before + 2, `${before} rows, then ${opened}`);

  // The hex pane follows the fields, and the fields the hex pane.
  // decode --json's objects, with integers beyond 2^53 kept exact (as quoted text).
  const big = (text) => JSON.parse(text.replace(/([:[,])(\d{16,})(?=[,\]}])/g, '$1"BIG$2"'));
  const sampleDoc = cli(path.join(root, "samples/dge_stream.hex"), arch).map(big);
  const field = await page.evaluate(() => window.viewer.decoded[0].boxes.find((b) => b.size === 2 && !b.bits && b.role !== "reserved" && b.role !== "unknown"));
  await page.hover(`#w0 tr[data-path="${field.path}"]`);
  const sel = await page.$$eval("#w0 .byte.sel", (b) => b.map((x) => Number(x.dataset.byte)));
  check("a field highlights its bytes", JSON.stringify(sel) === JSON.stringify([field.offset, field.offset + 1]), JSON.stringify(sel));
  await page.hover(`#w0 .byte[data-byte="${field.offset + 1}"]`);
  const rows = await page.$$eval("#w0 tr.hover", (r) => r.map((x) => x.dataset.path));
  check("a byte highlights its field", rows.includes(field.path), JSON.stringify(rows));

  // Editing a raw value re-encodes the word in the page, as `dmaspec encode` does.
  const edits = await page.evaluate(() => {
    const o = window.viewer.decoded[0];
    const plain = (b) => typeof b.value === "number" && b.raw !== 0n && b.role !== "reserved" && !/opcode|inst_word_len/.test(b.path);
    const bit = o.boxes.find((b) => b.bits && b.bits.width > 1 && plain(b));
    const int = o.boxes.find((b) => !b.bits && b.size >= 2 && plain(b));
    const edits = [bit, int].map((b) => ({ path: b.path, value: (b.bits ? (1 << b.bits.width) - 2 : 0x1234) }));
    // An enum by an enumerator's name (in another case), a flag set by its flags' names.
    const arch = document.getElementById("arch").value;
    const en = o.boxes.find((b) => b.type && b.type.kind === "enum" && !/opcode/.test(b.path));
    const other = en.type.values.find((v) => (v.arch.length === 0 || v.arch.includes(arch)) && v.name !== en.value.name);
    edits.push({ path: en.path, value: other.name.toLowerCase(), json: other.name });
    return edits;
  });
  for (const e of edits) {
    await page.click(`#w0 tr[data-path="${e.path}"] td.raw`);
    await page.fill(`#w0 tr[data-path="${e.path}"] td.raw input`, String(e.value));
    // Off the table, so that no hover of the redrawn row opens the details again.
    await page.mouse.move(0, 0);
    await page.press(`#w0 tr[data-path="${e.path}"] td.raw input`, "Enter");
  }
  // The details opened by the last edit's click show the value it wrote (an enumerator).
  const last = edits[edits.length - 1];
  const shownAfter = await page.textContent("#detail h3");
  check("the details show an edited field's new value", shownAfter.endsWith(`.${last.path} = ${last.json}`), shownAfter);
  const edited = (await page.evaluate(() => window.viewer.bytes())).slice(0, 128);
  const doc = sampleDoc[0];
  for (const e of edits) {
    const keys = e.path.split(/[.[\]]+/).filter(Boolean);
    let at = doc.fields;
    for (const k of keys.slice(0, -1)) at = at[k];
    at[keys[keys.length - 1]] = e.json === undefined ? e.value : e.json;
  }
  const editFile = path.join(out, "edited.json");
  fs.writeFileSync(editFile, JSON.stringify([doc]).replace(/"BIG(\d+)"/g, "$1"));
  const encoded = execFileSync(bin, ["encode", "--hex", "--no-validate", "--arch", arch, editFile], { encoding: "utf8" }).trim();
  check("an edited field re-encodes as dmaspec encode does", edited === encoded,
    `${edits.map((e) => `${e.path}=${e.value}`)}: page ${edited} vs encode ${encoded}`);

  // A flag set by its flags' names (src_start_addr.marker, ADDR8_MARKER: a union's
  // discriminator, so the word is read again with the arm it now selects): the CLI reads
  // the page's bytes with those flags.
  const flags = await page.evaluate(() => {
    const b = window.viewer.decoded[0].boxes.find((x) => x.type && x.type.kind === "flags" && x.type.bits.length >= 2);
    return b && { path: b.path, names: b.type.bits.slice(0, 2).map((x) => x.name) };
  });
  await page.click(`#w0 tr[data-path="${flags.path}"] td.raw`);
  await page.fill(`#w0 tr[data-path="${flags.path}"] td.raw input`, flags.names.join(" | ").toLowerCase());
  await page.press(`#w0 tr[data-path="${flags.path}"] td.raw input`, "Enter");
  const flagged = (await page.evaluate(() => window.viewer.bytes())).slice(0, 128);
  const flagFile = path.join(out, "flagged.hex");
  fs.writeFileSync(flagFile, flagged + "\n");
  const reread = cli(flagFile, arch).map(big)[0];
  const got = flags.path.split(".").reduce((at, k) => at[k], reread.fields).flags;
  check("a flag set is edited by its flags' names", JSON.stringify(got) === JSON.stringify(flags.names),
    `${flags.path} = ${flags.names.join("|")}: decode --json reads ${JSON.stringify(got)}`);

  // A name no enumerator has: the bytes stay, and the message lists the names there are.
  const enumPath = await page.evaluate(() => window.viewer.decoded[0].boxes.find((b) => b.type && b.type.kind === "enum" && !/opcode/.test(b.path)).path);
  await page.click(`#w0 tr[data-path="${enumPath}"] td.raw`);
  await page.fill(`#w0 tr[data-path="${enumPath}"] td.raw input`, "NO_SUCH_NAME");
  await page.press(`#w0 tr[data-path="${enumPath}"] td.raw input`, "Enter");
  const refused = await page.textContent("#status");
  check("an unknown enumerator name is refused, naming the choices",
    /`NO_SUCH_NAME` is no \w+ enumerator in \w+ \(one of: /.test(refused) &&
      (await page.evaluate(() => window.viewer.bytes())).slice(0, 128) === flagged, refused);

  // A link carries the input, within its cap.
  await page.fill("#hex", toHex(words));
  await page.click("#decode");
  await page.click("#share");
  const link = await page.inputValue("#link");
  const other = await browser.newPage();
  await other.goto(link);
  const shared = await other.evaluate(() => window.viewer.decoded.map(window.viewer.stringify));
  await other.close();
  compare("the shared link", shared, expected);
  check("a link carries the input", shared.length === words.length, link.slice(0, 80));

  // 8,192 words: the first page is drawn quickly, the rest a page at a time.
  const many = stream(arch, 8192);
  const manyFile = { name: "many.bin", mimeType: "application/octet-stream", buffer: Buffer.concat(many.map((b) => Buffer.from(b))) };
  // Timed in the page, from the file's arrival (its transfer from the test is not the page's).
  await page.evaluate(() => document.getElementById("file").addEventListener("change", () => {
    window.t0 = performance.now();
  }, { capture: true, once: true }));
  await page.setInputFiles("#file", manyFile);
  const firstPage = Math.round(await (await page.waitForFunction(() =>
    /^8192 words/.test(document.getElementById("status").textContent) && performance.now() - window.t0)).jsonValue());
  const drawn = await page.$$eval(".word", (w) => w.length);
  check(`8,192 raw words: the first page drawn in ${firstPage} ms`, firstPage < 3000 && drawn === 100, `${firstPage} ms, ${drawn} words drawn`);
  const whole = Math.round(await (await page.waitForFunction(() =>
    window.viewer.decoded && window.viewer.decoded.length === 8192 && performance.now() - window.t0)).jsonValue());
  check(`8,192 raw words: all decoded in the background in ${whole} ms`, whole < 30000, `${whole} ms`);
  const [second, took] = await page.evaluate(async () => {
    const t = performance.now();
    document.getElementById("next").click();
    await new Promise((res) => requestAnimationFrame(() => setTimeout(res, 0)));
    return [document.querySelector(".word").id, Math.round(performance.now() - t)];
  });
  check(`paging: the next page drawn in ${took} ms`, second === "w100" && took < 3000, `${second}, ${took} ms`);
  await page.keyboard.press("ArrowRight");
  check("paging: → the page after", await page.$eval(".word", (w) => w.id) === "w200", "");
  await page.click("#share");
  check("a link is refused above its cap, with a message", /over the \d+ a link carries/.test(await page.textContent("#status")) &&
    await page.inputValue("#link") === "", await page.textContent("#status"));

  // A file is hex text or raw words by its content, whatever its name.
  const sampleHex = fs.readFileSync(path.join(root, "samples/dge_stream.hex"));
  const read = async (file) => {
    await page.evaluate(() => { window.viewer.decoded = null; });
    await page.setInputFiles("#file", file);
    await page.waitForFunction(() => window.viewer.decoded);
  };
  await read({ name: "dump.bin", mimeType: "application/octet-stream", buffer: sampleHex });
  const asHex = await page.evaluate(() => window.viewer.decoded.length);
  await read({ name: "words.hex", mimeType: "text/plain", buffer: Buffer.from(many[0]) });
  const asRaw = await page.evaluate(() => window.viewer.decoded.map((o) => o.opcode));
  check("hex text is read as hex, raw words as raw, by content", asHex === sampleDoc.length && asRaw.length === 1 && asRaw[0] === many[0][0],
    `${asHex} words from hex text, ${JSON.stringify(asRaw)} from raw bytes`);

  // The keyboard: j/k between words, ↓/↑ between fields, Enter details, Escape closes.
  await page.fill("#hex", toHex(words));
  await page.click("#decode");
  await page.evaluate(() => document.activeElement.blur());
  await page.keyboard.press("j");
  await page.keyboard.press("j");
  const current = await page.$eval(".word.current", (w) => w.id);
  await page.keyboard.press("k");
  const back = await page.$eval(".word.current", (w) => w.id);
  await page.keyboard.press("ArrowDown");
  await page.keyboard.press("ArrowDown");
  const cursorRow = await page.$eval("#w0 tr.cursor", (r) => r.dataset.path);
  await page.keyboard.press("Enter");
  const opened2 = await page.textContent("#detail h3");
  await page.keyboard.press("Escape");
  const closed = await page.$("#detail h3");
  const secondRow = await page.$$eval("#w0 tr[data-path]", (r) => r.filter((x) => !x.hidden)[1].dataset.path);
  check("keyboard: j/k words, arrows fields, Enter details, Escape closes",
    current === "w1" && back === "w0" && cursorRow === secondRow && opened2.includes(secondRow) && !closed,
    JSON.stringify([current, back, cursorRow, secondRow, opened2, !!closed]));
  await page.fill("#hex", toHex([words[0]]));
  await page.focus("#decode");
  await page.keyboard.press("Enter");
  check("keyboard: Enter on a button is the button's", await page.evaluate(() => window.viewer.decoded.length) === 1, "");
}

// The texts of the register cards drawn on the page, by offset: "= 0x…" of each heading.
const drawnRegisters = (page) => page.$$eval(".word.register h2", (h) => h.map((x) => {
  const m = /^0x([0-9a-f]+)\s+(\S+) = 0x([0-9a-f]{8})/.exec(x.textContent);
  return [parseInt(m[1], 16), m[2], parseInt(m[3], 16)];
}));

// Register mode beyond decoding: the pager, the unmapped slots' summary, hover and edits.
async function registerChecks(page) {
  await page.selectOption("#arch", "cayman");
  await page.selectOption("#as", "regs:UDMA_M2S");
  await page.fill("#bundle", "");

  // A 128 KiB dump of UDMA_M2S's whole window, a quarter of its slots random: every
  // register is reached by paging, and M2S_Q[15]'s by going to it, with regs --json's values.
  const whole = new Uint8Array(0x20000);
  for (let i = 0; i < whole.length; i += 4) {
    if (rand() % 4 === 0) for (let k = 0; k < 4; k++) whole[i + k] = rand() & 0xff;
  }
  const wholeFile = path.join(out, "m2s-128k.hex");
  fs.writeFileSync(wholeFile, toHex([whole]));
  const expected = JSON.parse(cliRegs(wholeFile, "UDMA_M2S", "cayman", null));
  const want = new Map(expected.registers.map((r) => [r.offset, `${r.bundle}.${r.register} = ${r.value}`]));
  await page.setInputFiles("#file", { name: "m2s.bin", mimeType: "application/octet-stream", buffer: Buffer.from(whole) });
  await page.waitForFunction(() => window.viewer.decoded && window.viewer.decoded.registers);
  const info = await page.textContent("#pageinfo");
  const n = expected.registers.length;
  check(`a 128 KiB UDMA_M2S dump: the pager counts its ${n} registers`,
    info.endsWith(`of ${n}`) && (await page.textContent("#status")).startsWith(`${n} registers of UDMA_M2S`), info);
  const seen = new Map();
  const runSizes = [];
  for (let p = 0; ; p++) {
    for (const [o, name, v] of await drawnRegisters(page)) seen.set(o, `${name} = ${v}`);
    runSizes.push(...await page.$$eval("details.unmapped", (d) => d.map((x) => Number(x.dataset.slots))));
    if (await page.$eval("#next", (b) => b.disabled)) break;
    await page.click("#next");
  }
  const wrong = [...want].filter(([o, t]) => seen.get(o) !== t);
  check(`paging reaches all ${n} registers with regs --json's values`, seen.size === n && !wrong.length,
    `${seen.size} drawn; ${wrong.slice(0, 3).map(([o, t]) => `0x${o.toString(16)} ${t} drawn as ${seen.get(o)}`)}`);
  const slots = expected.unmapped.length;
  const summed = runSizes.reduce((a, b) => a + b, 0);
  check(`its ${slots} unmapped nonzero slots are ${runSizes.length} lines over the pages, not ${slots}`,
    (await page.textContent("#status")).includes(`${slots.toLocaleString("en-US")} nonzero slots outside any register, in ${runSizes.length} runs`) &&
      summed === slots && runSizes.length < slots / 10, `${runSizes.length} lines hold ${summed} slots`);
  await page.fill("#goto", "M2S_Q[15]");
  await page.press("#goto", "Enter");
  const current = await page.evaluate(() => { const h = document.querySelector(".word.current h2"); return h ? h.textContent : document.getElementById("status").textContent; });
  const q15 = expected.registers.filter((r) => r.bundle === "M2S_Q[15]");
  const drawn = new Map();
  for (const [o, name, v] of await drawnRegisters(page)) drawn.set(o, `${name} = ${v}`);
  if (q15.some((r) => !drawn.has(r.offset)) && !(await page.$eval("#next", (b) => b.disabled))) {
    await page.click("#next");
    for (const [o, name, v] of await drawnRegisters(page)) drawn.set(o, `${name} = ${v}`);
  }
  check(`go to M2S_Q[15]: its ${q15.length} registers, with regs --json's values`,
    q15.length > 0 && q15.every((r) => drawn.get(r.offset) === want.get(r.offset)) && current.includes("M2S_Q[15].desc_pref_cfg ="),
    `${current}; ${q15.filter((r) => drawn.get(r.offset) !== want.get(r.offset)).length} missing or different`);

  // A dump of the window's first 16 KiB with four nonzero slots no register claims.
  // supp-descriptor-ring-field-tables §6.1, M2S_Q[i] at 0x1000 + i*0x1000: after
  // hdr_pref_fifo (+0x0c) comes desc_rd_aruser (+0x18), so +0x10 and +0x14 are no
  // register's; the last row is out_of_order (+0x104), so +0x108..+0xffc are none's.
  // In M2S_Q[2]: 0x3010, 0x3014 (one run) and 0x3200, 0x3ffc (another); the doorbell
  // TDRTP_inc (+0x38, val[23:0]) holds 5 and is a register, not a slot.
  const holes = new Uint8Array(0x4000);
  for (const o of [0x3010, 0x3014, 0x3200, 0x3ffc]) holes[o] = 0xa5;
  holes[0x3038] = 5;
  const holesFile = path.join(out, "m2s-holes.hex");
  fs.writeFileSync(holesFile, toHex([holes]));
  await page.fill("#hex", toHex([holes]));
  await page.click("#decode");
  const cliHoles = JSON.parse(cliRegs(holesFile, "UDMA_M2S", "cayman", null));
  await page.fill("#goto", "0x3010");
  await page.press("#goto", "Enter");
  const runs = await page.$$eval("details.unmapped summary", (s) => s.map((x) => x.textContent));
  check("4 unmapped nonzero slots in M2S_Q[2] are 2 lines, as regs --json counts them",
    cliHoles.unmapped.length === 4 && (await page.textContent("#status")).includes("4 nonzero slots outside any register, in 2 runs") &&
    JSON.stringify(runs) === JSON.stringify(["0x03010–0x03014: 2 nonzero slots outside any register (in M2S_Q[2])",
      "0x03200–0x03ffc: 2 nonzero slots outside any register (in M2S_Q[2])"]), JSON.stringify(runs));
  await page.click("details.unmapped:nth-of-type(1) summary");
  await page.click("details.unmapped >> nth=1 >> summary");
  // A run lists its slots on `toggle`, which the browser fires as a task after the click.
  await page.waitForFunction(() => [...document.querySelectorAll("details.unmapped pre")]
    .every((p) => p.textContent !== ""), null, { timeout: 5000 }).catch(() => {});
  const listed = await page.$$eval("details.unmapped pre", (p) => p.map((x) => x.textContent));
  check("a run opens to its slots", listed[1] === "0x03200  0x000000a5\n0x03ffc  0x000000a5", JSON.stringify(listed));

  // The register's heading opens the register's own details.
  await page.fill("#goto", "M2S_Q[2].TDRTP_inc");
  await page.press("#goto", "Enter");
  await page.hover(".word.current h2");
  const regDetail = await page.evaluate(() => [document.querySelector("#detail h3").textContent, document.querySelectorAll("#detail li").length]);
  check("a register's heading opens its details", regDetail[0] === "M2S_Q[2].TDRTP_inc = 0x00000005" && regDetail[1] > 0, JSON.stringify(regDetail));

  // Hover and edit: the doorbell's val field in the bit map opens its details; an edit
  // writes its bits, and the details, bit map and heading show the new value at once.
  await page.fill("#goto", "M2S_Q[2].TDRTP_inc");
  await page.press("#goto", "Enter");
  const bell = ".word.current";
  await page.hover(`${bell} .box[data-path="val"]`);
  const hovered = await page.evaluate(() => [document.querySelector("#detail h3").textContent,
    document.querySelectorAll("#detail li").length, Array.from(document.querySelectorAll(".word.current tr.hover"), (r) => r.dataset.path)]);
  check("a register's field in the bit map opens its details and outlines its row",
    hovered[0] === "M2S_Q[2].TDRTP_inc.val = 0x5" && hovered[1] > 0 && hovered[2].join() === "val", JSON.stringify(hovered));
  await page.click(`${bell} tr[data-path="val"] td.raw`);
  await page.fill(`${bell} tr[data-path="val"] td.raw input`, "0x123456");
  await page.mouse.move(0, 0);
  await page.press(`${bell} tr[data-path="val"] td.raw input`, "Enter");
  const after = await page.evaluate(() => [document.querySelector("#detail h3").textContent,
    document.querySelector('.word.register tr.edited') && document.querySelector('.word.register tr.edited').closest(".word").querySelector("h2").textContent,
    document.querySelector('#w' + window.viewer.decoded.registers.findIndex((r) => r.offset === 0x3038) + ' .box[data-path="val"]').title]);
  const editedFile = path.join(out, "m2s-edited.hex");
  fs.writeFileSync(editedFile, await page.evaluate(() => window.viewer.bytes()) + "\n");
  const reread = JSON.parse(cliRegs(editedFile, "UDMA_M2S", "cayman", null)).registers.find((r) => r.offset === 0x3038);
  check("an edited register field: details, bit map and heading show it, regs reads it",
    after[0] === "M2S_Q[2].TDRTP_inc.val = 0x123456" && /TDRTP_inc = 0x00123456/.test(after[1]) &&
    /= 1193046$/.test(after[2]) && reread.value === 0x123456 &&
    JSON.stringify(await page.evaluate(() => window.viewer.decoded)) === cliRegs(editedFile, "UDMA_M2S", "cayman", null), JSON.stringify(after));
}

const t0 = Date.now();
if (args.includes("--node")) {
  const { parseHex, stringify } = require(path.join(viewer, "decode.js"));
  const total = await randomStreams((hex, arch) =>
    dict.decodeStream(parseHex(hex), arch).map(stringify), null, (hex, arch) => {
    const b = parseHex(hex);
    const lines = [];
    for (let o = 0; o + 64 <= b.length; o += 64) lines.push(dict.asm(b.subarray(o, o + 64), arch));
    return lines;
  });
  const records = await randomRecords((hex, arch, r) => dict.decodeRecords(parseHex(hex), r, arch).map(stringify));
  await randomDumps(async (hex, name, arch, bundle) =>
    JSON.stringify(dict.decodeRegisters(name, arch, bundle, parseHex(hex))));
  console.log(`viewer (node): ${total} random words and ${records} records equal decode --json's (seed ${seed}), ` +
    `${((Date.now() - t0) / 1000).toFixed(1)} s`);
  process.exit(0);
}
const browser = await chromium.launch({
  executablePath: chromiumPath,
  args: ["--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
    "--disable-background-networking", "--disable-component-update", "--disable-sync"],
  // Playwright gives every launch a fresh profile directory of its own.
});
let failed = null;
try {
  const page = await browser.newPage({ viewport: { width: 1500, height: 900 } });
  const errors = [];
  page.on("pageerror", (e) => errors.push(e.message));
  await page.goto(pathToFileURL(path.join(viewer, "index.html")).href);

  // The sample stream, through the page's controls.
  const sample = path.join(root, "samples/dge_stream.hex");
  await page.fill("#hex", fs.readFileSync(sample, "utf8"));
  await page.selectOption("#arch", "cayman");
  await page.click("#decode");
  const shown = await page.$$eval(".word", (w) => w.length);
  const sampleWords = await page.evaluate(() => window.viewer.decoded.map(window.viewer.stringify));
  compare("samples/dge_stream.hex", sampleWords, cli(sample, "cayman"));
  if (shown !== sampleWords.length) throw new Error(`${shown} words drawn, ${sampleWords.length} decoded`);
  // Each drawn word shows its line, decode --asm's.
  compareLines("samples/dge_stream.hex", await page.$$eval(".word code.asm", (c) => c.map((x) => x.textContent)),
    cliAsm(sample, "cayman"));
  const boxes = await page.$$eval(".word .box", (b) => b.length);
  if (boxes < sampleWords.length * 10) throw new Error(`only ${boxes} boxes drawn`);
  await page.screenshot({ path: path.join(out, "viewer.png"), fullPage: false });
  if (args.includes("--readme")) {
    await page.setViewportSize({ width: 1240, height: 720 });
    await page.hover(`#w0 .box[data-path="src_start_addr.marker"]`);
    await page.screenshot({ path: path.join(root, "assets/viewer.png") });
  }

  // Random words of every kind, per architecture, through the page; their verdicts too.
  const quick = args.includes("--checks");
  const total = quick ? 0 : await randomStreams(async (hex, arch) => {
    await page.selectOption("#arch", arch);
    return page.evaluate((h) => window.viewer.decodeHex(h).map(window.viewer.stringify), hex);
  }, () => shownVerdicts(page), async (hex, arch) => {
    await page.selectOption("#arch", arch);
    return page.evaluate((h) => window.viewer.asmLines(h), hex);
  });
  const records = quick ? 0 : await randomRecords(async (hex, arch, record) => {
    await page.selectOption("#arch", arch);
    await page.selectOption("#as", record);
    return page.evaluate((h) => window.viewer.decodeHex(h).map(window.viewer.stringify), hex);
  }, () => shownVerdicts(page));
  await page.selectOption("#as", "");
  await pageChecks(page);

  // A register dump through the page's controls: M2S queue 3's doorbell. "CSR — UDMA M2S
  // (Memory-to-Stream Descriptor Engine)" §4.1: TDRTP_inc at +0x38 of the M2S_Q bank,
  // val[23:0] = the number of descriptors added; a write of 5 reads back here as 5.
  const bell = new Uint8Array(0x40);
  bell[0x38] = 5;
  await page.selectOption("#arch", "cayman");
  await page.selectOption("#as", "regs:UDMA_M2S");
  await page.fill("#bundle", "M2S_Q[3]");
  await page.fill("#hex", toHex([bell]));
  await page.click("#decode");
  const dump = await page.evaluate(() => window.viewer.decoded);
  const tdrtp = dump.registers.find((r) => r.register === "TDRTP_inc");
  if (!tdrtp || tdrtp.offset !== 0x1000 + 3 * 0x1000 + 0x38 || tdrtp.fields[0].name !== "val" ||
    tdrtp.fields[0].width !== 24 || tdrtp.fields[0].value !== 5) {
    throw new Error(`M2S_Q[3].TDRTP_inc decoded as ${JSON.stringify(tdrtp)}`);
  }
  const heads = await page.$$eval(".word h2", (h) => h.map((x) => x.textContent));
  if (!heads.some((h) => h.includes("M2S_Q[3].TDRTP_inc = 0x00000005"))) {
    throw new Error(`the page does not draw M2S_Q[3].TDRTP_inc: ${heads.slice(0, 3).join(" | ")}`);
  }
  await registerChecks(page);
  const registers = quick ? 0 : await randomDumps(async (hex, name, arch, bundle) => {
    await page.selectOption("#arch", arch);
    await page.selectOption("#as", "regs:" + name);
    await page.fill("#bundle", bundle || "");
    return page.evaluate((h) => JSON.stringify(window.viewer.decodeHex(h)), hex);
  });
  await page.selectOption("#as", "");
  if (errors.length) throw new Error(`errors in the page: ${errors.join("; ")}`);
  console.log(`viewer: ${total} random words, ${records} random records and the sample equal ` +
    `decode --json's, and ${registers} registers of random dumps equal regs --json's (seed ${seed}), ` +
    `${((Date.now() - t0) / 1000).toFixed(1)} s; screenshot ${path.join(out, "viewer.png")}`);
} catch (e) {
  failed = e;
} finally {
  await browser.close();
}
if (failed) {
  console.error(`viewer test FAILED: ${failed.message}`);
  process.exit(1);
}
