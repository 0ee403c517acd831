//! What a table can describe: one item's byte or bit map, whatever its kind.

use super::places::Place;
use crate::model::{Alternative, Evidence};

/// One item a table may lay out, with every place a row can name.
pub struct Target<'m> {
    /// As reports name it: `DMA_DIRECT2D`, `UDMA_M2S.M2S_Q`, `UDMA_M2S.M2S_Q.cfg`.
    pub name: String,
    /// The architecture whose layout it is, for an item laid out per generation.
    pub arch: Option<&'m str>,
    /// The names a heading may call it by, as [`super::items::key`]s.
    pub keys: Vec<String>,
    /// The opcode a heading may give for it.
    pub opcode: Option<u64>,
    /// Its size in bits: a row at or past it lays out something larger.
    pub bits: u64,
    /// The item's evidence and each member's: the page sections that cite it.
    pub evidence: Vec<&'m [Evidence]>,
    /// Readings of the whole item.
    pub alternatives: &'m [Alternative],
    pub places: Vec<Place<'m>>,
}
