package dev.srt.operator.monitoring;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The alerts, checked by Prometheus' own {@code promtool} (Debian's {@code prometheus} package,
 * which {@code .ci/install-deps.sh} installs): the rules file and the PrometheusRule's groups pass
 * {@code promtool check rules}, and {@code promtool test rules} passes the unit tests, which cover
 * every alert, firing and not. Each promtool run takes a fraction of a second.
 */
class PrometheusRulesTest {
  @TempDir Path dir;

  static String promtool(String... args) throws Exception {
    MetricsScrape.requirePromtool();
    List<String> argv = new ArrayList<>(List.of("promtool"));
    argv.addAll(List.of(args));
    Process p = new ProcessBuilder(argv).redirectErrorStream(true).start();
    String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    assertThat(p.waitFor(60, TimeUnit.SECONDS)).isTrue();
    assertThat(p.exitValue()).as("promtool %s:%n%s", String.join(" ", args), out).isZero();
    return out;
  }

  @Test
  void theRulesFileAndThePrometheusRulePassPromtoolCheckRules() throws Exception {
    assertThat(promtool("check", "rules", MonitoringBundle.RULES.toString())).contains("SUCCESS: 4 rules found");
    Path fromCr = dir.resolve("from-prometheusrule.yaml");
    Files.writeString(fromCr, MonitoringBundle.yaml(MonitoringBundle.PROMETHEUS_RULE).path("spec").toString());
    assertThat(promtool("check", "rules", fromCr.toString())).contains("SUCCESS: 4 rules found");
  }

  @Test
  void everyAlertPassesItsUnitTests() throws Exception {
    assertThat(promtool("test", "rules", MonitoringBundle.RULE_TESTS.toString())).contains("SUCCESS");
  }

  @Test
  void everyAlertHasATestWhereItFiresAndOneWhereItDoesNot() {
    Set<String> alerts = new TreeSet<>();
    MonitoringBundle.rules().forEach(r -> alerts.add(r.path("alert").asText()));
    assertThat(alerts).containsExactlyInAnyOrder("SrtOperatorDown", "SrtClusterUnreachable", "SrtReconcileErrors", "SrtArmStuckStarting");
    Set<String> fires = new TreeSet<>();
    Set<String> quiet = new TreeSet<>();
    for (JsonNode test : MonitoringBundle.yaml(MonitoringBundle.RULE_TESTS).path("tests")) {
      for (JsonNode t : test.path("alert_rule_test")) {
        (t.path("exp_alerts").isEmpty() ? quiet : fires).add(t.path("alertname").asText());
      }
    }
    assertThat(fires).as("alerts tested firing").containsExactlyInAnyOrderElementsOf(alerts);
    assertThat(quiet).as("alerts tested quiet").containsExactlyInAnyOrderElementsOf(alerts);
    assertThat(MonitoringBundle.yaml(MonitoringBundle.RULE_TESTS).path("rule_files").get(0).asText())
        .as("the tests load the rules file itself").isEqualTo("../../../" + MonitoringBundle.RULES.toString().replace('\\', '/'));
  }
}
