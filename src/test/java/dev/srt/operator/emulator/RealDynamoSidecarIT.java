package dev.srt.operator.emulator;

import static dev.srt.operator.emulator.HttpTestClient.get;
import static dev.srt.operator.emulator.HttpTestClient.post;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import dev.srt.operator.testinfra.RealProgramsEnv;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.PrintStream;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The real {@code dynamo.sglang.sidecar} and {@code dynamo.frontend} (ai-dynamo 1.6.1, from the real
 * programs' environment) over the emulated SGLang engine, started with the flags the renderer gives
 * the engine and the sidecar in the Dynamo arms (ports free ones): the sidecar registers the engine
 * through its gRPC service, the frontend routes requests to it, and the frontend's KV router applies
 * the KV events the engine publishes. Discovery is Dynamo's file backend here (the rendered arms use
 * etcd), the request plane TCP and the event plane ZMQ, as rendered.
 */
// Apart from the fault tests that run beside the others (they load the machine for minutes): in one CI run its
// frontend listed no model within two minutes while ClusterFaultsIT ran, and passed alone in 25 s.
@org.junit.jupiter.api.parallel.ResourceLock(dev.srt.operator.testinfra.TestHosts.MULTINODE_PARTITION)
class RealDynamoSidecarIT {
  private static final String MODEL = "tiny";

  @TempDir Path tmp;
  private SglangWorker engine;
  private final List<Process> processes = new ArrayList<>();

  @AfterEach
  void stop() throws InterruptedException {
    for (Process p : processes) {
      p.descendants().forEach(ProcessHandle::destroy);
      p.destroy();
    }
    for (Process p : processes) {
      if (!p.waitFor(10, TimeUnit.SECONDS)) {
        p.descendants().forEach(ProcessHandle::destroyForcibly);
        p.destroyForcibly();
      }
    }
    if (engine != null) {
      engine.close();
    }
  }

  @Test
  void theRealSidecarRegistersTheEmulatedEngineAndTheRealFrontendRoutesToItOnItsKvEvents() throws Exception {
    Path model = tmp.resolve("model");
    run(RealProgramsEnv.bin("python"), resource("tiny_model.py").toString(), model.toString());
    int kvPort = freePort();
    engine = new SglangWorker(SglangWorker.Options.parse(List.of("--model-path", model.toString(), "--served-model-name", MODEL,
        "--host", "0.0.0.0", "--port", "0",
        "--kv-events-config", "{\"publisher\":\"zmq\",\"topic\":\"kv-events\",\"endpoint\":\"tcp://*:" + kvPort + "\"}",
        "--grpc-port", "0", "--incremental-streaming-output", "--enable-metrics", "--page-size", "16"),
        Map.of("SRT_EMULATOR_STARTUP_DELAY_MS", "0"), new PrintStream(new ByteArrayOutputStream())));
    engine.start();
    await().atMost(Duration.ofSeconds(10)).until(() -> engine.grpcPort() > 0);

    Map<String, String> dynamo = Map.of("DYN_DISCOVERY_BACKEND", "file", "DYN_FILE_KV", tmp.resolve("kv").toString(),
        "DYN_REQUEST_PLANE", "tcp", "DYN_EVENT_PLANE", "zmq");
    int systemPort = freeSystemPort();
    start("sidecar", Map.of("DYN_SYSTEM_PORT", String.valueOf(systemPort)), dynamo,
        "-m", "dynamo.sglang.sidecar", "--grpc-endpoint", "127.0.0.1:" + engine.grpcPort());
    int http = freePort();
    start("frontend", Map.of(), dynamo, "-m", "dynamo.frontend", "--http-port", String.valueOf(http), "--router-mode", "kv");
    String frontend = "http://127.0.0.1:" + http;

    try {
      await().atMost(Duration.ofSeconds(180)).pollInterval(Duration.ofMillis(500)).ignoreExceptions().until(() -> {
        HttpTestClient.Reply r = get(frontend + "/v1/models");
        return r.status() == 200 && r.body().contains("\"" + MODEL + "\"");
      });
    } catch (org.awaitility.core.ConditionTimeoutException e) {
      throw new AssertionError("the frontend never listed the model; sidecar log:\n" + tail("sidecar") + "\nfrontend log:\n"
          + tail("frontend"), e);
    }
    assertThat(get("http://127.0.0.1:" + systemPort + "/health").status()).isEqualTo(200);

    String prompt = IntStream.range(0, 40).mapToObj(i -> "w" + i).collect(Collectors.joining(" "));
    JsonNode first = chat(frontend, prompt);
    assertThat(first.path("usage").path("completion_tokens").asInt()).isEqualTo(8);
    assertThat(first.path("choices").get(0).path("finish_reason").asText()).isEqualTo("length");
    // the engine's stored pages reach the frontend's KV router through the sidecar
    await().atMost(Duration.ofSeconds(30)).until(() -> storedEventsApplied(get(frontend + "/metrics").body()) > 0);
    JsonNode second = chat(frontend, prompt);
    // the same prompt again: the engine served its whole pages from its prefix cache and said so
    assertThat(second.path("usage").path("prompt_tokens_details").path("cached_tokens").asInt()).isGreaterThanOrEqualTo(16);
  }

  /** {@code dynamo_component_kv_cache_events_applied{event_type="stored",status="ok"}}, summed over workers. */
  private static double storedEventsApplied(String metrics) {
    return metrics.lines()
        .filter(l -> l.startsWith("dynamo_component_kv_cache_events_applied{") && l.contains("event_type=\"stored\"")
            && l.contains("status=\"ok\""))
        .mapToDouble(l -> Double.parseDouble(l.substring(l.lastIndexOf(' ') + 1)))
        .sum();
  }

  private static JsonNode chat(String frontend, String text) {
    HttpTestClient.Reply r = post(frontend + "/v1/chat/completions", HttpTestClient.chat(MODEL, text, 8, false));
    assertThat(r.status()).as(r.body()).isEqualTo(200);
    return r.json();
  }

  private void start(String name, Map<String, String> own, Map<String, String> shared, String... args) throws IOException {
    List<String> cmd = new ArrayList<>(List.of(RealProgramsEnv.bin("python")));
    cmd.addAll(List.of(args));
    ProcessBuilder pb = new ProcessBuilder(cmd).redirectErrorStream(true).redirectOutput(tmp.resolve(name + ".log").toFile());
    pb.environment().putAll(shared);
    pb.environment().putAll(own);
    processes.add(pb.start());
  }

  /** The last lines of a process's log, for a failure to show what the real programs said. */
  private String tail(String name) {
    try {
      List<String> lines = Files.readAllLines(tmp.resolve(name + ".log"));
      return String.join("\n", lines.subList(Math.max(0, lines.size() - 40), lines.size()));
    } catch (IOException e) {
      return "(no log: " + e.getMessage() + ")";
    }
  }

  private void run(String... cmd) throws Exception {
    Process p = new ProcessBuilder(cmd).redirectErrorStream(true).start();
    String out = new String(p.getInputStream().readAllBytes());
    assertThat(p.waitFor(60, TimeUnit.SECONDS) && p.exitValue() == 0).as(out).isTrue();
  }

  private Path resource(String name) throws IOException {
    Path file = tmp.resolve(name);
    try (InputStream in = getClass().getResourceAsStream(name)) {
      Files.copy(in, file);
    }
    return file;
  }

  private static int freePort() throws IOException {
    try (ServerSocket s = new ServerSocket(0)) {
      return s.getLocalPort();
    }
  }

  /** Dynamo 1.6.1 reads DYN_SYSTEM_PORT as an i16: a free port below 32768. */
  private static int freeSystemPort() {
    while (true) {
      int port = ThreadLocalRandom.current().nextInt(20_000, 32_768);
      try (ServerSocket s = new ServerSocket(port)) {
        return port;
      } catch (IOException taken) {
        // try another
      }
    }
  }
}
