//! The C compilers the header tests run: the flags, the check that they are installed, and
//! a directory of rendered headers to compile probes against.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::Command;

use dmaspec_codegen::emit::c;
use dmaspec_codegen::model::Model;

/// gcc, C11, warnings as errors.
pub const C_FLAGS: &[&str] = &["-std=c11", "-Wall", "-Wextra", "-Werror", "-pedantic"];
/// g++, C++17, warnings as errors (`-x c++` so `.c` sources compile as C++).
pub const CXX_FLAGS: &[&str] = &[
    "-std=c++17",
    "-Wall",
    "-Wextra",
    "-Werror",
    "-pedantic",
    "-x",
    "c++",
];

/// Fails with a clear message when a compiler the test needs is missing.
pub fn require(compiler: &str) {
    let ok = Command::new(compiler)
        .arg("--version")
        .output()
        .is_ok_and(|o| o.status.success());
    assert!(
        ok,
        "`{compiler}` is not on PATH: the C header tests compile the generated headers with \
         gcc (C11) and g++ (C++17). Install them (e.g. `apt-get install gcc g++`); CI has both."
    );
}

/// A fresh directory holding a model's rendered C headers under `c/`, where probes are
/// written, compiled against them and run.
pub struct Build {
    pub dir: PathBuf,
}

impl Build {
    /// Renders `model`'s headers into a new directory named after `tag`.
    pub fn new(tag: &str, model: &Model) -> Build {
        let nanos = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map_or(0, |d| d.as_nanos());
        let dir =
            std::env::temp_dir().join(format!("dmaspec-c-{tag}-{}-{nanos}", std::process::id()));
        for (path, contents) in c::render(model) {
            let file = dir.join(&path);
            std::fs::create_dir_all(file.parent().expect("a parent directory"))
                .unwrap_or_else(|e| panic!("cannot create {}: {e}", dir.display()));
            std::fs::write(&file, contents)
                .unwrap_or_else(|e| panic!("cannot write {}: {e}", file.display()));
        }
        Build { dir }
    }

    pub fn include_dir(&self) -> PathBuf {
        self.dir.join(c::DIR)
    }

    /// Writes `text` to `name` in the directory; returns its path.
    pub fn write(&self, name: &str, text: &str) -> PathBuf {
        let path = self.dir.join(name);
        std::fs::write(&path, text)
            .unwrap_or_else(|e| panic!("cannot write {}: {e}", path.display()));
        path
    }

    /// Compiles `src` with `compiler` and `flags`; `out` = None checks syntax only.
    pub fn compile(&self, compiler: &str, flags: &[&str], src: &Path, out: Option<&Path>) {
        require(compiler);
        let mut cmd = Command::new(compiler);
        cmd.args(flags).arg("-I").arg(self.include_dir()).arg(src);
        match out {
            Some(o) => cmd.arg("-o").arg(o),
            None => cmd.arg("-fsyntax-only"),
        };
        let res = cmd
            .output()
            .unwrap_or_else(|e| panic!("cannot run {compiler}: {e}"));
        assert!(
            res.status.success(),
            "{compiler} {} rejected {} (headers in {}):\n{}",
            flags.join(" "),
            src.display(),
            self.include_dir().display(),
            String::from_utf8_lossy(&res.stderr)
        );
    }

    /// Compiles `src` into the program `exe`, runs it with `input` on its stdin and returns
    /// its `key=value` lines (a key printed twice fails).
    pub fn run_probe(
        &self,
        compiler: &str,
        flags: &[&str],
        src: &Path,
        exe: &str,
        input: &[u8],
    ) -> BTreeMap<String, u64> {
        let exe = self.dir.join(exe);
        self.compile(compiler, flags, src, Some(&exe));
        let input_file = exe.with_extension("in");
        std::fs::write(&input_file, input).expect("probe input written");
        let stdin = std::fs::File::open(&input_file).expect("probe input readable");
        let res = Command::new(&exe)
            .stdin(stdin)
            .output()
            .unwrap_or_else(|e| panic!("cannot run {}: {e}", exe.display()));
        assert!(
            res.status.success(),
            "{} failed: {:?}",
            exe.display(),
            res.status
        );
        let text = String::from_utf8(res.stdout).expect("probe output is UTF-8");
        let mut got = BTreeMap::new();
        for l in text.lines() {
            let (k, v) = l
                .rsplit_once('=')
                .unwrap_or_else(|| panic!("bad probe line `{l}`"));
            let v = v
                .parse()
                .unwrap_or_else(|_| panic!("bad probe value in `{l}`"));
            assert!(
                got.insert(k.to_string(), v).is_none(),
                "`{k}` printed twice"
            );
        }
        got
    }

    /// Deletes the directory (kept when a test fails before this, for a look).
    pub fn remove(self) {
        let _ = std::fs::remove_dir_all(&self.dir);
    }
}
