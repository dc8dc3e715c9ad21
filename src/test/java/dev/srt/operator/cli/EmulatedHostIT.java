package dev.srt.operator.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assumptions.assumeThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.srt.operator.emulator.Json;
import java.io.File;
import java.io.IOException;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The emulated host as scripts see it: shims from {@code emulate install} first on PATH, the
 * packaged jar behind them, and bash scripts shaped like the rendered arms run unchanged.
 */
class EmulatedHostIT {
  static final Path JAR = Path.of("target/srt-operator.jar").toAbsolutePath();
  static final String MODEL = "Qwen/Qwen3-32B-FP8";

  @TempDir Path tmp;
  private Path bin;
  private Path state;

  @BeforeEach
  void installShims() {
    assumeThat(JAR).as("the shaded jar (mvn package runs before the integration tests)").exists();
    bin = tmp.resolve("host/bin");
    state = tmp.resolve("host/state");
    assertThat(Main.run("emulate", "install", "--dir", bin.toString(), "--jar", JAR.toString())).isZero();
  }

  private record Run(int exit, String output) {}

  private Run bash(String script, Map<String, String> extraEnv) throws IOException, InterruptedException {
    Path file = tmp.resolve("script-" + System.nanoTime() + ".sh");
    Files.writeString(file, script);
    Path log = tmp.resolve(file.getFileName() + ".log");
    ProcessBuilder pb = new ProcessBuilder("bash", file.toString()).directory(tmp.toFile())
        .redirectErrorStream(true).redirectOutput(log.toFile());
    pb.environment().put("PATH", bin + File.pathSeparator + System.getenv("PATH"));
    pb.environment().remove("SRT_EMULATOR_STATE");
    pb.environment().put("RUN", tmp.toString());
    pb.environment().putAll(extraEnv);
    Process p = pb.start();
    if (!p.waitFor(180, TimeUnit.SECONDS)) {
      p.descendants().forEach(ProcessHandle::destroyForcibly);
      p.destroyForcibly();
      throw new AssertionError("script timed out:\n" + Files.readString(log));
    }
    p.descendants().forEach(ProcessHandle::destroy);
    return new Run(p.exitValue(), Files.readString(log));
  }

  private static int freePort() throws IOException {
    try (ServerSocket s = new ServerSocket(0)) {
      return s.getLocalPort();
    }
  }

  private static Map<String, String> ports(String... names) throws IOException {
    Map<String, String> m = new HashMap<>();
    for (String n : names) {
      m.put(n, Integer.toString(freePort()));
    }
    return m;
  }

  @Test
  void shimsPassShellcheckAndRouteOnlyTheEmulatedModules() throws Exception {
    boolean haveShellcheck = new ProcessBuilder("bash", "-c", "command -v shellcheck").start().waitFor() == 0;
    if (haveShellcheck) {
      List<String> cmd = new ArrayList<>(List.of("shellcheck"));
      try (var files = Files.list(bin)) {
        files.forEach(f -> cmd.add(f.toString()));
      }
      Process sc = new ProcessBuilder(cmd).redirectErrorStream(true).start();
      String out = new String(sc.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
      assertThat(sc.waitFor()).as(out).isZero();
    }
    Run r = bash("""
        set -euo pipefail
        python3 -c 'print(1)'
        python -c 'import sys; print(sys.argv[1:])' -m sglang.launch_server
        nvidia-smi -L | wc -l
        python3 -m pip install -U maturin
        python3 -m maturin --version
        git clone --no-checkout https://github.com/ishandhanani/router-sandbox "$RUN/catalog"
        git -C "$RUN/catalog" fetch --depth 1 origin 411b4648e7fd50c776f0c787f1abb2592eeef41b
        git -C "$RUN/catalog" checkout --detach FETCH_HEAD
        git -C "$RUN/catalog" rev-parse HEAD
        if python3 -c 'import dynamo' 2>/dev/null; then echo "dynamo importable"; else echo "no dynamo"; fi
        python3 -m venv --system-site-packages "$RUN/.venv"
        "$RUN/.venv/bin/python" -c 'import sys; print("prefix=" + sys.prefix)'
        "$RUN/.venv/bin/python3" -m maturin --version
        "$RUN/.venv/bin/pip" --version
        git clone https://github.com/sgl-project/sglang "$RUN/sglang"
        python3 -m pip install -e "$RUN/sglang/python"
        python3 -c 'import sglang; print("sglang from " + sglang.__file__)'
        """, Map.of());
    assertThat(r.exit()).as(r.output()).isZero();
    assertThat(r.output()).contains("1\n").contains("['-m', 'sglang.launch_server']").contains("8\n")
        .contains("maturin 1.9.4 (emulated").contains("411b4648e7fd50c776f0c787f1abb2592eeef41b").contains("no dynamo")
        .contains("prefix=" + tmp.resolve(".venv"))
        .contains("sglang from " + tmp.resolve("sglang/python/sglang/__init__.py"));
    List<JsonNode> calls = Files.readAllLines(state.resolve("tool-calls.jsonl")).stream().map(Json::parse).toList();
    assertThat(calls).extracting(c -> c.path("tool").asText()).containsExactly("pip", "maturin", "git", "git", "git", "git", "maturin", "pip", "git", "pip");
    assertThat(calls.get(3).path("argv").toString()).isEqualTo("[\"-C\",\"" + tmp.resolve("catalog") + "\",\"fetch\",\"--depth\",\"1\",\"origin\",\"411b4648e7fd50c776f0c787f1abb2592eeef41b\"]");
  }

  /**
   * What a run's facts ask the host: package versions through the real interpreter's
   * importlib.metadata (the host's own, and a run's pip --target install in front), nvidia-smi's
   * driver and CUDA version (the cluster's setting, or one node's), the router's --version.
   */
  @Test
  void theHostAnswersTheFactsARunAsksForAndEachNodeCanDiffer() throws Exception {
    Run r = bash("""
        set -euo pipefail
        python3 -c 'from importlib.metadata import version as v; print("versions", v("sglang"), v("torch"), v("sglang-router"), v("aiperf"))'
        SRT_EMULATOR_STAND_INS=1 python3 -c 'from importlib.metadata import version as v; print("stand-ins", v("sglang-router"), v("aiperf"))'
        nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | sort | uniq -c
        nvidia-smi | grep -o 'Driver Version: [0-9.]*  CUDA Version: [0-9.]*'
        node=$(hostname -s)
        node=${node//[^A-Za-z0-9]/_}
        export "SRT_EMULATOR_NVIDIA_DRIVER_${node^^}=535.104.05" "SRT_EMULATOR_CUDA_VERSION_OTHER_NODE=11.0"
        nvidia-smi | grep -o 'Driver Version: [0-9.]*  CUDA Version: [0-9.]*'
        sgl-router --version
        python3 -m pip install --target "$RUN/python" ai-dynamo-runtime==1.2.0 ai-dynamo==1.2.0 >/dev/null
        PYTHONPATH="$RUN/python" python3 -c 'from importlib.metadata import version as v; print("run install", v("ai-dynamo"), v("ai-dynamo-runtime"))'
        python3 -c 'from importlib import metadata
        try:
            metadata.version("ai-dynamo")
        except metadata.PackageNotFoundError:
            print("not in the host Python")'
        """, Map.of("SRT_EMULATOR_NVIDIA_DRIVER", "560.35.03", "SRT_EMULATOR_CUDA_VERSION", "12.6"));

    assertThat(r.exit()).as(r.output()).isZero();
    // the versions of what runs: the real programs' where the pinned environment is installed, else the stand-ins'
    boolean real = dev.srt.operator.emulator.RealPrograms.environment().isPresent();
    assertThat(r.output()).contains("versions 0.5.18+emulated 2.9.1+emulated " + (real ? "0.3.2 0.13.0" : "0.3.2+emulated 0.13.0+emulated"))
        .contains("stand-ins 0.3.2+emulated 0.13.0+emulated")
        .contains("8 NVIDIA H100 80GB HBM3, 560.35.03")
        .contains("Driver Version: 560.35.03  CUDA Version: 12.6")
        .contains("Driver Version: 535.104.05  CUDA Version: 12.6")
        .contains("sgl-router 0.2.4+emulated")
        .contains("run install 1.2.0 1.2.0")
        .contains("not in the host Python");
  }

  /** Arm 1 as the direct path runs it: cargo-built router, two engines, the two gates, a canary, the benchmark. */
  @Test
  void anArmOneScriptRunsUnchanged() throws Exception {
    Run r = bash("""
        set -euo pipefail
        cd "$RUN"
        mkdir -p logs results
        CARGO_TARGET_DIR="$RUN/router-target" cargo build --release --manifest-path /src/sglang/experimental/sgl-router/Cargo.toml --bin sgl-router
        for i in 0 1; do
          port_var="P$i"
          python3 -m sglang.launch_server --model-path /models/Qwen3-32B-FP8 --served-model-name Qwen/Qwen3-32B-FP8 \\
            --host 0.0.0.0 --port "${!port_var}" --nccl-port "1750$i" \\
            --kv-events-config "{\\"publisher\\":\\"zmq\\",\\"topic\\":\\"kv-events\\",\\"endpoint\\":\\"tcp://*:520$i\\"}" \\
            --enable-metrics --page-size 64 --tensor-parallel-size 4 > "logs/worker-$i.log" 2>&1 &
          echo $! > "logs/worker-$i.pid"
        done
        W0=$(cat logs/worker-0.pid); W1=$(cat logs/worker-1.pid)
        for p in "$P0" "$P1"; do
          until curl -sf "http://127.0.0.1:$p/health"; do kill -0 "$W0" "$W1"; sleep 0.1; done
        done
        "$RUN/router-target/release/sgl-router" --worker-urls "http://127.0.0.1:$P0" "http://127.0.0.1:$P1" --host 0.0.0.0 \\
          --port "$PR" --model-id Qwen/Qwen3-32B-FP8 --tokenizer-path /models/Qwen3-32B-FP8/tokenizer.json \\
          --policy cache_aware_zmq > logs/router.log 2>&1 &
        R=$!
        until [ "$(curl -s -o /dev/null -w '%{http_code}' "http://127.0.0.1:$PR/readyz")" = 200 ] \\
            && curl -s "http://127.0.0.1:$PR/metrics" | grep -q 'sgl_router_workers{mode="plain"} 2'; do
          kill -0 "$R"; sleep 0.1
        done
        curl -sf "http://127.0.0.1:$PR/v1/chat/completions" -H 'Content-Type: application/json' \\
          -d '{"model": "Qwen/Qwen3-32B-FP8", "messages": [{"role": "user", "content": "Reply with one word: ready"}], "max_tokens": 16, "temperature": 0}' \\
          > logs/smoke.json
        python3 -m sglang.bench_serving --backend sglang-oai-chat --base-url "http://127.0.0.1:$PR" --model Qwen/Qwen3-32B-FP8 \\
          --dataset-name generated-shared-prefix --gsp-num-groups 8 --gsp-prompts-per-group 8 --gsp-system-prompt-len 512 \\
          --gsp-question-len 64 --gsp-output-len 32 --request-rate inf --output-file results/bench-serving.jsonl \\
          --extra-request-body '{"ignore_eos": true}' --tag arm1 --disable-tqdm > logs/bench.log 2>&1
        kill -TERM "$R" "$W0" "$W1"
        codes=""
        for pid in "$R" "$W0" "$W1"; do code=0; wait "$pid" || code=$?; codes="$codes $code"; done
        echo "exit codes:$codes"
        """, ports("P0", "P1", "PR"));
    assertThat(r.exit()).as(r.output()).isZero();
    assertThat(r.output()).contains("exit codes: 0 0 0");
    JsonNode smoke = Json.parse(Files.readString(tmp.resolve("logs/smoke.json")));
    assertThat(smoke.path("choices").get(0).path("message").path("content").asText()).isEqualTo("ready");
    JsonNode result = Json.parse(Files.readAllLines(tmp.resolve("results/bench-serving.jsonl")).get(0));
    assertThat(result.path("tag").asText()).isEqualTo("arm1");
    assertThat(result.path("completed").asInt()).isEqualTo(8 * 2);
    assertThat(tmp.resolve("router-target/release/sgl-router")).isExecutable();
  }

  /** Arm 3's build stage (arms-contract 7.2) and a sidecar-coupled engine (section 6) behind the Dynamo frontend. */
  @Test
  void anArmThreeScriptLinksTheCatalogAndItsSidecarLeavesWithItsEngine() throws Exception {
    Run r = bash("""
        set -euo pipefail
        cd "$RUN"
        mkdir -p logs
        B="$RUN/build"
        for repo in "https://github.com/ai-dynamo/dynamo.git dynamo 4dca1626b2708383514fcd65ac816ba7429c05a4" \\
                    "https://github.com/ishandhanani/router-sandbox policy-catalog 411b4648e7fd50c776f0c787f1abb2592eeef41b"; do
          read -r url dir rev <<< "$repo"
          git clone --no-checkout "$url" "$B/$dir"
          git -C "$B/$dir" fetch --depth 1 origin "$rev"
          git -C "$B/$dir" checkout --detach FETCH_HEAD
        done
        CRATE="$B/policy-catalog/crates/sgl-router-cache-aware"
        sed -i -E "s|^dynamo-worker-selection-policy-catalog[[:space:]]*=.*|dynamo-worker-selection-policy-catalog = { package = \\"sgl-router-cache-aware-dynamo-policy\\", path = \\"$CRATE\\", optional = true }|" \\
          "$B/dynamo/lib/bindings/python/Cargo.toml"
        python3 -m pip install -U maturin
        if (cd "$B/dynamo/lib/bindings/python" && python3 -m maturin build --release --features custom-policy -o "$B/wheels") 2> logs/unrepointed.log; then
          echo "an unrepointed catalog must not link"; exit 1
        fi
        sed -i -E "s|^dynamo-kv-router[ \\t]*=.*$|dynamo-kv-router = { path = \\"$B/dynamo/lib/kv-router\\", features = [\\"standalone-selection\\"] }|" "$CRATE/Cargo.toml"
        (cd "$B/dynamo/lib/bindings/python" && CARGO_TARGET_DIR="$B/target" python3 -m maturin build --release --features custom-policy -o "$B/wheels")
        python3 -m pip wheel --no-deps "$B/dynamo" -w "$B/wheels"
        python3 -m pip install --force-reinstall --no-deps "$B"/wheels/ai_dynamo_runtime-*.whl "$B"/wheels/ai_dynamo-*.whl
        python3 -c 'import dynamo'
        cp "$CRATE/worker-selection.yaml" "$RUN/worker-selection.yaml"

        export DYN_DISCOVERY_BACKEND=file DYN_FILE_KV=dynamo-discovery DYN_EVENT_PLANE=zmq DYN_REQUEST_PLANE=tcp
        python3 -m dynamo.frontend --http-port "$PF" --router-mode kv --router-policy-config "$RUN/worker-selection.yaml" > logs/frontend.log 2>&1 &
        F=$!
        python3 -m sglang.launch_server --model-path /models/Qwen3-32B-FP8 --served-model-name Qwen/Qwen3-32B-FP8 --host 0.0.0.0 \\
          --port "$P0" --grpc-port "$G0" --incremental-streaming-output --page-size 64 --enable-metrics > logs/engine-0.log 2>&1 &
        ENGINE_PID=$!
        until (exec 3<>"/dev/tcp/127.0.0.1/$G0") 2>/dev/null; do kill -0 "$ENGINE_PID"; sleep 0.1; done
        DYN_SYSTEM_PORT="$S0" python3 -m dynamo.sglang.sidecar --grpc-endpoint "127.0.0.1:$G0" --grpc-startup-deadline-secs 1800 > logs/sidecar-0.log 2>&1 &
        SIDECAR_PID=$!
        until curl -s "http://127.0.0.1:$PF/health" | grep -q '"endpoint":"generate"'; do kill -0 "$F" "$SIDECAR_PID"; sleep 0.1; done
        curl -s "http://127.0.0.1:$PF/v1/models/Qwen%2FQwen3-32B-FP8/ready" > logs/ready.json
        curl -sf "http://127.0.0.1:$PF/v1/chat/completions" -H 'Content-Type: application/json' \\
          -d '{"model": "Qwen/Qwen3-32B-FP8", "messages": [{"role": "user", "content": "Reply with one word: ready"}], "max_tokens": 16}' > logs/smoke.json
        kill -KILL "$ENGINE_PID"
        code=0; wait "$SIDECAR_PID" || code=$?
        echo "sidecar exit $code"
        until curl -s "http://127.0.0.1:$PF/health" | grep -q 'No endpoints available'; do kill -0 "$F"; sleep 0.1; done
        kill -TERM "$F"
        code=0; wait "$F" || code=$?
        echo "frontend exit $code"
        """, ports("PF", "P0", "G0", "S0"));
    assertThat(r.exit()).as(r.output()).isZero();
    assertThat(r.output()).contains("sidecar exit 1").contains("frontend exit 0");
    assertThat(tmp.resolve("logs/unrepointed.log")).content().contains("multiple different versions of crate `dynamo_kv_router`");
    assertThat(tmp.resolve("logs/frontend.log")).content().contains("worker selection sgl-router-cache-aware (sgl-router-cache-aware)");
    assertThat(Json.parse(Files.readString(tmp.resolve("logs/ready.json"))).path("ready").asBoolean()).isTrue();
    assertThat(Files.readString(tmp.resolve("logs/smoke.json"))).contains("\"content\":\"ready\"");
    List<JsonNode> maturin = Files.readAllLines(state.resolve("tool-calls.jsonl")).stream().map(Json::parse)
        .filter(c -> c.path("tool").asText().equals("maturin")).toList();
    assertThat(maturin).extracting(c -> c.path("exit").asInt()).containsExactly(1, 0);
    assertThat(maturin.get(1).path("env").path("CARGO_TARGET_DIR").asText()).isEqualTo(tmp.resolve("build/target").toString());
  }
}
