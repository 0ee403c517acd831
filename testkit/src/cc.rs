//! The C compilers the header tests run: the flags and the check that they are installed.

use std::process::Command;

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
