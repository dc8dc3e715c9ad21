package dev.srt.operator.reconcile;

import java.io.IOException;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * One incarnation of {@code srt-operator operator} ({@code bin/srt-operator}, which execs the JVM,
 * so the process is the operator itself), its output in a log file of its own, its {@code /metrics}
 * on a free port.
 */
final class OperatorProcess {
  /** SIGKILL's exit status as Java reports it for a child killed by a signal: 128 + 9. */
  static final int KILLED = 137;
  private static final Pattern POLLS = Pattern.compile(
      "(?m)^srt_host_exec_seconds_count\\{[^}]*operation=\"poll\"[^}]*outcome=\"ok\"[^}]*\\} ([0-9.E+]+)$");
  private static final HttpClient HTTP = HttpClient.newHttpClient();

  final Process process;
  final Path log;
  private final int metricsPort;

  private OperatorProcess(Process process, Path log, int metricsPort) {
    this.process = process;
    this.log = log;
    this.metricsPort = metricsPort;
  }

  /** Starts the operator on {@code kubeconfig}, watching {@code namespace}, with {@code extra} arguments. */
  static OperatorProcess start(Path kubeconfig, String namespace, Path log, String... extra) throws IOException {
    int metrics = freePort();
    List<String> argv = new ArrayList<>(List.of("bin/srt-operator", "operator", "--kubeconfig", kubeconfig.toString(),
        "--metrics-port", String.valueOf(metrics), "--probe-port", "0", "--namespaces", namespace));
    argv.addAll(List.of(extra));
    Process p = new ProcessBuilder(argv).redirectErrorStream(true).redirectOutput(log.toFile()).start();
    return new OperatorProcess(p, log, metrics);
  }

  /** Successful polls of GpuCluster hosts since this process started; 0 until /metrics answers. */
  int polls() {
    try {
      String scrape = HTTP.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + metricsPort + "/metrics")).build(),
          HttpResponse.BodyHandlers.ofString()).body();
      Matcher m = POLLS.matcher(scrape);
      int total = 0;
      while (m.find()) {
        total += (int) Double.parseDouble(m.group(1));
      }
      return total;
    } catch (IOException e) {
      return 0;
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return 0;
    }
  }

  /** SIGKILL ({@link Process#destroyForcibly()} on Linux): no shutdown hook runs. Returns the exit status. */
  int kill() throws InterruptedException {
    process.destroyForcibly();
    if (!process.waitFor(30, TimeUnit.SECONDS)) {
      throw new IllegalStateException("the operator (pid " + process.pid() + ") survived SIGKILL for 30 s");
    }
    return process.exitValue();
  }

  /** SIGSTOP: the operator stays alive, with what it knows, but does nothing until killed. */
  void freeze() throws IOException, InterruptedException {
    Process stop = new ProcessBuilder("kill", "-STOP", String.valueOf(process.pid())).inheritIO().start();
    if (stop.waitFor() != 0) {
      throw new IllegalStateException("kill -STOP " + process.pid() + " failed");
    }
  }

  String output() throws IOException {
    return Files.exists(log) ? Files.readString(log) : "";
  }

  private static int freePort() throws IOException {
    try (ServerSocket s = new ServerSocket(0)) {
      return s.getLocalPort();
    }
  }
}
