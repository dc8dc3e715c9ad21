package dev.srt.operator.bench;

import java.io.IOException;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.function.Predicate;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * {@code bin/srt-operator operator} as a process of its own (the launcher's JVM flags included),
 * so that its memory is the process's: {@code VmHWM} and {@code VmRSS} of /proc/PID/status.
 */
final class OperatorUnderTest implements AutoCloseable {
  private static final Pattern SAMPLE = Pattern.compile("^(\\w+)(\\{[^}]*\\})? ([0-9.eE+-]+|NaN)$");

  final Path log;
  private final Process process;
  private final int metricsPort;
  private final HttpClient http = HttpClient.newHttpClient();

  OperatorUnderTest(Path dir, String kubeconfig, String namespace) throws IOException, InterruptedException {
    Path config = dir.resolve("kubeconfig");
    Files.writeString(config, kubeconfig);
    log = dir.resolve("operator.log");
    metricsPort = freePort();
    int probePort = freePort();
    // The GpuCluster's probe (one SSH execution) is taken once, at its first reconcile, so that
    // every later execution in the sshd's log is the operator's polling, submitting or cancelling.
    process = new ProcessBuilder("bin/srt-operator", "operator", "--kubeconfig", config.toString(),
        "--metrics-port", String.valueOf(metricsPort), "--probe-port", String.valueOf(probePort),
        "--namespaces", namespace, "--cluster-probe-interval", "1h")
        .redirectErrorStream(true).redirectOutput(log.toFile()).start();
    Instant deadline = Instant.now().plus(Duration.ofSeconds(60));
    while (status(probePort, "/readyz") != 200) {
      if (!process.isAlive() || Instant.now().isAfter(deadline)) {
        throw new IOException("the operator did not become ready; its log: " + log);
      }
      Thread.sleep(100);
    }
  }

  long pid() {
    return process.pid();
  }

  /** A field of /proc/PID/status in MiB (VmHWM: the peak resident set; VmRSS: now). */
  long memoryMiB(String field) throws IOException {
    for (String line : Files.readAllLines(Path.of("/proc", String.valueOf(process.pid()), "status"))) {
      if (line.startsWith(field + ":")) {
        return Long.parseLong(line.replaceAll("[^0-9]", "")) / 1024;
      }
    }
    throw new IOException("no " + field + " in /proc/" + process.pid() + "/status");
  }

  /** The sum of a metric's samples whose labels pass {@code labels}, from /metrics. */
  double metric(String name, Predicate<String> labels) throws IOException, InterruptedException {
    String scrape = http.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + metricsPort + "/metrics")).build(),
        HttpResponse.BodyHandlers.ofString()).body();
    double sum = 0;
    for (String line : scrape.lines().toList()) {
      Matcher m = SAMPLE.matcher(line);
      if (m.matches() && m.group(1).equals(name) && labels.test(m.group(2) == null ? "" : m.group(2))) {
        sum += Double.parseDouble(m.group(3));
      }
    }
    return sum;
  }

  private int status(int port, String path) {
    try {
      return http.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + path)).build(),
          HttpResponse.BodyHandlers.discarding()).statusCode();
    } catch (IOException e) {
      return -1;
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return -1;
    }
  }

  List<String> logTail(int lines) throws IOException {
    List<String> all = Files.readAllLines(log);
    return all.subList(Math.max(0, all.size() - lines), all.size());
  }

  private static int freePort() throws IOException {
    try (ServerSocket s = new ServerSocket(0)) {
      return s.getLocalPort();
    }
  }

  @Override
  public void close() throws InterruptedException {
    process.destroy();
    if (!process.waitFor(30, TimeUnit.SECONDS)) {
      process.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
    }
  }
}
