package dev.srt.operator.reconcile;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.srt.operator.api.ArmStatus;
import dev.srt.operator.cli.OperatorCommand;
import dev.srt.operator.monitoring.MetricsScrape;
import dev.srt.operator.testinfra.TestHosts;
import com.sun.net.httpserver.HttpServer;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import java.net.ServerSocket;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;

/**
 * The operator's {@code /metrics} as Prometheus scrapes it, while a comparison runs (the operator
 * in this JVM against the CRUD mock API server, one sgl-router arm on the test Slurm over SSH,
 * as the fault tests run it): every scrape passes {@code promtool check metrics} (Prometheus'
 * naming conventions: base units, {@code _total} counters, help text), and every metric the
 * Grafana dashboard and the alert rules read is in the scrapes: nothing in the monitoring bundle
 * reads a series the operator does not serve. About 15 s.
 */
class MetricsScrapeIT {
  @Test
  void everyScrapePassesPromtoolAndServesWhatTheDashboardAndTheAlertsRead() throws Exception {
    TestHosts.requireSlurm();
    TestHosts.SshTarget ssh = TestHosts.ssh();
    PrometheusMeterRegistry registry = OperatorCommand.metricsRegistry();
    int port;
    try (ServerSocket s = new ServerSocket(0)) {
      port = s.getLocalPort();
    }
    HttpServer server = OperatorCommand.metricsServer(port, registry);
    MetricsScrape scrape = new MetricsScrape("http://127.0.0.1:" + port + "/metrics");
    Set<String> served = new TreeSet<>();
    try (InJvmOperator op = new InJvmOperator(ssh, registry)) {
      // The engines take 3 s to become healthy, so the arm is Starting for a few polls.
      op.apply(ssh, TestHosts.slurmPartition(), Map.of("SRT_EMULATOR_STARTUP_DELAY_MS", "3000"),
          // the engines' /metrics scraped around the benchmark give the cache hit and request spread gauges
          InJvmOperator.comparison("metrics", "10m", InJvmOperator.sglRouterArm("sgl-router", "round_robin"))
              .replace("\n  arms:\n", "\n  observability: {enabled: true}\n  arms:\n")
              .replace("args: {tensor-parallel-size: 4}", "args: {tensor-parallel-size: 4, enable-metrics: true}"));
      String starting = await().atMost(Duration.ofSeconds(60)).pollInterval(Duration.ofMillis(200))
          .until(scrape::text, text -> text.contains("srt_arm_start_deadline_timestamp_seconds{"));
      await().atMost(Duration.ofSeconds(120)).until(() -> {
        ArmStatus a = op.arm("metrics", "sgl-router");
        return a != null && "Succeeded".equals(a.phase);
      });
      ArmStatus done = op.arm("metrics", "sgl-router");
      assertThat(done.results.engineCacheHitRate).as("the engines' cache hit rate from the scrapes around the benchmark; results %s in %s",
          done.resultFiles, listing(Path.of(done.runDir, "results"))).isNotNull();
      String finished = await().atMost(Duration.ofSeconds(30)).until(scrape::text, text -> text.contains("srt_arm_ttft_seconds{"));

      for (String text : new String[] {starting, finished}) {
        assertThat(MetricsScrape.promtoolCheckMetrics(text)).as("promtool check metrics").isEmpty();
        served.addAll(MetricsScrape.names(text));
      }
      assertThat(finished).containsPattern("(?m)^srt_cluster_reachable\\{[^}]*cluster=\"h100-box\"[^}]*\\} 1\\.0$")
          .containsPattern("(?m)^srt_comparisons\\{[^}]*phase=\"Succeeded\"[^}]*\\} 1\\.0$")
          .containsPattern("(?m)^srt_host_exec_seconds_bucket\\{[^}]*operation=\"submit\"[^}]*le=\"\\+Inf\"\\} 1$")
          .containsPattern("(?m)^srt_arm_request_throughput\\{[^}]*arm=\"sgl-router\"[^}]*\\} [0-9.]+(E[0-9-]+)?$")
          .containsPattern("(?m)^srt_reconcile_errors_total\\{[^}]*kind=\"RouterComparison\"[^}]*\\} 0\\.0$");
      assertThat(MetricsScrape.value(finished, "srt_arm_ttft_seconds", "stat=\"p99\"")).as("seconds, not milliseconds").isBetween(1e-4, 60.0);
    } finally {
      server.stop(0);
    }
    assertThat(served).containsAll(MetricsScrape.usedByTheBundle());
  }

  private static String listing(Path dir) {
    try (var files = java.nio.file.Files.list(dir)) {
      return files.map(f -> f.getFileName() + " (" + f.toFile().length() + " bytes)").toList().toString();
    } catch (java.io.IOException e) {
      return "unreadable: " + e;
    }
  }
}
