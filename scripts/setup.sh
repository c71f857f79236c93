#!/usr/bin/env bash
# Installs the Debian/Ubuntu packages Gripline needs, only those that are missing.
#   scripts/setup.sh          what building and running needs
#   scripts/setup.sh --test   plus what the tests need (software Vulkan, Xvfb, TORCS tracks)
# As root it installs with apt-get; otherwise it prints the exact command to run and fails.
# Rust (cargo with clippy and rustfmt) is assumed present. Nothing is downloaded except
# packages from the distribution's registry.
set -euo pipefail

packages=(
  pkg-config        # finds system libraries for -sys crates
  libudev-dev       # device enumeration and hot-plug (gilrs, hidapi)
  libasound2-dev    # sound output (cpal's ALSA backend; brings the libasound2 runtime)
  fonts-dejavu-core # text in PNG plots of the tyre lab
  # The window (winit loads these at run time) and the renderer (wgpu's Vulkan backend).
  libvulkan1          # the Vulkan loader
  mesa-vulkan-drivers # Vulkan drivers for Intel/AMD, and lavapipe (software) everywhere else
  libx11-xcb1 libxcursor1 libxrandr2 libxi6 libxkbcommon-x11-0 # X11 windows and keyboards
  libwayland-client0  # Wayland windows
)
if [[ "${1:-}" == "--test" ]]; then
  packages+=(
    xvfb    # a virtual X display for the end-to-end window tests
    xdotool # types keys into that display: the keyboard-driving test
    # TORCS's circuits (/usr/share/games/torcs/tracks/{road,oval,dirt}): the track importer's
    # tests read every installed track; without the package they skip and say why. The app
    # itself never needs it.
    torcs-data
  )
fi

missing=()
for package in "${packages[@]}"; do
  if ! dpkg-query -W -f='${Status}' "$package" 2>/dev/null | grep -q "install ok installed"; then
    missing+=("$package")
  fi
done

if [[ ${#missing[@]} -eq 0 ]]; then
  echo "setup: all system packages present (${packages[*]})"
  exit 0
fi

command="apt-get install -y --no-install-recommends ${missing[*]}"
if [[ $(id -u) -ne 0 ]]; then
  echo "setup: missing system packages: ${missing[*]}" >&2
  echo "setup: run this, then try again:" >&2
  echo "  sudo apt-get update && sudo $command" >&2
  exit 1
fi

echo "setup: installing ${missing[*]}"
export DEBIAN_FRONTEND=noninteractive
apt-get update -qq
# shellcheck disable=SC2086
$command
