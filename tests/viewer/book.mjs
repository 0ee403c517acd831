// The built book (target/book, from `mdbook build generated/docs`) in headless Chromium:
// book.css lets a table wider than mdBook's 750 px text column use the page's width beside
// the sidebar, centred on the column, and scroll only beyond that; a narrow table stays
// centred in the column, as mdBook places it. Checked on DMA_DIRECT2D's page (its layout
// table is about 1,800 px wide with nothing wrapped) in a wide and a narrow window.
// Usage: node tests/viewer/book.mjs
import assert from "node:assert/strict";
import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { chromium } from "playwright-core";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");
const page = pathToFileURL(path.join(root, "target/book/words/DMA_DIRECT2D.html")).href;
const browser = await chromium.launch({ executablePath: process.env.CHROMIUM || "/usr/bin/chromium" });
try {
  for (const width of [1920, 1100]) {
    const tab = await browser.newPage({ viewport: { width, height: 900 } });
    await tab.goto(page);
    const got = await tab.evaluate(() => {
      const box = (e) => e.getBoundingClientRect();
      // A narrow table as mdBook wraps one, to see where it sits.
      document.querySelector(".content main").insertAdjacentHTML(
        "beforeend",
        '<div class="table-wrapper"><table id="narrow"><tr><th>a</th></tr><tr><td>1</td></tr></table></div>',
      );
      const main = box(document.querySelector(".content main"));
      const sidebar = box(document.querySelector("#mdbook-sidebar, .sidebar"));
      const tables = [...document.querySelectorAll(".content main .table-wrapper")].map((t) => ({
        left: box(t).left,
        right: box(t).right,
        scrolls: t.scrollWidth > t.clientWidth + 1,
        natural: (() => {
          // The table's width on one line a cell, as if nothing had to wrap.
          const table = t.querySelector("table");
          table.style.width = "max-content";
          const w = table.getBoundingClientRect().width;
          table.style.width = "";
          return w;
        })(),
      }));
      const n = box(document.getElementById("narrow"));
      const narrow = (n.left + n.right) / 2;
      return { main: { left: main.left, right: main.right }, sidebarRight: sidebar.right, tables, narrow };
    });
    const wide = got.tables.reduce((a, b) => (b.natural > a.natural ? b : a));
    const column = got.main.right - got.main.left;
    assert.ok(wide.natural > 1500, `${width}: the layout table is ${wide.natural} px wide`);
    // Never under the sidebar, never past the window.
    for (const t of got.tables) {
      assert.ok(t.left >= got.sidebarRight - 1 && t.right <= width + 1, `${width}: a table at ${t.left}..${t.right}`);
    }
    if (width === 1920) {
      assert.ok(wide.right - wide.left > column + 400, `${width}: the layout table is ${wide.right - wide.left} px, the column ${column}`);
    } else {
      // Below about 1,280 px (book_fit.mjs) the cells cannot wrap enough: it scrolls.
      assert.ok(wide.scrolls, `${width}: the layout table scrolls in a narrow window`);
    }
    // mdBook centres a table in the column; a narrow one stays there.
    const middle = (got.main.left + got.main.right) / 2;
    assert.ok(Math.abs(got.narrow - middle) < 4, `${width}: a narrow table centred at ${got.narrow}, the column at ${middle}`);
    await tab.close();
  }
} finally {
  await browser.close();
}
console.log("book: wide tables use the page's width (1920 and 1100 px windows)");
