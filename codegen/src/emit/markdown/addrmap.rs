//! `docs/addrmap/<arch>.md`: one page per SoC address map — what one instance holds
//! (each slot's parts, linked to their register file's page) and where the instances lie
//! (each window's base, count and stride, with every instance's base).

use std::fmt::Write as _;

use super::pages::*;
use super::util::*;
use crate::model::addrmap::AddrMap;

/// The pages, relative to `generated/`.
pub(super) const DIR: &str = "docs/addrmap";

/// The page of `m`, relative to `docs/`.
pub(super) fn page(m: &AddrMap) -> String {
    format!("addrmap/{}.md", m.arch)
}

impl Pages<'_> {
    /// The index's paragraph linking each map's page (empty without maps).
    pub(super) fn address_map_index(&self) -> String {
        let maps = &self.model.addrmaps;
        if maps.is_empty() {
            return String::new();
        }
        let links: Vec<String> = (maps.iter())
            .map(|m| format!("[{}]({})", m.arch, page(m)))
            .collect();
        format!(
            "Where the register files' instances lie in the SoC, and what an absolute address \
             falls in (`dmaspec addr`): the address map of {}.\n\n",
            links.join(", ")
        )
    }

    pub(super) fn address_maps(&self) -> Vec<(String, String)> {
        (self.model.addrmaps.iter())
            .map(|m| (format!("{DIR}/{}.md", m.arch), self.address_map_page(m)))
            .collect()
    }

    fn address_map_page(&self, m: &AddrMap) -> String {
        let mut out = String::from(BANNER);
        let instances = m.instances();
        let _ = writeln!(out, "# The {} address map\n", m.arch);
        let _ = writeln!(
            out,
            "{}\n\n{} instances in {} windows. `dmaspec addr ADDRESS --arch {}` names what \
             an absolute address falls in. Confidence: *{}*. Spec: `{}`.\n",
            para(&m.doc),
            instances.len(),
            m.windows.len(),
            m.arch,
            text(&m.confidence.tag),
            m.file
        );
        self.evidence_list(&m.evidence, &mut out);
        out.push_str("\n## Slots\n");
        for s in &m.slots {
            let _ = writeln!(out, "\n### {}\n\n{}\n", s.name, para(&s.doc));
            let _ = writeln!(
                out,
                "| Offset | Size | Part | Register file |\n|---|---|---|---|"
            );
            for p in &s.parts {
                let file = match &p.regfile {
                    Some(f) => format!("[`{f}`](../registers/{}.md)", f.to_lowercase()),
                    None => "*reserved*".to_string(),
                };
                let _ = writeln!(
                    out,
                    "| `+{:#x}` | `{:#x}` | `{}` | {file} |",
                    p.offset, p.size, p.name
                );
            }
            let _ = writeln!(
                out,
                "\nThe slot is `{:#x}` bytes; what no part covers is a hole.\n",
                s.size
            );
            self.evidence_list(&s.evidence, &mut out);
        }
        out.push_str("\n## Windows\n\n| Instances | Slot | Base | Count | Stride | Confidence | Evidence |\n|---|---|---|---|---|---|---|\n");
        for w in &m.windows {
            let _ = writeln!(
                out,
                "| `{}` | {} | `{:#x}` | {} | `{:#x}` | *{}* | {} |",
                w.name,
                m.slots[w.slot].name,
                w.base,
                w.count,
                w.stride,
                text(&w.confidence.tag),
                self.evidence_cell(&w.evidence)
            );
        }
        out.push_str("\n## Instances by base\n\n| Base | End | Instance |\n|---|---|---|\n");
        for i in &instances {
            let _ = writeln!(
                out,
                "| `{:#x}` | `{:#x}` | `{}` |",
                i.base,
                i.base + i.slot.size,
                i.name
            );
        }
        out
    }
}
