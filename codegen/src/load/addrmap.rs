//! Resolves `[[addrmap]]`: one map per architecture; every slot part names a register
//! file that exists there (its size is that file's window) or is a sized reserved range,
//! inside the slot and overlapping no other part; every window's instances fit the SoC
//! address space and overlap no other instance.

use std::ops::Range;

use super::{FileId, Loader, Scope};
use crate::diagnostics::{suggest, suggest_or_list};
use crate::model::Model;
use crate::model::addrmap::{AddrMap, Part, Slot, Window};
use crate::schema::RawFile;
use crate::schema::addrmap::{RawAddrMap, RawSlot, RawWindow};

/// The SoC physical address width: bits 0..=57 (the 58-bit decode of the Cayman map).
pub const ADDRESS_BITS: u32 = 58;
/// Instances one window may place: far above any source's (32 channels), low enough that
/// every instance can be listed.
const MAX_COUNT: u64 = 4096;

impl Loader {
    pub(super) fn addrmaps(
        &mut self,
        raws: &[(usize, RawFile)],
        scope: &Scope,
        model: &Model,
    ) -> Vec<AddrMap> {
        let mut out: Vec<AddrMap> = Vec::new();
        for (fi, raw) in raws {
            let at = FileId(*fi);
            for m in &raw.addrmap {
                let arch = m.arch.get_ref();
                if !scope.archs.contains(arch) {
                    self.unknown_arch(at, &m.arch, scope);
                    continue;
                }
                let taken = out.iter().any(|o| &o.arch == arch);
                if self.duplicate(at, &m.arch, "address map of", taken) {
                    continue;
                }
                out.push(self.addrmap(at, m, scope, model));
            }
        }
        out
    }

    fn addrmap(&mut self, at: FileId, m: &RawAddrMap, scope: &Scope, model: &Model) -> AddrMap {
        let arch = m.arch.get_ref().clone();
        let confidence = self.confidence(at, &m.confidence, scope);
        let what = format!("the address map of {arch}");
        let evidence =
            self.required_evidence(at, &m.evidence, &confidence, scope, m.arch.span(), &what);
        let mut slots: Vec<Slot> = Vec::new();
        for s in &m.slot {
            let taken = slots.iter().any(|o| &o.name == s.name.get_ref());
            if !self.duplicate_in(at, &s.name, "slot", &arch, taken) {
                let slot = self.slot(at, s, &arch, &confidence, scope, model);
                slots.push(slot);
            }
        }
        let mut windows: Vec<(Window, Range<usize>)> = Vec::new();
        for w in &m.window {
            let taken = windows.iter().any(|(o, _)| &o.name == w.name.get_ref());
            if self.duplicate_in(at, &w.name, "window", &arch, taken) {
                continue;
            }
            if let Some(window) = self.window(at, w, &slots, &confidence, scope) {
                windows.push((window, w.name.span()));
            }
        }
        self.check_instances(at, &slots, &windows);
        AddrMap {
            arch,
            doc: m.doc.trim().to_string(),
            confidence,
            evidence,
            slots,
            windows: windows.into_iter().map(|(w, _)| w).collect(),
            file: self.files[at.0].relative(&self.root),
        }
    }

    fn slot(
        &mut self,
        at: FileId,
        s: &RawSlot,
        arch: &str,
        map: &crate::model::Confidence,
        scope: &Scope,
        model: &Model,
    ) -> Slot {
        let name = s.name.get_ref();
        let size = *s.size.get_ref();
        if size == 0 {
            self.err(at, s.size.span(), format!("slot `{name}` has size 0"));
        }
        let mut parts: Vec<(Part, Range<usize>)> = Vec::new();
        for p in &s.part {
            let part_size = match (&p.regfile, &p.size) {
                (Some(r), None) => {
                    let file = model.regfiles.iter().find(|f| &f.name == r.get_ref());
                    match file {
                        Some(f) if f.archs.iter().any(|a| a == arch) => f.size_on(arch),
                        Some(f) => {
                            let on = f.archs.join(", ");
                            let msg = format!(
                                "register file `{}` does not exist on {arch} (it is on {on})",
                                f.name
                            );
                            self.err(at, r.span(), msg);
                            continue;
                        }
                        None => {
                            let names = model.regfiles.iter().map(|f| f.name.as_str());
                            let msg = format!(
                                "unknown register file `{}`{}",
                                r.get_ref(),
                                suggest_or_list(r.get_ref(), names)
                            );
                            self.err_unknown(at, r.span(), r.get_ref(), msg);
                            continue;
                        }
                    }
                }
                (None, Some(sz)) => *sz.get_ref(),
                (Some(_), Some(sz)) => {
                    let msg = "a register file's part takes its size from the file: remove \
                               `size`, or `regfile` for a reserved range";
                    self.err(at, sz.span(), msg);
                    continue;
                }
                (None, None) => {
                    let msg = format!(
                        "part `{}` of slot `{name}` has neither `regfile` nor `size`: name the \
                         register file at this offset, or give a reserved range's size",
                        p.name.get_ref()
                    );
                    self.err(at, p.name.span(), msg);
                    continue;
                }
            };
            let offset = *p.offset.get_ref();
            let end = offset.checked_add(part_size).filter(|&e| e <= size);
            let Some(end) = end else {
                let msg = format!(
                    "part `{}` ({offset:#x}, {part_size:#x} bytes) does not fit slot `{name}` \
                     ({size:#x} bytes)",
                    p.name.get_ref()
                );
                self.err(at, p.offset.span(), msg);
                continue;
            };
            let clash = parts
                .iter()
                .find(|(q, _)| q.offset < end && offset < q.offset + q.size);
            if let Some((q, first)) = clash {
                let msg = format!(
                    "part `{}` ({offset:#x}..{end:#x}) overlaps `{}` ({:#x}..{:#x}) in slot \
                     `{name}`",
                    p.name.get_ref(),
                    q.name,
                    q.offset,
                    q.offset + q.size
                );
                let first = first.start;
                self.err_duplicate(at, p.offset.span(), msg, first);
                continue;
            }
            let part = Part {
                name: p.name.get_ref().clone(),
                regfile: p.regfile.as_ref().map(|r| r.get_ref().clone()),
                offset,
                size: part_size,
            };
            parts.push((part, p.offset.span()));
        }
        let mut parts: Vec<Part> = parts.into_iter().map(|(p, _)| p).collect();
        parts.sort_by_key(|p| p.offset);
        let confidence = self.confidence_or(at, &s.confidence, map, scope);
        let evidence = self.evidence(at, &s.evidence, &confidence, scope);
        Slot {
            name: name.clone(),
            doc: s.doc.trim().to_string(),
            size,
            parts,
            confidence,
            evidence,
        }
    }

    fn window(
        &mut self,
        at: FileId,
        w: &RawWindow,
        slots: &[Slot],
        map: &crate::model::Confidence,
        scope: &Scope,
    ) -> Option<Window> {
        let name = w.name.get_ref();
        let Some(slot) = slots.iter().position(|s| &s.name == w.slot.get_ref()) else {
            let names = slots.iter().map(|s| s.name.as_str());
            let msg = format!(
                "window `{name}` places unknown slot `{}`{}",
                w.slot.get_ref(),
                suggest(w.slot.get_ref(), names)
            );
            self.err_unknown(at, w.slot.span(), w.slot.get_ref(), msg);
            return None;
        };
        let size = slots[slot].size;
        let count = *w.count.get_ref();
        if count == 0 || count > MAX_COUNT {
            let msg = format!("window `{name}`: `count` must be 1..={MAX_COUNT}, not {count}");
            self.err(at, w.count.span(), msg);
            return None;
        }
        if count > 1 && !name.contains("{n}") {
            let msg = format!(
                "window `{name}` has {count} instances but one name: put `{{n}}` (the channel \
                 number) in it"
            );
            self.err(at, w.name.span(), msg);
            return None;
        }
        let stride = match &w.stride {
            Some(s) => *s.get_ref(),
            None if count == 1 => size,
            None => {
                let msg = format!("window `{name}` has {count} instances: give their `stride`");
                self.err(at, w.count.span(), msg);
                return None;
            }
        };
        if count > 1 && stride < size {
            let msg = format!(
                "window `{name}`: stride {stride:#x} is less than slot `{}`'s {size:#x} bytes, \
                 so its instances overlap",
                slots[slot].name
            );
            let span = w.stride.as_ref().map_or(w.count.span(), |s| s.span());
            self.err(at, span, msg);
            return None;
        }
        let base = *w.base.get_ref();
        let end = (count - 1)
            .checked_mul(stride)
            .and_then(|x| x.checked_add(base))
            .and_then(|x| x.checked_add(size))
            .filter(|&e| e <= 1u64 << ADDRESS_BITS);
        if end.is_none() {
            let msg = format!(
                "window `{name}`: {count} instances of {size:#x} bytes, {stride:#x} apart from \
                 {base:#x}, do not fit the {ADDRESS_BITS}-bit address space"
            );
            self.err(at, w.base.span(), msg);
            return None;
        }
        let confidence = self.confidence_or(at, &w.confidence, map, scope);
        let what = format!("window `{name}`");
        let evidence =
            self.required_evidence(at, &w.evidence, &confidence, scope, w.name.span(), &what);
        Some(Window {
            name: name.clone(),
            slot,
            base,
            count,
            stride,
            step: w.step.as_ref().map_or(1, |s| *s.get_ref()),
            confidence,
            evidence,
        })
    }

    /// No two instances of any windows share a byte.
    fn check_instances(&mut self, at: FileId, slots: &[Slot], windows: &[(Window, Range<usize>)]) {
        let mut spans: Vec<(u64, u64, String, usize)> = Vec::new();
        for (wi, (w, _)) in windows.iter().enumerate() {
            for i in 0..w.count {
                let (name, base) = w.instance(i);
                spans.push((base, base + slots[w.slot].size, name, wi));
            }
        }
        spans.sort();
        for pair in spans.windows(2) {
            let [(a_base, a_end, a, aw), (b_base, b_end, b, bw)] = pair else {
                continue;
            };
            if b_base < a_end {
                let msg = format!(
                    "instance `{b}` ({b_base:#x}..{b_end:#x}) overlaps `{a}` \
                     ({a_base:#x}..{a_end:#x})"
                );
                let first = windows[*aw].1.start;
                self.err_duplicate(at, windows[*bw].1.clone(), msg, first);
            }
        }
    }
}
