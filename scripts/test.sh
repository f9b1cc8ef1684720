#!/usr/bin/env bash
# The whole test suite: set up, build, test the installed package
# (scripts/test-install.sh), run every lit test, then the lit suite on the
# ASan+UBSan build and a bounded fuzz run (docs/testing.md). Ends with lit's
# summary and one plain "N passed, N failed" line.
set -uo pipefail
cd "$(dirname "$0")/.."
scripts/setup.sh || exit 1
scripts/build.sh || exit 1
BUILD_DIR=${POSENC_BUILD_DIR:-build}
# The installed package and a consumer built against it (counted as a test).
scripts/test-install.sh
install_status=$?
log=$(mktemp)
/usr/lib/llvm-22/bin/lit -sv "$BUILD_DIR/test" 2>&1 | tee "$log"
status=${PIPESTATUS[0]}
scripts/test-sanitizers.sh || status=1  # lit on ASan+UBSan (docs/testing.md)
scripts/fuzz.sh --ci || status=1  # bounded libFuzzer run (docs/testing.md)
# lit aligns the colons ("Passed     : 71") when several kinds are listed.
count() { sed -nE "s/^ *$1 *: +([0-9]+).*/\\1/p" "$log" | head -1; }
passed=$(count Passed); failed=$(count Failed)
unsupported=$(count Unsupported)
if [ "$install_status" = 0 ]; then
  passed=$((${passed:-0} + 1))
else
  failed=$((${failed:-0} + 1)); status=1
fi
echo "tests: ${passed:-0} passed, ${failed:-0} failed, ${unsupported:-0} skipped"
rm -f "$log"
exit "$status"
