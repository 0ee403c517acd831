//! The book's crate examples (docs/guide/crate.md "Using the crate", the register doorbell in
//! docs/guide/registers.md), built and run as
//! a downstream crate would: each its own package, depending on dmaspec by path with
//! `default-features = false`; and the README crates.io shows (the manifest's `readme`),
//! whose links must resolve there.

mod common;

use std::path::Path;
use std::process::Command;

use common::root;

/// The first ```rust block after `heading` in the guide chapter `page` (docs/guide/).
fn readme_block(page: &str, heading: &str) -> String {
    let readme = std::fs::read_to_string(root().join("docs/guide").join(page)).unwrap();
    let at = readme
        .find(heading)
        .unwrap_or_else(|| panic!("no `{heading}`"));
    first_rust_block(&readme[at..]).to_string()
}

/// The body of the first ```rust block of `markdown`.
fn first_rust_block(markdown: &str) -> &str {
    let start = markdown.find("```rust\n").expect("a rust block") + "```rust\n".len();
    let len = markdown[start..].find("```").expect("the block ends");
    &markdown[start..start + len]
}

fn write(path: &Path, text: &str) {
    std::fs::create_dir_all(path.parent().unwrap()).unwrap();
    std::fs::write(path, text).unwrap();
}

/// Builds and runs the first ```rust block after `heading` as the `src/main.rs` of its own
/// package `name`, and returns what it prints.
fn run_downstream(name: &str, page: &str, heading: &str) -> String {
    // Built in the test build's own target directory (cargo holds no lock while tests
    // run), so the dependencies compiled for the tests are reused.
    let tmp = Path::new(env!("CARGO_TARGET_TMPDIR"));
    let dir = tmp.join(name);
    write(
        &dir.join("Cargo.toml"),
        &format!(
            "[package]\nname = \"{name}\"\nversion = \"0.0.0\"\nedition = \"2024\"\n\
             publish = false\n\n[workspace]\n\n[dependencies]\n\
             dmaspec = {{ path = {:?}, default-features = false }}\n",
            root().display().to_string()
        ),
    );
    write(&dir.join("src/main.rs"), &readme_block(page, heading));
    // The workspace's lock file pins the same dependency versions, so nothing is fetched.
    std::fs::copy(root().join("Cargo.lock"), dir.join("Cargo.lock")).unwrap();
    let out = Command::new(env!("CARGO"))
        .args(["run", "--quiet", "--offline", "--target-dir"])
        .arg(
            tmp.parent()
                .expect("CARGO_TARGET_TMPDIR is inside the target directory"),
        )
        .current_dir(&dir)
        .output()
        .expect("cargo runs");
    assert!(
        out.status.success(),
        "the {page} example under `{heading}` does not build or run:\n{}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8_lossy(&out.stdout).into_owned()
}

#[test]
fn using_the_crate_example_runs_without_default_features() {
    let text = run_downstream("readme-example", "crate.md", "# Using the crate");
    assert!(text.lines().any(|l| l.contains("in_dtype")), "{text}");
}

#[test]
fn doorbell_example_is_examples_doorbell_and_rings_queue_3() {
    let block = readme_block("registers.md", "## Ringing a doorbell");
    let example = std::fs::read_to_string(root().join("examples/doorbell.rs")).unwrap();
    assert!(
        block == example,
        "the doorbell block of docs/guide/registers.md is not examples/doorbell.rs: copy the file into it"
    );
    // "CSR — UDMA M2S (Memory-to-Stream Descriptor Engine)" §4.1: M2S_Q[3].TDRTP_inc at
    // 0x1000 + 3*0x1000 + 0x38.
    let text = run_downstream("readme-doorbell", "registers.md", "## Ringing a doorbell");
    assert_eq!(text, "doorbell at 0x4038 rang with 4 descriptors\n");
}

/// The targets of `markdown`'s links and images: inline (`[text](target)`, `![alt](target)`),
/// reference definitions (`[name]: target`) and HTML attributes (`src="…"`, `href="…"`).
fn link_targets(markdown: &str) -> Vec<&str> {
    let mut found = Vec::new();
    for (at, _) in markdown.match_indices("](") {
        let rest = &markdown[at + 2..];
        if let Some(end) = rest.find(')') {
            found.push(rest[..end].split_whitespace().next().unwrap_or(""));
        }
    }
    for line in markdown.lines() {
        let line = line.trim_start();
        if line.starts_with('[')
            && let Some(end) = line.find("]:")
        {
            found.push(line[end + 2..].split_whitespace().next().unwrap_or(""));
        }
    }
    for attr in ["src=\"", "href=\""] {
        for (at, _) in markdown.match_indices(attr) {
            let rest = &markdown[at + attr.len()..];
            found.push(&rest[..rest.find('"').unwrap_or(rest.len())]);
        }
    }
    found
}

/// Links crates.io cannot follow: all but absolute `https://` ones (it shows the README
/// without the repository around it).
fn relative_links(markdown: &str) -> Vec<&str> {
    link_targets(markdown)
        .into_iter()
        .filter(|t| !t.starts_with("https://"))
        .collect()
}

#[test]
fn packaged_readme_links_only_to_absolute_urls() {
    let manifest = std::fs::read_to_string(root().join("Cargo.toml")).unwrap();
    let readme = manifest
        .lines()
        .find_map(|l| l.strip_prefix("readme = \""))
        .and_then(|v| v.strip_suffix('"'))
        .expect("the manifest names its crates.io README (`readme = \"…\"`)");
    assert!(
        manifest.contains(&format!("\"/{readme}\"")),
        "`{readme}` is not in the manifest's `include`: the package would not hold it"
    );
    let text = std::fs::read_to_string(root().join(readme)).unwrap();
    assert!(
        !link_targets(&text).is_empty(),
        "{readme} links to the docs"
    );
    let relative = relative_links(&text);
    assert!(
        relative.is_empty(),
        "{readme} has links crates.io cannot follow (make them https:// ones): {relative:?}"
    );
    // The repository's README links into the repository: the check above would refuse it.
    let repo = std::fs::read_to_string(root().join("README.md")).unwrap();
    assert!(relative_links(&repo).contains(&"assets/viewer.png"));
}

#[test]
fn packaged_readme_example_is_the_books() {
    let readme = std::fs::read_to_string(root().join("docs/crates-io.md")).unwrap();
    assert!(
        first_rust_block(&readme) == readme_block("crate.md", "# Using the crate"),
        "the example of docs/crates-io.md is not docs/guide/crate.md's `Using the crate` (which this file builds and runs): copy it"
    );
}
