// A generic interpreter of dmaspec.json: decodes 64-byte words (and records) into the
// object `dmaspec decode --json` prints, key for key. It knows the dictionary's shape, not
// the spec: every offset, width, name and rule comes from the dictionary it is given.
// A classic script (pages opened from file:// cannot load ES modules) that Node can require.
(function (root) {
  "use strict";

  const WORD_SIZE = 64;
  const MAX_SAFE = BigInt(Number.MAX_SAFE_INTEGER);

  // A value as the JSON shape writes it: a Number when exact, else a BigInt.
  function num(big) {
    return big <= MAX_SAFE && big >= -MAX_SAFE ? Number(big) : big;
  }

  // Little-endian unsigned value of `size` bytes at `offset` (at most 8 significant).
  function le(bytes, offset, size) {
    const end = Math.min(offset + Math.min(size, 8), bytes.length);
    let v = 0n;
    for (let i = end - 1; i >= Math.min(offset, end); i--) v = (v << 8n) | BigInt(bytes[i]);
    return v;
  }

  function bitsOf(raw, lsb, width) {
    return (raw >> BigInt(lsb)) & ((1n << BigInt(width)) - 1n);
  }

  const INT = {
    u8: [1, false], u16: [2, false], u32: [4, false], u64: [8, false],
    i8: [1, true], i16: [2, true], i32: [4, true], i64: [8, true],
  };

  function hex(bytes) {
    let s = "";
    for (const b of bytes) s += b.toString(16).padStart(2, "0");
    return s;
  }

  // The dictionary, indexed once.
  function Dictionary(spec) {
    this.spec = spec;
    this.types = spec.types;
    this.byName = new Map(spec.types.map((t) => [t.name, t]));
    this.words = spec.words;
    this.records = spec.records;
    this.wordByName = new Map(spec.words.map((w) => [w.name, w]));
    this.archs = spec.archs.map((a) => a.name);
    // Each word's and record's leaves by path, for `confidence` and the bit map.
    this.leafConfidence = new Map(
      spec.words.concat(spec.records).map((w) => [w.name, w.leaves]),
    );
    this.opcodes = (this.byName.get("OPCODE") || { values: [] }).values;
    this.ruleSets = new Map(
      ((spec.rules && spec.rules.sets) || []).map((s) => [s.owner_name, s]),
    );
  }

  // The spelling of a type reference, as the Rust metadata's `type_name` writes it.
  function spelling(ty, width) {
    switch (ty.kind) {
      case "int": return ty.int;
      case "uint": return "u" + width;
      case "named": return ty.name;
      case "array": return spelling(ty.elem, width) + "[" + ty.len + "]";
      case "ascii": return "ascii[" + ty.len + "]";
      default: return "?";
    }
  }

  // Text + NUL padding reads as a string; anything else keeps every byte.
  function textJson(bytes) {
    const end = bytes.indexOf(0);
    const ascii = (b) => b.every((c) => c < 0x80);
    if (end >= 0 && ascii(bytes.slice(0, end)) && bytes.slice(end).every((c) => c === 0)) {
      return String.fromCharCode(...bytes.slice(0, end));
    }
    const head = end >= 0 ? bytes.slice(0, end) : bytes;
    return { text: new TextDecoder().decode(new Uint8Array(head)), raw_hex: hex(bytes) };
  }

  function enumName(t, raw, arch) {
    const e = t.values.find((v) => BigInt(v.value) === raw);
    if (!e) return null;
    return e.arch.length === 0 || e.arch.includes(arch) ? e.name : null;
  }

  // The walk over one word: builds `fields`, `alternatives` and `joined` as the CLI's
  // JsonFields visitor does, and the bit-map boxes the page draws.
  function Walk(dict, bytes, arch) {
    this.dict = dict;
    this.bytes = bytes;
    this.arch = arch;
    this.alternatives = {};
    this.joined = {};
    this.boxes = [];
    this.path = [];
  }

  Walk.prototype.leafPath = function (name, index) {
    const seg = index === undefined ? name : "[" + index + "]";
    let p = this.path.join("");
    if (p && !seg.startsWith("[")) p += ".";
    return p + seg;
  };

  Walk.prototype.push = function (name, index) {
    const seg = index === undefined ? name : "[" + index + "]";
    this.path.push(this.path.length && !seg.startsWith("[") ? "." + seg : seg);
  };

  Walk.prototype.alts = function (path, field, raw, width) {
    if (!field.alternatives || field.alternatives.length === 0) return;
    this.alternatives[path] = field.alternatives.map((a) => ({
      name: a.name,
      type: a.ty ? spelling(a.ty, width) : spelling(field.ty, width),
      value: num(raw),
      confidence: a.confidence.tag,
      sources: a.evidence.map((e) => e.cite),
    }));
  };

  // A leaf's JSON value and raw bits, from its type and stored bits.
  Walk.prototype.leaf = function (ty, raw, signedBits) {
    if (ty.kind === "named") {
      const t = this.dict.types[ty.index];
      if (t.kind === "enum") return { raw: num(raw), name: enumName(t, raw, this.arch) };
      if (t.kind === "flags") {
        const names = t.bits.filter((b) => ((raw >> BigInt(b.bit)) & 1n) === 1n).map((b) => b.name);
        return { raw: num(raw), flags: names };
      }
    }
    if (signedBits) {
      const sign = 1n << BigInt(signedBits - 1);
      return num(raw & sign ? raw - (sign << 1n) : raw);
    }
    return num(raw);
  };

  // The raw bits a leaf's alternatives show: a signed value as its 64-bit pattern.
  function rawBits(value, raw) {
    if (typeof value === "number" || typeof value === "bigint") {
      const v = BigInt(value);
      return v < 0n ? v + (1n << 64n) : v;
    }
    return raw;
  }

  // A leaf the bit map draws: its place, stored bits and decoded value.
  Walk.prototype.box = function (path, offset, size, bits, field, value, raw) {
    this.boxes.push({
      path, offset, size, bits, role: field.role, codec: field.codec || null, value, raw, variant: null,
    });
  };

  // One field of a struct (or arm) at absolute `offset`; `into` receives its value.
  Walk.prototype.field = function (field, offset, into, index) {
    const ty = field.ty;
    const key = index === undefined ? field.name : index;
    const path = this.leafPath(field.name, index);
    if (ty.kind === "array") {
      this.alts(path, field, le(this.bytes, offset, field.size));
      this.push(field.name, index);
      const out = [];
      const elemSize = field.size / ty.len;
      const elem = Object.assign({}, field, { ty: ty.elem, size: field.size });
      for (let i = 0; i < ty.len; i++) this.element(elem, offset + i * elemSize, elemSize, out, i);
      this.path.pop();
      put(into, key, out);
      return;
    }
    this.element(field, offset, field.size, into, index);
  };

  // A field whose type is not an array (an array's element too: `size` its own bytes).
  Walk.prototype.element = function (field, offset, size, into, index) {
    const ty = field.ty;
    const key = index === undefined ? field.name : index;
    const path = this.leafPath(field.name, index);
    if (ty.kind === "int") {
      const [, signed] = INT[ty.int];
      const raw = le(this.bytes, offset, size);
      const v = this.leaf(ty, raw, signed ? size * 8 : 0);
      this.alts(path, field, rawBits(v, raw));
      this.box(path, offset, size, null, field, v, raw);
      return put(into, key, v);
    }
    if (ty.kind === "ascii") {
      const bytes = Array.from(this.bytes.slice(offset, offset + size));
      this.alts(path, field, le(this.bytes, offset, size));
      const v = textJson(bytes);
      this.box(path, offset, size, null, field, v, null);
      return put(into, key, v);
    }
    const t = this.dict.types[ty.index];
    if (t.kind === "enum" || t.kind === "flags") {
      const raw = le(this.bytes, offset, t.size);
      const v = this.leaf(ty, raw, 0);
      this.alts(path, field, raw);
      this.box(path, offset, t.size, null, field, v, raw);
      this.boxes[this.boxes.length - 1].type = t;
      return put(into, key, v);
    }
    // A composite: its alternatives read the field's bytes as one value.
    this.alts(path, field, le(this.bytes, offset, field.size));
    this.push(field.name, index);
    const out = {};
    if (t.kind === "struct") this.fields(t, offset, out);
    else if (t.kind === "bitfield") this.bitfield(t, offset, out);
    else if (t.kind === "union") this.union(t, offset, out);
    this.path.pop();
    put(into, key, out);
  };

  Walk.prototype.fields = function (t, base, out) {
    for (const f of t.fields) this.field(f, base + f.offset, out);
    for (const j of t.joins || []) {
      let value = 0n;
      let shift = 0n;
      for (const [part, width] of j.parts) {
        const f = t.fields.find((x) => x.name === part);
        value |= bitsOf(le(this.bytes, base + f.offset, f.size), 0, width) << shift;
        shift += BigInt(width);
      }
      this.joined[this.leafPath(j.name)] = { value: num(value), parts: j.parts.map((p) => p[0]) };
    }
  };

  Walk.prototype.bitfield = function (t, base, out) {
    const size = t.size;
    const raw = le(this.bytes, base, size);
    for (const f of t.fields) {
      const bits = bitsOf(raw, f.lsb, f.width);
      const v = this.leaf(f.ty, bits, 0);
      const path = this.leafPath(f.name);
      this.alts(path, f, bits, f.width);
      this.box(path, base, size, { lsb: f.lsb, width: f.width }, f, v, bits);
      out[f.name] = v;
    }
  };

  // The discriminator first, then the first arm whose mask matches (or the default).
  Walk.prototype.union = function (t, base, out) {
    const d = t.discriminator;
    this.field(d, base + d.offset, out);
    const raw = le(this.bytes, base + d.offset, d.size);
    const arm =
      t.variants.find((v) => v.mask !== null && (raw & BigInt(v.mask)) === BigInt(v.value)) ||
      t.variants.find((v) => v.mask === null);
    if (!arm) return;
    this.push(arm.name);
    const inner = {};
    const before = this.boxes.length;
    this.fields(arm, base, inner);
    for (const b of this.boxes.slice(before)) b.variant = this.path.join("");
    this.path.pop();
    out[arm.name] = inner;
  };

  function put(into, key, v) {
    if (Array.isArray(into)) into.push(v);
    else into[key] = v;
  }

  // Whether `fields` shows the leaf at `path` (`a.b[1].c`).
  function shown(fields, path) {
    let v = fields;
    for (const seg of path.split(/[.[]/)) {
      const k = seg.replace(/\]$/, "");
      if (v === null || typeof v !== "object" || !(k in v)) return false;
      v = v[k];
    }
    return true;
  }

  // The leaf's stored bits, as the CLI's LeafMeta::raw reads them.
  function leafRaw(bytes, l) {
    const v = le(bytes, l.offset, l.size);
    return l.bits ? bitsOf(v, l.bits.lsb, l.bits.width) : v;
  }

  // Decodes one struct (word or record) `t` at the start of `bytes`.
  Dictionary.prototype.walk = function (t, bytes, arch) {
    const w = new Walk(this, bytes, arch);
    const fields = {};
    w.fields(t, 0, fields);
    return { walk: w, fields };
  };

  // `confidence`, `fields`, `alternatives`, `joined` and (for a word) `constant_mismatches`.
  Dictionary.prototype.body = function (obj, item, bytes, arch, constants) {
    const { walk, fields } = this.walk(this.byName.get(item.name), bytes, arch);
    const leaves = this.leafConfidence.get(item.name);
    const confidence = {};
    for (const l of leaves) {
      if (shown(fields, l.path)) confidence[l.path] = l.confidence ? l.confidence.tag : null;
    }
    obj.confidence = confidence;
    obj.fields = fields;
    if (Object.keys(walk.alternatives).length) obj.alternatives = walk.alternatives;
    if (Object.keys(walk.joined).length) obj.joined = walk.joined;
    if (!constants) return walk;
    const mismatches = leaves
      .filter((l) => l.constant !== null && l.constant !== undefined)
      .map((l) => ({ l, found: leafRaw(bytes, l) }))
      .filter(({ l, found }) => found !== BigInt(l.constant))
      .map(({ l, found }) => ({ field: l.path, expected: l.constant, found: num(found) }));
    if (mismatches.length) obj.constant_mismatches = mismatches;
    return walk;
  };

  // The word `bytes` is in `arch`: a sub-word's selector first, then the opcode.
  Dictionary.prototype.wordFor = function (bytes, arch) {
    const inArch = (w) => w.arch.includes(arch) && w.opcode.value === bytes[0];
    const sub = this.words.find((w) => {
      const s = w.opcode.sub_opcode;
      return s && inArch(w) && le(bytes, s.offset, s.size) === BigInt(s.value);
    });
    return sub || this.words.find((w) => !w.opcode.sub_opcode && inArch(w));
  };

  Dictionary.prototype.opcodeText = function (op, arch) {
    const h = "0x" + op.toString(16).padStart(2, "0");
    const e = this.opcodes.find((v) => v.value === op);
    if (!e) return h + ": unknown opcode (no OPCODE enumerator, no word in " + arch + ")";
    const engine = e.engine ? " (" + e.engine + ")" : "";
    const why = this.words.some((w) => w.opcode.value === op)
      ? "no word in " + arch
      : "no layout in the spec";
    const only = e.arch.length === 0 || e.arch.includes(arch) ? "" : "; an opcode only on " + e.arch.join(", ");
    return h + " " + e.name + engine + ": " + why + only;
  };

  // A stream of words, as `decode --json` prints its `instructions` (plus, per word, the
  // bit-map boxes under the non-enumerable `boxes`).
  Dictionary.prototype.decodeStream = function (bytes, arch) {
    return Array.from(this.eachWord(bytes, arch));
  };

  // The same, one word at a time (the page decodes a long stream as it draws it).
  Dictionary.prototype.eachWord = function* (bytes, arch) {
    let prev = null;
    const whole = bytes.length - (bytes.length % WORD_SIZE);
    for (let offset = 0; offset < whole; offset += WORD_SIZE) {
      const index = offset / WORD_SIZE;
      const word = bytes.subarray(offset, offset + WORD_SIZE);
      const obj = { index, offset, opcode: word[0] };
      const last = prev;
      prev = null;
      const w = this.wordFor(word, arch);
      if (!w) {
        const e = this.opcodes.find((v) => v.value === word[0]);
        Object.assign(obj, {
          struct: null,
          raw_hex: hex(word),
          opcode_enumerator: e ? { name: e.name, engine: e.engine } : null,
          error: this.opcodeText(word[0], arch),
          violations: null,
        });
      } else if (w.follows.length && !(last && w.follows.includes(last.name))) {
        Object.assign(obj, {
          struct: null,
          raw_hex: hex(word),
          error: w.name + " must immediately follow " + w.follows.join(" or ") +
            "; this one does not, so it is not decoded",
          violations: null,
        });
      } else {
        obj.struct = w.name;
        if (w.follows.length) obj.extension_of = last.index;
        const walk = this.body(obj, w, word, arch, true);
        this.verdict(obj, w, word, arch);
        Object.defineProperty(obj, "boxes", { value: walk.boxes, enumerable: false });
        prev = { index, name: w.name };
      }
      yield obj;
    }
  };

  // A stream of records of `name`, as `decode --struct NAME --json` prints its `records`.
  Dictionary.prototype.decodeRecords = function (bytes, name, arch) {
    return Array.from(this.eachRecord(bytes, name, arch));
  };

  Dictionary.prototype.eachRecord = function* (bytes, name, arch) {
    const r = this.records.find((x) => x.name === name);
    for (let offset = 0; offset + r.size <= bytes.length; offset += r.size) {
      const rec = bytes.subarray(offset, offset + r.size);
      const obj = { index: offset / r.size, offset, struct: name };
      const walk = this.body(obj, r, rec, arch, false);
      this.verdict(obj, r, rec, arch);
      Object.defineProperty(obj, "boxes", { value: walk.boxes, enumerable: false });
      yield obj;
    }
  };

  // One expression of a rule (the dictionary's lowered form), over the owner's bytes:
  // integers as BigInt (the CLI's i64, which the loader proved never overflows), booleans.
  Dictionary.prototype.evaluate = function (e, bytes, nc) {
    const ev = (x) => this.evaluate(x, bytes, nc);
    switch (e.op) {
      case "int": return BigInt(e.value);
      case "bool": return e.value;
      case "const": return BigInt(this.spec.rules.constants[e.index].value);
      case "nc": return BigInt(nc);
      case "not": return !ev(e.arg);
      case "neg": return -ev(e.arg);
      case "if": return ev(e.cond) ? ev(e.then) : ev(e.other);
      case "chain": return e.bin === "and" ? e.parts.every(ev) : e.parts.some(ev);
      case "read": {
        const a = e.access;
        const raw = le(bytes, a.offset, a.size);
        if (a.bits) return BigInt.asIntN(64, bitsOf(raw, a.bits[0], a.bits[1]));
        return a.signed ? BigInt.asIntN(a.size * 8, raw) : BigInt.asIntN(64, raw);
      }
      case "table": {
        const t = this.spec.rules.tables[e.index];
        const k = ev(e.arg);
        const hit = t.entries.find((x) => BigInt(x[0]) === k);
        return BigInt(hit ? hit[2] : t.default);
      }
      case "bin": {
        if (e.bin === "and") return ev(e.lhs) && ev(e.rhs);
        if (e.bin === "or") return ev(e.lhs) || ev(e.rhs);
        const [a, b] = [ev(e.lhs), ev(e.rhs)];
        switch (e.bin) {
          case "add": return a + b;
          case "sub": return a - b;
          case "mul": return a * b;
          case "div": return a / b;
          case "rem": return a % b;
          case "bit_and": return a & b;
          case "eq": return a === b;
          case "ne": return a !== b;
          case "lt": return a < b;
          case "le": return a <= b;
          case "gt": return a > b;
          case "ge": return a >= b;
        }
      }
    }
    throw new Error("dmaspec.json: unknown rule expression " + JSON.stringify(e.op));
  };

  // Whether each rule of `set` holds on `bytes` in `arch`: a rule limited to other
  // architectures holds, a composite is its parts, and one the sources give no body for
  // holds — unless `known` and it is an alternative of an `any`, which then fails (a rule
  // that holds only without `known` is undecided).
  Dictionary.prototype.truth = function (set, bytes, arch, known = false) {
    const nc = this.spec.archs.find((a) => a.name === arch).nc;
    const memo = new Map();
    const holds = (i) => {
      if (memo.has(i)) return memo.get(i);
      const r = set.rules[i];
      let v;
      if (r.arch.length && !r.arch.includes(arch)) v = true;
      else if (r.kind.kind === "expr") v = Boolean(this.evaluate(r.kind.expr, bytes, nc));
      else if (r.kind.kind === "all") v = r.kind.parts.every(holds);
      else if (r.kind.kind === "any") v = r.kind.parts.some(holds);
      else v = !(known && bodilessAlternative(set.rules, r));
      memo.set(i, v);
      return v;
    };
    return set.rules.map((_, i) => holds(i));
  };

  const bodilessAlternative = (rules, r) =>
    r.kind.kind === "not_enforced" && r.parent !== null && rules[r.parent].kind.kind === "any";

  // `violations`, `undecided` when nothing is violated but a rule holds only through an
  // alternative the sources give no body for, and `compiler_findings` when a compiler
  // rule fails: the failed leaf checks (a composite is explained by its parts) whose every
  // parent failed too, as the CLI's report decides them.
  Dictionary.prototype.verdict = function (obj, w, bytes, arch) {
    const set = this.ruleSets.get(w.name);
    const rules = set ? set.rules : [];
    const truth = set ? this.truth(set, bytes, arch) : [];
    const known = set ? this.truth(set, bytes, arch, true) : [];
    const reached = (open) => {
      const on = (i) => open[i] && (rules[i].parent === null || on(rules[i].parent));
      return rules.map((r, i) => on(i));
    };
    const failed = reached(truth.map((t) => !t));
    const open = reached(truth.map((t, i) => t && !known[i]));
    const shown = (r) => {
      const o = {
        rule: r.id, message: r.message, fields: r.fields,
        source: r.evidence.length ? r.evidence[0].cite : "",
        predicate: r.name, confidence: r.confidence.tag,
      };
      const chain = [];
      for (let p = r.parent; p !== null; p = rules[p].parent) chain.unshift(rules[p].id);
      if (chain.length) o.in = chain.join(" > ");
      return o;
    };
    // The checks that fail in the other alternatives of a bodiless alternative's `any`.
    const failing = (r) => {
      const out = [];
      const walk = (i) => {
        if (truth[i]) return;
        const k = rules[i].kind;
        if (k.kind === "expr") out.push(rules[i].id);
        else if (k.kind === "all" || k.kind === "any") k.parts.forEach(walk);
      };
      rules[r.parent].kind.parts.forEach(walk);
      return out;
    };
    const leaf = (r) => r.kind.kind === "expr" || r.kind.kind === "not_enforced";
    const by = (authority) => rules.filter((r, i) => failed[i] && r.authority === authority);
    obj.violations = by("header").filter(leaf).map(shown);
    const undecided = rules.filter((r, i) => open[i] && r.authority === "header" &&
      r.kind.kind === "not_enforced");
    if (undecided.length && !obj.violations.length) {
      obj.undecided = undecided.map((r) => ({ ...shown(r), failing: failing(r) }));
    }
    const compiler = by("compiler");
    if (compiler.length) obj.compiler_findings = compiler.filter(leaf).map(shown);
  };

  // JSON text with BigInts as plain integers (serde_json's compact form).
  function stringify(v) {
    if (typeof v === "bigint") return v.toString();
    if (v === null || typeof v !== "object") return JSON.stringify(v);
    if (Array.isArray(v)) return "[" + v.map(stringify).join(",") + "]";
    return "{" + Object.keys(v).map((k) => JSON.stringify(k) + ":" + stringify(v[k])).join(",") + "}";
  }

  // The hex text `decode --hex` reads, byte by byte as the CLI's reader does: runs of an
  // even number of hex digits, ASCII whitespace, `#` comments to the end of the line, an
  // optional byte-order mark. Errors are the CLI's, with line and column (in characters).
  function parseHex(input) {
    const text = typeof input === "string" ? new TextEncoder().encode(input) : input;
    const out = [];
    let [line, column, run, runAt, comment, hi] = [1, 0, 0, [1, 1], false, 0];
    let start = text[0] === 0xef && text[1] === 0xbb && text[2] === 0xbf ? 3 : 0;
    const endRun = () => {
      if (run % 2) {
        throw new Error(`hex input line ${runAt[0]}, column ${runAt[1]}: a run of ${run} hex digit` +
          `${run === 1 ? "" : "s"}; each byte is two digits, so one is missing or extra`);
      }
      run = 0;
    };
    for (let i = start; i < text.length; i++) {
      const c = text[i];
      if (c === 0x0a) [line, column] = [line + 1, 0];
      else if ((c & 0xc0) !== 0x80) column += 1;
      if (comment) {
        comment = c !== 0x0a;
        continue;
      }
      if (c === 0x20 || c === 0x09 || c === 0x0a || c === 0x0c || c === 0x0d || c === 0x23) {
        comment = c === 0x23;
        endRun();
        continue;
      }
      const ch = String.fromCharCode(c);
      const v = c < 0x80 ? parseInt(ch, 16) : NaN;
      if (Number.isNaN(v) || !/[0-9a-fA-F]/.test(ch)) {
        const found = c > 0x20 && c < 0x7f ? `'${ch === "'" || ch === "\\" ? "\\" + ch : ch}'`
          : "byte 0x" + c.toString(16).padStart(2, "0");
        throw new Error(`hex input line ${line}, column ${column}: ${found} is not a hex digit`);
      }
      if (run === 0) runAt = [line, column];
      if (run % 2) out.push(hi * 16 + v);
      else hi = v;
      run += 1;
    }
    endRun();
    return new Uint8Array(out);
  }

  // Whether `bytes` is the hex text `decode --hex` reads (by content, not by name): an
  // optional byte-order mark, then only hex digits, ASCII whitespace and `#` comments, with
  // at least one digit. Anything else is raw words.
  function looksHex(bytes) {
    let digits = 0;
    let comment = false;
    const start = bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf ? 3 : 0;
    for (let i = start; i < bytes.length; i++) {
      const c = bytes[i];
      if (comment) comment = c !== 0x0a;
      else if (c === 0x23) comment = true;
      else if ((c >= 0x30 && c <= 0x39) || ((c | 0x20) >= 0x61 && (c | 0x20) <= 0x66)) digits++;
      else if (!(c === 0x20 || (c >= 0x09 && c <= 0x0d && c !== 0x0b))) return false;
    }
    return digits > 0;
  }

  // Writes `value` into a leaf's stored bits (little-endian bytes at `offset`, or the bit
  // range `bits` of them): the inverse of how a leaf is read. A negative value is stored
  // as its two's complement; a value that does not fit throws.
  function setLeaf(bytes, offset, size, bits, value) {
    const width = BigInt(bits ? bits.width : size * 8);
    const lsb = BigInt(bits ? bits.lsb : 0);
    let v = BigInt(value);
    if (v < 0n && v >= -(1n << (width - 1n))) v += 1n << width;
    if (v < 0n || v >= 1n << width) throw new Error(`${value} does not fit in ${width} bits`);
    const mask = ((1n << width) - 1n) << lsb;
    const word = (le(bytes, offset, size) & ~mask) | (v << lsb);
    for (let i = 0; i < size; i++) bytes[offset + i] = Number((word >> BigInt(8 * i)) & 0xffn);
  }

  // The raw value an edit of a leaf asks for: a number (0x…, 0b…, decimal, negative), or,
  // for an enum, an enumerator's name in `arch` (any case), for a flag set, its flags'
  // names joined by `|`, `,` or spaces, as `dmaspec encode` takes them.
  function leafValue(type, text, arch) {
    const t = text.trim();
    if (/^-?(0x[0-9a-f]+|0b[01]+|0o[0-7]+|\d+)$/i.test(t)) {
      return t.startsWith("-") ? -BigInt(t.slice(1)) : BigInt(t);
    }
    if (type && type.kind === "enum") {
      const names = type.values.filter((v) => v.arch.length === 0 || v.arch.includes(arch));
      const e = names.find((v) => v.name.toLowerCase() === t.toLowerCase());
      if (!e) throw new Error(`\`${t}\` is no ${type.name} enumerator in ${arch} (one of: ${names.map((v) => v.name).join(", ")})`);
      return BigInt(e.value);
    }
    if (type && type.kind === "flags") {
      let v = 0n;
      for (const name of t.split(/[\s|,]+/).filter(Boolean)) {
        const f = type.bits.find((b) => b.name.toLowerCase() === name.toLowerCase());
        if (!f) throw new Error(`\`${name}\` is no ${type.name} flag (one of: ${type.bits.map((b) => b.name).join(", ")})`);
        v |= 1n << BigInt(f.bit);
      }
      return v;
    }
    throw new Error(`\`${t}\` is not a number (0x…, 0b…, decimal)`);
  }

  // A register file by name, and the window it has on `arch`.
  function regfileOf(dict, name, arch) {
    const f = (dict.spec.regfiles || []).find((x) => x.name === name);
    if (!f) throw new Error(`no register file \`${name}\``);
    if (!f.archs.includes(arch)) {
      throw new Error(`\`${name}\` does not exist on ${arch} (it is on ${f.archs.join(", ")})`);
    }
    const own = f.arch_sizes.find(([a]) => a === arch);
    return [f, own ? own[1] : f.size];
  }

  // Where bundle element `spec` (`M2S_Q[3]`, or `M2S`) starts, and its size.
  function bundleWindow(f, arch, spec) {
    const m = /^([^[]*)(?:\[\s*(\d+)\s*\])?$/.exec(spec);
    if (!m) throw new Error(`\`${spec}\`: write a bundle element as NAME[INDEX], e.g. M2S_Q[3]`);
    const index = m[2] === undefined ? 0 : Number(m[2]);
    const b = f.bundles.find((x) => x.name === m[1] && x.archs.includes(arch));
    if (!b) throw new Error(`\`${f.name}\` has no bundle \`${m[1]}\` on ${arch}`);
    if (index >= b.count) {
      throw new Error(`\`${m[1]}\` has ${b.count} element(s): index ${index} is out of range`);
    }
    return [b.offset + index * b.stride, b.size];
  }

  // A dump of register file `name`'s window on `arch` (or, with `bundle`, of one bundle
  // element) as `dmaspec regs --json` prints it: every declared register the dump covers,
  // its fields and unknown bits, and the nonzero slots no register claims, kept raw.
  Dictionary.prototype.decodeRegisters = function (name, arch, bundle, bytes) {
    const [f, size] = regfileOf(this, name, arch);
    const [start, span] = bundle ? bundleWindow(f, arch, bundle) : [0, size];
    if (bytes.length % 4) {
      const at = bytes.length - (bytes.length % 4);
      throw new Error(`incomplete register at byte offset ${at} (0x${at.toString(16)}): ` +
        `${bytes.length % 4} of 4 bytes`);
    }
    if (bytes.length > span) {
      throw new Error(`the dump holds more than the 0x${span.toString(16)} bytes of the window ` +
        "it dumps: give a dump of the whole file, or a bundle element");
    }
    const value = (offset) => {
      const i = offset - start;
      return i >= 0 && i + 4 <= bytes.length ? Number(le(bytes, i, 4)) : null;
    };
    const registers = [];
    for (const b of f.bundles.filter((x) => x.archs.includes(arch))) {
      for (let i = 0; i < b.count; i++) {
        const base = b.offset + i * b.stride;
        if (bundle && base !== start) continue;
        const label = b.count > 1 ? `${b.name}[${i}]` : b.name;
        for (const r of b.registers.filter((x) => x.archs.includes(arch))) {
          const v = value(base + r.offset);
          if (v === null) continue;
          let known = 0n;
          const fields = r.fields.filter((x) => x.archs.includes(arch)).map((x) => {
            known |= ((1n << BigInt(x.width)) - 1n) << BigInt(x.lsb);
            const raw = bitsOf(BigInt(v), x.lsb, x.width);
            const t = x.enum_type && this.byName.get(x.enum_type);
            const e = t && t.values.find((y) => BigInt(y.value) === raw);
            return { name: x.name, lsb: x.lsb, width: x.width, value: Number(raw),
              enumerator: e ? e.name : null, reset: x.reset };
          });
          registers.push({ offset: base + r.offset, bundle: label, register: r.name,
            access: r.access, value: v, reset: r.reset, fields,
            unknown_bits: Number(BigInt(v) & ~known & 0xffffffffn) });
        }
      }
    }
    registers.sort((a, b) => a.offset - b.offset);
    const claimed = new Set(registers.map((r) => r.offset));
    const unmapped = [];
    for (let i = 0; i + 4 <= bytes.length; i += 4) {
      const v = Number(le(bytes, i, 4));
      if (v !== 0 && !claimed.has(start + i)) unmapped.push({ offset: start + i, value: v });
    }
    return { regfile: f.name, arch, start, bytes: bytes.length, registers, unmapped };
  };


  // ---- one line per word: `dmaspec decode --asm` (docs/guide/cli.md, "One line per word") ----
  // A port of the library's printer (src/asm/); tests/viewer/run.mjs compares the two on
  // random streams of every architecture, so the tables below cannot drift from its own.

  // The producer's compare and update forms of the events block (src/asm/events.rs).
  const WAITS = [["WAIT_FOR_SEM_GE_IMM", ">="], ["WAIT_FOR_SEM_LE_IMM", "<="],
    ["WAIT_FOR_SEM_EQ_IMM", "=="], ["WAIT_FOR_SEM_GT_IMM", ">"], ["WAIT_FOR_SEM_LT_IMM", "<"]];
  const UPDATES = [["SEM_INC_COMPLETE", "++", "complete"], ["SEM_DEC_COMPLETE", "--", "complete"],
    ["SEM_ADD_IMM_COMPLETE", "+=", "complete"], ["SEM_SUB_IMM_COMPLETE", "-=", "complete"],
    ["SEM_WR_IMM_COMPLETE", "=", "complete"], ["SEM_INC_READ", "++", "read"],
    ["SEM_DEC_READ", "--", "read"], ["SEM_ADD_IMM_READ", "+=", "read"],
    ["SEM_SUB_IMM_READ", "-=", "read"], ["SEM_WR_IMM_READ", "=", "read"]];
  // The fields the producer's lines always show (src/asm/producer.rs).
  const SHOWN = {
    PSEUDO_TRIGGER_COLLECTIVE: ["ctype", "input_tensor_id", "output_tensor_id", "num_elements",
      "dtype", "op", "group_id"],
    PSEUDO_DMA_TRIGGER: ["block_id"],
  };

  // The leaves `fields` shows, as [path, value] in the order of `keys`.
  function flatten(fields, keys) {
    const out = [];
    const at = (obj, prefix) => {
      for (const [k, v] of Object.entries(obj)) {
        const path = prefix ? prefix + "." + k : k;
        if (keys.includes(path)) out.push([path, v]);
        else if (Array.isArray(v)) v.forEach((x, i) => x && typeof x === "object" && at(x, path + "[" + i + "]"));
        else if (v && typeof v === "object") at(v, path);
      }
    };
    at(fields, "");
    return out.sort((a, b) => keys.indexOf(a[0]) - keys.indexOf(b[0]));
  }

  Dictionary.prototype.asmValue = function (type, v) {
    if (Array.isArray(v)) return "[" + v.map((x) => this.asmValue("", x)).join(",") + "]";
    if (v === null || typeof v !== "object") return String(v);
    if (typeof v.name === "string") return type === "DTYPE" ? v.name.toLowerCase() : v.name;
    const t = this.byName.get(type);
    if (Array.isArray(v.flags) && BigInt(v.raw) !== 0n && t && t.bits) {
      const named = v.flags.reduce((a, n) => a | (1n << BigInt(t.bits.find((b) => b.name === n).bit)), 0n);
      if (named === BigInt(v.raw)) return v.flags.join("|");
    }
    return String(v.raw);
  };

  // The word `bytes` as one line in `arch`.
  Dictionary.prototype.asm = function (bytes, arch) {
    const w = this.wordFor(bytes, arch);
    let slots, read, mnemonic, rawFrom = WORD_SIZE, template = new Uint8Array(WORD_SIZE);
    if (w) {
      mnemonic = w.name;
      slots = w.leaves.map((l) => ({ key: l.path, type: l.type, offset: l.offset, size: l.size }));
      read = (b) => this.walk(this.byName.get(w.name), b, arch).fields;
      template[0] = w.opcode.value;
      for (const l of w.leaves) {
        if (l.constant !== null && l.constant !== undefined) setLeaf(template, l.offset, l.size, l.bits, BigInt(l.constant));
      }
    } else {
      const e = this.opcodes.find((v) => v.value === bytes[0] && (v.arch.length === 0 || v.arch.includes(arch)));
      if (!e) return ".word 0x" + hex(bytes) + ";";
      // The header (but its opcode) and the 8-byte events block every word opens with.
      mnemonic = e.name;
      const header = this.byName.get("HEADER"), events = this.byName.get("EVENTS");
      const of = (t, prefix, base) => t.fields.map((f) => ({ key: prefix + f.name,
        type: f.ty.kind === "named" ? f.ty.name : "", offset: base + f.offset, size: f.size, constant: f.constant }));
      slots = of(header, "header.", 0).slice(1).concat(of(events, "events.", header.size));
      rawFrom = header.size + events.size;
      read = (b) => ({ header: this.walk(header, b, arch).fields,
        events: this.walk(events, b.subarray(header.size), arch).fields });
      template[0] = bytes[0];
      for (const s of slots) if (s.constant !== null && s.constant !== undefined) template[s.offset] = s.constant;
    }
    const keys = slots.map((s) => s.key);
    const values = flatten(read(bytes), keys);
    const defaults = new Map(flatten(read(template), keys).map(([k, v]) => [k, stringify(v)]));
    const get = (k) => { const e = values.find((x) => x[0] === k); return e ? e[1] : undefined; };
    const slot = (k) => slots.find((s) => s.key === k);
    const ops = [], used = new Set();
    const mode = slots.find((s) => s.type === "WAIT_MODE" && s.key.endsWith("wait_mode"));
    if (mode) {
      const p = mode.key.slice(0, -"wait_mode".length);
      const [wm, wi, um, ui, sv] = ["wait_mode", "wait_idx", "update_mode", "update_idx", "semaphore_value"].map((k) => get(p + k));
      if (wi !== undefined && ui !== undefined && sv !== undefined) {
        const wait = WAITS.find((x) => wm && x[0] === wm.name);
        if (wait) {
          ops.push("$S[" + wi + "]" + wait[1] + sv);
          ["wait_mode", "wait_idx", "semaphore_value"].forEach((k) => used.add(p + k));
        }
        const upd = UPDATES.find((x) => um && x[0] === um.name);
        if (upd) {
          const takes = upd[1].endsWith("=");
          if (takes) used.add(p + "semaphore_value");
          ops.push("$S[" + ui + "]" + upd[1] + (takes ? String(sv) : "") + "@" + upd[2]);
          ["update_mode", "update_idx"].forEach((k) => used.add(p + k));
        }
      }
    }
    const text = slots.find((s) => s.type.startsWith("ascii[") && get(s.key) !== undefined);
    if (text) {
      const t = textJson(bytes.subarray(text.offset, text.offset + text.size));
      if (typeof t === "string" && /^[A-Za-z_][A-Za-z0-9_.]*$/.test(t)) {
        ops.push(t);
        used.add(text.key);
      }
    }
    const show = (k, v) => {
      const s = slot(k);
      if (!s.type.startsWith("ascii[")) return k + "=" + this.asmValue(s.type, v);
      const field = bytes.subarray(s.offset, s.offset + s.size);
      const t = textJson(field);
      const plain = typeof t === "string" && [...t].every((c) => c >= " " && c <= "~" && c !== '"' && c !== "\\");
      return k + "=" + (plain ? '"' + t + '"' : "0x" + hex(field));
    };
    for (const k of (w && SHOWN[w.name]) || []) {
      if (!used.has(k) && get(k) !== undefined) {
        ops.push(show(k, get(k)));
        used.add(k);
      }
    }
    for (const [k, v] of values) {
      if (!used.has(k) && defaults.get(k) !== stringify(v)) ops.push(show(k, v));
    }
    const raw = bytes.subarray(rawFrom);
    const first = raw.findIndex((b) => b !== 0);
    if (first >= 0) {
      const last = raw.length - 1 - [...raw].reverse().findIndex((b) => b !== 0);
      ops.push("raw[" + (rawFrom + first) + ".." + (rawFrom + last + 1) + "]=0x" + hex(raw.subarray(first, last + 1)));
    }
    return [mnemonic].concat(ops).join(" ") + ";";
  };

  const api = { Dictionary, parseHex, looksHex, setLeaf, leafValue, stringify, hex, WORD_SIZE };
  if (typeof module !== "undefined" && module.exports) module.exports = api;
  root.DmaspecDecode = api;
})(typeof globalThis !== "undefined" ? globalThis : this);
