#!/usr/bin/env bash
# The install a user gets: build the sdist and, from it, the wheel (as `python -m
# build` does), install the wheel into a new venv outside the tree (not editable),
# and run scripts/wheel_smoke.py there in isolated mode (no source tree on the path).
#
#     scripts/wheel_smoke.sh [PYTHON]      # PYTHON: the interpreter to build with
#
# KEEP=1 keeps the temporary folder (its path is printed).
set -euo pipefail
cd "$(dirname "$0")/.."
TREE=$(pwd)
PYTHON=${1:-${PYTHON:-python3}}
# An interpreter named by a relative path stops meaning it after the cd below.
PYTHON=$(command -v "$PYTHON" | { read -r p; case "$p" in /*) echo "$p" ;; *) echo "$PWD/$p" ;; esac; })
WORK=$(mktemp -d "${TMPDIR:-/tmp}/companion-wheel.XXXXXX")
[ -n "${KEEP:-}" ] && echo "wheel smoke: keeping $WORK" || trap 'rm -rf "$WORK"' EXIT
START=$(date +%s.%N)

# Venvs without their own pip (ensurepip costs ~10 s a venv on the 2-core machine):
# one pip, the dev venv's when there is one, installs into them with --python.
if [ -x "$TREE/.venv/bin/python" ]; then PIP=("$TREE/.venv/bin/python" -m pip); else PIP=("$PYTHON" -m pip); fi
PIP+=(--quiet --disable-pip-version-check)

# One build env for both: the sdist, then the wheel built from the sdist (as `python -m
# build` does), so a file missing from the sdist fails here too.
"$PYTHON" -m venv --without-pip "$WORK/build-env"
"${PIP[@]}" --python "$WORK/build-env/bin/python" install "build>=1.0" "setuptools>=77" wheel
"$WORK/build-env/bin/python" -m build --no-isolation --outdir "$WORK/dist" "$TREE" \
    >"$WORK/build.log" 2>&1 || { cat "$WORK/build.log"; exit 1; }
SDIST=$(ls "$WORK"/dist/*.tar.gz)
WHEEL=$(ls "$WORK"/dist/*.whl)
VERSION=$(basename "$WHEEL" | cut -d- -f2)
echo "wheel smoke: $(basename "$SDIST") $(du -k "$SDIST" | cut -f1) KB," \
     "$(basename "$WHEEL") $(du -k "$WHEEL" | cut -f1) KB"

# The wheel holds the music, the firmware and the udev rules; no tests, no dev tools.
"$WORK/build-env/bin/python" - "$WHEEL" <<'EOF'
import sys, zipfile
names = zipfile.ZipFile(sys.argv[1]).namelist()
need = [
    "companion/audio/sounds/tracks/big-top-march.wav",
    "companion/audio/sounds/cues/tadaa.wav",
    "companion/locale/zh_CN/LC_MESSAGES/core.po",
    "companion/devices/hid/70-companion-hid.rules",
    "companion/devices/tadaa-box/main.py",
    "companion/devices/tadaa-arduino/tadaa-arduino.ino",
]
missing = [n for n in need if n not in names]
stray = [n for n in names if n.startswith(("tests/", "sounds/", "benchmarks/"))
         or "/tests/" in n or "node_modules" in n]
assert not missing, f"the wheel lacks {missing}"
assert not stray, f"the wheel carries {stray[:5]}"
print(f"wheel smoke: {len(names)} files in the wheel, package data present")
EOF

# The user's install: a new venv, the wheel (not editable) and its dependencies.
"$PYTHON" -m venv --without-pip "$WORK/venv"
"${PIP[@]}" --python "$WORK/venv/bin/python" install "$WHEEL"
cd "$WORK"
"$WORK/venv/bin/python" -I "$TREE/scripts/wheel_smoke.py" \
    --bin "$WORK/venv/bin" --version "$VERSION" --source-tree "$TREE"
ELAPSED=$("$PYTHON" -c "print(round($(date +%s.%N) - $START, 1))")
echo "wheel smoke: build, install and checks took $ELAPSED s"
