#!/usr/bin/env bash
#===- check-format.sh - fail on C++ sources clang-format would change -----===#
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$root"
fmt=clang-format-22
command -v "$fmt" >/dev/null || fmt=/usr/lib/llvm-22/bin/clang-format
mapfile -t files < <(git ls-files -co --exclude-standard -- '*.cpp' '*.h' | \
  grep -v -E '^(build|third_party)/' || true)
[ "${#files[@]}" -eq 0 ] && exit 0
bad=()
for f in "${files[@]}"; do
  [ -f "$f" ] || continue
  if ! "$fmt" --dry-run -Werror "$f" >/dev/null 2>&1; then bad+=("$f"); fi
done
if [ "${#bad[@]}" -gt 0 ]; then
  echo "check-format: clang-format-22 would change ${#bad[@]} file(s):"
  printf '  %s\n' "${bad[@]}"
  echo "run: $fmt -i <file>"
  exit 1
fi
echo "check-format: ${#files[@]} files formatted"
