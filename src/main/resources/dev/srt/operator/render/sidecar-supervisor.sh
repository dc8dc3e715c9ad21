# Couples a native SGLang engine and its Dynamo sidecar: the sidecar starts only once the engine's
# gRPC port accepts a connection, and when either ends the other is stopped. Exit 0 of either
# still fails the worker: a serving process must never end by itself.
# Arguments: NAME GRPC_PORT STARTUP_TIMEOUT_SECONDS ENGINE_LOG SIDECAR_LOG ENGINE_ARGC ENGINE_ARGV... SIDECAR_ARGV...
# The two commands arrive as argv words (the first ENGINE_ARGC words after ENGINE_ARGC are the
# engine's, the rest the sidecar's) and are run exactly as given: no shell parses them again.
set -euo pipefail
if [ "$#" -lt 7 ] || ! [[ $6 =~ ^[1-9][0-9]*$ ]] || [ "$#" -le $((6 + $6)) ]; then
  echo "usage: srt-sidecar-supervisor NAME GRPC_PORT STARTUP_TIMEOUT ENGINE_LOG SIDECAR_LOG ENGINE_ARGC ENGINE_ARGV... SIDECAR_ARGV..." >&2
  exit 2
fi
NAME=$1
GRPC_PORT=$2
STARTUP_TIMEOUT=$3
ENGINE_LOG=$4
SIDECAR_LOG=$5
ENGINE_ARGC=$6
shift 6
ENGINE_ARGV=("${@:1:ENGINE_ARGC}")
SIDECAR_ARGV=("${@:ENGINE_ARGC+1}")
ENGINE_PID=""
SIDECAR_PID=""
# "code N", and for N > 128 the signal it stands for (a process killed by signal S ends with
# 128 + S): the run's status then says that the engine was killed, not that it failed.
exit_text() {
  local sig
  if [ "$1" -gt 128 ] && sig=$(kill -l "$1" 2>/dev/null); then
    printf 'code %s (signal %s, %s)' "$1" "$(($1 - 128))" "$sig"
  else
    printf 'code %s' "$1"
  fi
}
cleanup() {
  local status=$?
  trap - EXIT INT TERM
  local pid waited
  for pid in "${SIDECAR_PID}" "${ENGINE_PID}"; do
    if [ -n "$pid" ]; then kill -TERM "$pid" 2>/dev/null || true; fi
  done
  for pid in "${SIDECAR_PID}" "${ENGINE_PID}"; do
    [ -n "$pid" ] || continue
    waited=0
    while kill -0 "$pid" 2>/dev/null && [ "$waited" -lt 100 ]; do
      sleep 0.1
      waited=$((waited + 1))
    done
    kill -KILL "$pid" 2>/dev/null || true
    wait "$pid" 2>/dev/null || true
  done
  exit "$status"
}
trap cleanup EXIT INT TERM
"${ENGINE_ARGV[@]}" >>"$ENGINE_LOG" 2>&1 &
ENGINE_PID=$!
echo "$NAME: engine started (pid $ENGINE_PID); waiting for its gRPC port $GRPC_PORT"
deadline=$(($(date +%s) + STARTUP_TIMEOUT))
until (exec 3<>"/dev/tcp/127.0.0.1/$GRPC_PORT") 2>/dev/null; do
  if ! kill -0 "$ENGINE_PID" 2>/dev/null; then
    echo "$NAME: engine exited before native gRPC became ready (see $ENGINE_LOG)"
    exit 1
  fi
  if [ "$(date +%s)" -ge "$deadline" ]; then
    echo "$NAME: timed out waiting for the engine's native gRPC on port $GRPC_PORT"
    exit 1
  fi
  sleep 0.2
done
"${SIDECAR_ARGV[@]}" >>"$SIDECAR_LOG" 2>&1 &
SIDECAR_PID=$!
echo "$NAME: gRPC port $GRPC_PORT is up; sidecar started (pid $SIDECAR_PID)"
status=0
wait -n "${ENGINE_PID}" "${SIDECAR_PID}" || status=$?
# The run's script quotes this line (its last one starting with "$NAME: ") when the worker ends.
if ! kill -0 "$ENGINE_PID" 2>/dev/null; then
  echo "$NAME: engine exited with $(exit_text "$status"), pid $ENGINE_PID (see $ENGINE_LOG); stopping the sidecar"
else
  echo "$NAME: sidecar exited with $(exit_text "$status"), pid $SIDECAR_PID (see $SIDECAR_LOG); stopping the engine"
fi
if [ "$status" -eq 0 ]; then status=1; fi
exit "$status"
