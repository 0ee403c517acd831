// The viewer's test, in a real browser: headless Chromium (Playwright) opens
// generated/docs/viewer/index.html from file://, decodes samples/dge_stream.hex through the
// page's own controls, then decodes random words of every kind per architecture (and
// random records of every record kind); every word's (record's) object must equal
// `dmaspec decode --json`'s (`--struct NAME`) byte for byte (the same JSON text).
// A screenshot goes to target/viewer/viewer.png (with --readme, also to assets/viewer.png).
// Usage: node tests/viewer/run.mjs [--readme] [--words N] [--node]
// (--node: the same comparison with decode.js run by Node, no browser: quicker, for work
// on the interpreter; CI runs the browser.)
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

const { Dictionary } = require(path.join(viewer, "decode.js"));
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
    const w = kinds[i % kinds.length];
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

// The random streams of every architecture against the CLI; `decode` gives the page's
// (or Node's) JSON text per word.
async function randomStreams(decode) {
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
    const kinds = new Set(expected.map((l) => JSON.parse(l).struct));
    console.log(`${arch}: ${got.length} words of ${kinds.size - 1} kinds (and undecoded ones) ` +
      `equal decode --json's (CLI ${tc} ms, viewer ${Date.now() - t - tc} ms)`);
    total += got.length;
  }
  return total;
}

// Random records of every record kind (decode --struct), a quarter as many per kind and
// architecture; `decode` gives the JSON text per record.
async function randomRecords(decode) {
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
      compare(`${n} random ${r.name} records, ${arch}`, await decode(hex, arch, r.name), cli(file, arch, r.name));
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

const t0 = Date.now();
if (args.includes("--node")) {
  const { parseHex, stringify } = require(path.join(viewer, "decode.js"));
  const total = await randomStreams((hex, arch) =>
    dict.decodeStream(parseHex(hex), arch).map(stringify));
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
  const boxes = await page.$$eval(".word .box", (b) => b.length);
  if (boxes < sampleWords.length * 10) throw new Error(`only ${boxes} boxes drawn`);
  await page.screenshot({ path: path.join(out, "viewer.png"), fullPage: false });
  if (args.includes("--readme")) {
    await page.setViewportSize({ width: 1240, height: 720 });
    await page.hover(`#w0 .box[data-path="src_start_addr.marker"]`);
    await page.screenshot({ path: path.join(root, "assets/viewer.png") });
  }

  // Random words of every kind, per architecture, through the page.
  const total = await randomStreams(async (hex, arch) => {
    await page.selectOption("#arch", arch);
    return page.evaluate((h) => window.viewer.decodeHex(h).map(window.viewer.stringify), hex);
  });
  const records = await randomRecords(async (hex, arch, record) => {
    await page.selectOption("#arch", arch);
    await page.selectOption("#as", record);
    return page.evaluate((h) => window.viewer.decodeHex(h).map(window.viewer.stringify), hex);
  });

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
  const registers = await randomDumps(async (hex, name, arch, bundle) => {
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
