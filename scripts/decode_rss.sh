#!/usr/bin/env bash
# Peak memory of `dmaspec decode` on a large stream through a pipe (the figure in docs/guide/performance.md).
#
#   scripts/decode_rss.sh [MiB] [decode options...]     # default: 400 MiB, table output
#
# Builds the release binary, repeats the sample stream (pairs, orphans, unknown opcodes)
# up to MiB mebibytes, pipes it into `dmaspec decode -`, discards the output, and prints
# the peak RSS (GNU time's "Maximum resident set size") with the input and output sizes.
set -euo pipefail
cd "$(dirname "$0")/.."
mib=${1:-400}
shift || true
cargo build --release --quiet --bin dmaspec
bin=target/release/dmaspec
sample=$(mktemp)
trap 'rm -f "$sample" "$sample.time"' EXIT
# The sample stream as binary (hex digits only, comments dropped).
sed 's/#.*//' samples/dge_stream.hex | tr -cd '0-9a-fA-F' | xxd -r -p > "$sample"
words=$(( mib * 1024 * 1024 / 64 ))
start=$(date +%s.%N)
out_bytes=$(
  python3 -c "
import sys
chunk = open('$sample', 'rb').read() * 2048
left = $mib * 1024 * 1024
out = sys.stdout.buffer
while left > 0:
    n = min(left, len(chunk))
    out.write(chunk[:n])
    left -= n
" | /usr/bin/time -v -o "$sample.time" "$bin" decode "$@" - | wc -c
)
end=$(date +%s.%N)
rss=$(awk -F': ' '/Maximum resident set size/ {print $2}' "$sample.time")
secs=$(echo "$end - $start" | bc)
echo "input: $mib MiB ($words words) through a pipe; options: ${*:-(table)}"
echo "output: $out_bytes bytes in ${secs}s"
echo "peak RSS: $rss KiB"
