//! What generation costs, on the real spec and on synthetic specs 10× and 100× its size.
//!
//! ```sh
//! cargo bench -p dmaspec-codegen --bench generate             # prints the table
//! cargo bench -p dmaspec-codegen --bench generate -- 1 10     # only these factors
//! ```
//!
//! A synthetic spec of factor N is the real one plus N-1 renamed copies of every file that
//! declares a type (`dmaspec_testkit::synth`).
//! The specs are written to `target/synth-spec/x<N>/` and kept, so the generated crate
//! can also be compiled (see `scripts/compile_time.sh`).
//!
//! Timed (median of several runs, in process, nothing written): `load` (read, parse and
//! check every file into the model), `rust` (render the Rust module), `all` (every artifact
//! of `dmaspec gen`: Rust, C, Markdown, JSON).

use std::time::{Duration, Instant};

use dmaspec_codegen::{emit, generate, load};
use dmaspec_testkit::synth::synthesize;

fn median(mut xs: Vec<Duration>) -> Duration {
    xs.sort();
    xs[xs.len() / 2]
}

fn time<T>(runs: usize, mut f: impl FnMut() -> T) -> (Duration, T) {
    let mut times = Vec::new();
    let mut last = None;
    for _ in 0..runs {
        let t = Instant::now();
        let out = f();
        times.push(t.elapsed());
        last = Some(out);
    }
    (median(times), last.expect("at least one run"))
}

fn main() {
    let factors: Vec<usize> = std::env::args()
        .skip(1)
        .filter_map(|a| a.parse().ok())
        .collect();
    let factors = if factors.is_empty() {
        vec![1, 10, 100]
    } else {
        factors
    };
    let spec = dmaspec_testkit::root().join("spec");
    let model = load::load_dir(&spec).unwrap_or_else(|e| panic!("{}", e.render()));
    println!(
        "| spec | words | types | spec KiB | load ms | rust ms | all ms | load+all ms | µs per word | generated Rust lines |"
    );
    println!("|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|");
    for factor in factors {
        let dir = dmaspec_testkit::root().join(format!("target/synth-spec/x{factor}"));
        let synth = synthesize(&spec, &model, factor, &dir);
        let runs = match factor {
            0..=1 => 21,
            2..=10 => 7,
            _ => 3,
        };
        let (load, m) = time(runs, || {
            load::load_dir(&synth.dir).unwrap_or_else(|e| panic!("{}", e.render()))
        });
        assert_eq!(
            m.words().count(),
            synth.words,
            "x{factor}: every word loads"
        );
        let (rust, code) = time(runs, || emit::rust::render(&m, "crate::runtime"));
        let (all, _) = time(runs, || generate(&m));
        let total = load + all;
        println!(
            "| {}× | {} | {} | {} | {:.1} | {:.1} | {:.1} | {:.1} | {:.0} | {} |",
            factor,
            synth.words,
            synth.types,
            synth.bytes / 1024,
            load.as_secs_f64() * 1e3,
            rust.as_secs_f64() * 1e3,
            all.as_secs_f64() * 1e3,
            total.as_secs_f64() * 1e3,
            total.as_secs_f64() * 1e6 / synth.words as f64,
            code.lines().count(),
        );
    }
}
