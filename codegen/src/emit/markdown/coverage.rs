//! `docs/coverage.md`: bytes per common confidence level, per word, and the scales.

use std::fmt::Write as _;

use super::pages::*;
use super::util::*;
use crate::model::*;

impl<'m> Pages<'m> {
    // -----------------------------------------------------------------------------------
    // coverage.md

    /// Byte counts: one per common level, then reserved, then unknown.
    fn coverage_counts(&self, cov: &[ByteClass]) -> Vec<usize> {
        let n = self.model.levels.len();
        let mut counts = vec![0; n + 2];
        for c in cov {
            let i = match c {
                ByteClass::Data { rank } => (*rank).min(n.saturating_sub(1)),
                ByteClass::Reserved => n,
                ByteClass::Unknown => n + 1,
            };
            counts[i] += 1;
        }
        counts
    }

    pub(super) fn coverage_summary(&self, cov: &[ByteClass]) -> String {
        let counts = self.coverage_counts(cov);
        let names = self
            .model
            .levels
            .iter()
            .map(|l| l.name.as_str())
            .chain(["reserved", "unknown"]);
        let parts: Vec<String> = names
            .zip(&counts)
            .filter(|(_, c)| **c > 0)
            .map(|(n, c)| format!("{c} {}", text(n)))
            .collect();
        format!("{} of {} bytes", parts.join(", "), cov.len())
    }

    fn byte_symbol(&self, c: ByteClass) -> char {
        match c {
            ByteClass::Data { rank } => char::from_digit(rank as u32 + 1, 36).unwrap_or('#'),
            ByteClass::Reserved => 'r',
            ByteClass::Unknown => '?',
        }
    }

    pub(super) fn coverage_page(&self) -> String {
        let m = self.model;
        let mut out = String::from(BANNER);
        out.push_str("# Coverage\n\n");
        out.push_str(
            "How much of each word (and each record, at its own size) is known, counted by byte. A data byte counts at the common \
             confidence level of the leaf that covers it, which is never surer than a member \
             holding it (a word's STRONG `header` leaves HEADER's fields STRONG); a byte \
             covered by a bitfield counts once, at \
             the weakest level of the sub-fields whose bits fall in it; a byte inside a union \
             counts at its weakest arm. A byte that only reserved fields cover counts as \
             reserved; a byte any unknown field covers counts as unknown, whatever else covers \
             it.\n\n",
        );
        let mut cols: Vec<&str> = vec!["Word"];
        cols.extend(m.levels.iter().map(|l| l.name.as_str()));
        cols.extend(["reserved", "unknown", "Bytes"]);
        self.table_head(&cols, &mut out);
        let mut totals = vec![0usize; m.levels.len() + 2];
        let mut all = 0;
        let mut maps = Vec::new();
        for w in m.words().chain(m.records()) {
            let cov = m.byte_coverage(w);
            let counts = self.coverage_counts(&cov);
            for (t, c) in totals.iter_mut().zip(&counts) {
                *t += c;
            }
            all += cov.len();
            let mut cells = vec![self.type_link(w, Loc::Top)];
            cells.extend(counts.iter().map(usize::to_string));
            cells.push(cov.len().to_string());
            self.row(&cells, &mut out);
            maps.push((w.name.as_str(), cov));
        }
        let mut cells = vec!["**Total**".to_string()];
        cells.extend(totals.iter().map(|c| format!("**{c}**")));
        cells.push(format!("**{all}**"));
        self.row(&cells, &mut out);
        out.push('\n');

        out.push_str("## Byte maps\n\n");
        let legend: Vec<String> = m
            .levels
            .iter()
            .enumerate()
            .map(|(i, l)| {
                format!(
                    "`{}` {}",
                    self.byte_symbol(ByteClass::Data { rank: i }),
                    text(&l.name)
                )
            })
            .chain(["`r` reserved".to_string(), "`?` unknown".to_string()])
            .collect();
        let _ = writeln!(
            out,
            "One character per byte, eight to a group: {}.\n",
            legend.join(", ")
        );
        out.push_str("```text\n");
        let width = maps.iter().map(|(n, _)| n.len()).max().unwrap_or(0);
        let longest = maps.iter().map(|(_, c)| c.len()).max().unwrap_or(0);
        let mut head = format!("{:width$}", "");
        for g in (0..longest).step_by(8) {
            let _ = write!(head, " {:<8}", format!("+{g}"));
        }
        let _ = writeln!(out, "{}", head.trim_end());
        for (name, cov) in &maps {
            let mut line = format!("{name:width$}");
            for (i, c) in cov.iter().enumerate() {
                if i % 8 == 0 {
                    line.push(' ');
                }
                line.push(self.byte_symbol(*c));
            }
            let _ = writeln!(out, "{line}");
        }
        out.push_str("```\n\n");
        self.bit_maps_section(&mut out);
        self.gaps_section(&mut out);

        out.push_str("## Confidence levels\n\n");
        out.push_str("The common ordering every source's tags map onto, strongest first.\n\n");
        self.table_head(&["Level", "Meaning"], &mut out);
        for l in &m.levels {
            self.row(&[format!("**{}**", text(&l.name)), text(&l.doc)], &mut out);
        }
        out.push('\n');

        out.push_str("## Confidence scales\n\n");
        out.push_str(
            "Each source tags its claims on its own scale; the spec keeps the tag as written \
             and maps it onto a common level.\n\n",
        );
        for s in &m.scales {
            let _ = writeln!(out, "### Scale {}\n", text(&s.name));
            let _ = writeln!(out, "{}\n", para(&s.doc));
            let users: Vec<String> = m
                .sources
                .iter()
                .filter(|src| src.scale == s.name)
                .map(|src| code(&src.id, false))
                .collect();
            let _ = writeln!(out, "Used by: {}.\n", or_dash(users.join(", ")));
            self.table_head(&["Tag", "Common level"], &mut out);
            for (tag, level) in &s.levels {
                self.row(&[code(tag, true), text(level)], &mut out);
            }
            out.push('\n');
        }
        out
    }

    /// `## Bit maps`: every struct's picture (words and records, then nested structs), each
    /// under a link to its page or section.
    fn bit_maps_section(&self, out: &mut String) {
        let m = self.model;
        out.push_str("## Bit maps\n\n");
        out.push_str(
            "Each word and record drawn as a register diagram: a row per 32-bit little-endian \
             word (bit 31 left, bit 0 right), a box per leaf spanning exactly its bits and \
             coloured by the level it counts at above; a dashed box with a hatched corner has \
             alternative readings. Open a picture on its own to hover a box for its full path, \
             type and confidence. The nested structs the words are built from follow the \
             words and records.\n\n",
        );
        for w in super::svg::pictured(m) {
            let _ = writeln!(
                out,
                "{}\n\n{}\n",
                self.type_link(w, Loc::Top),
                super::svg::image(w, "")
            );
        }
    }

    /// `## Known but not specified`: the `[[gap]]` records, one row each.
    fn gaps_section(&self, out: &mut String) {
        let m = self.model;
        out.push_str("## Known but not specified\n\n");
        out.push_str(
            "What the sources name but do not let the spec lay out (`spec/gaps.toml`): no word, \
             record or field above stands for it, and decoders show its bytes as an unknown \
             opcode or as the unknown fields of the word it is part of.\n\n",
        );
        if m.gaps.is_empty() {
            out.push_str("*None.*\n\n");
            return;
        }
        self.table_head(
            &[
                "Name",
                "Opcode",
                "Part of",
                "Reason",
                "Confidence",
                "Evidence",
            ],
            out,
        );
        for g in &m.gaps {
            let opcode = g.opcode.as_ref().map_or("—".to_string(), |o| {
                format!("`{:#04x}` {}", o.value, code(&o.enumerator, true))
            });
            let part_of = match g.word.as_deref().and_then(|w| m.type_by_name(w)) {
                Some(t) => self.type_link(t, Loc::Top),
                None => "—".to_string(),
            };
            self.row(
                &[
                    code(&g.name, true),
                    opcode,
                    part_of,
                    prose(&g.reason, true),
                    self.confidence_cell(&g.confidence),
                    self.evidence_cell(&g.evidence),
                ],
                out,
            );
        }
        out.push('\n');
    }
}
