//! scripts/check_site_links.py, which CI runs over the built mdBook site: it passes a site
//! whose links all land, and names each link to a missing file or a missing #fragment.

use std::fs;
use std::path::{Path, PathBuf};
use std::process::Command;

fn site(name: &str, pages: &[(&str, &str)]) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("dmaspec-site-{name}-{}", std::process::id()));
    let _ = fs::remove_dir_all(&dir);
    for (path, html) in pages {
        let path = dir.join(path);
        fs::create_dir_all(path.parent().unwrap()).unwrap();
        fs::write(path, html).unwrap();
    }
    dir
}

fn check(dir: &Path) -> (bool, String, String) {
    let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("scripts/check_site_links.py");
    let out = Command::new("python3")
        .arg(script)
        .arg(dir)
        .output()
        .expect("python3 runs");
    let _ = fs::remove_dir_all(dir);
    (
        out.status.success(),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

const INDEX: &str = r##"<html><body><h1 id="top">x</h1>
<a href="words/A.html#fields">A</a> <a href="#top">up</a> <img src="svg/A.svg">
<a href="https://example.invalid/x">out</a></body></html>"##;
const WORD: &str =
    r#"<html><body><h2 id="fields">Fields</h2><a href="../index.html">back</a></body></html>"#;
const NOT_FOUND: &str =
    r#"<html><head><base href="/"></head><body><a href="index.html">home</a></body></html>"#;

#[test]
fn a_site_whose_links_all_land_passes() {
    let dir = site(
        "good",
        &[
            ("index.html", INDEX),
            ("words/A.html", WORD),
            ("svg/A.svg", "<svg/>"),
            ("404.html", NOT_FOUND),
        ],
    );
    let (ok, stdout, stderr) = check(&dir);
    assert!(ok, "{stdout}{stderr}");
    assert_eq!(stderr.trim(), "3 pages, 5 internal links, 0 broken");
}

#[test]
fn each_broken_link_is_named_with_its_page_and_line() {
    let word = WORD.replace("../index.html", "../missing.html");
    let index = INDEX.replace("#fields", "#nowhere");
    let dir = site("broken", &[("index.html", &index), ("words/A.html", &word)]);
    let (ok, stdout, _) = check(&dir);
    assert!(!ok);
    let lines: Vec<&str> = stdout.lines().collect();
    assert_eq!(
        lines,
        [
            "index.html:2: words/A.html#nowhere: no #nowhere in that page",
            "index.html:2: svg/A.svg: no such file",
            "words/A.html:1: ../missing.html: no such file",
        ]
    );
}
