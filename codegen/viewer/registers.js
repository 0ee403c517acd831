// The viewer's register mode: a dump of a register file's window, as `dmaspec regs` reads
// it, drawn a page of registers at a time by the page's one pager. Each register is a
// 32-bit word of fields, drawn with the words' bit map and edited with the words' editor;
// the nonzero slots no register claims are summarised a run to a line. It draws what
// decode.js's decodeRegisters returns; viewer.js hands it its drawing helpers (`ui`).
(function (root) {
  "use strict";

  const hex32 = (v) => "0x" + v.toString(16).padStart(8, "0");
  const at = (o) => "0x" + o.toString(16).padStart(5, "0");
  const bitsText = (lsb, width) => (width > 1 ? `${lsb + width - 1}:${lsb}` : String(lsb));
  const count = (n, one) => `${n.toLocaleString("en-US")} ${one}${n === 1 ? "" : "s"}`;

  // The pager's view of decoded dump `doc` (`dmaspec regs --json`'s document).
  function registerView(ui, dict, doc) {
    const file = dict.spec.regfiles.find((f) => f.name === doc.regfile);
    const arch = doc.arch;
    const bundles = file.bundles.filter((b) => b.archs.includes(arch));
    const own = (list, name) => list.find((x) => x.name === name && x.archs.includes(arch));

    // Each register with the spec's entries behind it and one bit-map box per field. A
    // box's offset is within the register; the item's is the register's byte in the dump.
    const items = doc.registers.map((r, index) => {
      const bundle = own(bundles, r.bundle.replace(/\[\d+\]$/, ""));
      const reg = own(bundle.registers, r.register);
      const boxes = r.fields.map((f) => {
        const leaf = own(reg.fields, f.name);
        const type = leaf.enum_type ? dict.byName.get(leaf.enum_type) : null;
        return {
          path: f.name, offset: 0, size: 4, bits: { lsb: f.lsb, width: f.width }, role: null,
          codec: null, variant: null, raw: BigInt(f.value), type, leaf, reset: f.reset,
          value: type ? { raw: f.value, name: f.enumerator } : f.value,
        };
      });
      return { index, offset: r.offset - doc.start, register: r, bundle, spec: reg, boxes };
    });

    // The bundle element (`M2S_Q[3]`) an offset of the file lies in, if any.
    const element = (o) => {
      for (const b of bundles) {
        const i = Math.floor((o - b.offset) / b.stride);
        if (i >= 0 && i < b.count && o - b.offset - i * b.stride < b.size) return b.count > 1 ? `${b.name}[${i}]` : b.name;
      }
      return null;
    };

    // Runs of unclaimed nonzero slots: those with no register between them, keyed by the
    // register they precede (items.length for those after the last).
    const runs = [];
    let next = 0;
    for (const u of doc.unmapped) {
      while (next < items.length && items[next].register.offset < u.offset) next++;
      const last = runs[runs.length - 1];
      if (last && last.before === next) last.slots.push(u);
      else runs.push({ before: next, slots: [u] });
    }

    // One line per run; its slots are listed only when it is opened.
    function runLine(run) {
      const first = run.slots[0].offset;
      const last = run.slots[run.slots.length - 1].offset;
      const home = element(first);
      const where = home && home === element(last) ? ` (in ${home})` : "";
      const list = ui.el("pre", {});
      const line = ui.el("details", { class: "word bad unmapped", "data-slots": run.slots.length },
        ui.el("summary", {}, `${at(first)}–${at(last)}: ${count(run.slots.length, "nonzero slot")} outside any register${where}`),
        list);
      line.addEventListener("toggle", () => {
        if (line.open && !list.textContent) list.textContent = run.slots.map((u) => `${at(u.offset)}  ${hex32(u.value)}`).join("\n");
      });
      return line;
    }

    function row(item, b) {
      const leaf = b.leaf;
      const raw = Number(b.raw);
      const differs = b.reset !== null && b.reset !== raw ? " (not reset)" : "";
      const value = ui.el("td", { class: "raw", title: "click to edit" + (b.type ? " (an enumerator by name)" : "") },
        "0x" + raw.toString(16) + (b.type && b.value.name ? " " + b.value.name : "") + differs);
      const tr = ui.el("tr", { "data-path": b.path, title: leaf.doc || "" },
        ui.el("td", { class: "sw class-" + leaf.confidence.level }, ""), ui.el("td", {}, b.path),
        ui.el("td", {}, bitsText(b.bits.lsb, b.bits.width)), value,
        ui.el("td", {}, b.reset === null ? "" : "0x" + b.reset.toString(16)));
      tr.addEventListener("mouseenter", () => ui.pick(item, b, true));
      value.addEventListener("click", () => ui.edit(value, item, b));
      return tr;
    }

    function card(item) {
      const r = item.register;
      const t = ui.el("table", { class: "fields" },
        ui.el("tr", {}, ui.el("th", {}, ""), ui.el("th", {}, "field"), ui.el("th", {}, "bits"),
          ui.el("th", {}, "value"), ui.el("th", {}, "reset")));
      for (const b of item.boxes) t.append(row(item, b));
      if (r.unknown_bits) {
        t.append(ui.el("tr", {}, ui.el("td", { class: "sw class-unknown" }, ""),
          ui.el("td", {}, "unknown bits"), ui.el("td", {}, ""), ui.el("td", {}, hex32(r.unknown_bits)),
          ui.el("td", {}, "")));
      }
      const head = ui.el("h2", { title: "hover for the register's doc and evidence" },
        `${at(r.offset)}  ${r.bundle}.${r.register} = ${hex32(r.value)}  ${r.access}` +
        (r.access === "WO" ? " (a read is not the written value)" : ""));
      head.addEventListener("mouseenter", () => ui.showDetail(item, null));
      return ui.el("div", { class: "word register", id: "w" + item.index }, head,
        ui.el("div", { class: "maps" }, ui.bitmap(item.boxes, null, item, 4)), t);
    }

    // The evidence of each level that holds a field: itself, its register, bundle, file.
    const evidence = (levels) => levels.flatMap(([name, x]) => x.evidence.map((e) =>
      `${name}: ${e.cite}` + (e.names ? ` — ${e.names}` : "") + (e.note ? ` (${e.note})` : "")));

    // The details column's text for a field (or, without `b`, the register itself).
    function detail(item, b) {
      const r = item.register;
      const name = `${r.bundle}.${r.register}`;
      const levels = [[name, item.spec], [item.bundle.name, item.bundle], [file.name, file]];
      if (!b) {
        return {
          title: `${name} = ${hex32(r.value)}`,
          lines: [item.spec.doc || "", `offset ${at(r.offset)}, access ${r.access}, reset ` +
            (r.reset === null ? "not given" : hex32(r.reset)) + `, confidence ${item.spec.confidence.tag}`],
          sections: [["evidence", evidence(levels)]],
        };
      }
      const leaf = b.leaf;
      const raw = Number(b.raw);
      const enumerators = b.type ? b.type.values.filter((v) => v.arch.length === 0 || v.arch.includes(arch))
        .map((v) => `${v.name} = ${v.value}` + (BigInt(v.value) === b.raw ? " (this value)" : "")) : [];
      return {
        title: `${name}.${b.path} = 0x${raw.toString(16)}` + (b.type ? ` ${b.value.name || "(not an enumerator)"}` : ""),
        lines: [leaf.doc || "", `bits ${bitsText(b.bits.lsb, b.bits.width)}, access ${leaf.access}, reset ` +
          (b.reset === null ? "not given" : "0x" + b.reset.toString(16)) + `, confidence ${leaf.confidence.tag}`],
        sections: [[b.type ? `${b.type.name} enumerators` : "", enumerators],
          ["evidence", evidence([[`${name}.${b.path}`, leaf]].concat(levels))]],
      };
    }

    // A register by `#index`, offset (the first at or after it), element or element.register.
    function find(text) {
      const t = text.trim();
      const m = /^#(\d+)$/.exec(t);
      if (m) return Number(m[1]) < items.length ? Number(m[1]) : null;
      if (/^(0x[0-9a-f]+|\d+)$/i.test(t)) {
        const o = Number(t);
        const i = items.findIndex((x) => x.register.offset >= o);
        return i < 0 ? null : i;
      }
      const want = t.toLowerCase().replace(/\s+/g, "");
      const i = items.findIndex((x) => x.register.bundle.toLowerCase() === want ||
        `${x.register.bundle}.${x.register.register}`.toLowerCase() === want);
      return i < 0 ? null : i;
    }

    const slots = doc.unmapped.length;
    return {
      noun: "registers",
      count: () => items.length,
      item: (i) => items[i],
      // A page's registers, each after the runs that precede it; the last page ends with
      // the runs after the last register.
      cards: (first, last) => {
        const out = [];
        for (const run of runs) {
          const end = last === items.length ? items.length + 1 : last;
          if (run.before >= first && run.before < end) out.push([run.before, runLine(run)]);
        }
        for (let i = first; i < last; i++) out.push([i + 0.5, card(items[i])]);
        return out.sort((a, b) => a[0] - b[0]).map((x) => x[1]);
      },
      find,
      detail,
      // A register is the same one on another architecture by its offset and name.
      keyOf: (item) => `${at(item.register.offset)} ${item.register.register}`,
      byKey: (key) => items.find((x) => `${at(x.register.offset)} ${x.register.register}` === key) || null,
      status: () => [`${count(items.length, "register")} of ${file.name} from 0x${doc.start.toString(16)}` +
        (slots ? `; ${count(slots, "nonzero slot")} outside any register, in ${count(runs.length, "run")}` : ""), false],
    };
  }

  root.DmaspecRegisters = { registerView };
})(typeof globalThis !== "undefined" ? globalThis : this);
