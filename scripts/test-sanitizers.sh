#!/usr/bin/env bash
# The whole lit suite on the AddressSanitizer + UndefinedBehaviorSanitizer
# build (scripts/build-sanitizers.sh, ${POSENC_ASAN_BUILD_DIR:-build-asan}).
# Every sanitizer report aborts the tool: with abort_on_error a report is a
# crash, which `not` in a RUN line does not accept (a plain exit code 1
# would be). Ends with "sanitizers: N passed, N failed, ..." and the timings.
# POSENC_SKIP_SANITIZERS=1 skips it (local use; CI runs it).
set -uo pipefail
cd "$(dirname "$0")/.."
if [ "${POSENC_SKIP_SANITIZERS:-0}" = 1 ]; then
  echo "sanitizers: skipped (POSENC_SKIP_SANITIZERS=1)"
  exit 0
fi
BUILD_DIR=${POSENC_ASAN_BUILD_DIR:-build-asan}

t0=$(date +%s)
scripts/build-sanitizers.sh || exit 1
t1=$(date +%s)

export ASAN_OPTIONS=${ASAN_OPTIONS:-halt_on_error=1:abort_on_error=1:detect_leaks=1:allow_user_poisoning=0:detect_stack_use_after_return=1:strict_string_checks=1:check_initialization_order=1}
export UBSAN_OPTIONS=${UBSAN_OPTIONS:-halt_on_error=1:abort_on_error=1:print_stacktrace=1}
export ASAN_SYMBOLIZER_PATH=/usr/lib/llvm-22/bin/llvm-symbolizer
log=$(mktemp)
/usr/lib/llvm-22/bin/lit -sv "$BUILD_DIR/test" 2>&1 | tee "$log"
status=${PIPESTATUS[0]}
t2=$(date +%s)
# lit aligns the colons ("Passed     : 71") when several kinds are listed.
count() { sed -nE "s/^ *$1 *: +([0-9]+).*/\\1/p" "$log" | head -1; }
if grep -qE "ERROR: (Address|Leak)Sanitizer|runtime error:" "$log"; then
  echo "sanitizers: sanitizer reports in the log (see above)"
  status=1
fi
echo "sanitizers: ${ASAN_OPTIONS} / ${UBSAN_OPTIONS}"
passed=$(count Passed); failed=$(count Failed); skipped=$(count Unsupported)
echo "sanitizers: ${passed:-0} passed, ${failed:-0} failed, ${skipped:-0} skipped;" \
  "build $((t1 - t0)) s, lit $((t2 - t1)) s"
rm -f "$log"
exit "$status"
