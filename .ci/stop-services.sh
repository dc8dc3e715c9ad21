#!/usr/bin/env bash
# Stop the test services started by start-slurm.sh, start-bastion.sh and start-sshd.sh (every
# slurmd, slurmctld, munged, the test bastion and sshd). Best effort and idempotent: only the processes named in our pid files are
# stopped; keys, configs, Slurm state and the test nodes' network namespaces are kept, so the
# start scripts bring everything back.
set -euo pipefail

# shellcheck source-path=SCRIPTDIR source=lib.sh
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
require_root
take_lock

step "withdrawing SRT_TEST_SSH_*, SRT_TEST_BASTION_* and SRT_TEST_SLURM* from ${SRT_TEST_ENV_FILE}"
env_unset "${SRT_SSH_ENV_KEYS[@]}" "${SRT_BASTION_ENV_KEYS[@]}" "${SRT_SLURM_ENV_KEYS[@]}"

failed=0
slurmd_entries=()
for pidfile in "${SRT_SLURM_RUN_DIR}"/slurmd*.pid; do
  if [[ -e "${pidfile}" ]]; then slurmd_entries+=("${pidfile} slurmd"); fi
done
for entry in \
  "${slurmd_entries[@]}" \
  "${SRT_SLURM_RUN_DIR}/slurmctld.pid slurmctld" \
  "${SRT_MUNGE_PID} munged" \
  "${SRT_BASTION_PID} sshd" \
  "${SRT_SSHD_PID} sshd"; do
  pidfile="${entry% *}"
  name="${entry##* }"
  if pid_alive "${pidfile}" "${name}"; then
    stop_pid "${pidfile}" "${name}" || failed=1
  else
    step "${name} not running"
    rm -f "${pidfile}"
  fi
done
rm -f "${SRT_SLURM_RUN_DIR}/config.sha256"

[[ "${failed}" -eq 0 ]] || die "some services did not stop"
step "all test services stopped"
