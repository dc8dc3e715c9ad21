# shellcheck shell=bash
# Shared helpers for the .ci/*.sh scripts. Sourced, not executed.

SRT_TEST_DIR="${SRT_TEST_DIR:-/root/.srt-test}"
SRT_TEST_ENV_FILE="${SRT_TEST_ENV_FILE:-${SRT_TEST_DIR}/env}"

# Pid files of the daemons the start scripts run (stop-services.sh uses the same ones).
# shellcheck disable=SC2034 # used by the scripts that source this file
SRT_SSHD_PID="${SRT_TEST_DIR}/sshd.pid"
# shellcheck disable=SC2034
SRT_BASTION_PID="${SRT_TEST_DIR}/bastion/sshd.pid"
# shellcheck disable=SC2034
SRT_SLURM_RUN_DIR=/run/slurm-srt
# shellcheck disable=SC2034
SRT_MUNGE_PID=/run/munge/munged.pid
# Keys each start script owns in the env file.
# shellcheck disable=SC2034
SRT_SSH_ENV_KEYS=(SRT_TEST_SSH_HOST SRT_TEST_SSH_PORT SRT_TEST_SSH_USER SRT_TEST_SSH_KEY SRT_TEST_SSH_KNOWN_HOSTS
  SRT_TEST_SSH_PASSPHRASE_KEY SRT_TEST_SSH_PASSPHRASE_FILE)
# shellcheck disable=SC2034
SRT_BASTION_ENV_KEYS=(SRT_TEST_BASTION_HOST SRT_TEST_BASTION_PORT SRT_TEST_BASTION_KNOWN_HOSTS SRT_TEST_JUMP_TARGET)
# shellcheck disable=SC2034
SRT_SLURM_ENV_KEYS=(SRT_TEST_SLURM SRT_TEST_SLURM_PARTITION SRT_TEST_SLURM_MULTINODE_PARTITION SRT_TEST_SLURM_MULTINODE_NODES)

# One line per step, prefixed with the script name.
step() {
  printf '[%s] %s\n' "${0##*/}" "$*"
}

die() {
  printf '[%s] ERROR: %s\n' "${0##*/}" "$*" >&2
  exit 1
}

require_root() {
  [[ "$(id -u)" -eq 0 ]] || die "must run as root"
}

# Create the state directory (0700, root) if needed.
ensure_state_dir() {
  mkdir -p "${SRT_TEST_DIR}"
  chown root:root "${SRT_TEST_DIR}"
  chmod 0700 "${SRT_TEST_DIR}"
}

# Serialise concurrent runs of the scripts on one machine (fd 9 stays open until exit).
take_lock() {
  ensure_state_dir
  exec 9>"${SRT_TEST_DIR}/.lock"
  flock -w 120 9 || die "another .ci script holds ${SRT_TEST_DIR}/.lock for more than 120 s"
}

# env_filter KEY...: print the env file without the lines that set any of KEY.
env_filter() {
  local line key k keep
  [[ -f "${SRT_TEST_ENV_FILE}" ]] || return 0
  while IFS= read -r line || [[ -n "${line}" ]]; do
    key="${line%%=*}"
    keep=1
    for k in "$@"; do
      if [[ "${key}" == "${k}" ]]; then keep=0; break; fi
    done
    if [[ "${keep}" -eq 1 ]]; then printf '%s\n' "${line}"; fi
  done <"${SRT_TEST_ENV_FILE}"
}

# env_set KEY=VALUE...: rewrite the env file, replacing only the given keys and keeping every
# other line (start-sshd.sh and start-slurm.sh share the file). Atomic: temp file + rename, so a
# test reading the file never sees a half-written one.
env_set() {
  local tmp kv
  local -a keys=()
  for kv in "$@"; do
    keys+=("${kv%%=*}")
  done
  tmp="$(mktemp "${SRT_TEST_ENV_FILE}.XXXXXX")"
  {
    env_filter "${keys[@]}"
    printf '%s\n' "$@"
  } >"${tmp}"
  chmod 0600 "${tmp}"
  mv -f "${tmp}" "${SRT_TEST_ENV_FILE}"
}

# env_unset KEY...: remove keys from the env file (on failure, and in stop-services.sh).
env_unset() {
  local tmp
  [[ -f "${SRT_TEST_ENV_FILE}" ]] || return 0
  tmp="$(mktemp "${SRT_TEST_ENV_FILE}.XXXXXX")"
  env_filter "$@" >"${tmp}"
  chmod 0600 "${tmp}"
  mv -f "${tmp}" "${SRT_TEST_ENV_FILE}"
}

# pid_alive PIDFILE [NAME]: true if the pid file names a live process (whose comm is NAME, if given).
pid_alive() {
  local pidfile="$1" name="${2:-}" pid comm
  [[ -s "${pidfile}" ]] || return 1
  pid="$(tr -dc '0-9' <"${pidfile}")"
  [[ -n "${pid}" ]] || return 1
  kill -0 "${pid}" 2>/dev/null || return 1
  if [[ -n "${name}" ]]; then
    comm="$(cat "/proc/${pid}/comm" 2>/dev/null || true)"
    [[ "${comm}" == "${name}" ]] || return 1
  fi
  return 0
}

# stop_pid PIDFILE NAME: TERM the daemon named in PIDFILE (if it is a live NAME process), wait up
# to 15 s for it to exit, then KILL. Never touches processes other than the one in PIDFILE.
stop_pid() {
  local pidfile="$1" name="$2" pid
  if ! pid_alive "${pidfile}" "${name}"; then
    rm -f "${pidfile}"
    return 0
  fi
  pid="$(tr -dc '0-9' <"${pidfile}")"
  step "stopping ${name} (pid ${pid})"
  kill "${pid}" 2>/dev/null || true
  if ! wait_for 15 "${name} (pid ${pid}) stopped" bash -c "! kill -0 ${pid}"; then
    step "${name} (pid ${pid}) ignored TERM for 15 s: sending KILL"
    kill -9 "${pid}" 2>/dev/null || true
  fi
  rm -f "${pidfile}"
}

# wait_for SECONDS DESCRIPTION COMMAND...: poll COMMAND every 0.2 s until it succeeds.
wait_for() {
  local timeout="$1" what="$2" deadline
  shift 2
  deadline=$(( $(date +%s) + timeout ))
  until "$@" >/dev/null 2>&1; do
    if (( $(date +%s) >= deadline )); then
      return 1
    fi
    sleep 0.2
  done
  step "${what}: ok"
}
