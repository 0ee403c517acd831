//! What a plain `cargo test` builds: the default members (the library and CLI, and the
//! generator) with their dev-dependencies, and none of the benchmarks' peers.

use std::process::Command;

#[test]
fn cargo_test_builds_no_benchmark_peers() {
    let out = Command::new(env!("CARGO"))
        .args([
            "tree",
            "--offline",
            "--edges",
            "normal,build,dev",
            "--prefix",
            "none",
        ])
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .output()
        .expect("cargo tree runs");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let tree = String::from_utf8_lossy(&out.stdout);
    assert!(tree.lines().any(|l| l.starts_with("proptest ")), "{tree}");
    // benches/ is its own crate, dmaspec-benches: `cargo bench -p dmaspec-benches`.
    let peers: Vec<&str> = tree
        .lines()
        .filter(|l| {
            ["criterion ", "deku ", "binrw "]
                .iter()
                .any(|p| l.starts_with(p))
        })
        .collect();
    assert!(peers.is_empty(), "cargo test would build {peers:?}");
}
