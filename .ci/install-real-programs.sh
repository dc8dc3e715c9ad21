#!/usr/bin/env bash
# Installs the real programs the emulated host runs in place of its stand-ins (the real AIPerf, the SGLang
# Model Gateway, the Dynamo frontend, sidecar and mocker; docs/emulator.md#real-programs) into a virtual
# environment, from the committed lock file: exact versions, sha256-checked, wheels only.
#
# The environment lives at $SRT_REAL_PROGRAMS_HOME/<first 16 hex of the lock's sha256> (default home:
# ${XDG_CACHE_HOME:-$HOME/.cache}/srt-operator/real-programs), which is where the emulator looks for it:
# a second run with the same lock installs nothing. A changed lock gets a new environment beside the old.
# Prints the environment's path on its last line. Needs python3 (3.11) with venv, and PyPI.
set -euo pipefail
cd "$(dirname "$0")/.."

lock=src/main/resources/dev/srt/operator/emulator/real-programs.lock
home="${SRT_REAL_PROGRAMS_HOME:-${XDG_CACHE_HOME:-${HOME}/.cache}/srt-operator/real-programs}"
hash=$(sha256sum "${lock}" | cut -c1-16)
env="${home}/${hash}"
say() { printf '[install-real-programs.sh] %s\n' "$*" >&2; }

mkdir -p "${home}"
# One installer at a time per home; a run that died half-way left no .complete and is redone.
exec 9>"${home}/.lock"
flock 9
if [[ -f "${env}/.complete" ]]; then
  say "present: ${env}"
  echo "${env}"
  exit 0
fi
rm -rf "${env}"
start=${SECONDS}
say "installing $(grep -c '^[a-z]' "${lock}") pinned distributions into ${env}"
python3 -m venv "${env}"
"${env}/bin/python" -m pip install -q --disable-pip-version-check --no-deps --require-hashes \
  --only-binary=:all: -r "${lock}" >"${home}/install.log" 2>&1 \
  || { tail -n 30 "${home}/install.log" >&2; say "pip install failed (full log: ${home}/install.log)"; exit 1; }
# Each program answers before the environment is called complete.
"${env}/bin/aiperf" --version >/dev/null
"${env}/bin/python" -c 'import sglang_router.launch_router, dynamo.frontend, dynamo.mocker, zmq, msgpack' >/dev/null
cp "${lock}" "${env}/real-programs.lock"
touch "${env}/.complete"
say "installed in $((SECONDS - start)) s"
echo "${env}"
