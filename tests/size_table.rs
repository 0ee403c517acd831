//! The size table of docs/guide/performance.md (between the `size_table` markers) holds the figures that
//! `scripts/size_table.py` counts in the tree today: a change to the spec or the generator
//! that moves them fails here until the table is written again
//! (`python3 scripts/size_table.py --time 11 --write docs/guide/performance.md`, then `cargo run -- gen` to copy the chapter).

use std::path::Path;
use std::process::Command;

#[test]
fn readme_size_table_is_current() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let out = Command::new("python3")
        .arg(root.join("scripts/size_table.py"))
        .args(["--check", "docs/guide/performance.md"])
        .current_dir(root)
        .output()
        .expect("python3 runs");
    assert!(
        out.status.success(),
        "{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
}
