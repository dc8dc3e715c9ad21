#!/usr/bin/env bash
# srt-operator: RouterComparison qwen3-32b-disagg, arm dynamo-kv-policy, direct mode.
# Rendered from the arm's plan (srt-operator plan); re-render rather than edit.
set -Eeuo pipefail
# Job control: every background process gets its own process group, so it can be stopped whole.
set -m

SRT_COMPARISON="qwen3-32b-disagg"
SRT_ARM="dynamo-kv-policy"
SRT_MODE="direct"
RUN_DIR="${SRT_RUN_DIR:-$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)}"
SRT_RUN_ID="${SRT_RUN_ID:-$(basename "$RUN_DIR")}"
export SRT_RUN_ID
SRT_PYTHON="python3"
SRT_HEALTH_TIMEOUT="1800"
SRT_HEALTH_INTERVAL="10"
cd "$RUN_DIR"
# Submitted over SSH, bash would read ~/.bashrc in every shell it starts (and, e.g., activate
# another Python): the run has no SSH client.
unset SSH_CLIENT SSH2_CLIENT SSH_CONNECTION

# ---- srt-operator shared bash library: identical in every rendered script ----
# Expects RUN_DIR (cwd), SRT_PYTHON, SRT_ARM, SRT_RUN_ID, SRT_MODE, SRT_HEALTH_TIMEOUT and
# SRT_HEALTH_INTERVAL (seconds). Every process runs in its own process group (set -m), so that
# stopping a process also stops everything it started.
SRT_NAMES=()
SRT_PIDS=()
SRT_ROLES=()
SRT_FAILED=""
SRT_INTERRUPTED=""
SRT_LEVEL=""
SRT_LEVEL_TEXT=""
SRT_STOP_GRACE="${SRT_STOP_GRACE:-10}"

# Control characters a JSON string cannot hold raw; \t \n \r are escaped instead.
SRT_JSON_DROPPED=$'[\001\002\003\004\005\006\007\010\013\014\016\017\020\021\022\023\024\025\026\027\030\031\032\033\034\035\036\037]'

# srt_json_string TEXT: TEXT as a JSON string, in REPLY. In bash alone: a run writes many events,
# and a fork per string was most of a short run's time.
srt_json_string() {
  local s=$1
  s=${s//\\/\\\\}
  s=${s//\"/\\\"}
  s=${s//$'\n'/\\n}
  s=${s//$'\r'/\\r}
  s=${s//$'\t'/\\t}
  s=${s//$SRT_JSON_DROPPED/}
  REPLY="\"$s\""
}

# srt_now: the time in UTC to the millisecond, in REPLY (bash 5's clock; date on bash 4).
srt_now() {
  if [ -n "${EPOCHREALTIME:-}" ]; then
    local t=${EPOCHREALTIME/[!0-9]/.}
    TZ=UTC0 printf -v REPLY '%(%Y-%m-%dT%H:%M:%S)T.%.3sZ' "${t%.*}" "${t#*.}"
  else
    REPLY=$(date -u +%Y-%m-%dT%H:%M:%S.%3NZ)
  fi
}

# srt_event EVENT [KEY VALUE]... ; a KEY ending in := takes a raw JSON VALUE (number, object).
srt_event() {
  local line
  srt_now
  line="{\"ts\":\"$REPLY\""
  srt_json_string "$1"
  line+=",\"event\":$REPLY"
  shift
  while [ "$#" -ge 2 ]; do
    if [ "${1%:=}" != "$1" ]; then
      srt_json_string "${1%:=}"
      line+=",$REPLY:$2"
    else
      srt_json_string "$1"
      line+=",$REPLY"
      srt_json_string "$2"
      line+=":$REPLY"
    fi
    shift 2
  done
  printf '%s}\n' "$line" >>"$RUN_DIR/events.jsonl"
}

srt_log() {
  TZ=UTC0 printf '%(%H:%M:%S)T [srt] %s\n' -1 "$*" >&2
}

srt_phase() {
  srt_log "phase: $1"
  srt_event phase phase "$1"
}

# srt_fail REASON MESSAGE: records why the run failed and exits (cleanup runs on EXIT).
srt_fail() {
  if [ -z "$SRT_FAILED" ]; then
    SRT_FAILED=1
    srt_log "FAILED ($1): $2"
    srt_event failed reason "$1" message "$2"
  fi
  exit 1
}

srt_on_error() {
  srt_fail ScriptError "command failed (exit $1) at line $2 of the script"
}

srt_on_signal() {
  SRT_INTERRUPTED=1
  if [ -z "$SRT_FAILED" ]; then
    SRT_FAILED=1
    srt_event failed reason Interrupted message "received SIG$1"
  fi
  if [ "$1" = INT ]; then exit 130; fi
  exit 143
}

srt_on_exit() {
  local code=$? status=succeeded
  trap - EXIT INT TERM ERR
  set +e
  srt_stop_all
  # A script may define srt_after_run (with docker: give the run's files back to this user).
  if declare -F srt_after_run >/dev/null; then srt_after_run; fi
  # The cancel-requested marker (written by every cancel before it signals) also counts: bash can
  # fail to run a trap that arrives while it parses a command substitution ("unexpected EOF").
  if [ -n "$SRT_INTERRUPTED" ] || [ -e "$RUN_DIR/cancel-requested" ]; then
    status=cancelled
  elif [ "$code" -ne 0 ] || [ -n "$SRT_FAILED" ]; then
    status=failed
    [ "$code" -ne 0 ] || code=1
  fi
  srt_event finished status "$status" code:= "$code"
  srt_log "finished: $status (exit $code)"
  exit "$code"
}

srt_begin() {
  mkdir -p logs results
  trap srt_on_exit EXIT
  trap 'srt_on_signal INT' INT
  trap 'srt_on_signal TERM' TERM
  trap 'srt_on_error $? $LINENO' ERR
  srt_event run-started comparison "$SRT_COMPARISON" arm "$SRT_ARM" runId "$SRT_RUN_ID" mode "$SRT_MODE" host "$(hostname)"
}

# srt_take_host_lease FILE: one run at a time on a direct host. Every run of the host locks the
# same file (flock) before it builds, binds a port or touches a GPU; the lock is inherited by every
# process the run starts, so the host is free only once all of them are gone (a killed script's
# leftover processes are reaped by its observer's cancel). A waiting run says who holds the host.
srt_take_host_lease() {
  local lease=$1 holder
  mkdir -p -- "$(dirname -- "$lease")"
  exec {SRT_LEASE_FD}>>"$lease"
  if ! flock -n "$SRT_LEASE_FD"; then
    holder=$(head -n 1 -- "$lease.holder" 2>/dev/null | head -c 512 || true)
    srt_log "host busy: queued behind ${holder:-another run}"
    srt_event queued holder "${holder:-unknown}"
    flock "$SRT_LEASE_FD"
  fi
  printf '%s %s\n' "${RUN_DIR#"$(dirname -- "$lease")"/}" "$(date -u +%Y-%m-%dT%H:%M:%SZ)" >"$lease.holder"
  srt_event lease-acquired
}

# srt_start NAME ROLE LOG ARGV...: starts ARGV in its own process group, output appended to LOG.
srt_start() {
  local name=$1 role=$2 log=$3 pid
  shift 3
  "$@" >>"$log" 2>&1 </dev/null &
  pid=$!
  SRT_NAMES+=("$name")
  SRT_PIDS+=("$pid")
  SRT_ROLES+=("$role")
  printf '%s\n' "$pid" >>"$RUN_DIR/pgids"
  srt_log "started $name (pid $pid): $log"
  srt_event process-started name "$name" role "$role" pid:= "$pid" log "$log"
}

# srt_exit_text CODE: "code N", and for N > 128 the signal it stands for (bash and srun report a
# process killed by signal S as 128 + S), so that a status says a process was killed.
srt_exit_text() {
  local sig
  if [ "$1" -gt 128 ] && sig=$(kill -l "$1" 2>/dev/null); then
    printf 'code %s (signal %s, %s)' "$1" "$(($1 - 128))" "$sig"
  else
    printf 'code %s' "$1"
  fi
}

# srt_last_words NAME LOG: the last line of LOG's end that starts with "NAME: " (a supervisor's
# account of which of its processes ended: srun may write after it), else LOG's last line.
srt_last_words() {
  local said
  said=$(tail -n 200 -- "$2" 2>/dev/null | awk -v p="$1: " 'index($0, p) == 1 { l = $0 } END { print l }' || true)
  if [ -z "$said" ]; then said=$(tail -n 1 -- "$2" 2>/dev/null || true); fi
  printf '%s' "$said"
}

# Fails the run when a started process has ended: serving processes must outlive the benchmark.
srt_check_alive() {
  local i code name
  for i in "${!SRT_PIDS[@]}"; do
    if ! kill -0 "${SRT_PIDS[$i]}" 2>/dev/null; then
      code=0
      name=${SRT_NAMES[$i]}
      wait "${SRT_PIDS[$i]}" || code=$?
      srt_event process-exited name "$name" code:= "$code" pid:= "${SRT_PIDS[$i]}"
      srt_fail ProcessExited "$name exited with $(srt_exit_text "$code"), pid ${SRT_PIDS[$i]}: $(srt_last_words "$name" "logs/$name.log") (see logs/$name.log)"
    fi
  done
}

srt_stop_all() {
  local i pid
  for ((i = ${#SRT_PIDS[@]} - 1; i >= 0; i--)); do
    kill -TERM -- "-${SRT_PIDS[$i]}" 2>/dev/null || true
  done
  for pid in "${SRT_PIDS[@]}"; do
    srt_reap_group "$pid"
  done
}

# srt_reap_group PGID: waits up to SRT_STOP_GRACE seconds for process group PGID (already sent
# TERM) to end, then KILLs what is left of it.
srt_reap_group() {
  local waited=0 grace=$SRT_STOP_GRACE
  # A number, or the default: bash arithmetic would evaluate any other text as an expression.
  [[ $grace =~ ^[0-9]+$ ]] || grace=10
  while kill -0 -- "-$1" 2>/dev/null && [ "$waited" -lt $((grace * 10)) ]; do
    sleep 0.1
    waited=$((waited + 1))
  done
  kill -KILL -- "-$1" 2>/dev/null || true
}

# The probe helper: one small Python program for HTTP and JSON checks (Python is on every host
# that runs SGLang; curl and jq are not guaranteed).
read -r -d '' SRT_PROBE_PY <<'PY' || true
import json, socket, sys, urllib.request
kind, target = sys.argv[1], sys.argv[2]
def get(url, timeout=5):
    with urllib.request.urlopen(url, timeout=timeout) as r:
        return r.status, r.read()
try:
    if kind == "http-status":
        try:
            status, _ = get(target)
        except urllib.error.HTTPError as e:
            status = e.code
        sys.exit(0 if status == int(sys.argv[3]) else 1)
    if kind in ("dynamo-instances", "dynamo-prefill-instances"):
        _, body = get(target)
        components = ("prefill",) if kind == "dynamo-prefill-instances" else ("backend", "decode", "tensorrt_llm")
        found = [i for i in json.loads(body).get("instances") or []
                 if i.get("endpoint") == "generate" and i.get("component") in components]
        print(len(found))
        sys.exit(0 if len(found) >= int(sys.argv[3]) else 1)
    if kind == "json-true":
        _, body = get(target)
        sys.exit(0 if json.loads(body).get(sys.argv[3]) is True else 1)
    if kind == "tcp":
        host, port = target.rsplit(":", 1)
        socket.create_connection((host, int(port)), timeout=5).close()
        sys.exit(0)
    if kind == "chat":
        payload = json.dumps({"model": sys.argv[3], "temperature": 0, "max_tokens": 64,
                              "messages": [{"role": "user", "content": "Reply with one word: ready"}]}).encode()
        req = urllib.request.Request(target, data=payload, headers={"Content-Type": "application/json"})
        with urllib.request.urlopen(req, timeout=120) as r:
            body = r.read()
        with open(sys.argv[4], "wb") as f:
            f.write(body)
        text = json.loads(body)["choices"][0]["message"]["content"]
        sys.exit(0 if text and text.strip() else 1)
    if kind == "ports-free":
        busy = []
        for port in sys.argv[2:]:
            s = socket.socket()
            s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
            try:
                s.bind(("", int(port)))
            except OSError:
                busy.append(port)
            finally:
                s.close()
        print(" ".join(busy))
        sys.exit(0)
    if kind == "scrape":
        with open(target, "w") as out:
            for url in sys.argv[3:]:
                try:
                    _, body = get(url)
                    out.write("# srt-scrape " + url + "\n" + body.decode("utf-8", "replace") + "\n")
                except Exception as e:
                    out.write("# srt-scrape " + url + " failed: " + str(e) + "\n")
        sys.exit(0)
except Exception as e:
    print(e, file=sys.stderr)
sys.exit(1)
PY

srt_probe() {
  "$SRT_PYTHON" -c "$SRT_PROBE_PY" "$@"
}

# The facts program (docs/run-protocol.md#facts): what the run is, asked of the engines, the nodes
# and the files themselves once every gate has passed. `node OUT INDEX PACKAGE...` runs on each node
# (a step of its own) and writes that node's facts to OUT; `collect OUT ARGS` asks the engines and
# hashes the model, router and workload files, adds the nodes' files and writes facts.json. A fact
# that cannot be found out is written as unknown, with why; nothing here fails the run.
read -r -d '' SRT_FACTS_PY <<'PY' || true
import argparse, glob, hashlib, json, os, platform, re, shutil, socket, subprocess, sys, time, urllib.error, urllib.request
MAX_VALUE = 256
NODE_FACTS = ("host", "kernel", "GPU model", "GPU count", "GPU driver", "CUDA version")
# nvidia-smi --query-gpu fields of the ground the engines stand on: clocks, power, persistence, ECC, MIG
GPU_GROUND = (("GPU application clocks", "clocks.applications.graphics,clocks.applications.memory"),
              ("GPU max clocks", "clocks.max.graphics,clocks.max.memory"),
              ("GPU power limit", "power.limit"),
              ("GPU persistence mode", "persistence_mode"),
              ("GPU ECC mode", "ecc.mode.current"),
              ("GPU MIG mode", "mig.mode.current"))
# torch's own CUDA runtime, cuDNN and NCCL, asked of the torch the engines import (a child process: importing torch is slow)
TORCH_RUNTIME = "import json, torch; n = getattr(getattr(torch, 'cuda', None), 'nccl', None); print(json.dumps({'cuda': torch.version.cuda, 'cudnn': torch.backends.cudnn.version(), 'nccl': '.'.join(map(str, n.version())) if n else None}))"
facts = []
def clean(text):
    return "".join(c if c.isprintable() else "?" for c in text)
def known(name, value):
    text = clean(value if isinstance(value, str) else json.dumps(value, sort_keys=True, separators=(",", ":")))
    if len(text) > MAX_VALUE:
        text = "sha256:%s (%d characters)" % (hashlib.sha256(text.encode("utf-8", "replace")).hexdigest(), len(text))
    facts.append({"name": name, "value": text})
def unknown(name, why):
    facts.append({"name": name, "unknown": clean(str(why)).strip()[:MAX_VALUE] or "unknown"})
def write(path, doc):
    with open(path + ".tmp", "w") as f:
        json.dump(doc, f, indent=1)
        f.write("\n")
    os.replace(path + ".tmp", path)
def run(argv, timeout=30):
    r = subprocess.run(argv, stdout=subprocess.PIPE, stderr=subprocess.PIPE, stdin=subprocess.DEVNULL, timeout=timeout)
    if r.returncode != 0:
        raise RuntimeError("%s exited with code %d: %s" % (argv[0], r.returncode, r.stderr.decode("utf-8", "replace").strip()[-200:]))
    return r.stdout.decode("utf-8", "replace")
def sha256(path):
    h = hashlib.sha256()
    with open(path, "rb") as f:
        for block in iter(lambda: f.read(1 << 20), b""):
            h.update(block)
    return h.hexdigest()
def file_fact(name, path):
    if not os.path.exists(path):
        known(name, "absent")
        return
    try:
        known(name, sha256(path))
    except Exception as e:
        unknown(name, e)
def normalized(name):
    return re.sub(r"[-_.]+", "-", name).lower()
def versions(names, path):
    from importlib import metadata
    found = {}
    for d in metadata.distributions(path=path):
        try:
            found.setdefault(normalized(d.metadata["Name"]), d.version)
        except Exception:
            pass
    return {n: found.get(normalized(n)) for n in names}
def package_facts(prefix, names, path):
    try:
        for name, version in versions(names, path).items():
            known(prefix + name, version or "not installed")
    except Exception as e:
        for name in names:
            unknown(prefix + name, "cannot read the installed versions: %s" % e)
def same(values):
    if not values:
        raise RuntimeError("nvidia-smi lists no GPU")
    counts = {v: values.count(v) for v in values}
    return values[0] if len(counts) == 1 else "mixed: " + ", ".join("%s x%d" % kv for kv in sorted(counts.items()))
def node(out, index, packages):
    prefix = "node %s " % index
    host = socket.gethostname()
    known(prefix + "host", host)
    known(prefix + "kernel", platform.release())
    smi = shutil.which("nvidia-smi")
    try:
        if smi is None:
            raise RuntimeError("nvidia-smi is not on the PATH on " + host)
        rows = [[c.strip() for c in l.split(",")] for l in run([smi, "--query-gpu=name,driver_version", "--format=csv,noheader"]).splitlines() if l.strip()]
        known(prefix + "GPU model", same([r[0] for r in rows]))
        known(prefix + "GPU count", str(len(rows)))
        known(prefix + "GPU driver", same([r[1] if len(r) > 1 else "" for r in rows]))
        cuda = re.search(r"CUDA Version:\s*([0-9][0-9.]*)", run([smi]))
        if cuda:
            known(prefix + "CUDA version", cuda.group(1))
        else:
            unknown(prefix + "CUDA version", "nvidia-smi names no CUDA version")
    except Exception as e:
        for name in NODE_FACTS[2:]:
            if not any(f["name"] == prefix + name for f in facts):
                unknown(prefix + name, e)
    for name, fields in GPU_GROUND:
        try:
            if smi is None:
                raise RuntimeError("nvidia-smi is not on the PATH on " + host)
            rows = [", ".join(c.strip() for c in l.split(",")) for l in run([smi, "--query-gpu=" + fields, "--format=csv,noheader"]).splitlines() if l.strip()]
            known(prefix + name, same(rows))
        except Exception as e:
            unknown(prefix + name, e)
    known(prefix + "Python", platform.python_implementation() + " " + platform.python_version())
    try:
        with open("/proc/cpuinfo") as f:
            models = [l.split(":", 1)[1].strip() for l in f if l.startswith("model name")]
        known(prefix + "CPU model", same(models) if models else platform.machine())
    except Exception as e:
        unknown(prefix + "CPU model", e)
    try:
        with open("/sys/devices/system/cpu/cpu0/cpufreq/scaling_governor") as f:
            known(prefix + "CPU governor", f.read().strip())
    except FileNotFoundError:
        known(prefix + "CPU governor", "none exposed")
    except Exception as e:
        unknown(prefix + "CPU governor", e)
    try:
        runtime = json.loads(run([sys.executable, "-c", TORCH_RUNTIME], 60).strip().splitlines()[-1])
        for key, name in (("cuda", "torch CUDA runtime"), ("cudnn", "torch cuDNN"), ("nccl", "torch NCCL")):
            known(prefix + name, str(runtime.get(key)) if runtime.get(key) is not None else "none")
    except Exception as e:
        for name in ("torch CUDA runtime", "torch cuDNN", "torch NCCL"):
            unknown(prefix + name, e)
    package_facts(prefix + "package ", packages, sys.path)
    emulated_host = shutil.which("srt-emulated-host")
    if emulated_host:
        # which programs ran for real on the emulated host, and which as stand-ins (docs/emulator.md)
        try:
            for line in run([emulated_host, "programs"]).splitlines():
                cells = line.split("\t")
                if len(cells) >= 4:
                    name = ("router program " if cells[1] == "router" else prefix + "program ") + cells[0]
                    known(name, cells[2] + ("" if cells[3] == "-" else " " + cells[3]))
        except Exception as e:
            unknown(prefix + "programs", e)
    write(out, {"facts": facts})
def get_json(url):
    with urllib.request.urlopen(url, timeout=10) as r:
        return json.loads(r.read())
def server_info(url):
    try:
        return get_json(url)
    except urllib.error.HTTPError as e:
        if e.code != 404:
            raise
        return get_json(url.rsplit("/", 1)[0] + "/get_server_info")
def path_fact(name, path):
    """A file's sha256, or a directory's tree digest (a tokenizer may be either)."""
    if os.path.isdir(path):
        try:
            known(name, "tree " + tree_digest(path))
        except Exception as e:
            unknown(name, e)
    else:
        file_fact(name, path)
def node_facts_value(engine):
    f = next((f for f in facts if f["name"] == "engine %s server_args.random_seed" % engine), None)
    return None if f is None else f.get("value")
def tree_digest(root):
    h = hashlib.sha256()
    for d, dirs, files in os.walk(root):
        dirs[:] = sorted(x for x in dirs if x not in (".git", "target"))
        for name in sorted(files):
            p = os.path.join(d, name)
            h.update((os.path.relpath(p, root) + "\0" + sha256(p) + "\n").encode())
    return h.hexdigest()
def collect(a):
    node_facts = {}
    for i in range(a.nodes):
        try:
            with open("facts/node-%d.json" % i) as f:
                node_facts.update((x["name"], x) for x in json.load(f)["facts"])
        except Exception as e:
            why = "the facts step on node %d wrote nothing usable (%s; see logs/facts.log)" % (i, e)
            for name in NODE_FACTS + tuple("package " + p for p in a.package + ([a.workload_package] if i == 0 and a.workload_package else [])):
                node_facts["node %d %s" % (i, name)] = {"name": "node %d %s" % (i, name), "unknown": why}
    facts.extend(node_facts.values())
    for name, index, url in a.engine:
        host = node_facts.get("node %s host" % index, {}).get("value", "unknown host")
        known("engine %s node" % name, "node %s (%s)" % (index, host))
        try:
            info = server_info(url)
            if not isinstance(info, dict):
                raise ValueError("not a JSON object")
            for key in sorted(info):
                if key != "internal_states":
                    known("engine %s server_args.%s" % (name, re.sub(r"[^A-Za-z0-9_.-]", "?", key)[:100]), info[key])
        except Exception as e:
            unknown("engine %s server_args" % name, "%s: %s" % (url, e))
    for name, index, why in a.engine_unknown:
        unknown("engine %s server_args" % name, why)
    known("router kind", a.router_kind)
    if a.router_binary:
        path = a.router_binary if "/" in a.router_binary else shutil.which(a.router_binary)
        if path is None:
            for name in ("router binary sha256", "router version"):
                unknown(name, a.router_binary + " is not on the PATH")
        else:
            known("router binary", path)
            file_fact("router binary sha256", path)
            try:
                lines = [l.strip() for l in run([path, "--version"], 10).splitlines() if l.strip()]
                known("router version", lines[0] if lines else "")
            except Exception as e:
                unknown("router version", e)
    for w in a.router_wheel:
        wheels = sorted(glob.glob(os.path.join(glob.escape(w), "*.whl"))) if os.path.isdir(w) else [w]
        if not wheels or not os.path.exists(wheels[0]):
            unknown("router wheel", "no wheel at " + w)
        for f in wheels:
            file_fact("router wheel %s sha256" % os.path.basename(f), f)
    if a.router_package:
        extra = [os.path.abspath(p) for p in (a.router_pythonpath or "").split(":") if p]
        package_facts("router package ", a.router_package, extra + sys.path)
    if a.catalog_rev:
        known("router policy catalog rev", a.catalog_rev)
    if a.catalog_path:
        try:
            known("router policy catalog digest", tree_digest(a.catalog_path))
        except Exception as e:
            unknown("router policy catalog digest", e)
    for path in a.router_file:
        path_fact("router file %s sha256" % path, path)
    model_dir = a.model_dir.rstrip("/") + "/"
    for f in a.model_file:
        file_fact("model %s sha256" % (f[len(model_dir):] if f.startswith(model_dir) else f), f)
    known("model served name", a.served_model_name)
    known("workload tool", a.workload_tool)
    if a.workload_package:
        version = node_facts.get("node 0 package " + a.workload_package, {"unknown": "not asked"})
        if "value" in version:
            known("workload tool version", "%s %s" % (a.workload_package, version["value"]))
        else:
            unknown("workload tool version", version["unknown"])
    else:
        unknown("workload tool version", "a custom command reports no version")
    if a.workload_tool == "custom":
        unknown("workload dataset sha256", "a custom command reads what it reads")
    elif a.dataset:
        file_fact("workload dataset sha256", a.dataset)
    else:
        known("workload dataset sha256", "none: the tool generates its prompts")
    known("workload seed", a.seed)
    if a.workload_tokenizer:
        path_fact("workload tokenizer %s sha256" % a.workload_tokenizer, a.workload_tokenizer)
    elif a.workload_tool != "custom":
        known("workload tokenizer", "the served model's")
    if a.engine_seed:
        seeds = {name: node_facts_value(name) for name, _, _ in a.engine}
        differ = sorted("%s reports %s" % (n, "no seed" if s is None else s) for n, s in seeds.items() if s != a.engine_seed)
        if differ:
            unknown("engines random seed", "started with --random-seed %s, but %s" % (a.engine_seed, ", ".join(differ)))
        else:
            known("engines random seed", a.engine_seed)
    write(a.out, {"schema": 2, "capturedAt": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()), "facts": facts})
    print(sum(1 for f in facts if "unknown" in f))
if sys.argv[1] == "node":
    node(sys.argv[2], sys.argv[3], sys.argv[4:])
    sys.exit(0)
p = argparse.ArgumentParser(prog="srt-facts collect")
p.add_argument("out")
p.add_argument("--nodes", type=int, default=1)
p.add_argument("--package", action="append", default=[])
p.add_argument("--engine", action="append", nargs=3, default=[])
p.add_argument("--engine-unknown", action="append", nargs=3, default=[])
p.add_argument("--model-dir", default="")
p.add_argument("--model-file", action="append", default=[])
p.add_argument("--served-model-name", default="")
p.add_argument("--router-kind", default="")
p.add_argument("--router-binary")
p.add_argument("--router-wheel", action="append", default=[])
p.add_argument("--router-package", action="append", default=[])
p.add_argument("--router-pythonpath")
p.add_argument("--catalog-rev")
p.add_argument("--catalog-path")
p.add_argument("--workload-tool", default="")
p.add_argument("--workload-package")
p.add_argument("--dataset")
p.add_argument("--seed", default="")
p.add_argument("--router-file", action="append", default=[])
p.add_argument("--workload-tokenizer")
p.add_argument("--engine-seed")
collect(p.parse_args(sys.argv[2:]))
PY

# srt_facts_node NODE ARGV...: the facts program's node part (ARGV: a step on node NODE), with a time
# limit; a step that fails leaves its node's facts unknown, for the collector to say why.
srt_facts_node() {
  local node=$1 code=0
  shift
  mkdir -p facts
  timeout 120 "$@" >>logs/facts.log 2>&1 </dev/null || code=$?
  if [ "$code" -ne 0 ]; then
    srt_log "facts: the step on node $node exited with $(srt_exit_text "$code") (see logs/facts.log)"
  fi
}

# srt_facts ARGS...: writes facts.json (see SRT_FACTS_PY) and a facts event with the number of facts
# it could not find out. Never fails the run: without a facts.json the run's facts are unknown.
srt_facts() {
  local unknown_facts
  if unknown_facts=$(timeout 300 "$SRT_PYTHON" -c "$SRT_FACTS_PY" collect facts.json "$@" 2>>logs/facts.log </dev/null); then
    [[ $unknown_facts =~ ^[0-9]+$ ]] || unknown_facts=0
    srt_log "facts: facts.json ($unknown_facts unknown)"
    srt_event facts file facts.json unknown:= "$unknown_facts"
  else
    srt_log "facts: the collector failed (see logs/facts.log); the run has no facts.json"
  fi
}

# srt_wait TARGET ROLE KIND URL [ARG]: probes until it passes, backing off from 0.2 s to
# SRT_HEALTH_INTERVAL, within the gate's timeout of its start, failing the run as soon as a
# started process ends.
srt_wait() {
  local target=$1 role=$2 kind=$3 url=$4 arg=${5:-} pause=0.2 deadline
  deadline=$((SRT_GATE_START + SRT_GATE_TIMEOUT))
  while true; do
    srt_check_alive
    if srt_probe "$kind" "$url" "$arg" >/dev/null 2>&1; then
      break
    fi
    if [ "$(date +%s)" -ge "$deadline" ]; then
      srt_fail GateTimeout "$target not ready after ${SRT_GATE_TIMEOUT}s: $kind $url"
    fi
    sleep "$pause"
    pause=$(awk -v p="$pause" -v m="$SRT_HEALTH_INTERVAL" 'BEGIN { p *= 2; if (p > m) p = m; print p }')
  done
  if [ "$kind" = http-status ] && [ "$role" = worker ]; then
    srt_log "ready: $target ($url)"
    srt_event endpoint-ready name "$target" role "$role" url "$url"
  fi
}

# srt_preflight PROGRAM FIELD [ARGV...]: fails the run at once unless PROGRAM (a name on PATH or
# a path) is an executable here, or where ARGV (a check run in the run's container) looks for it.
srt_preflight() {
  local program=$1 field=$2
  shift 2
  if [ "$#" -gt 0 ]; then
    if "$@" >/dev/null 2>&1; then return 0; fi
  elif type -P -- "$program" >/dev/null 2>&1; then
    return 0
  fi
  srt_fail PreflightFailed "$program is not an executable on $(hostname) (not on the run's PATH, nor an executable path): install it, or set $field of the GpuCluster to its path"
}

# srt_wait_ports_free PORT...: a process of an earlier run may still be ending (or someone else's
# may hold a port): wait up to 60 s for the run's fixed ports, then fail with the busy ones.
srt_wait_ports_free() {
  local busy deadline limit=${SRT_PORT_WAIT:-60}
  [[ $limit =~ ^[0-9]+$ ]] || limit=60
  deadline=$(($(date +%s) + limit))
  while busy=$(srt_probe ports-free "$@"); [ -n "$busy" ]; do
    if [ "$(date +%s)" -ge "$deadline" ]; then
      srt_fail PortsInUse "port(s) $busy on $(hostname) are still taken by another process"
    fi
    sleep 0.5
  done
}

# srt_gate NAME [TIMEOUT]: starts gate NAME's clock; its checks get TIMEOUT seconds, by default
# SRT_HEALTH_TIMEOUT.
srt_gate() {
  SRT_GATE_START=$(date +%s)
  SRT_GATE_TIMEOUT=${2:-$SRT_HEALTH_TIMEOUT}
  srt_log "gate: $1"
}

srt_gate_passed() {
  srt_event gate-passed gate "$1"
}

srt_router_ready() {
  srt_log "ready: router ($1)"
  srt_event endpoint-ready name router role router url "$1"
}

srt_canary() {
  srt_check_alive
  if ! srt_probe chat "$1" "$2" logs/canary.json >>logs/canary.log 2>&1; then
    srt_fail CanaryFailed "the canary chat request to $1 failed (see logs/canary.log, logs/canary.json)"
  fi
}

srt_scrape() {
  local out=$1
  shift
  srt_probe scrape "$out" "$@" || true
}

# srt_level_started INDEX COUNT LOAD LABEL DIR: level INDEX of COUNT of the load ladder (LOAD, shown
# as LABEL, e.g. c=32) begins; its benchmark writes into DIR. The engines stay up between levels.
srt_level_started() {
  SRT_LEVEL=$1
  SRT_LEVEL_TEXT="level $1/$2 ($4)"
  mkdir -p -- "$5"
  srt_log "$SRT_LEVEL_TEXT"
  srt_event level-started level:= "$1" of:= "$2" load:= "$3" label "$4"
}

# srt_level_finished INDEX COUNT LOAD LABEL DIR: level INDEX measured; its result files are listed.
srt_level_finished() {
  srt_event level-finished level:= "$1" of:= "$2" load:= "$3" label "$4"
  srt_report_results "$5"
  SRT_LEVEL=''
  SRT_LEVEL_TEXT=''
}

# srt_drain SECONDS: the pause between two levels, while the servers must stay up.
srt_drain() {
  # half-second steps, not $SECONDS (whole seconds: "1 s" could end at once)
  local step=0
  while [ "$step" -lt $(($1 * 2)) ]; do
    srt_check_alive
    sleep 0.5
    step=$((step + 1))
  done
}

# srt_clock_ms: milliseconds since the epoch, in REPLY (bash 5's clock; date on bash 4). Deadlines
# are kept in milliseconds, not $SECONDS: whole seconds, so a deadline of 1 s could pass at once.
srt_clock_ms() {
  if [ -n "${EPOCHREALTIME:-}" ]; then
    local t=${EPOCHREALTIME/[!0-9]/}
    REPLY=${t%???}
  else
    REPLY=$(date +%s%3N)
  fi
}

# srt_benchmark_budget SECONDS: the benchmarking of the run (every level and the pauses between
# them) ends within SECONDS of now (spec.execution.maxDuration): each benchmark's own deadline is
# cut to what remains of it.
srt_benchmark_budget() {
  srt_clock_ms
  SRT_BENCH_BUDGET=$1
  SRT_BENCH_END_MS=$((REPLY + $1 * 1000))
}

# srt_run_benchmark DEADLINE LOG ARGV...: runs the benchmark (of the current level, in a ladder)
# while checking that the servers stay up; one still running DEADLINE seconds after its start, or
# at the end of the run's benchmark budget, is stopped (its process group: TERM, then KILL after
# SRT_STOP_GRACE seconds) and fails the run with BenchmarkTimedOut: a run always ends.
srt_run_benchmark() {
  local deadline=$1 log=$2 pid code=0 name=benchmark end why
  shift 2
  if [ -n "${SRT_LEVEL:-}" ]; then name="benchmark-level-$SRT_LEVEL"; fi
  srt_clock_ms
  end=$((REPLY + deadline * 1000))
  why="its deadline of ${deadline}s"
  if [ -n "${SRT_BENCH_END_MS:-}" ] && [ "$SRT_BENCH_END_MS" -lt "$end" ]; then
    end=$SRT_BENCH_END_MS
    why="the end of spec.execution.maxDuration (${SRT_BENCH_BUDGET}s for the whole benchmarking of the run)"
    if [ "$end" -le "$REPLY" ]; then
      srt_fail BenchmarkTimedOut "${SRT_LEVEL_TEXT:+$SRT_LEVEL_TEXT: }not started: the run's benchmarking reached $why"
    fi
  fi
  "$@" >>"$log" 2>&1 </dev/null &
  pid=$!
  printf '%s\n' "$pid" >>"$RUN_DIR/pgids"
  srt_event process-started name "$name" role benchmark pid:= "$pid" log "$log"
  while kill -0 "$pid" 2>/dev/null; do
    if ! srt_check_alive_quiet; then
      kill -TERM -- "-$pid" 2>/dev/null || true
      srt_check_alive
    fi
    srt_clock_ms
    if [ "$REPLY" -ge "$end" ]; then
      srt_benchmark_timed_out "$pid" "$name" "$log" "$why"
    fi
    sleep 0.5
  done
  wait "$pid" || code=$?
  srt_event process-exited name "$name" code:= "$code" pid:= "$pid"
  # A server that ended while the benchmark ran is the cause of whatever the benchmark made of it
  # (it may have failed, or counted the failed requests and exited 0, before the loop looked).
  # A failed benchmark waits a little for a server that is still ending: a Dynamo worker whose
  # engine died stops its sidecar before it exits itself, and the requests fail sooner than that.
  if [ "$code" -ne 0 ]; then srt_await_any_exit 5; fi
  srt_check_alive
  if [ "$code" -ne 0 ]; then
    srt_fail BenchmarkFailed "${SRT_LEVEL_TEXT:+$SRT_LEVEL_TEXT: }the benchmark exited with $(srt_exit_text "$code"), pid $pid: $(tail -n 1 -- "$log" 2>/dev/null || true) (see $log)"
  fi
}

# srt_benchmark_timed_out PID NAME LOG WHY: stops the benchmark's process group and fails the run.
srt_benchmark_timed_out() {
  local code=0
  kill -TERM -- "-$1" 2>/dev/null || true
  srt_reap_group "$1"
  wait "$1" || code=$?
  srt_event process-exited name "$2" code:= "$code" pid:= "$1"
  srt_fail BenchmarkTimedOut "${SRT_LEVEL_TEXT:+$SRT_LEVEL_TEXT: }the benchmark was still running at $4: stopped it (pid $1; see $3)"
}

# srt_await_any_exit SECONDS: returns once a started process has ended, or after SECONDS.
srt_await_any_exit() {
  local tries=$(($1 * 10))
  while [ "$tries" -gt 0 ] && srt_check_alive_quiet; do
    sleep 0.1
    tries=$((tries - 1))
  done
}

srt_check_alive_quiet() {
  local pid
  for pid in "${SRT_PIDS[@]}"; do
    kill -0 "$pid" 2>/dev/null || return 1
  done
}

# srt_report_results DIR: a result event per file the benchmark wrote. The headline numbers are
# not reported here: the operator and the CLI compute them from the files themselves
# (host/RunResults), as anything in the run could append a line to events.jsonl.
srt_report_results() {
  local f
  while IFS= read -r f; do
    srt_event result file "$f"
  done < <(find "$1" -type f | sort)
}

# srt_stage NAME CACHE_DIR FUNCTION [STAMP_FUNCTION]: runs a build stage; with a CACHE_DIR, under
# an exclusive lock and only when CACHE_DIR/.complete is missing, or when STAMP_FUNCTION now prints
# something other than what it printed when the cache was built (CACHE_DIR/.stamp).
srt_stage() {
  local name=$1 cache=$2 fn=$3 stamp_fn=${4:-} stamp='' cached=false
  srt_log "stage: $name"
  srt_event stage-started stage "$name"
  if [ -n "$cache" ]; then
    mkdir -p -- "$(dirname -- "$cache")"
    exec 9>"$cache.lock"
    flock -x 9
    if [ -n "$stamp_fn" ]; then
      stamp=$("$stamp_fn") || srt_fail BuildFailed "stage $name: cannot read its inputs ($stamp_fn)"
    fi
    if [ -f "$cache/.complete" ] && { [ -z "$stamp_fn" ] || [ "$(cat "$cache/.stamp" 2>/dev/null)" = "$stamp" ]; }; then
      cached=true
    else
      rm -rf -- "$cache"
      mkdir -p -- "$cache"
      ( set -e; "$fn" ) >>"logs/$name.log" 2>&1 || srt_fail BuildFailed "stage $name failed (see logs/$name.log)"
      if [ -n "$stamp_fn" ]; then printf '%s\n' "$stamp" >"$cache/.stamp"; fi
      touch "$cache/.complete"
    fi
    exec 9>&-
  else
    ( set -e; "$fn" ) >>"logs/$name.log" 2>&1 || srt_fail BuildFailed "stage $name failed (see logs/$name.log)"
  fi
  srt_event stage-finished stage "$name" cached:= "$cached"
}

# srt_host_tag [PYTHON_TAG]: <machine>-<python cache tag>-<digest of the CPU flags>, naming the
# platform a build is for; PYTHON_TAG stands in for the Python's (a container image's digest).
srt_host_tag() {
  local python_tag=${1:-} flags
  if [ -z "$python_tag" ]; then
    python_tag=$("$SRT_PYTHON" -c 'import sys; print(sys.implementation.cache_tag)' 2>/dev/null) || python_tag=unknown-python
  fi
  # x86 names them flags, arm64 Features; neither (or no /proc) still gives a stable digest.
  flags=$({ grep -m 1 -E '^(flags|Features)' /proc/cpuinfo 2>/dev/null || true; } | sha256sum | cut -c1-12)
  printf '%s-%s-%s\n' "$(uname -m)" "$python_tag" "$flags"
}

# srt_tree_digest DIR: a digest of the files under DIR (names and content; not .git or target,
# as srt_copy_tree leaves them out).
srt_tree_digest() {
  [ -d "$1" ] || { echo "srt_tree_digest: no directory $1" >&2; return 1; }
  (cd -- "$1" && find . \( -path ./.git -o -path ./target \) -prune -o -type f -print0 | LC_ALL=C sort -z | xargs -0 -r sha256sum --) \
    | sha256sum | cut -c1-16
}

# srt_stage_source FUNCTION: bash text that defines FUNCTION and the build helpers it may call,
# then calls it; a container runs a build stage as `bash -c "$(srt_stage_source FUNCTION)"`. The
# node addresses ({{node:N}}) are an array, which no environment carries: their definition too.
srt_stage_source() {
  if declare -p SRT_NODE_ADDR >/dev/null 2>&1; then declare -p SRT_NODE_ADDR; fi
  declare -f srt_in_dir srt_require_file srt_copy_tree srt_set_toml_dependency srt_pip_install_wheels "$1"
  printf '%s\n' "$1"
}

srt_in_dir() {
  local dir=$1
  shift
  (cd -- "$dir" && "$@")
}

srt_require_file() {
  if [ ! -f "$1" ]; then
    echo "missing $1" >&2
    return 1
  fi
}

srt_copy_tree() {
  mkdir -p -- "$2"
  (cd -- "$1" && tar --exclude=./target --exclude=./.git -cf - .) | (cd -- "$2" && tar -xf -)
}

# srt_set_toml_dependency FILE NAME LINE: replaces the declaration line of dependency NAME.
srt_set_toml_dependency() {
  "$SRT_PYTHON" - "$@" <<'PY'
import re, sys
path, name, line = sys.argv[1:4]
text = open(path).read()
pattern = re.compile(r"^" + re.escape(name) + r"[ \t]*=.*$", re.M)
if not pattern.search(text):
    sys.exit(f"{path}: no declaration of {name} to replace")
open(path, "w").write(pattern.sub(lambda m: line, text, count=1))
print(f"{path}: {line}")
PY
}

# srt_pip_install_wheels PYTHON DIR TARGET: installs the wheels built into DIR into TARGET.
srt_pip_install_wheels() {
  local python=$1 dir=$2 target=$3 wheels=()
  shopt -s nullglob
  wheels=("$dir"/*.whl)
  shopt -u nullglob
  if [ "${#wheels[@]}" -eq 0 ]; then
    echo "no wheels in $dir" >&2
    return 1
  fi
  "$python" -m pip install --no-deps --target "$target" -- "${wheels[@]}"
}

# The address of a Slurm node as Slurm itself reaches it (NodeAddr), else its name.
srt_node_addr() {
  local addr
  addr=$(scontrol show node "$1" 2>/dev/null | tr ' ' '\n' | sed -n 's/^NodeAddr=//p' | head -n 1)
  printf '%s\n' "${addr:-$1}"
}
# ---- end of the shared library ----

read -r -d '' SRT_SIDECAR_SUPERVISOR <<'SRT_SIDECAR_SUPERVISOR_EOF' || true
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
SRT_SIDECAR_SUPERVISOR_EOF

export HF_HOME=/scratch/hf
srt_begin
srt_take_host_lease /scratch/srt-operator/host.lease
SRT_HOST_TAG="$(srt_host_tag '')"
export SRT_HOST_TAG

srt_preflight etcd spec.infra.etcd

srt_phase building
srt_stage_dynamo_build() {
  export RUSTFLAGS='-C target-cpu=native --cfg tokio_unstable'
  rm -rf -- /scratch/srt-operator/cache/dynamo/4dca1626b2708383514fcd65ac816ba7429c05a4-policy-ef1660d11092-"${SRT_HOST_TAG}".build || return
  mkdir -p -- /scratch/srt-operator/cache/dynamo/4dca1626b2708383514fcd65ac816ba7429c05a4-policy-ef1660d11092-"${SRT_HOST_TAG}".build || return
  python3 -m pip install --upgrade maturin || return
  git clone --no-checkout -- https://github.com/ai-dynamo/dynamo /scratch/srt-operator/cache/dynamo/4dca1626b2708383514fcd65ac816ba7429c05a4-policy-ef1660d11092-"${SRT_HOST_TAG}".build/dynamo || return
  git -C /scratch/srt-operator/cache/dynamo/4dca1626b2708383514fcd65ac816ba7429c05a4-policy-ef1660d11092-"${SRT_HOST_TAG}".build/dynamo fetch --depth 1 -- origin 4dca1626b2708383514fcd65ac816ba7429c05a4 || return
  git -C /scratch/srt-operator/cache/dynamo/4dca1626b2708383514fcd65ac816ba7429c05a4-policy-ef1660d11092-"${SRT_HOST_TAG}".build/dynamo checkout --detach FETCH_HEAD || return
  git clone --no-checkout -- https://github.com/ishandhanani/router-sandbox /scratch/srt-operator/cache/dynamo/4dca1626b2708383514fcd65ac816ba7429c05a4-policy-ef1660d11092-"${SRT_HOST_TAG}".build/policy-catalog || return
  git -C /scratch/srt-operator/cache/dynamo/4dca1626b2708383514fcd65ac816ba7429c05a4-policy-ef1660d11092-"${SRT_HOST_TAG}".build/policy-catalog fetch --depth 1 -- origin 411b4648e7fd50c776f0c787f1abb2592eeef41b || return
  git -C /scratch/srt-operator/cache/dynamo/4dca1626b2708383514fcd65ac816ba7429c05a4-policy-ef1660d11092-"${SRT_HOST_TAG}".build/policy-catalog checkout --detach FETCH_HEAD || return
  srt_require_file /scratch/srt-operator/cache/dynamo/4dca1626b2708383514fcd65ac816ba7429c05a4-policy-ef1660d11092-"${SRT_HOST_TAG}".build/policy-catalog/crates/sgl-router-cache-aware/Cargo.toml || return
  srt_set_toml_dependency /scratch/srt-operator/cache/dynamo/4dca1626b2708383514fcd65ac816ba7429c05a4-policy-ef1660d11092-"${SRT_HOST_TAG}".build/policy-catalog/crates/sgl-router-cache-aware/Cargo.toml dynamo-kv-router 'dynamo-kv-router = { path = "/scratch/srt-operator/cache/dynamo/4dca1626b2708383514fcd65ac816ba7429c05a4-policy-ef1660d11092-'"${SRT_HOST_TAG}"'.build/dynamo/lib/kv-router", features = ["standalone-selection"] }' || return
  srt_set_toml_dependency /scratch/srt-operator/cache/dynamo/4dca1626b2708383514fcd65ac816ba7429c05a4-policy-ef1660d11092-"${SRT_HOST_TAG}".build/dynamo/lib/bindings/python/Cargo.toml dynamo-worker-selection-policy-catalog 'dynamo-worker-selection-policy-catalog = { package = "sgl-router-cache-aware-dynamo-policy", path = "/scratch/srt-operator/cache/dynamo/4dca1626b2708383514fcd65ac816ba7429c05a4-policy-ef1660d11092-'"${SRT_HOST_TAG}"'.build/policy-catalog/crates/sgl-router-cache-aware", optional = true }' || return
  srt_in_dir /scratch/srt-operator/cache/dynamo/4dca1626b2708383514fcd65ac816ba7429c05a4-policy-ef1660d11092-"${SRT_HOST_TAG}".build/dynamo/lib/bindings/python python3 -m maturin build --release --features custom-policy -o /scratch/srt-operator/cache/dynamo/4dca1626b2708383514fcd65ac816ba7429c05a4-policy-ef1660d11092-"${SRT_HOST_TAG}" || return
  python3 -m pip wheel --no-deps -w /scratch/srt-operator/cache/dynamo/4dca1626b2708383514fcd65ac816ba7429c05a4-policy-ef1660d11092-"${SRT_HOST_TAG}" -- /scratch/srt-operator/cache/dynamo/4dca1626b2708383514fcd65ac816ba7429c05a4-policy-ef1660d11092-"${SRT_HOST_TAG}".build/dynamo || return
  cp -- /scratch/srt-operator/cache/dynamo/4dca1626b2708383514fcd65ac816ba7429c05a4-policy-ef1660d11092-"${SRT_HOST_TAG}".build/policy-catalog/crates/sgl-router-cache-aware/worker-selection.yaml /scratch/srt-operator/cache/dynamo/4dca1626b2708383514fcd65ac816ba7429c05a4-policy-ef1660d11092-"${SRT_HOST_TAG}"/worker-selection.yaml || return
  rm -rf -- /scratch/srt-operator/cache/dynamo/4dca1626b2708383514fcd65ac816ba7429c05a4-policy-ef1660d11092-"${SRT_HOST_TAG}".build || return
}
srt_stage dynamo-build /scratch/srt-operator/cache/dynamo/4dca1626b2708383514fcd65ac816ba7429c05a4-policy-ef1660d11092-"${SRT_HOST_TAG}" srt_stage_dynamo_build
srt_stage_dynamo_install() {
  srt_pip_install_wheels python3 /scratch/srt-operator/cache/dynamo/4dca1626b2708383514fcd65ac816ba7429c05a4-policy-ef1660d11092-"${SRT_HOST_TAG}" "${RUN_DIR}"/python || return
}
srt_stage dynamo-install '' srt_stage_dynamo_install

srt_phase starting
srt_wait_ports_free 2379 2380 5200 5201 6100 6132 7200 7500 7501 8000 17500 17501 50051 50052
srt_start etcd infra logs/etcd.log etcd --data-dir infra/etcd --listen-client-urls http://127.0.0.1:2379 --advertise-client-urls http://127.0.0.1:2379 --listen-peer-urls http://127.0.0.1:2380 --initial-advertise-peer-urls http://127.0.0.1:2380 --initial-cluster default=http://127.0.0.1:2380

srt_gate infra-ready 300
srt_wait etcd infra http-status http://127.0.0.1:2379/health 200
srt_gate_passed infra-ready
srt_start worker-prefill-0 worker logs/worker-prefill-0.log bash --norc --noprofile -c "$SRT_SIDECAR_SUPERVISOR" srt-sidecar-supervisor worker-prefill-0 50051 1800 logs/engine-prefill-0.log logs/sidecar-prefill-0.log 37 env CUDA_VISIBLE_DEVICES=0,1,2,3 SGLANG_RUST_BUILD_MODE=never python3 -m sglang.launch_server --model-path /models/Qwen3-32B-FP8 --served-model-name Qwen/Qwen3-32B-FP8 --host 0.0.0.0 --port 6100 --nccl-port 17500 --kv-events-config '{"publisher":"zmq","topic":"kv-events","endpoint":"tcp://*:5200"}' --grpc-port 50051 --incremental-streaming-output --disaggregation-mode prefill --disaggregation-bootstrap-port 7200 --skip-server-warmup --random-seed 42 --chunked-prefill-size 8192 --disaggregation-transfer-backend nixl --enable-metrics --page-size 64 --tensor-parallel-size 4 env PYTHONPATH=python ETCD_ENDPOINTS=http://127.0.0.1:2379 DYN_REQUEST_PLANE=tcp DYN_EVENT_PLANE=zmq DYN_SYSTEM_PORT=7500 DYN_LOGGING_SPAN_EVENTS=true DYN_LOGGING_JSONL=true python3 -m dynamo.sglang.sidecar --grpc-endpoint 127.0.0.1:50051 --bootstrap-host 127.0.0.1
srt_start worker-decode-0 worker logs/worker-decode-0.log bash --norc --noprofile -c "$SRT_SIDECAR_SUPERVISOR" srt-sidecar-supervisor worker-decode-0 50052 1800 logs/engine-decode-0.log logs/sidecar-decode-0.log 35 env CUDA_VISIBLE_DEVICES=4,5,6,7 SGLANG_RUST_BUILD_MODE=never python3 -m sglang.launch_server --model-path /models/Qwen3-32B-FP8 --served-model-name Qwen/Qwen3-32B-FP8 --host 0.0.0.0 --port 6132 --nccl-port 17501 --kv-events-config '{"publisher":"zmq","topic":"kv-events","endpoint":"tcp://*:5201"}' --grpc-port 50052 --incremental-streaming-output --disaggregation-mode decode --skip-server-warmup --random-seed 42 --disaggregation-transfer-backend nixl --enable-metrics --max-running-requests 256 --page-size 64 --tensor-parallel-size 4 env PYTHONPATH=python ETCD_ENDPOINTS=http://127.0.0.1:2379 DYN_REQUEST_PLANE=tcp DYN_EVENT_PLANE=zmq DYN_SYSTEM_PORT=7501 DYN_LOGGING_SPAN_EVENTS=true DYN_LOGGING_JSONL=true python3 -m dynamo.sglang.sidecar --grpc-endpoint 127.0.0.1:50052
srt_start router router logs/router.log env PYTHONPATH=python ETCD_ENDPOINTS=http://127.0.0.1:2379 DYN_REQUEST_PLANE=tcp DYN_EVENT_PLANE=zmq DYN_LOGGING_SPAN_EVENTS=true DYN_LOGGING_JSONL=true DYN_REQUEST_TRACE=1 DYN_REQUEST_TRACE_FILE_PATH=logs/dynamo-request-trace python3 -m dynamo.frontend --http-port 8000 --router-mode kv --router-policy-config /scratch/srt-operator/cache/dynamo/4dca1626b2708383514fcd65ac816ba7429c05a4-policy-ef1660d11092-"${SRT_HOST_TAG}"/worker-selection.yaml

srt_gate workers-health
srt_wait worker-prefill-0 worker http-status http://127.0.0.1:6100/health 200
srt_wait worker-decode-0 worker http-status http://127.0.0.1:6132/health 200
srt_gate_passed workers-health

srt_gate router-ready
srt_wait router router dynamo-instances http://127.0.0.1:8000/health 1
srt_wait router router dynamo-prefill-instances http://127.0.0.1:8000/health 1
srt_wait router router json-true http://127.0.0.1:8000/v1/models/Qwen%2FQwen3-32B-FP8/ready ready
srt_router_ready http://127.0.0.1:8000
srt_gate_passed router-ready

srt_gate canary
srt_canary http://127.0.0.1:8000/v1/chat/completions Qwen/Qwen3-32B-FP8
srt_gate_passed canary
srt_phase ready

srt_facts_node 0 python3 -c "$SRT_FACTS_PY" node facts/node-0.json 0 sglang torch sgl-kernel flashinfer-python triton transformers nvidia-nccl-cu12 nvidia-cudnn-cu12
srt_facts --nodes=1 --package=sglang --package=torch --package=sgl-kernel --package=flashinfer-python --package=triton --package=transformers --package=nvidia-nccl-cu12 --package=nvidia-cudnn-cu12 --engine worker-prefill-0 0 http://127.0.0.1:6100/server_info --engine worker-decode-0 0 http://127.0.0.1:6132/server_info --model-dir=/models/Qwen3-32B-FP8 --model-file=/models/Qwen3-32B-FP8/config.json --model-file=/models/Qwen3-32B-FP8/tokenizer.json --model-file=/models/Qwen3-32B-FP8/tokenizer_config.json --model-file=/models/Qwen3-32B-FP8/generation_config.json --model-file=/models/Qwen3-32B-FP8/model.safetensors.index.json --model-file=/models/Qwen3-32B-FP8/tokenizer.model --model-file=/models/Qwen3-32B-FP8/special_tokens_map.json --model-file=/models/Qwen3-32B-FP8/chat_template.jinja --model-file=/models/Qwen3-32B-FP8/vocab.json --model-file=/models/Qwen3-32B-FP8/merges.txt --served-model-name=Qwen/Qwen3-32B-FP8 --router-kind=dynamo --router-wheel=/scratch/srt-operator/cache/dynamo/4dca1626b2708383514fcd65ac816ba7429c05a4-policy-ef1660d11092-"${SRT_HOST_TAG}" --router-package=ai-dynamo --router-package=ai-dynamo-runtime --router-pythonpath=python --catalog-rev=411b4648e7fd50c776f0c787f1abb2592eeef41b --workload-tool=bench-serving --workload-package=sglang --seed=42 --engine-seed=42

srt_scrape results/metrics-before.txt http://127.0.0.1:8000/metrics http://127.0.0.1:6100/metrics http://127.0.0.1:6132/metrics
srt_phase benchmarking
srt_benchmark_budget 86400
srt_run_benchmark 86400 logs/benchmark.log env SRT_FRONTEND_URL=http://127.0.0.1:8000 SRT_MODEL=Qwen/Qwen3-32B-FP8 SRT_RESULTS_DIR=results SRT_SEED=42 python3 -m sglang.benchmark.serving --base-url http://127.0.0.1:8000 --model Qwen/Qwen3-32B-FP8 --tokenizer /models/Qwen3-32B-FP8 --seed 42 --output-file results/bench-serving.jsonl --output-details --backend sglang-oai-chat --dataset-name generated-shared-prefix --num-prompts 1024
srt_scrape results/metrics-after.txt http://127.0.0.1:8000/metrics http://127.0.0.1:6100/metrics http://127.0.0.1:6132/metrics
srt_report_results results
