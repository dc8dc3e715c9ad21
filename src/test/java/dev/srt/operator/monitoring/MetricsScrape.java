package dev.srt.operator.monitoring;

import java.io.File;
import java.io.IOException;
import java.io.OutputStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import dev.srt.operator.testinfra.TestHosts;

/** An operator's {@code /metrics} as Prometheus scrapes it, and what Prometheus' promtool says of it. */
public final class MetricsScrape {
  private static final HttpClient HTTP = HttpClient.newHttpClient();
  private static final Pattern SAMPLE = Pattern.compile("(?m)^([a-zA-Z_:][a-zA-Z0-9_:]*)(\\{[^}]*\\})? (\\S+)");

  private final URI uri;

  public MetricsScrape(String url) {
    this.uri = URI.create(url);
  }

  /** One scrape's text; empty while nothing answers. */
  public String text() {
    try {
      HttpResponse<String> r = HTTP.send(HttpRequest.newBuilder(uri).build(), HttpResponse.BodyHandlers.ofString());
      return r.statusCode() == 200 ? r.body() : "";
    } catch (IOException e) {
      return "";
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return "";
    }
  }

  /** The names of the samples in a scrape ({@code foo_bucket}, {@code foo_count} of a histogram each). */
  public static Set<String> names(String text) {
    Set<String> names = new TreeSet<>();
    Matcher m = SAMPLE.matcher(text);
    while (m.find()) {
      names.add(m.group(1));
    }
    return names;
  }

  /** The value of the first sample of {@code name} whose labels contain {@code label}; NaN if none. */
  public static double value(String text, String name, String label) {
    Matcher m = SAMPLE.matcher(text);
    while (m.find()) {
      if (m.group(1).equals(name) && m.group(2) != null && m.group(2).contains(label)) {
        return Double.parseDouble(m.group(3));
      }
    }
    return Double.NaN;
  }

  /** Every metric the Grafana dashboard and the alert rules read, but those Prometheus makes itself ({@code up}). */
  public static Set<String> usedByTheBundle() {
    Set<String> used = new TreeSet<>(MonitoringBundle.metricsUsed());
    used.removeAll(MonitoringBundle.PROMETHEUS_OWN);
    return used;
  }

  /** Skips the calling test without promtool (fails it with {@code SRT_E2E_REQUIRED=1}). */
  static void requirePromtool() {
    boolean installed = Arrays.stream(System.getenv("PATH").split(File.pathSeparator)).anyMatch(d -> Files.isExecutable(Path.of(d, "promtool")));
    TestHosts.require(installed ? null : "promtool is not installed", "apt-get install prometheus (.ci/install-deps.sh installs it)");
  }

  /** {@code promtool check metrics} of a scrape: its complaints, one per line; empty when there are none. */
  public static String promtoolCheckMetrics(String text) throws Exception {
    requirePromtool();
    Process p = new ProcessBuilder("promtool", "check", "metrics").redirectErrorStream(true).start();
    try (OutputStream in = p.getOutputStream()) {
      in.write(text.getBytes(StandardCharsets.UTF_8));
    }
    String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    if (!p.waitFor(60, TimeUnit.SECONDS)) {
      p.destroyForcibly();
      throw new IllegalStateException("promtool check metrics did not end");
    }
    return p.exitValue() == 0 ? out.strip() : (out.isBlank() ? "exit " + p.exitValue() : out.strip());
  }
}
