//! `c/addrmap_<arch>.h`: one header per address map — each slot part's offset from an
//! instance's base, and every instance's base (`CAYMAN_APB_SE_0_SDMA_5_BASE`), so that a
//! register's absolute address is `<INSTANCE>_BASE + <SLOT>_<PART>_OFFSET` plus the
//! register's offset from its file's header.

use std::fmt::Write as _;

use super::registers::lit;
use super::util::{DIR, GENERATED, confidence, doc, guard};
use crate::model::Model;
use crate::model::addrmap::AddrMap;

/// The header of `m`, relative to `c/`.
pub fn header_file(m: &AddrMap) -> String {
    format!("addrmap_{}.h", m.arch.to_ascii_lowercase())
}

/// One header per address map, as (path under `generated/`, contents).
pub fn render(model: &Model) -> Vec<(String, String)> {
    (model.addrmaps.iter())
        .map(|m| (format!("{DIR}/{}", header_file(m)), header(m)))
        .collect()
}

fn header(m: &AddrMap) -> String {
    let arch = m.arch.to_ascii_uppercase();
    let g = guard(&header_file(m));
    let mut out = String::from(GENERATED);
    let cites = |ev: &[crate::model::Evidence]| {
        let mut list: Vec<&str> = Vec::new();
        for e in ev {
            if !list.contains(&e.cite.as_str()) {
                list.push(&e.cite);
            }
        }
        list.join("; ")
    };
    doc(
        &mut out,
        "",
        &[
            format!("The {} SoC address map. {}", m.arch, m.doc),
            format!(
                "`{arch}_<SLOT>_<PART>_OFFSET` is a part's offset from an instance's base, \
                 `{arch}_<INSTANCE>_BASE` an instance's absolute base."
            ),
            confidence(&m.confidence),
            format!("Evidence: {}. Spec: {}.", cites(&m.evidence), m.file),
        ],
    );
    let _ = write!(out, "#ifndef {g}\n#define {g}\n\n");
    for s in &m.slots {
        doc(
            &mut out,
            "",
            &[format!("Slot {} ({:#x} bytes): {}", s.name, s.size, s.doc)],
        );
        for p in &s.parts {
            let what = p.regfile.as_deref().unwrap_or("reserved");
            let _ = writeln!(
                out,
                "#define {arch}_{}_{}_OFFSET {} /* {what}, {:#x} bytes */",
                s.name,
                p.name,
                lit(p.offset),
                p.size
            );
        }
        out.push('\n');
    }
    for w in &m.windows {
        let slot = &m.slots[w.slot];
        doc(
            &mut out,
            "",
            &[
                format!(
                    "{}: {} x slot {}, {:#x} apart from {:#x}.",
                    w.name, w.count, slot.name, w.stride, w.base
                ),
                confidence(&w.confidence),
                format!("Evidence: {}.", cites(&w.evidence)),
            ],
        );
        for i in 0..w.count {
            let (name, base) = w.instance(i);
            let _ = writeln!(out, "#define {arch}_{name}_BASE {}", lit(base));
        }
        out.push('\n');
    }
    let _ = writeln!(out, "#endif /* {g} */");
    out
}
