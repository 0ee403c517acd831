// The viewer's page: reads hex or a binary file, decodes it with decode.js against the
// dictionary (window.DMASPEC, from dmaspec.js) and draws each word as a bit map beside
// its field table. Nothing here knows a word: it only draws what the decoder returns.
(function () {
  "use strict";
  const { Dictionary, parseHex, looksHex, setLeaf, leafValue, stringify, hex, WORD_SIZE } = window.DmaspecDecode;
  const dict = new Dictionary(window.DMASPEC);
  const params = new URLSearchParams(location.search);
  // Where each word's docs page is: ../words/NAME.md here, NAME.html in the mdBook site.
  const DOCS = params.get("docs") || "../words/";
  const DOCS_EXT = params.get("ext") || ".md";

  // Items (words, records, registers) per page: a long dump is drawn a page at a time.
  let perPage = Number(params.get("drawn")) || 100;
  // The most input a shareable link carries (its hex in the URL fragment).
  const LINK_CAP = 16384;

  const $ = (id) => document.getElementById(id);
  const el = (tag, attrs, ...kids) => {
    const e = document.createElement(tag);
    for (const [k, v] of Object.entries(attrs || {})) {
      if (k === "class") e.className = v;
      else if (k === "style") e.style.cssText = v;
      else e.setAttribute(k, v);
    }
    for (const k of kids) e.append(k);
    return e;
  };

  for (const a of dict.archs) $("arch").append(el("option", { value: a }, a));
  $("arch").value = params.get("arch") || "cayman";
  // Read the input as 64-byte words, or as records of one top-level struct (--struct).
  for (const r of dict.records) $("as").append(el("option", { value: r.name }, `${r.name} records (${r.size} B)`));
  // Or as a dump of a register file's window (`dmaspec regs`).
  const REGS = "regs:";
  for (const f of window.DMASPEC.regfiles || []) {
    $("as").append(el("option", { value: REGS + f.name }, `${f.name} register dump`));
  }
  const regfile = () => ($("as").value.startsWith(REGS) ? $("as").value.slice(REGS.length) : null);

  const legend = [["confirmed", "confirmed"], ["strong", "strong"], ["inferred", "inferred"],
    ["speculative", "speculative"], ["reserved", "reserved"], ["unknown", "unknown"]];
  for (const [c, label] of legend) $("legend").append(el("span", { class: "class-" + c }, label));
  $("legend").append(el("span", { class: "box conflict", style: "border-color:#333" },
    "dashed, hatched: other readings"));

  let bytes = new Uint8Array(0);
  let decoded = [];
  let page = 0;
  // What the pager pages through: the input's words (records) or a dump's registers
  // (registers.js); null when the input does not decode at all.
  let view = null;
  // The leaf the details column shows ({ key, path }: the view's key of its item), shown
  // again after a new decoding.
  let showing = null;
  // The stream being decoded: `decoded` fills from `pending` as far as a page needs, and
  // the rest in the background, a chunk at a time, so a long dump never freezes the page.
  let pending = null;
  let generation = 0;
  const total = () => Math.floor(bytes.length / itemSize());
  function need(n) {
    while (pending && decoded.length < n) {
      const next = pending.next();
      if (next.done) pending = null;
      else decoded.push(next.value);
    }
  }
  function background(g) {
    if (g !== generation || !pending) return;
    need(decoded.length + 50);
    setTimeout(() => background(g), 0);
  }
  // The keyboard's place: a word's index and a row of its table.
  const cursor = { word: -1, row: -1 };
  // The bytes per item being read: a word's, or the chosen record's.
  const itemSize = () => {
    const r = dict.records.find((x) => x.name === $("as").value);
    return r ? r.size : WORD_SIZE;
  };

  function status(text, bad) {
    $("status").textContent = text;
    $("status").className = bad ? "error" : "";
  }

  // New input: nothing of the previous one stays on screen.
  function clear() {
    decoded = [];
    pending = null;
    window.viewer.decoded = null;
    view = null;
    $("words").replaceChildren();
    $("pager").hidden = true;
    closeDetail();
    cursor.word = cursor.row = -1;
  }

  function decodeHex(text) {
    clear();
    try {
      bytes = parseHex(text);
    } catch (e) {
      bytes = new Uint8Array(0);
      status(e.message, true);
      return [];
    }
    page = 0;
    return render();
  }

  function decodeBytes(b) {
    clear();
    bytes = b;
    page = 0;
    return render();
  }

  // The leaf of the dictionary a box draws (an array element shares its array's leaf).
  function leafOf(w, path) {
    if (!w) return undefined;
    const leaves = dict.leafConfidence.get(w);
    return leaves.find((l) => l.path === path) ||
      leaves.find((l) => l.path === path.replace(/\[\d+\]$/, ""));
  }

  function classOf(box, leaf) {
    if (box.role === "reserved") return "reserved";
    if (box.role === "unknown" || !leaf || !leaf.confidence) return "unknown";
    return leaf.confidence.level;
  }

  function shown(v) {
    if (v === null || typeof v !== "object") return typeof v === "string" ? JSON.stringify(v) : String(v);
    if ("flags" in v) return v.flags.length ? v.flags.join("|") : "(none)";
    if ("name" in v) return v.name === null ? "(not an enumerator)" : v.name;
    return stringify(v);
  }

  // The verdict of `dmaspec validate` on one word (record): invalid when a rule is
  // violated, a constant does not hold or the word does not decode; else undecided when a
  // rule holds only through an alternative the sources give no body for; a broken compiler
  // rule is a finding that never makes it invalid. `findings` are decode --json's, in its
  // order.
  const verdicts = new WeakMap();
  function verdictOf(obj) {
    if (!verdicts.has(obj)) verdicts.set(obj, verdictFor(obj));
    return verdicts.get(obj);
  }

  function verdictFor(obj) {
    if (!obj.struct) return { state: "undecoded", findings: [{ kind: "error", id: null, text: obj.error }] };
    const rule = (label) => (v) => `${label} ${v.rule}: ${v.message}` + (v.in ? ` (in ${v.in})` : "");
    const findings = (obj.violations || []).map((v) => ({ kind: "violation", id: v.rule, text: rule("VIOLATION")(v), fields: v.fields }))
      .concat((obj.constant_mismatches || []).map((c) => ({ kind: "constant", id: c.field, fields: [c.field],
        text: `CONSTANT ${c.field}: is 0x${c.found.toString(16)}, but the spec's constant is 0x${c.expected.toString(16)}` })))
      .concat((obj.undecided || []).map((v) => ({ kind: "undecided", id: v.rule, fields: v.fields,
        text: rule("UNDECIDED")(v) + ` — the sources name this alternative without a body; the checked alternatives fail: ${v.failing.join(", ")}` })))
      .concat((obj.compiler_findings || []).map((v) => ({ kind: "compiler", id: v.rule, fields: v.fields,
        text: rule("COMPILER")(v) + " — a compiler rule: neuronx-cc does not write such a word; valid all the same" })));
    const faults = findings.some((f) => f.kind !== "compiler" && f.kind !== "undecided");
    const state = faults ? "invalid" : findings.some((f) => f.kind === "undecided") ? "undecided" : "valid";
    return { state, findings };
  }

  function verdictBox(obj) {
    const v = verdictOf(obj);
    const arch = $("arch").value;
    const compiler = v.findings.filter((f) => f.kind === "compiler").length;
    const head = {
      undecoded: `not decoded, so invalid for ${arch}`,
      invalid: `invalid for ${arch}`,
      undecided: `undecided for ${arch}: nothing it breaks is known, but a rule holds only through an alternative the sources name without a body` +
        (compiler ? `; it breaks ${compiler} compiler rule${compiler > 1 ? "s" : ""}` : ""),
      valid: `valid for ${arch}` + (compiler ? `, but it breaks ${compiler} compiler rule${compiler > 1 ? "s" : ""}` : "") +
        (obj.struct && !dict.ruleSets.has(obj.struct) ? " (no rule checks it)" : ""),
    }[v.state];
    const box = el("div", { class: "violations " + v.state, "data-verdict": v.state }, el("p", {}, head));
    const ul = el("ul", {});
    for (const f of v.findings) ul.append(el("li", { class: f.kind, "data-kind": f.kind, "data-id": f.id || "" }, f.text));
    if (v.findings.length) box.append(ul);
    return box;
  }

  // The findings that concern a leaf: those naming it, a part of it or what holds it.
  function findingsAt(obj, path) {
    return verdictOf(obj).findings.filter((f) => (f.fields || []).some((x) =>
      x === path || path.startsWith(x + ".") || path.startsWith(x + "[") || x.startsWith(path + ".") || x.startsWith(path + "[")));
  }

  // The class and title a leaf's box and row get from its findings.
  function marks(obj, path) {
    // A register has no rules: nothing marks its fields.
    if (obj.register) return { cls: "", title: "" };
    // An undecided rule marks no field: nothing it reads is known to be wrong.
    const found = findingsAt(obj, path).filter((f) => f.kind !== "undecided");
    if (!found.length) return { cls: "", title: "" };
    const bad = found.some((f) => f.kind !== "compiler");
    return {
      cls: bad ? " violating" : " compiler-finding",
      title: "\n" + found.map((f) => (f.kind === "compiler" ? "breaks compiler rule " : f.kind === "constant" ? "constant mismatch " : "violates ") + f.id).join("\n"),
    };
  }

  // Bit spans [lo, hi) within the word of a box: bytes, or a bit range of its container.
  function span(b) {
    const lo = b.offset * 8 + (b.bits ? b.bits.lsb : 0);
    return [lo, lo + (b.bits ? b.bits.width : b.size * 8)];
  }

  const bitRange = (b) => (b.bits ? (b.bits.width > 1 ? `${b.bits.lsb + b.bits.width - 1}:${b.bits.lsb}` : `${b.bits.lsb}`) : `${b.size * 8}`);

  // What a box of `bits` columns shows: its name when it fits, else its bit range, else
  // nothing (the full name is in its title). A column holds about two characters.
  function label(b, bits) {
    const fits = (t) => t.length <= bits * 2 - 1;
    const name = b.path.split(".").pop();
    if (fits(name)) return name;
    const index = /\[\d+\]$/.exec(name);
    if (index && fits(index[0])) return index[0];
    return fits(bitRange(b)) ? bitRange(b) : "";
  }

  function bitmap(boxes, w, obj, size) {
    const grid = el("div", { class: "bitmap" });
    grid.append(el("span", { class: "off", style: "grid-row:1" }, "byte"));
    for (let bit = 31; bit >= 0; bit -= 1) {
      grid.append(el("span", { class: "bit", style: `grid-row:1;grid-column:${33 - bit}` },
        bit % 8 === 7 || bit === 0 ? String(bit) : ""));
    }
    const rows = size / 4;
    for (let r = 0; r < rows; r++) {
      grid.append(el("span", { class: "off", style: `grid-row:${r + 2}` }, "+" + r * 4));
    }
    const covered = new Uint8Array(size * 8);
    const draw = (b, lo, hi, cls, title) => {
      for (let row = Math.floor(lo / 32); row * 32 < hi; row++) {
        const a = Math.max(lo, row * 32) - row * 32;
        const z = Math.min(hi, row * 32 + 32) - row * 32;
        const box = el("div", {
          class: cls,
          style: `grid-row:${row + 2};grid-column:${34 - z}/${34 - a}`,
          title,
          "data-path": b ? b.path : "",
        }, b ? label(b, z - a) : "");
        if (b) box.addEventListener("mouseenter", () => pick(obj, b, true));
        grid.append(box);
      }
    };
    for (const b of boxes) {
      const [lo, hi] = span(b);
      covered.fill(1, lo, hi);
      const leaf = b.leaf || leafOf(w, b.path);
      const alts = obj.alternatives && obj.alternatives[b.path];
      const conflict = alts || (leaf && leaf.alternatives.length) ? " conflict" : "";
      const m = marks(obj, b.path);
      draw(b, lo, hi, `box class-${classOf(b, leaf)}${conflict}${m.cls}`,
        `${b.path} (bits ${bitRange(b)}) = ${shown(b.value)}${m.title}`);
    }
    // Bits no leaf of the chosen arms covers: unknown.
    for (let i = 0; i < covered.length;) {
      if (covered[i]) { i++; continue; }
      let j = i;
      while (j < covered.length && !covered[j]) j++;
      draw(null, i, j, "box class-unknown", "no field covers these bits");
      i = j;
    }
    return grid;
  }

  // The word's bytes, 16 a row; a byte picks the narrowest leaf that holds it.
  function hexPane(obj, raw) {
    const pane = el("div", { class: "hexpane" });
    for (let r = 0; r < raw.length; r += 16) {
      const row = el("div", {}, el("span", { class: "off" }, "+" + r));
      for (let i = r; i < Math.min(r + 16, raw.length); i++) {
        const byte = el("span", { class: "byte", "data-byte": i }, raw[i].toString(16).padStart(2, "0"));
        const holder = () => (obj.boxes || []).filter((b) => b.offset <= i && i < b.offset + b.size)
          .sort((a, b) => (a.bits ? a.bits.width : a.size * 8) - (b.bits ? b.bits.width : b.size * 8))[0];
        byte.addEventListener("mouseenter", () => {
          const b = holder();
          if (b) pick(obj, b, true);
        });
        row.append(byte);
      }
      pane.append(row);
    }
    return pane;
  }

  // A stored value the field's codec reads otherwise (`zero_means`: 0 is 65536).
  const zeroMeans = (b) => (b.codec && b.codec.zero_means !== undefined && b.raw === 0n
    ? ` (means ${b.codec.zero_means})` : "");

  // The array a box is an element of, when it is a reserved or unknown byte: runs of
  // those fold into one row.
  const foldOf = (b) => {
    const m = /^(.*)\[\d+\]$/.exec(b.path);
    return m && !b.bits && (b.role === "reserved" || b.role === "unknown") ? m[1] : null;
  };

  function table(boxes, w, obj) {
    const t = el("table", { class: "fields" });
    t.append(el("tr", {}, el("th", {}, ""), el("th", {}, "field"), el("th", {}, "offset"),
      el("th", {}, "bits"), el("th", {}, "raw"), el("th", {}, "value")));
    for (let i = 0; i < boxes.length;) {
      const key = foldOf(boxes[i]);
      let j = i + 1;
      while (key && j < boxes.length && foldOf(boxes[j]) === key) j++;
      if (j - i > 2) {
        const run = boxes.slice(i, j);
        const first = run[0];
        const last = run[run.length - 1];
        const rows = run.map((b) => row(b, w, obj));
        const stored = obj.raw.subarray(first.offset, last.offset + last.size);
        const head = el("tr", { class: "fold", title: "click to show each element" },
          el("td", { class: "sw class-" + classOf(first, leafOf(w, first.path)) }, ""),
          el("td", {}, `▸ ${key}[${first.path.match(/\[(\d+)\]$/)[1]}..${last.path.match(/\[(\d+)\]$/)[1]}]`),
          el("td", {}, "+" + first.offset), el("td", {}, `${run.length}×${first.size * 8}`),
          el("td", { title: hex(stored) }, hex(stored.subarray(0, 8)) + (stored.length > 8 ? "…" : "")),
          el("td", {}, stored.every((x) => x === 0) ? "all zero" : "nonzero"));
        head.addEventListener("click", () => {
          const open = rows[0].hidden;
          for (const r of rows) r.hidden = !open;
          head.cells[1].textContent = head.cells[1].textContent.replace(/^[▸▾]/, open ? "▾" : "▸");
        });
        for (const r of rows) r.hidden = true;
        t.append(head, ...rows);
        i = j;
        continue;
      }
      for (; i < j; i++) t.append(row(boxes[i], w, obj));
    }
    return t;
  }

  function row(b, w, obj) {
    const leaf = leafOf(w, b.path);
    const m = marks(obj, b.path);
    const raw = el("td", { class: b.raw === null ? "" : "raw", title: b.raw === null ? "" : "click to edit" },
      b.raw === null ? "" : "0x" + b.raw.toString(16));
    const tr = el("tr", { "data-path": b.path, class: m.cls.trim(), title: m.title.trim() },
      el("td", { class: "sw class-" + classOf(b, leaf) }, ""), el("td", {}, b.path),
      el("td", {}, "+" + b.offset), el("td", {}, bitRange(b)), raw,
      el("td", {}, shown(b.value) + zeroMeans(b) +
        (obj.alternatives && obj.alternatives[b.path] ? " ⚠" : "")));
    tr.addEventListener("mouseenter", () => pick(obj, b, true));
    if (b.raw !== null) raw.addEventListener("click", () => edit(raw, obj, b));
    return tr;
  }

  // Editing a leaf's value re-encodes the word in the page: its bits are written into the
  // input's bytes (the dictionary's offset, size and bit range), then all is decoded again.
  // An enum takes an enumerator's name (offered in a list), a flag set its flags' names.
  function edit(cell, obj, b) {
    if (cell.querySelector("input")) return;
    const arch = $("arch").value;
    const named = b.value && typeof b.value === "object" &&
      ("name" in b.value ? b.value.name : b.value.flags && b.value.flags.join("|"));
    const input = el("input", { value: named || "0x" + b.raw.toString(16), size: named ? 24 : 12 });
    if (b.type && b.type.kind === "enum") {
      const list = el("datalist", { id: "enumerators" });
      for (const v of b.type.values) {
        if (v.arch.length === 0 || v.arch.includes(arch)) list.append(el("option", { value: v.name }));
      }
      input.setAttribute("list", "enumerators");
      cell.replaceChildren(input, list);
    } else {
      cell.replaceChildren(input);
    }
    input.focus();
    input.select();
    input.addEventListener("keydown", (e) => {
      e.stopPropagation();
      if (e.key === "Escape") return drawPage();
      if (e.key !== "Enter") return;
      try {
        setLeaf(bytes, obj.offset + b.offset, b.size, b.bits, leafValue(b.type, input.value, arch));
      } catch (err) {
        return status(`${b.path}: ${err.message}`, true);
      }
      $("hex").value = hexText(bytes, itemSize());
      render();
      const tr = $("w" + obj.index) && $("w" + obj.index).querySelector(`tr[data-path="${CSS.escape(b.path)}"]`);
      if (tr) tr.classList.add("edited");
    });
  }

  const hexText = (b, size) => {
    let s = "";
    for (let i = 0; i < b.length; i += size) s += hex(b.subarray(i, i + size)) + "\n";
    return s;
  };

  // Outlines a leaf's boxes, row and bytes together; `show` also opens its details.
  function pick(obj, b, show) {
    for (const e of document.querySelectorAll(".hover, .sel")) e.classList.remove("hover", "sel");
    const card = $("w" + obj.index);
    if (!card) return;
    for (const e of card.querySelectorAll(`[data-path="${CSS.escape(b.path)}"]`)) e.classList.add("hover");
    for (let i = b.offset; i < b.offset + b.size; i++) {
      const e = card.querySelector(`.byte[data-byte="${i}"]`);
      if (e) e.classList.add("sel");
    }
    if (show) showDetail(obj, b);
  }

  // Opens the details of leaf `b` of item `obj` (of a register, `b` null: the register).
  function showDetail(obj, b) {
    showing = { key: view.keyOf(obj), path: b ? b.path : null };
    describe(view.detail(obj, b));
  }

  // After a new decoding of the same input (an edit, another architecture), the details
  // show the leaf's new value, or close when the item no longer has that leaf.
  function refreshDetail() {
    if (!showing || !view) return;
    const obj = view.byKey(showing.key);
    const b = obj && showing.path !== null ? (obj.boxes || []).find((x) => x.path === showing.path) : null;
    if (obj && (b || showing.path === null)) showDetail(obj, b);
    else closeDetail();
  }

  function closeDetail() {
    showing = null;
    $("detail").replaceChildren(el("p", { class: "hint" },
      "Hover a field, a box or a byte for its doc and evidence; click a raw value to edit it (an enum by name). " +
      "Keys: j/k words, ↑/↓ fields, ←/→ pages, Enter details, Escape closes."));
    for (const e of document.querySelectorAll(".hover, .sel")) e.classList.remove("hover", "sel");
  }

  // The details column: a title, lines of prose, and sections (a heading over a list of
  // lines, or over an element); an empty section is left out.
  function describe(d) {
    const out = [el("h3", {}, d.title)];
    for (const line of d.lines) out.push(el("p", {}, line));
    for (const [heading, body] of d.sections) {
      if (Array.isArray(body) ? !body.length : !body.childElementCount) continue;
      const list = Array.isArray(body) ? el("ul", {}, ...body.map((x) => el("li", {}, x))) : body;
      out.push(el("strong", {}, heading), list);
    }
    $("detail").replaceChildren(...out);
  }

  // Evidence and other readings of one leaf of word (record) `w`.
  function wordDetail(w, b) {
    const leaf = leafOf(w, b.path);
    const title = `${w}.${b.path} = ${shown(b.value)}`;
    if (!leaf) return { title, lines: [], sections: [] };
    return {
      title,
      lines: [leaf.doc || "", `type ${leaf.type}, confidence ${leaf.confidence ? leaf.confidence.tag : "none (unknown)"}` +
        (b.variant ? `, arm ${b.variant}` : "")],
      sections: [
        ["evidence", leaf.chain.flatMap((c) => c.evidence.map((e) => `${c.path}: ${e.cite}` +
          (e.names ? ` — ${e.names}` : "") + (e.note ? ` (${e.note})` : "")))],
        ["recorded conflicts about " + leaf.type, conflictList(conflictsAbout(leaf.type))],
        ["other readings", leaf.alternatives.map((a) => `${a.name}: ${a.type} (${a.confidence.tag}) ${a.doc}`)],
      ],
    };
  }

  // The recorded disagreements (`conflicts`) about a type, word or table named `name`.
  const conflictsAbout = (name) => (window.DMASPEC.conflicts || []).filter((c) => c.about.includes(name));

  function conflictList(list) {
    const ul = el("ul", { class: "conflicts" });
    for (const c of list) {
      ul.append(el("li", {}, `CONFLICT ${c.name}: ${c.doc} Readings: ` +
        c.readings.map((r) => `${r.name} (${r.confidence.tag})`).join("; ")));
    }
    return ul;
  }

  function card(obj, record, size) {
    const head = `#${obj.index}  offset ${obj.offset}  ` +
      (record ? "" : `opcode 0x${obj.opcode.toString(16).padStart(2, "0")}  `);
    Object.defineProperty(obj, "raw", { value: bytes.subarray(obj.offset, obj.offset + size), enumerable: false, configurable: true });
    // A word's line as `decode --asm` prints it (records have none).
    const line = record ? "" : el("code", { class: "asm" }, dict.asm(obj.raw, $("arch").value));
    if (!obj.struct) {
      return el("div", { class: "word bad", id: "w" + obj.index }, el("h2", {}, head, obj.error), line,
        hexPane(obj, obj.raw), verdictBox(obj));
    }
    const w = dict.wordByName.get(obj.struct);
    const h = el("h2", {}, head, el("a", { href: DOCS + obj.struct + DOCS_EXT }, obj.struct));
    if (w && obj.extension_of !== undefined) {
      const lead = decoded[obj.extension_of];
      h.append(el("span", { class: "pair" },
        `extends #${lead.index} ${lead.struct} (follows ${w.follows.join(" or ")})`));
    }
    const next = decoded[obj.index + 1];
    if (next && next.extension_of === obj.index) {
      h.append(el("span", { class: "pair" }, `extended by #${next.index} ${next.struct}`));
    }
    return el("div", { class: "word", id: "w" + obj.index }, h, line,
      el("div", { class: "maps" }, bitmap(obj.boxes, obj.struct, obj, size), hexPane(obj, obj.raw)),
      table(obj.boxes, obj.struct, obj), verdictBox(obj), conflictList(conflictsAbout(obj.struct)));
  }

  // The input's words (records) as the pager's view: decoded as far as a page needs.
  function wordView() {
    const size = itemSize();
    const record = size === WORD_SIZE ? null : $("as").value;
    return {
      noun: record ? "records" : "words",
      count: total,
      item: (i) => { need(i + 1); return decoded[i]; },
      cards: (first, last) => { need(last + 1); return decoded.slice(first, last).map((obj) => card(obj, record, size)); },
      // `#12` or `12`: the word (record) of that index.
      find: (text) => {
        const m = /^#?(\d+)$/.exec(text.trim());
        return m && Number(m[1]) < total() ? Number(m[1]) : null;
      },
      detail: (obj, b) => wordDetail(obj.struct, b),
      keyOf: (obj) => obj.index,
      byKey: (i) => { need(i + 1); return decoded[i] || null; },
      status: () => {
        const rest = bytes.length % size;
        if (rest) return [`incomplete ${record || "word"} at byte offset ${bytes.length - rest}: ${rest} of ${size} bytes`, true];
        return [`${total()} ${record ? "records" : "words"}`, false];
      },
    };
  }

  // A register dump as the pager's view, or null (with the error shown) when it does not decode.
  function registerView(file) {
    try {
      const doc = dict.decodeRegisters(file, $("arch").value, $("bundle").value.trim() || null, bytes);
      window.viewer.decoded = doc;
      return window.DmaspecRegisters.registerView({ el, bitmap, pick, edit, showDetail }, dict, doc);
    } catch (e) {
      status(e.message, true);
      window.viewer.decoded = null;
      return null;
    }
  }

  const pages = () => Math.max(1, Math.ceil(view.count() / perPage));

  // Draws one page of the view: a long dump stays quick however long it is.
  function drawPage() {
    page = Math.min(Math.max(page, 0), pages() - 1);
    const first = page * perPage;
    const last = Math.min(first + perPage, view.count());
    $("words").replaceChildren(...view.cards(first, last));
    $("pager").hidden = pages() === 1;
    $("pageinfo").textContent = `page ${page + 1} of ${pages()}: ${view.noun} #${first}–#${last - 1} of ${view.count()}`;
    $("prev").disabled = page === 0;
    $("next").disabled = page === pages() - 1;
    cursor.row = -1;
    const [text, bad] = view.status();
    status(text + (!bad && pages() > 1 ? ` (${$("pageinfo").textContent})` : ""), bad);
  }

  function goPage(n) {
    page = n;
    closeDetail();
    drawPage();
  }

  // The pager's "go to" box: the view finds the item, the page holding it is drawn and
  // the item made current.
  function jump(text) {
    const i = view ? view.find(text) : null;
    if (i === null) return status(`\`${text.trim()}\` names no ${view ? view.noun.replace(/s$/, "") : "item"} here`, true);
    goPage(Math.floor(i / perPage));
    const c = $("w" + i);
    for (const x of document.querySelectorAll(".word.current")) x.classList.remove("current");
    c.classList.add("current");
    c.scrollIntoView({ block: "start" });
    cursor.word = i;
  }

  function render() {
    $("bundle-label").hidden = !regfile();
    generation++;
    pending = null;
    if (regfile()) {
      view = registerView(regfile());
      if (!view) {
        $("words").replaceChildren();
        $("pager").hidden = true;
        return null;
      }
    } else {
      decoded = [];
      pending = dict.records.some((r) => r.name === $("as").value) ? dict.eachRecord(bytes, $("as").value, $("arch").value)
        : dict.eachWord(bytes, $("arch").value);
      window.viewer.decoded = decoded;
      view = wordView();
      const g = generation;
      setTimeout(() => background(g), 0);
    }
    drawPage();
    refreshDetail();
    return window.viewer.decoded;
  }

  // A link that carries the input: the controls and the bytes' hex in the URL fragment,
  // up to LINK_CAP bytes (beyond that, share the file).
  function share() {
    if (bytes.length > LINK_CAP) {
      $("link").value = "";
      return status(`the input is ${bytes.length} bytes, over the ${LINK_CAP} a link carries: share the file instead`, true);
    }
    const f = new URLSearchParams({ arch: $("arch").value, as: $("as").value, bundle: $("bundle").value, hex: hex(bytes) });
    history.replaceState(null, "", "#" + f);
    $("link").value = location.href;
    if (navigator.clipboard) navigator.clipboard.writeText(location.href).catch(() => {});
    status(`link to these ${bytes.length} bytes in the address bar (and below)`, false);
  }

  function fromLink() {
    const f = new URLSearchParams(location.hash.slice(1));
    if (!f.has("hex")) return false;
    for (const k of ["arch", "as", "bundle"]) if (f.has(k)) $(k).value = f.get(k);
    $("hex").value = hexText(parseHexSafe(f.get("hex")), itemSize());
    decodeHex($("hex").value);
    return true;
  }
  const parseHexSafe = (h) => { try { return parseHex(h); } catch { return new Uint8Array(0); } };

  // Keys: j/k the next/previous word, ↑/↓ the next/previous field of that word, ←/→ pages,
  // Enter the field's details, Escape closes them.
  function key(e) {
    // Keys typed into a control, and Enter on a button or link, are the control's.
    const tag = e.target.tagName;
    if (/^(INPUT|TEXTAREA|SELECT)$/.test(tag) || (e.key === "Enter" && /^(BUTTON|A)$/.test(tag)) ||
      e.ctrlKey || e.metaKey || e.altKey) return;
    const cards = Array.from($("words").querySelectorAll(".word[id]"));
    if (!cards.length) return;
    const at = cards.findIndex((c) => c.id === "w" + cursor.word);
    const move = (k) => {
      const c = cards[Math.min(Math.max(at + k, 0), cards.length - 1)];
      for (const x of document.querySelectorAll(".word.current")) x.classList.remove("current");
      c.classList.add("current");
      c.scrollIntoView({ block: "nearest" });
      cursor.word = Number(c.id.slice(1));
      cursor.row = -1;
    };
    const rows = at < 0 ? [] : Array.from(cards[at].querySelectorAll("tr[data-path]")).filter((r) => !r.hidden);
    const field = (k) => {
      if (!rows.length) return;
      cursor.row = Math.min(Math.max(cursor.row + k, 0), rows.length - 1);
      const obj = view.item(cursor.word);
      pick(obj, obj.boxes.find((b) => b.path === rows[cursor.row].dataset.path), false);
      for (const r of document.querySelectorAll("tr.cursor")) r.classList.remove("cursor");
      rows[cursor.row].classList.add("cursor");
      rows[cursor.row].scrollIntoView({ block: "nearest" });
    };
    const act = {
      j: () => move(1), k: () => move(-1),
      ArrowDown: () => (at < 0 ? move(1) : field(1)), ArrowUp: () => (at < 0 ? move(0) : field(-1)),
      ArrowRight: () => page < pages() - 1 && goPage(page + 1), ArrowLeft: () => page > 0 && goPage(page - 1),
      Enter: () => {
        if (cursor.row < 0 || !rows[cursor.row]) return;
        const obj = view.item(cursor.word);
        pick(obj, obj.boxes.find((b) => b.path === rows[cursor.row].dataset.path), true);
      },
      Escape: closeDetail,
    }[e.key];
    if (!act) return;
    e.preventDefault();
    act();
  }

  window.viewer = {
    decoded: [], stringify, verdictOf, share,
    // The whole stream decoded (the page itself decodes as it draws).
    decodeHex: (text) => { const d = decodeHex(text); need(Infinity); return d; },
    decodeBytes: (b) => { const d = decodeBytes(b); need(Infinity); return d; },
    bytes: () => hex(bytes), page: () => page,
    // Each word's line (`decode --asm`) of hex text, in the chosen architecture.
    asmLines: (text) => {
      const b = parseHex(text);
      const lines = [];
      for (let o = 0; o + WORD_SIZE <= b.length; o += WORD_SIZE) lines.push(dict.asm(b.subarray(o, o + WORD_SIZE), $("arch").value));
      return lines;
    },
  };
  $("decode").addEventListener("click", () => decodeHex($("hex").value));
  $("arch").addEventListener("change", render);
  $("as").addEventListener("change", render);
  $("bundle").addEventListener("change", render);
  $("prev").addEventListener("click", () => goPage(page - 1));
  $("next").addEventListener("click", () => goPage(page + 1));
  $("goto").addEventListener("keydown", (e) => e.key === "Enter" && jump($("goto").value));
  // A new page size keeps the first item of the page on screen.
  if (![...$("pagesize").options].some((o) => Number(o.value) === perPage)) $("pagesize").append(el("option", {}, String(perPage)));
  $("pagesize").value = String(perPage);
  $("pagesize").addEventListener("change", () => {
    const first = page * perPage;
    perPage = Number($("pagesize").value);
    if (view) goPage(Math.floor(first / perPage));
  });
  $("share").addEventListener("click", share);
  document.addEventListener("keydown", key);
  // Hex text (by content: hex digits, whitespace, `#` comments) reads as hex; anything
  // else as the raw words, whatever the file's name.
  const readFile = (f) => f.arrayBuffer().then((buf) => {
    const b = new Uint8Array(buf);
    if (looksHex(b)) {
      $("hex").value = new TextDecoder().decode(b);
      decodeHex(b);
    } else {
      decodeBytes(b);
    }
  });
  $("file").addEventListener("change", (e) => e.target.files[0] && readFile(e.target.files[0]));
  const drop = $("drop");
  drop.addEventListener("dragover", (e) => { e.preventDefault(); drop.classList.add("over"); });
  drop.addEventListener("dragleave", () => drop.classList.remove("over"));
  drop.addEventListener("drop", (e) => {
    e.preventDefault();
    drop.classList.remove("over");
    if (e.dataTransfer.files[0]) readFile(e.dataTransfer.files[0]);
  });
  closeDetail();
  if (!fromLink() && $("hex").value) decodeHex($("hex").value);
})();
