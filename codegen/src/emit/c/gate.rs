//! Confidence gating in the headers: the common levels' ranks, and per level below the
//! strongest a `DMASPEC_GATED_<LEVEL>(note)` macro that members of that level carry. It is
//! `__attribute__((deprecated(note)))` when the includer defines `DMASPEC_MIN_CONFIDENCE`
//! as a stronger rank, and nothing otherwise, so the layout never changes.

use std::fmt::Write as _;

use crate::model::{Confidence, Evidence, Model};

/// Opens and closes a header's body (after its includes): see [`prelude`].
pub(super) const OWN_USES_BEGIN: &str = "DMASPEC_OWN_USES_BEGIN";
pub(super) const OWN_USES_END: &str = "DMASPEC_OWN_USES_END";

/// `DMASPEC_CONFIDENCE_<LEVEL>`: the rank the includer compares against.
fn rank_macro(level: &str) -> String {
    format!("DMASPEC_CONFIDENCE_{}", level.to_uppercase())
}

/// `DMASPEC_GATED_<LEVEL>`: what a member of that level carries.
fn gated_macro(level: &str) -> String {
    format!("DMASPEC_GATED_{}", level.to_uppercase())
}

/// The ranks and the gating macros, for the common header.
pub(super) fn prelude(model: &Model) -> String {
    let mut out = String::from(
        "\n/* Confidence gating: the common levels' ranks, strongest first. Define\n \
         * DMASPEC_MIN_CONFIDENCE as one of them before including a header, and every member\n \
         * below that level is deprecated (GCC and Clang warn at each use, naming its tag and\n \
         * cites); the layout stays the same. */\n",
    );
    for (rank, l) in model.levels.iter().enumerate() {
        let _ = writeln!(out, "#define {} {rank}", rank_macro(&l.name));
    }
    out.push_str(
        "/* The headers' own uses of what a gate marks (layout checks, rule predicates) do not\n \
         * warn: each header's body is bracketed by these. */\n\
         #if defined(DMASPEC_MIN_CONFIDENCE) && (defined(__GNUC__) || defined(__clang__))\n\
         #define DMASPEC_OWN_USES_BEGIN _Pragma(\"GCC diagnostic push\") \
         _Pragma(\"GCC diagnostic ignored \\\"-Wdeprecated-declarations\\\"\")\n\
         #define DMASPEC_OWN_USES_END _Pragma(\"GCC diagnostic pop\")\n#else\n\
         #define DMASPEC_OWN_USES_BEGIN\n#define DMASPEC_OWN_USES_END\n#endif\n",
    );
    for l in model.levels.iter().skip(1) {
        let (rank, gated) = (rank_macro(&l.name), gated_macro(&l.name));
        let _ = write!(
            out,
            "#if defined(DMASPEC_MIN_CONFIDENCE) && DMASPEC_MIN_CONFIDENCE < {rank} && \
             (defined(__GNUC__) || defined(__clang__))\n\
             #define {gated}(note) __attribute__((deprecated(note)))\n#else\n\
             #define {gated}(note)\n#endif\n"
        );
    }
    out
}

/// ` DMASPEC_GATED_INFERRED("INFERRED: …")` after a member of confidence `c`; nothing for
/// a member of the strongest level, which no gate marks, or for an unknown member (`c`
/// None), which claims nothing.
pub(super) fn member_suffix(c: Option<&Confidence>, evidence: &[Evidence]) -> String {
    let Some(c) = c.filter(|c| c.rank > 0) else {
        return String::new();
    };
    let note = crate::gate::note(c, evidence, "DMASPEC_MIN_CONFIDENCE");
    let note = note.replace('\\', "\\\\").replace('"', "\\\"");
    format!(" {}(\"{note}\")", gated_macro(&c.level))
}
