//! Lowerings: how a runtime turns a pseudo word into a real one, as data.
//!
//! ```toml
//! [[lowering]]
//! name = "pseudo_dge"
//! from = "PSEUDO_DMA_DIRECT2D"          # the pseudo word
//! selector = "dge_op"                   # its enum leaf that picks the kind
//! extension = "PSEUDO_DMA_EXT"          # the positional extension (`ext.<path>`)
//! unsupported = { message = "Unsupported dynamic dma opcode %u", confidence = "…", evidence = […] }
//!
//! [[lowering.abi]]                      # dispatcher versions; one is the default
//! name = "v3"
//! entry = "translate_one_pseudo_dge_instr_v3"
//! default = true
//!
//! [[lowering.kind]]
//! value = "DMA_INDIRECT1D"              # an enumerator of the selector's enum
//! to = "DMA_INDIRECT1D"                 # the real word (its TEMPLATE is the start)
//! extension = "required"                # or "ignored"
//! missing_extension = { message = "Pseudo dma indirect1d instruction must be followed by extension", … }
//! route = [{ abi = "v3", via = ["translate_one_pseudo_dge_instr_v3", "…"], confidence = "…", evidence = […] }]
//! map = [
//!   { to = "dma_configs.priority_class", from = "dma_configs.priority_class", confidence = "HIGH/OBSERVED", evidence = […] },
//!   { to = "src_start_addr", from = "src_start_addr", via = "resolve_addr", confidence = "MED/INFERRED", note = "…", evidence = […] },
//!   { to = "flags", from = "ext.flags", confidence = "…", evidence = […] },
//!   { to = "header.opcode", value = 0xbb, confidence = "…", evidence = […] },
//! ]
//! ```
//!
//! Paths name any field of a word: a leaf, a whole struct, union or bitfield
//! (`src_start_addr`), a bitfield sub-field (`dma_configs.priority_class`) or an array
//! element (`src_step_elem[0]`). Transforms: `copy` (default; same width and type),
//! `narrow` (same type into fewer bits; a value that does not fit is an error),
//! `resolve_addr` (a union with an `addr_var` arm holding `immediate`, `var_id_lo`,
//! `var_id_hi` into a union of the same size: immediates pass through, a variable becomes
//! base + immediate). A mapping whose tag contains `INFERRED` is one the sources do not
//! state; it must carry a `note`, and every target shows it as INFERRED.
//!
//! The loader (`loader::lowering`) checks every name, path, width, type and transform and
//! that every mapping has evidence; `emit::rust_lowering` generates `LOWERINGS` (consts a
//! generic engine in the runtime applies) and `emit::markdown_lowering` the docs page.

pub mod model;
pub(crate) mod raw;

pub use model::Lowering;
