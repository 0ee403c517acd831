// The built book (target/book) at 1280×800 in headless Chromium, on every word, record and
// register file and bundle page: no table scrolls sideways in its box (evidence sits in a collapsed
// <details> per cell), no table cell shows Markdown's `**` or a quoted table's `|`, a
// register page opens with a contents list whose every link lands on the page, and no
// page is taller than HEIGHT. The search index stays under INDEX bytes (INDEX_GZIP
// gzipped, as a web server sends it). Prints the
// figures it measured (search index, tallest page, widest table).
// Usage: node tests/viewer/book_fit.mjs
import assert from "node:assert/strict";
import fs from "node:fs";
import zlib from "node:zlib";
import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { chromium } from "playwright-core";

// mdBook warns above 10 MB; the index was 12.9 MB before issue 41 (1.6 MB gzipped).
const INDEX = 10_000_000;
const INDEX_GZIP = 1_300_000;
// UDMA_M2S's page was 100,668 px before issue 41, 62,000 px after, and 84,000 px with the
// kernel driver's and the QoS page's registers and Sunda; since then each bundle's registers
// have a page of their own (registers/<file>/<bundle>.html): a ceiling against a page
// growing unnoticed, which the contents lists keep navigable.
const HEIGHT = 60_000;

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");
const book = path.join(root, "target/book");
// The .html pages under `dir`, its subfolders' too (a register file's bundle pages).
const listed = (dir) =>
  fs.readdirSync(path.join(book, dir), { withFileTypes: true })
    .sort((a, b) => a.name.localeCompare(b.name))
    .flatMap((e) => {
      const rel = `${dir}/${e.name}`;
      if (e.isDirectory()) return listed(rel);
      return e.name.endsWith(".html") ? [rel] : [];
    });
const pages = [...listed("words"), ...listed("registers")];

const index = fs.readdirSync(book).find((f) => /^searchindex.*\.js$/.test(f));
const indexText = fs.readFileSync(path.join(book, index));
const indexBytes = indexText.length;
const indexGzip = zlib.gzipSync(indexText).length;

const problems = [];
let tallest = { page: "", height: 0 };
let widest = { page: "", natural: 0, box: 0 };
const browser = await chromium.launch({ executablePath: process.env.CHROMIUM || "/usr/bin/chromium" });
try {
  const tab = await browser.newPage({ viewport: { width: 1280, height: 800 } });
  for (const page of pages) {
    await tab.goto(pathToFileURL(path.join(book, page)).href);
    const got = await tab.evaluate(() => {
      const main = document.querySelector(".content main");
      const tables = [...main.querySelectorAll("table")].map((t) => {
        const box = t.closest(".table-wrapper") || t.parentElement;
        return { natural: t.scrollWidth, box: box.clientWidth, scrolls: box.scrollWidth > box.clientWidth + 1 };
      });
      // Cell text as shown: a collapsed <details> is opened first, so its quotes count.
      for (const d of main.querySelectorAll("td details")) d.open = true;
      // `**` nowhere in a cell; a quoted table row's ` | ` nowhere in the evidence outside
      // code (prose and code may hold a C expression's `a | b`).
      const cells = [...main.querySelectorAll("td")].map((td) => td.innerText);
      const outsideCode = (e) => {
        const copy = e.cloneNode(true);
        for (const c of copy.querySelectorAll("code")) c.remove();
        return copy.textContent;
      };
      const quotes = [...main.querySelectorAll("td details")].map(outsideCode);
      const markup = [
        ...cells.filter((t) => t.includes("**")),
        ...quotes.filter((t) => /(^|\s)\|(\s|$)/.test(t)),
      ];
      // The contents list: the first list after the title whose links are all #anchors.
      const contents = [...main.querySelectorAll("ul")].find((ul) => {
        const links = [...ul.querySelectorAll("a")];
        return links.length > 0 && links.every((a) => a.getAttribute("href").startsWith("#"));
      });
      const targets = contents ? [...contents.querySelectorAll("a")].map((a) => a.getAttribute("href").slice(1)) : [];
      const missing = targets.filter((id) => !document.getElementById(decodeURIComponent(id)));
      for (const d of main.querySelectorAll("td details")) d.open = false;
      return {
        tables,
        markup: markup.slice(0, 2),
        contents: targets.length,
        missing,
        height: document.documentElement.scrollHeight,
      };
    });
    for (const t of got.tables) {
      if (t.natural > widest.natural) widest = { page, natural: t.natural, box: t.box };
      if (t.scrolls) problems.push(`${page}: a table ${t.natural} px wide in a ${t.box} px box`);
    }
    for (const m of got.markup) problems.push(`${page}: a cell shows Markdown: ${JSON.stringify(m.slice(0, 120))}`);
    if (got.height > tallest.height) tallest = { page, height: got.height };
    if (got.height > HEIGHT) problems.push(`${page}: ${got.height} px tall (ceiling ${HEIGHT})`);
    if (page.startsWith("registers/")) {
      if (got.contents === 0) problems.push(`${page}: no contents list`);
      for (const id of got.missing) problems.push(`${page}: the contents link #${id} lands nowhere`);
    }
  }
} finally {
  await browser.close();
}
if (indexBytes > INDEX) problems.push(`search index ${index}: ${indexBytes} bytes (ceiling ${INDEX})`);
if (indexGzip > INDEX_GZIP) problems.push(`search index gzipped: ${indexGzip} bytes (ceiling ${INDEX_GZIP})`);
console.log(
  `book at 1280×800, ${pages.length} pages: search index ${indexBytes} bytes (${indexGzip} gzipped); tallest ${tallest.page} ` +
    `${tallest.height} px; widest table ${widest.natural} px (${widest.page}, box ${widest.box} px)`,
);
assert.deepEqual(problems.slice(0, 40), [], `${problems.length} problems`);
console.log("book_fit: every word and register page fits 1280 px");
