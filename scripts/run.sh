#!/usr/bin/env bash
# Quick start, command 1: install what is missing, build in release mode, launch Gripline.
# Arguments are passed to `gripline`.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup.sh
cargo build --release --locked -p gripline
if [[ $# -eq 0 ]]; then
  # Until the simulator window lands, the default launch is the tyre lab on a shipped tyre:
  # a summary of its figures, and a plot of its force curves.
  mkdir -p out
  exec target/release/gripline tire --tyre MagicFormula61_Parameters --summary --plot out/tyre-mf61.png
fi
exec target/release/gripline "$@"
