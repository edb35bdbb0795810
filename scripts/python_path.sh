#!/usr/bin/env bash
# Makes `import ergon` work for the user's Python 3 interpreters: writes ergon.pth, naming the build's
# python/ folder, into the user site-packages of Debian's /usr/bin/python3 and of the `python3` on PATH
# (when it is another interpreter of the same version, e.g. pyenv's). Remove ergon.pth there to undo.
#   bash scripts/python_path.sh [BUILD_DIR]
set -euo pipefail
cd "$(dirname "$0")/.."
package_dir="$(realpath "${1:-build}")/python"
if ! ls "$package_dir"/ergon/_ergon*.so > /dev/null 2>&1; then
  echo "python: no ergon package in $package_dir (build the _ergon target first)" >&2
  exit 1
fi
for interpreter in /usr/bin/python3 "$(command -v python3 || true)"; do
  [ -x "$interpreter" ] || continue
  site=$("$interpreter" -c 'import site; print(site.getusersitepackages())' 2> /dev/null) || continue
  mkdir -p "$site"
  if [ "$(cat "$site/ergon.pth" 2> /dev/null)" != "$package_dir" ]; then
    echo "$package_dir" > "$site/ergon.pth.tmp" && mv "$site/ergon.pth.tmp" "$site/ergon.pth"
    echo "python: $interpreter imports ergon from $package_dir ($site/ergon.pth)"
  fi
done
