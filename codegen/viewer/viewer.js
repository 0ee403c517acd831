// The viewer's page: reads hex or a binary file, decodes it with decode.js against the
// dictionary (window.DMASPEC, from dmaspec.js) and draws each word as a bit map beside
// its field table. Nothing here knows a word: it only draws what the decoder returns.
(function () {
  "use strict";
  const { Dictionary, parseHex, stringify, WORD_SIZE } = window.DmaspecDecode;
  const dict = new Dictionary(window.DMASPEC);
  const params = new URLSearchParams(location.search);
  // Where each word's docs page is: ../words/NAME.md here, NAME.html in the mdBook site.
  const DOCS = params.get("docs") || "../words/";
  const DOCS_EXT = params.get("ext") || ".md";

  const DRAWN = Number(params.get("drawn")) || 100;

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
  // The decoded stream, for tests and the console.
  window.viewer = { decoded: [], stringify, decodeHex, decodeBytes };
  // The bytes per item being read: a word's, or the chosen record's.
  const itemSize = () => {
    const r = dict.records.find((x) => x.name === $("as").value);
    return r ? r.size : WORD_SIZE;
  };

  function status(text, bad) {
    $("status").textContent = text;
    $("status").className = bad ? "error" : "";
  }

  function decodeHex(text) {
    try {
      bytes = parseHex(text);
    } catch (e) {
      status(e.message, true);
      return [];
    }
    return render();
  }

  function decodeBytes(b) {
    bytes = b;
    return render();
  }

  // The leaf of the dictionary a box draws (an array element shares its array's leaf).
  function leafOf(w, path) {
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

  // Bit spans [lo, hi) within the word of a box: bytes, or a bit range of its container.
  function span(b) {
    const lo = b.offset * 8 + (b.bits ? b.bits.lsb : 0);
    return [lo, lo + (b.bits ? b.bits.width : b.size * 8)];
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
    const draw = (b, lo, hi, cls, title, label) => {
      for (let row = Math.floor(lo / 32); row * 32 < hi; row++) {
        const a = Math.max(lo, row * 32) - row * 32;
        const z = Math.min(hi, row * 32 + 32) - row * 32;
        const box = el("div", {
          class: cls,
          style: `grid-row:${row + 2};grid-column:${34 - z}/${34 - a}`,
          title,
          "data-path": b ? b.path : "",
        }, label);
        if (b) box.addEventListener("mouseenter", () => detail(w, b, obj));
        grid.append(box);
      }
    };
    for (const b of boxes) {
      const [lo, hi] = span(b);
      covered.fill(1, lo, hi);
      const leaf = leafOf(w, b.path);
      const alts = obj.alternatives && obj.alternatives[b.path];
      const conflict = alts || (leaf && leaf.alternatives.length) ? " conflict" : "";
      const name = b.path.split(".").pop();
      draw(b, lo, hi, `box class-${classOf(b, leaf)}${conflict}`,
        `${b.path} = ${shown(b.value)}`, name);
    }
    // Bits no leaf of the chosen arms covers: unknown.
    for (let i = 0; i < covered.length;) {
      if (covered[i]) { i++; continue; }
      let j = i;
      while (j < covered.length && !covered[j]) j++;
      draw(null, i, j, "box class-unknown", "no field covers these bits", "");
      i = j;
    }
    return grid;
  }

  // A stored value the field's codec reads otherwise (`zero_means`: 0 is 65536).
  const zeroMeans = (b) => (b.codec && b.codec.zero_means !== undefined && b.raw === 0n
    ? ` (means ${b.codec.zero_means})` : "");

  function table(boxes, w, obj) {
    const t = el("table", { class: "fields" });
    t.append(el("tr", {}, el("th", {}, ""), el("th", {}, "field"), el("th", {}, "offset"),
      el("th", {}, "bits"), el("th", {}, "raw"), el("th", {}, "value")));
    for (const b of boxes) {
      const leaf = leafOf(w, b.path);
      const raw = b.raw === null ? "" : "0x" + b.raw.toString(16);
      const bits = b.bits ? `${b.bits.lsb + b.bits.width - 1}:${b.bits.lsb}` : `${b.size * 8}`;
      const tr = el("tr", { "data-path": b.path },
        el("td", { class: "sw class-" + classOf(b, leaf) }, ""), el("td", {}, b.path),
        el("td", {}, "+" + b.offset), el("td", {}, bits), el("td", {}, raw),
        el("td", {}, shown(b.value) + zeroMeans(b) +
          (obj.alternatives && obj.alternatives[b.path] ? " ⚠" : "")));
      tr.addEventListener("mouseenter", () => detail(w, b, obj));
      t.append(tr);
    }
    return t;
  }

  // Evidence and other readings of one leaf, in the side panel.
  function detail(w, b, obj) {
    const leaf = leafOf(w, b.path);
    // The leaf's boxes and row, outlined together.
    for (const e of document.querySelectorAll(".hover")) e.classList.remove("hover");
    const card = $("w" + obj.index);
    if (card) {
      for (const e of card.querySelectorAll(`[data-path="${CSS.escape(b.path)}"]`)) e.classList.add("hover");
    }
    const d = $("detail");
    d.hidden = false;
    d.replaceChildren(el("h3", {}, `${w}.${b.path} = ${shown(b.value)}`));
    if (!leaf) return;
    d.append(el("p", {}, leaf.doc || ""),
      el("p", {}, `type ${leaf.type}, confidence ${leaf.confidence ? leaf.confidence.tag : "none (unknown)"}` +
        (b.variant ? `, arm ${b.variant}` : "")));
    const ev = el("ul");
    for (const c of leaf.chain) {
      for (const e of c.evidence) {
        ev.append(el("li", {}, `${c.path}: ${e.cite}` + (e.names ? ` — ${e.names}` : "") +
          (e.note ? ` (${e.note})` : "")));
      }
    }
    d.append(el("strong", {}, "evidence"), ev);
    const recorded = conflictsAbout(leaf.type);
    if (recorded.length) d.append(el("strong", {}, "recorded conflicts about " + leaf.type), conflictList(recorded));
    if (leaf.alternatives.length) {
      const al = el("ul");
      for (const a of leaf.alternatives) {
        al.append(el("li", {}, `${a.name}: ${a.type} (${a.confidence.tag}) ${a.doc}`));
      }
      d.append(el("strong", {}, "other readings"), al);
    }
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

  // The verdict as decode's table gives it: valid only when no rule is violated and every
  // constant holds; compiler findings listed apart, never making a word invalid.
  function violations(obj) {
    if (obj.violations === undefined) return el("p", { class: "violations" }, "");
    const constants = obj.constant_mismatches || [];
    const lines = obj.violations.map((v) => `VIOLATION ${v.rule}: ${v.message}`)
      .concat(constants.map((c) => `CONSTANT ${c.field}: is 0x${c.found.toString(16)}, ` +
        `but the spec's constant is 0x${c.expected.toString(16)}`))
      .concat((obj.compiler_findings || []).map((v) => `COMPILER ${v.rule}: ${v.message}`));
    const valid = !obj.violations.length && !constants.length;
    const box = el("div", { class: valid ? "violations ok" : "violations" });
    if (valid) box.append(el("p", {}, `valid for ${$("arch").value}`));
    if (lines.length) {
      const ul = el("ul", {});
      for (const l of lines) ul.append(el("li", {}, l));
      box.append(ul);
    }
    return box;
  }

  // The spec's entry for a field of a decoded register, for its confidence and doc.
  function fieldSpec(file, row, name) {
    const f = window.DMASPEC.regfiles.find((x) => x.name === file);
    const b = f.bundles.find((x) => x.name === row.bundle.replace(/\[\d+\]$/, ""));
    const r = b.registers.find((x) => x.name === row.register && x.archs.includes($("arch").value));
    return r.fields.find((x) => x.name === name);
  }

  const hex32 = (v) => "0x" + v.toString(16).padStart(8, "0");

  // A register dump: one table per register the dump covers, every field with its bits,
  // value and reset, unknown bits and unclaimed nonzero slots kept raw.
  function renderRegisters(file) {
    const out = $("words");
    out.replaceChildren();
    let doc;
    try {
      doc = dict.decodeRegisters(file, $("arch").value, $("bundle").value.trim() || null, bytes);
    } catch (e) {
      status(e.message, true);
      window.viewer.decoded = null;
      return null;
    }
    window.viewer.decoded = doc;
    for (const r of doc.registers.slice(0, DRAWN)) {
      const t = el("table", { class: "fields" },
        el("tr", {}, el("th", {}, ""), el("th", {}, "field"), el("th", {}, "bits"),
          el("th", {}, "value"), el("th", {}, "reset")));
      for (const f of r.fields) {
        const spec = fieldSpec(file, r, f.name);
        const bits = f.width > 1 ? `${f.lsb + f.width - 1}:${f.lsb}` : String(f.lsb);
        const differs = f.reset !== null && f.reset !== f.value ? " (not reset)" : "";
        t.append(el("tr", { title: spec.doc || "" },
          el("td", { class: "sw class-" + spec.confidence.level }, ""), el("td", {}, f.name),
          el("td", {}, bits), el("td", {}, "0x" + f.value.toString(16) +
            (f.enumerator ? " " + f.enumerator : "") + differs),
          el("td", {}, f.reset === null ? "" : "0x" + f.reset.toString(16))));
      }
      if (r.unknown_bits) {
        t.append(el("tr", {}, el("td", { class: "sw class-unknown" }, ""),
          el("td", {}, "unknown bits"), el("td", {}, ""), el("td", {}, hex32(r.unknown_bits)),
          el("td", {}, "")));
      }
      const head = `0x${r.offset.toString(16).padStart(5, "0")}  ${r.bundle}.${r.register} = ` +
        `${hex32(r.value)}  ${r.access}` + (r.access === "WO" ? " (a read is not the written value)" : "");
      out.append(el("div", { class: "word" }, el("h2", {}, head), t));
    }
    if (doc.unmapped.length) {
      const ul = el("ul", {});
      for (const u of doc.unmapped) {
        ul.append(el("li", {}, `0x${u.offset.toString(16).padStart(5, "0")}  ${hex32(u.value)}`));
      }
      out.append(el("div", { class: "word bad" },
        el("h2", {}, "nonzero slots where the spec declares no register"), ul));
    }
    const drawn = doc.registers.length > DRAWN ? ` (the first ${DRAWN} drawn)` : "";
    status(`${doc.registers.length} registers of ${file} from 0x${doc.start.toString(16)}${drawn}`, false);
    return doc;
  }

  function render() {
    $("bundle-label").hidden = !regfile();
    if (regfile()) return renderRegisters(regfile());
    const arch = $("arch").value;
    const size = itemSize();
    const record = size === WORD_SIZE ? null : $("as").value;
    const decoded = record ? dict.decodeRecords(bytes, record, arch) : dict.decodeStream(bytes, arch);
    window.viewer.decoded = decoded;
    const out = $("words");
    out.replaceChildren();
    // A long dump draws its first words only; all of them are decoded.
    for (const obj of decoded.slice(0, DRAWN)) {
      const head = `#${obj.index}  offset ${obj.offset}  ` +
        (record ? "" : `opcode 0x${obj.opcode.toString(16).padStart(2, "0")}  `);
      if (!obj.struct) {
        out.append(el("div", { class: "word bad" }, el("h2", {}, head, obj.error)));
        continue;
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
      out.append(el("div", { class: "word", id: "w" + obj.index }, h,
        bitmap(obj.boxes, obj.struct, obj, size), table(obj.boxes, obj.struct, obj), violations(obj),
        conflictList(conflictsAbout(obj.struct))));
    }
    const rest = bytes.length % size;
    const what = record || "word";
    const drawn = decoded.length > DRAWN ? ` (the first ${DRAWN} drawn)` : "";
    if (rest) {
      status(`incomplete ${what} at byte offset ${bytes.length - rest}: ${rest} of ${size} bytes`, true);
    } else {
      status(`${decoded.length} ${record ? "records" : "words"}${drawn}`, false);
    }
    return decoded;
  }

  $("decode").addEventListener("click", () => decodeHex($("hex").value));
  $("arch").addEventListener("change", render);
  $("as").addEventListener("change", render);
  $("bundle").addEventListener("change", render);
  const readFile = (f) => f.arrayBuffer().then((buf) => {
    const b = new Uint8Array(buf);
    // A text file of hex digits reads as hex; anything else as the raw words.
    const text = new TextDecoder().decode(b);
    if (/\.hex$|\.txt$/.test(f.name)) {
      $("hex").value = text;
      decodeHex(text);
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
  if ($("hex").value) decodeHex($("hex").value);
})();
