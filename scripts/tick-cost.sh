#!/usr/bin/env bash
# Instructions per physics tick of a headless laps run, counted by callgrind: the whole
# process is run for 20 s and for 40 s of simulated time and the difference is divided by
# the 20,000 ticks between them, so start-up (loading the track, building its BVH) drops out.
# Instruction counts do not depend on the machine's load, unlike wall time on a shared
# machine. Needs valgrind (apt install valgrind).
#
#   scripts/tick-cost.sh [GRIPLINE_BINARY] [VEHICLE]
#
# Defaults: target/release/gripline (built first when absent) and corvette-c5.
# Builds target the building machine's processor (.cargo/config.toml). Valgrind does not
# decode AVX-512: on a processor that has it, build the binary to count with
# RUSTFLAGS="-C target-cpu=x86-64-v3" (AVX2 and FMA, which it does decode).
set -euo pipefail
cd "$(dirname "$0")/.."
bin=${1:-target/release/gripline}
vehicle=${2:-corvette-c5}
command -v valgrind > /dev/null || { echo "tick-cost: needs valgrind (apt install valgrind)" >&2; exit 1; }
[ -x "$bin" ] || cargo build --release -p gripline
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
count() {
    valgrind --tool=callgrind --callgrind-out-file="$work/cg.$1" "$bin" headless \
        --vehicle "$vehicle" --track circuit --scenario assets/scenarios/laps.ron --duration "$1" \
        > /dev/null 2> "$work/log.$1"
    grep -o 'Collected : [0-9]*' "$work/log.$1" | awk '{print $3}'
}
short=$(count 20)
long=$(count 40)
echo "$vehicle on the circuit: $(( (long - short) / 20000 )) instructions per tick" \
    "($short instructions for 20 s, $long for 40 s)"
