#!/usr/bin/env bash
# Runs a command with two CPU-bound processes beside it, as a busy CI machine has (issue 33: the
# suite must land with two CPU hogs running), and stops them when the command ends, however it
# ends. Prints the command's wall time. Usage:
#   bash .ci/under-load.sh bash .ci/run         # the whole CI under load
#   bash .ci/under-load.sh mvn -B -q verify     # or any command
# SRT_CPU_HOGS sets how many hogs (default 2).
set -euo pipefail

# shellcheck source-path=SCRIPTDIR source=lib.sh
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"

(($# > 0)) || die "usage: $0 COMMAND [ARGS...]"
hogs=()
# shellcheck disable=SC2317 # called by the EXIT trap
stop_hogs() {
  local pid
  for pid in "${hogs[@]}"; do
    kill "${pid}" 2>/dev/null || true
  done
  for pid in "${hogs[@]}"; do
    wait "${pid}" 2>/dev/null || true
  done
}
trap stop_hogs EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

for ((i = 0; i < ${SRT_CPU_HOGS:-2}; i++)); do
  # A busy loop in its own bash: one core's worth of work each, no I/O.
  bash -c 'while :; do :; done' &
  hogs+=("$!")
done
step "${#hogs[@]} CPU hog(s) running: ${hogs[*]}"

start=${SECONDS}
status=0
"$@" || status=$?
step "'$*' exited ${status} after $((SECONDS - start)) s under ${#hogs[@]} CPU hog(s)"
exit "${status}"
