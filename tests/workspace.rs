//! What a plain `cargo test` builds: the default members (the library and CLI, and the
//! generator) with their dev-dependencies, and none of the benchmarks' peers; and what a
//! crate depending on the library builds.

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

/// The packages a crate depending on `dmaspec` (`dependency`, a manifest line) builds,
/// build dependencies included, by name.
fn downstream_packages(name: &str, dependency: &str) -> Vec<String> {
    let krate = dmaspec_testkit::downstream::dir().join(name);
    std::fs::create_dir_all(krate.join("src")).unwrap();
    std::fs::write(krate.join("src/lib.rs"), "").unwrap();
    std::fs::write(
        krate.join("Cargo.toml"),
        format!(
            "[package]\nname = \"{name}\"\nversion = \"0.0.0\"\nedition = \"2024\"\n\n\
             [dependencies]\n{dependency}\n\n[workspace]\n"
        ),
    )
    .unwrap();
    std::fs::copy(
        dmaspec_testkit::root().join("Cargo.lock"),
        krate.join("Cargo.lock"),
    )
    .unwrap();
    let out = dmaspec_testkit::downstream::cargo_output(
        &krate,
        &["tree", "--edges", "normal,build", "--prefix", "none"],
    );
    package_names(&out)
}

#[test]
fn a_library_user_with_default_features_builds_only_the_library() {
    let root = dmaspec_testkit::root().display().to_string();
    let dependency = format!("dmaspec = {{ path = {root:?} }}");
    // No command line (clap, indicatif), no TOML, no generator: the checked-in words.
    assert_eq!(
        downstream_packages("default-features", &dependency),
        ["default-features", "dmaspec"]
    );
    // The JSON shape adds serde_json and what it needs, still no generator.
    let json = format!("dmaspec = {{ path = {root:?}, features = [\"json\"] }}");
    let with_json = downstream_packages("json-feature", &json);
    assert!(with_json.iter().any(|p| p == "serde_json"), "{with_json:?}");
    for p in ["clap", "toml", "dmaspec-codegen", "indicatif"] {
        assert!(!with_json.iter().any(|x| x == p), "{p} in {with_json:?}");
    }
    // Generating from the spec at build time is the opt-in that brings the generator.
    let generate = format!("dmaspec = {{ path = {root:?}, features = [\"generate\"] }}");
    let generating = downstream_packages("generate-feature", &generate);
    assert!(
        generating.iter().any(|p| p == "dmaspec-codegen"),
        "{generating:?}"
    );
    assert!(!generating.iter().any(|p| p == "clap"), "{generating:?}");
}

/// The packages `cargo tree -p PACKAGE` of this workspace lists (normal edges), by name.
fn workspace_packages(package: &str) -> Vec<String> {
    let out = Command::new(env!("CARGO"))
        .args([
            "tree",
            "--offline",
            "-p",
            package,
            "--edges",
            "normal",
            "--prefix",
            "none",
        ])
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .output()
        .expect("cargo tree runs");
    package_names(&out)
}

#[test]
fn the_python_extension_links_the_verbs_without_the_cli_or_the_generator() {
    let linked = workspace_packages("dmaspec-python");
    for p in ["dmaspec", "pyo3", "serde_json"] {
        assert!(linked.iter().any(|x| x == p), "no {p} in {linked:?}");
    }
    // The verbs are the library's (feature `verbs`); the command line's options, progress
    // bar and the generator stay out of the wheel. (`toml` stays: `lower(vars_file=…)`
    // reads TOML variable tables, as `--vars` does.)
    for p in ["dmaspec-cli", "clap", "indicatif", "dmaspec-codegen"] {
        assert!(!linked.iter().any(|x| x == p), "{p} in {linked:?}");
    }
}

/// The package names a successful `cargo tree --prefix none` printed, sorted, once each.
fn package_names(out: &std::process::Output) -> Vec<String> {
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let mut names: Vec<String> = String::from_utf8_lossy(&out.stdout)
        .lines()
        .filter_map(|l| l.split_whitespace().next().map(str::to_string))
        .collect();
    names.sort();
    names.dedup();
    names
}
