#!/usr/bin/env bash
# Wall time of the headless 919 s laps run (the C5 on the shipped circuit under the
# autopilot), whole process, for two builds run alternately, so that a busy or slow spell of
# a shared machine falls on both alike: the figure by which issue 15 measures the tick.
# Prints every run, each build's median and the median of the pairs' ratios (A / B).
#
#   scripts/laps-walltime.sh BINARY_A CHECKOUT_A BINARY_B CHECKOUT_B [ROUNDS]
#
# Each binary runs from its own checkout (its shipped assets); ROUNDS defaults to 5. Example,
# against an older commit:
#
#   git worktree add /tmp/old <commit> && (cd /tmp/old && cargo build --release -p gripline)
#   scripts/laps-walltime.sh /tmp/old/target/release/gripline /tmp/old \
#       target/release/gripline . 5
set -euo pipefail
if [ $# -lt 4 ]; then
    sed -n '2,13p' "$0" >&2
    exit 2
fi
rounds=${5:-5}
one() {
    local bin dir start end
    bin=$(realpath "$1")
    dir=$2
    start=$(date +%s.%N)
    (cd "$dir" && "$bin" headless --vehicle corvette-c5 --track circuit \
        --scenario assets/scenarios/laps.ron --duration 919 > /dev/null)
    end=$(date +%s.%N)
    awk -v s="$start" -v e="$end" 'BEGIN {print e - s}'
}
median() { sort -g | awk '{v[NR] = $1} END {print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2}'; }
a_times=()
b_times=()
ratios=()
for round in $(seq 1 "$rounds"); do
    a=$(one "$1" "$2")
    b=$(one "$3" "$4")
    a_times+=("$a")
    b_times+=("$b")
    ratios+=("$(awk -v a="$a" -v b="$b" 'BEGIN {print a / b}')")
    printf 'round %d: A %.2f s  B %.2f s\n' "$round" "$a" "$b"
done
printf 'median: A %.2f s  B %.2f s  A/B (median of the rounds) %.2fx\n' \
    "$(printf '%s\n' "${a_times[@]}" | median)" \
    "$(printf '%s\n' "${b_times[@]}" | median)" \
    "$(printf '%s\n' "${ratios[@]}" | median)"
