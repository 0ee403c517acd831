#!/usr/bin/env bash
# Every generated SVD through svd2rust, and its output compiled as a crate: what an
# svd2rust user does with generated/svd/. Needs svd2rust on PATH
# (`cargo install svd2rust --version 0.37.1 --locked`); .ci/run calls it when it is there.
set -euo pipefail
cd "$(dirname "$0")/.."
out=target/svd2rust
crate=$out/crate
mkdir -p "$crate/src"
cat > "$crate/Cargo.toml" <<'TOML'
[package]
name = "svd2rust-check"
version = "0.0.0"
edition = "2021"
publish = false

[workspace]

[dependencies]
vcell = "0.1"
TOML
for svd in generated/svd/*.svd; do
  name=$(basename "$svd" .svd)
  mkdir -p "$out/$name"
  svd2rust --target none -i "$svd" -o "$out/$name" 2>"$out/$name.log" ||
    { cat "$out/$name.log"; echo "svd2rust rejects $svd" >&2; exit 1; }
  cp "$out/$name/lib.rs" "$crate/src/lib.rs"
  RUSTFLAGS=-Awarnings cargo build --quiet --manifest-path "$crate/Cargo.toml" ||
    { echo "svd2rust's crate for $svd does not build" >&2; exit 1; }
done
echo "svd2rust $(svd2rust --version | awk '{print $2}') accepts all $(ls generated/svd/*.svd | wc -l) SVD files and their crates build"
