//! The names and integer types both the per-type files and the stream file write.

/// The Kaitai id of the type named `name`: its name in lower case.
pub fn id(name: &str) -> String {
    name.to_ascii_lowercase()
}

/// The unsigned integer of `size` bytes.
pub(super) fn uint_type(size: usize) -> &'static str {
    match size {
        1 => "u1",
        2 => "u2",
        3 => "b24",
        4 => "u4",
        _ => "u8",
    }
}
