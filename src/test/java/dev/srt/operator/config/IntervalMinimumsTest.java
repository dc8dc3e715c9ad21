package dev.srt.operator.config;

import static org.assertj.core.api.Assertions.assertThat;

import dev.srt.operator.api.GpuCluster;
import dev.srt.operator.api.HealthCheckSpec;
import dev.srt.operator.api.RouterComparison;
import dev.srt.operator.plan.Examples;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Issue 23: "{@code pollInterval: 0s} and {@code healthCheck.interval: 0s} are accepted" (a poll of
 * the host, or a health check, without pause). Every wait and timeout has a minimum: 1s, and 100ms
 * for a cluster's pollInterval.
 */
class IntervalMinimumsTest {
  private static List<String> errors(List<Problem> problems) {
    return problems.stream().filter(Problem::isError).map(Problem::describe).toList();
  }

  @Test
  void zeroIntervalsAndTimeoutsAreRefusedWithTheirPaths() {
    RouterComparison rc = Examples.comparison();
    rc.getSpec().healthCheck = new HealthCheckSpec();
    rc.getSpec().healthCheck.interval = "0s";
    rc.getSpec().healthCheck.timeout = "0ms";
    rc.getSpec().dynamo.sidecarStartupTimeout = "500ms";
    assertThat(errors(Validator.validate(rc, null))).containsExactly(
        "spec.dynamo.sidecarStartupTimeout: must be at least 1s (a wait of nothing would repeat without pause), not 500ms",
        "spec.healthCheck.timeout: must be at least 1s (a wait of nothing would repeat without pause), not 0ms",
        "spec.healthCheck.interval: must be at least 1s (a wait of nothing would repeat without pause), not 0s");

    GpuCluster c = Examples.cluster(Examples.SLURM_CLUSTER);
    c.getSpec().pollInterval = "0s";
    assertThat(errors(Validator.validate(c))).containsExactly(
        "spec.pollInterval: must be at least 100ms (a wait of nothing would repeat without pause), not 0s");
    c.getSpec().pollInterval = "100ms";
    assertThat(errors(Validator.validate(c))).isEmpty();
    c.getSpec().ssh.connectTimeout = "0s";
    assertThat(errors(Validator.validate(c))).containsExactly(
        "spec.ssh.connectTimeout: must be at least 1s (a wait of nothing would repeat without pause), not 0s");
  }
}
