#!/usr/bin/env bash
# Instructions per DMA_DIRECT2D word, owned decode against the hand-written decoder, and
# per DMA_INDIRECT1D word for its rule predicates (rule_truth) and whole check, from
# callgrind (repeatable on a shared machine, unlike time): each mode's total minus the
# `none` run's (the same input built, nothing decoded), over 100,000 words.
#   scripts/profile_decode.sh
set -euo pipefail
cd "$(dirname "$0")/.."
command -v valgrind >/dev/null || { echo "needs valgrind (apt-get install valgrind)" >&2; exit 1; }
cargo build -q --release -p dmaspec-benches --example profile_decode
bin=target/release/examples/profile_decode
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
count() {
    valgrind --tool=callgrind --branch-sim=yes --callgrind-out-file="$out/$1" "$bin" "$1" 2>/dev/null
    callgrind_annotate "$out/$1" | awk '/PROGRAM TOTALS/ { gsub(",", "", $1); gsub(",", "", $3); print $1, $3; exit }'
}
# table BASE MODE...: one row per mode, the BASE run's counts subtracted.
table() {
    local base=$1 ir bcm base_ir base_bcm
    shift
    read -r base_ir base_bcm < <(count "$base")
    for mode in "$@"; do
        read -r ir bcm < <(count "$mode")
        awk -v m="$mode" -v ir="$ir" -v b="$base_ir" -v bc="$bcm" -v bb="$base_bcm" \
            'BEGIN { printf "| %s | %.0f | %.2f |\n", m, (ir - b) / 100000, (bc - bb) / 100000 }'
    done
}
echo "Measured by scripts/profile_decode.sh on $(date -u +%F) at commit $(git rev-parse --short HEAD)."
echo
echo "| DMA_DIRECT2D decoder | instructions / word | mispredicted branches / word |"
echo "|---|---:|---:|"
table none owned hand
echo
echo "| DMA_INDIRECT1D rules (random words) | instructions / word | mispredicted branches / word |"
echo "|---|---:|---:|"
table rules_none rules_truth rules_check
