//! The book's CLI chapter (docs/guide/cli.md, with the maintainers' verbs in
//! docs/guide/contributing.md) tells the truth about the binary: each verb's synopsis names
//! every flag `--help` lists, the exit-code table is there, and the worked example builds
//! with the profile of the README's two commands (also in docs/guide/getting-started.md).

mod common;

use common::{assert_success, dmaspec, root, stdout};

fn read(path: &str) -> String {
    std::fs::read_to_string(root().join(path)).unwrap()
}

/// The chapters with the verbs' synopses: the CLI chapter, then the maintainers' verbs
/// (`check`, `audit`, `diff`) in Contributing.
fn guide() -> String {
    read("docs/guide/cli.md") + &read("docs/guide/contributing.md")
}

/// The long flags `dmaspec <verb> --help` lists (but `--help` itself).
fn flags(verb: &[&str]) -> Vec<String> {
    let mut args = verb.to_vec();
    args.push("--help");
    let out = dmaspec(&args, &[]);
    assert_success(&out);
    stdout(&out)
        .lines()
        .filter_map(|l| {
            let l = l.trim_start();
            let l = l.strip_prefix("-q, ").unwrap_or(l);
            let flag = l.strip_prefix("--")?.split([' ', '<']).next()?;
            (flag != "help").then(|| format!("--{flag}"))
        })
        .collect()
}

#[test]
fn every_flag_of_every_verb_is_in_its_guide_synopsis() {
    let text = guide();
    let cli = &text[text.find("# The CLI").unwrap()..];
    for verb in [
        &["gen"][..],
        &["decode"],
        &["validate"],
        &["encode"],
        &["explain"],
        &["lower"],
        &["klr", "lower"],
        &["check"],
        &["diff"],
        &["audit"],
    ] {
        let head = format!("dmaspec {} ", verb.join(" "));
        let synopsis = cli
            .lines()
            .find(|l| l.starts_with(&head))
            .unwrap_or_else(|| panic!("no synopsis line `{head}…` in the guide"));
        for flag in flags(verb) {
            assert!(
                synopsis.contains(&flag),
                "`{flag}` of `{head}` is missing from its guide synopsis: {synopsis}"
            );
        }
    }
}

#[test]
fn the_exit_code_table_is_in_the_cli_chapter() {
    let text = read("docs/guide/cli.md");
    let at = text.find("## Exit codes").expect("an Exit codes section");
    let table = &text[at..];
    for code in ["| 0 |", "| 1 |", "| 2 |"] {
        assert!(table.contains(code), "no row `{code}`");
    }
}

/// The worked example runs `gen` with the release build the two commands made; a debug
/// `cargo run` there would build the whole crate a second time.
#[test]
fn the_worked_example_uses_the_release_build_of_the_two_commands() {
    let readme = read("README.md");
    let contributing = read("docs/guide/contributing.md");
    let getting_started = read("docs/guide/getting-started.md");
    fn section<'t>(text: &'t str, heading: &str) -> &'t str {
        let at = text
            .find(heading)
            .unwrap_or_else(|| panic!("no `{heading}`"));
        let rest = &text[at + heading.len()..];
        let end = ["\n## ", "\n### "]
            .iter()
            .filter_map(|h| rest.find(h))
            .min()
            .unwrap_or(rest.len());
        &rest[..end]
    }
    let runs = |s: &str| -> Vec<String> {
        s.match_indices("cargo run")
            .map(|(i, _)| s[i..].split(['`', '\n', '&']).next().unwrap().to_string())
            .collect()
    };
    let two = runs(section(&readme, "## Two commands"));
    assert!(!two.is_empty() && two.iter().all(|r| r.starts_with("cargo run --release")));
    // Getting started repeats the README's block word for word.
    let block = |s: &'_ str| {
        s[s.find("```sh").expect("a sh block")..]
            .split("\n```\n")
            .next()
            .unwrap()
            .to_string()
    };
    assert_eq!(
        block(section(&getting_started, "## Two commands")),
        block(section(&readme, "## Two commands"))
    );
    let worked = runs(section(&contributing, "## Adding a field, worked"));
    assert!(!worked.is_empty());
    for r in worked {
        assert!(
            r.starts_with("cargo run --release"),
            "`{r}` in the worked example"
        );
    }
}

/// Every `dmaspec explain X` the guides give, and every query of `explain`'s synopsis,
/// explains something (exit 0). `SDMA_CME_BD_DESC.word1.op` named no field.
#[test]
fn every_explain_example_of_the_guides_works() {
    let text = guide() + &read("README.md");
    let mut queries: Vec<String> = text
        .match_indices("`dmaspec explain ")
        .filter_map(|(i, m)| text[i + m.len()..].split('`').next())
        .map(str::to_string)
        .collect();
    let synopsis = text
        .lines()
        .find(|l| l.starts_with("dmaspec explain [--wide] "))
        .expect("explain's synopsis");
    queries.extend(
        synopsis["dmaspec explain [--wide] ".len()..]
            .split(" | ")
            .map(str::to_string),
    );
    assert!(queries.len() > 5, "{queries:?}");
    for q in queries {
        let out = dmaspec(&["explain", &q], &[]);
        assert_success(&out);
    }
}
