//! Support the generated code is written against: fixed-offset byte access, run-time
//! metadata, and the visitor that walks a decoded word. Downstream crates that generate
//! their own words with `dmaspec-codegen` point the generator at this module.

pub mod addrmap;
pub mod instruction;
pub mod klr;
pub mod layout;
pub mod lowering;
pub mod meta;
pub mod record;
pub mod regs;
pub mod rules;
pub mod text;
pub mod validate;
pub mod visit;
pub mod wire;

mod error;
pub use error::DecodeError;
