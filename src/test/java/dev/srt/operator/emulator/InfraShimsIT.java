package dev.srt.operator.emulator;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assumptions.assumeThat;

import java.io.File;
import java.io.IOException;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import dev.srt.operator.testinfra.TestHosts;

/**
 * etcd, nats-server and a disaggregated Dynamo deployment through the installed shims, as a
 * rendered script starts them (the seed's etcd and NATS flags), on free ports: once on Debian's
 * etcd and nats-server, which the shims run where the host has them, once on the stand-ins.
 */
class InfraShimsIT {
  static final Path JAR = Path.of("target/srt-operator.jar").toAbsolutePath();

  @TempDir Path tmp;
  private Path bin;

  @BeforeEach
  void install() throws IOException {
    assumeThat(JAR).as("the shaded jar (mvn package runs before the integration tests)").exists();
    bin = tmp.resolve("host/bin");
    ShimInstaller.forPath(new JavaLauncher(Path.of(System.getProperty("java.home"), "bin", "java"), JAR), bin,
        tmp.resolve("host/state"), System.getenv("PATH")).install(bin);
  }

  private static int freePort() throws IOException {
    try (ServerSocket s = new ServerSocket(0)) {
      return s.getLocalPort();
    }
  }

  @Test
  void aDisaggregatedDynamoDeploymentRunsOnDebiansEtcdAndNats() throws Exception {
    String etcd = TestHosts.program("etcd", "apt-get install etcd-server (.ci/install-deps.sh installs it)");
    String nats = TestHosts.program("nats-server", "apt-get install nats-server (.ci/install-deps.sh installs it)");
    String out = deploy(Map.of("PATH", bin + File.pathSeparator + Path.of(nats).getParent() + File.pathSeparator
        + Path.of(etcd).getParent() + File.pathSeparator + System.getenv("PATH")));
    assertThat(out).contains("{\"health\":\"true\"");
    assertThat(tmp.resolve("etcd/member/snap/db")).as("etcd's own store").isRegularFile();
    assertThat(Files.readString(tmp.resolve("logs/etcd.log"))).contains("etcd Version: " + version(etcd, "--version"));
    assertThat(Files.readString(tmp.resolve("logs/nats.log"))).contains("Starting JetStream").doesNotContain("emulated");
  }

  @Test
  void aDisaggregatedDynamoDeploymentRunsOnTheStandIns() throws Exception {
    String out = deploy(Map.of("PATH", bin + File.pathSeparator + System.getenv("PATH"), ShimInstaller.STAND_INS_VAR, "1"));
    assertThat(out).contains("{\"health\":\"true\",\"reason\":\"\"}");
    assertThat(tmp.resolve("etcd/member/srt-emulated-etcd.json")).isRegularFile();
    assertThat(Files.readString(tmp.resolve("logs/nats.log"))).contains("(emulated by srt-operator)");
  }

  /** Two emulator installs on PATH never hand etcd to each other: the call reaches the real one. */
  @Test
  void anotherInstallsShimsArePassedOverOnTheWayToTheRealProgram() throws Exception {
    String etcd = TestHosts.program("etcd", "apt-get install etcd-server (.ci/install-deps.sh installs it)");
    Path other = tmp.resolve("other/bin");
    ShimInstaller.forPath(new JavaLauncher(Path.of(System.getProperty("java.home"), "bin", "java"), JAR), other,
        tmp.resolve("other/state"), System.getenv("PATH")).install(other);
    ProcessBuilder pb = new ProcessBuilder("etcd", "--version").redirectErrorStream(true);
    pb.environment().put("PATH", bin + File.pathSeparator + other + File.pathSeparator + Path.of(etcd).getParent()
        + File.pathSeparator + System.getenv("PATH"));
    Process p = pb.start();
    boolean ended = p.waitFor(60, TimeUnit.SECONDS);
    if (!ended) {
      p.descendants().forEach(ProcessHandle::destroyForcibly);
      p.destroyForcibly();
    }
    assertThat(ended).as("the shims sent the call back and forth").isTrue();
    assertThat(new String(p.getInputStream().readAllBytes(), java.nio.charset.StandardCharsets.UTF_8))
        .startsWith("etcd Version: " + version(etcd, "--version"));
  }

  /** The first line {@code program args} prints, without its "etcd Version: " or "nats-server: v" prefix. */
  private static String version(String program, String... args) throws Exception {
    java.util.List<String> cmd = new java.util.ArrayList<>(java.util.List.of(program));
    cmd.addAll(java.util.List.of(args));
    Process p = new ProcessBuilder(cmd).redirectErrorStream(true).start();
    String first = new String(p.getInputStream().readAllBytes(), java.nio.charset.StandardCharsets.UTF_8).lines().findFirst().orElse("");
    p.waitFor();
    return first.replaceFirst("^etcd Version: ", "");
  }

  /** Runs the deployment with {@code extraEnv}; returns its output, having asserted what both kinds of server give. */
  private String deploy(Map<String, String> extraEnv) throws Exception {
    Map<String, String> env = new HashMap<>();
    for (String p : new String[] {"ETCD", "PEER", "NATS", "NATSMON", "P0", "P1", "G0", "G1", "B0", "F"}) {
      env.put(p, Integer.toString(freePort()));
    }
    String script = """
        set -euo pipefail
        cd "$RUN"
        mkdir -p logs
        trap 'kill $(jobs -p) 2>/dev/null || true' EXIT
        wait_for() { for _ in $(seq 300); do if curl -sf "$1" >/dev/null; then return 0; fi; sleep 0.1; done; echo "timeout: $1"; exit 1; }
        python3 -m pip install ai-dynamo==1.0.0 ai-dynamo-runtime==1.0.0 >/dev/null
        etcd --data-dir "$RUN/etcd" --listen-client-urls "http://127.0.0.1:$ETCD" --advertise-client-urls "http://127.0.0.1:$ETCD" \\
          --listen-peer-urls "http://127.0.0.1:$PEER" --initial-advertise-peer-urls "http://127.0.0.1:$PEER" \\
          --initial-cluster "default=http://127.0.0.1:$PEER" > logs/etcd.log 2>&1 &
        nats-server -js -a 127.0.0.1 -p "$NATS" -m "$NATSMON" -sd "$RUN/nats" > logs/nats.log 2>&1 &
        wait_for "http://127.0.0.1:$ETCD/health"
        curl -sf "http://127.0.0.1:$ETCD/health"; echo
        wait_for "http://127.0.0.1:$NATSMON/healthz"
        exec 3<>"/dev/tcp/127.0.0.1/$NATS"
        head -c 5 <&3; echo
        exec 3<&-
        export ETCD_ENDPOINTS="http://127.0.0.1:$ETCD" NATS_SERVER="nats://127.0.0.1:$NATS"
        # exec: the background job is the engine itself, so the EXIT trap's kill reaches it
        engine() {
          exec python3 -m sglang.launch_server --model-path /models/Qwen3-32B-FP8 --served-model-name Qwen/Qwen3-32B-FP8 \\
            --host 0.0.0.0 --page-size 16 --enable-metrics --disaggregation-transfer-backend nixl "$@"
        }
        engine --port "$P0" --grpc-port "$G0" --disaggregation-mode prefill --disaggregation-bootstrap-port "$B0" > logs/prefill.log 2>&1 &
        engine --port "$P1" --grpc-port "$G1" --disaggregation-mode decode > logs/decode.log 2>&1 &
        python3 -m dynamo.sglang.sidecar --grpc-endpoint "127.0.0.1:$G0" > logs/sidecar-prefill.log 2>&1 &
        python3 -m dynamo.sglang.sidecar --grpc-endpoint "127.0.0.1:$G1" > logs/sidecar-decode.log 2>&1 &
        python3 -m dynamo.frontend --http-port "$F" --router-mode kv > logs/frontend.log 2>&1 &
        # up to 150 s: on a loaded machine (the fault tests run beside this one) the sidecars take their time
        ready=""
        for _ in $(seq 1500); do
          if curl -sf "http://127.0.0.1:$F/v1/models/Qwen%2FQwen3-32B-FP8/ready" | grep -q '"ready":true'; then ready=1; break; fi
          sleep 0.1
        done
        if [ -z "$ready" ]; then tail -n 20 logs/sidecar-prefill.log logs/sidecar-decode.log logs/prefill.log logs/frontend.log; fi
        curl -sf "http://127.0.0.1:$F/health"; echo
        curl -sf "http://127.0.0.1:$F/v1/chat/completions" -H 'Content-Type: application/json' \\
          -d '{"model":"Qwen/Qwen3-32B-FP8","max_tokens":8,"messages":[{"role":"user","content":"Reply with one word: ready"}]}'; echo
        key=$(printf 'v1/instances/' | base64); end=$(printf 'v1/instances0' | base64)
        echo "etcd keys: $(curl -sf "http://127.0.0.1:$ETCD/v3/kv/range" -d "{\\"key\\":\\"$key\\",\\"range_end\\":\\"$end\\",\\"count_only\\":true}")"
        curl -sf "http://127.0.0.1:$P0/metrics" | grep '^sglang:num_requests_total'
        curl -sf "http://127.0.0.1:$P1/metrics" | grep '^sglang:num_requests_total'
        if etcd --listen-client-url http://127.0.0.1:1 2>/dev/null; then echo "etcd took a bad flag"; else echo "bad flag: exit $?"; fi
        """;
    Path file = tmp.resolve("deploy.sh");
    Files.writeString(file, script);
    Path log = tmp.resolve("deploy.log");
    ProcessBuilder pb = new ProcessBuilder("bash", file.toString()).directory(tmp.toFile()).redirectErrorStream(true)
        .redirectOutput(log.toFile());
    pb.environment().putAll(extraEnv);
    pb.environment().remove("SRT_EMULATOR_STATE");
    pb.environment().put("RUN", tmp.toString());
    pb.environment().putAll(env);
    Process p = pb.start();
    boolean done = p.waitFor(300, TimeUnit.SECONDS);
    p.descendants().forEach(ProcessHandle::destroyForcibly);
    if (!done) {
      p.destroyForcibly();
    }
    String out = Files.readString(log);
    assertThat(done).as(out).isTrue();
    assertThat(p.exitValue()).as(out).isZero();
    assertThat(out)
        .contains("INFO \n")
        .contains("\"component\":\"prefill\"").contains("\"component\":\"backend\"")
        .contains("\"content\":\"ready\"")
        .contains("\"count\":\"2\"")
        .contains("bad flag: exit 2");
    assertThat(out.lines().filter(l -> l.startsWith("sglang:num_requests_total")).toList())
        .as("the canary went through the prefill and the decode engine").hasSize(2).allMatch(l -> l.endsWith(" 1.0"));
    assertThat(Files.isDirectory(tmp.resolve("etcd/member"))).isTrue();
    assertThat(Files.isDirectory(tmp.resolve("nats/jetstream"))).isTrue();
    return out;
  }
}
