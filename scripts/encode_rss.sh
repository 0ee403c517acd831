#!/usr/bin/env bash
# Peak memory of `dmaspec encode` reading `decode --json`'s output through a pipe.
#
#   scripts/encode_rss.sh [MB]     # default: 200 MB of JSON
#
# Builds the release binary, repeats the sample stream (pairs, orphans, unknown opcodes)
# until `decode --json` of it is about MB megabytes (in target/encode-rss/), pipes that JSON
# into `dmaspec encode -`, checks that the words come back byte for byte, and prints the
# peak RSS (GNU time's "Maximum resident set size").
set -euo pipefail
cd "$(dirname "$0")/.."
mb=${1:-200}
cargo build --release --quiet --bin dmaspec
bin=target/release/dmaspec
dir=target/encode-rss
mkdir -p "$dir"
# The sample stream as binary (hex digits only, comments dropped).
sed 's/#.*//' samples/dge_stream.hex | tr -cd '0-9a-fA-F' | xxd -r -p > "$dir/sample.bin"
per_copy=$("$bin" decode --json "$dir/sample.bin" | wc -c)
copies=$(( mb * 1000000 / per_copy + 1 ))
python3 -c "
import sys
chunk = open('$dir/sample.bin', 'rb').read()
out = open('$dir/words.bin', 'wb')
for _ in range($copies):
    out.write(chunk)
"
"$bin" decode --json "$dir/words.bin" > "$dir/words.json"
json_bytes=$(wc -c < "$dir/words.json")
start=$(date +%s.%N)
/usr/bin/time -v -o "$dir/time" "$bin" encode - < "$dir/words.json" 2> /dev/null \
  | cat > "$dir/back.bin"
end=$(date +%s.%N)
cmp "$dir/back.bin" "$dir/words.bin"
rss=$(awk -F': ' '/Maximum resident set size/ {print $2}' "$dir/time")
secs=$(echo "$end - $start" | bc)
echo "input: $json_bytes bytes of decode --json ($(( $(wc -c < "$dir/words.bin") / 64 )) words) on stdin"
echo "round trip: same bytes, in ${secs}s"
echo "peak RSS: $rss KiB"
