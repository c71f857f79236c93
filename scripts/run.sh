#!/usr/bin/env bash
# Quick start, command 1: install what is missing, build in release mode, launch Gripline.
# Arguments are passed to `gripline` (without any, the simulator window opens with the
# default car on the default track; drive with the arrow keys, Esc for the menu).
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup.sh
cargo build --release --locked -p gripline
if [[ $# -eq 0 && -z "${DISPLAY:-}" && -z "${WAYLAND_DISPLAY:-}" ]]; then
  echo "run.sh: no display (neither DISPLAY nor WAYLAND_DISPLAY is set): the simulator needs a" >&2
  echo "        desktop session. Without one, try: target/release/gripline render --out frame.png" >&2
  exit 1
fi
exec target/release/gripline "$@"
