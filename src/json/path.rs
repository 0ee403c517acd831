//! Tracks the dotted path of the field being visited (`flags.gather_dim`,
//! `src_step_elem[1]`), the way the spec's leaf paths are written.

use crate::runtime::visit::Group;

/// The path of the field a [`Visitor`](crate::runtime::visit::Visitor) is at.
#[derive(Default)]
pub struct PathStack {
    /// (segment, group it opened, next array index when the group is an array)
    frames: Vec<(String, Group, usize)>,
}

impl PathStack {
    /// The segment a field adds: its name, or its index inside an array.
    fn segment(&mut self, name: &str) -> String {
        match self.frames.last_mut() {
            Some((_, Group::Array, next)) => {
                let s = format!("[{next}]");
                *next += 1;
                s
            }
            _ => name.to_string(),
        }
    }

    /// A group (struct, union, array) named `name` opens.
    pub fn enter(&mut self, name: &str, group: Group) {
        let seg = self.segment(name);
        self.frames.push((seg, group, 0));
    }

    /// The innermost open group closes.
    pub fn leave(&mut self) {
        self.frames.pop();
    }

    /// Full path of a leaf named `name` at the current position (advances array indices).
    pub fn leaf(&mut self, name: &str) -> String {
        let seg = self.segment(name);
        let mut out = self.current();
        if !out.is_empty() && !seg.starts_with('[') {
            out.push('.');
        }
        out.push_str(&seg);
        out
    }

    /// Full path of the innermost open group (`descriptor_imm[1].word0`).
    pub fn current(&self) -> String {
        let mut out = String::new();
        for (seg, _, _) in &self.frames {
            if !out.is_empty() && !seg.starts_with('[') {
                out.push('.');
            }
            out.push_str(seg);
        }
        out
    }
}
