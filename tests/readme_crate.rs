//! The README's "Using the crate" example, built and run as a downstream crate would: its
//! own package, depending on dmaspec by path with `default-features = false`.

mod common;

use std::path::Path;
use std::process::Command;

use common::root;

/// The first ```rust block after `heading` in the README.
fn readme_block(heading: &str) -> String {
    let readme = std::fs::read_to_string(root().join("README.md")).unwrap();
    let at = readme
        .find(heading)
        .unwrap_or_else(|| panic!("no `{heading}`"));
    let body = &readme[at..];
    let start = body.find("```rust\n").expect("a rust block") + "```rust\n".len();
    let len = body[start..].find("```").expect("the block ends");
    body[start..start + len].to_string()
}

fn write(path: &Path, text: &str) {
    std::fs::create_dir_all(path.parent().unwrap()).unwrap();
    std::fs::write(path, text).unwrap();
}

#[test]
fn using_the_crate_example_runs_without_default_features() {
    // Built in the test build's own target directory (cargo holds no lock while tests
    // run), so the dependencies compiled for the tests are reused.
    let tmp = Path::new(env!("CARGO_TARGET_TMPDIR"));
    let dir = tmp.join("readme-crate");
    write(
        &dir.join("Cargo.toml"),
        &format!(
            "[package]\nname = \"readme-example\"\nversion = \"0.0.0\"\nedition = \"2024\"\n\
             publish = false\n\n[workspace]\n\n[dependencies]\n\
             dmaspec = {{ path = {:?}, default-features = false }}\n",
            root().display().to_string()
        ),
    );
    write(
        &dir.join("src/main.rs"),
        &readme_block("## Using the crate"),
    );
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
        "the README example does not build or run:\n{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(text.lines().any(|l| l.contains("in_dtype")), "{text}");
}
