package dev.srt.operator.monitoring;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.File;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;
import dev.srt.operator.testinfra.Kustomize;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The monitoring bundle as files: the kustomize component and the Helm chart's values and copies
 * agree, the Service and the monitors select the operator's pods and port, and the component
 * renders with {@code kubectl kustomize} (when kubectl is installed; it needs no cluster).
 */
class MonitoringBundleTest {
  private static final Path BASE = Path.of("manifests");

  @TempDir Path dir;

  private static JsonNode podTemplate() {
    return MonitoringBundle.yaml(BASE.resolve("deployment.yaml")).path("spec").path("template");
  }

  private static void assertSelectsTheOperatorsPods(JsonNode matchLabels) {
    JsonNode podLabels = podTemplate().path("metadata").path("labels");
    assertThat(matchLabels.size()).isPositive();
    matchLabels.properties().forEach(e -> assertThat(podLabels.path(e.getKey()).asText()).as(e.getKey()).isEqualTo(e.getValue().asText()));
  }

  private static Set<String> containerPorts() {
    Set<String> names = new HashSet<>();
    podTemplate().path("spec").path("containers").get(0).path("ports").forEach(p -> names.add(p.path("name").asText()));
    return names;
  }

  @Test
  void thePrometheusRuleHoldsTheRulesFilesGroupsAndTheDashboardCopiesAreEqual() throws Exception {
    assertThat(MonitoringBundle.yaml(MonitoringBundle.PROMETHEUS_RULE).path("spec"))
        .isEqualTo(MonitoringBundle.yaml(MonitoringBundle.RULES));
    assertThat(Files.readString(MonitoringBundle.CHART_DASHBOARD)).isEqualTo(Files.readString(MonitoringBundle.DASHBOARD));
  }

  @Test
  void theServiceAndTheMonitorsScrapeTheOperatorsMetricsPortAsJobSrtOperator() {
    assertThat(containerPorts()).contains("metrics");
    JsonNode service = MonitoringBundle.yaml(MonitoringBundle.COMPONENT.resolve("service.yaml"));
    assertSelectsTheOperatorsPods(service.path("spec").path("selector"));
    assertThat(service.path("spec").path("ports").get(0).path("targetPort").asText()).isEqualTo("metrics");

    JsonNode serviceMonitor = MonitoringBundle.yaml(MonitoringBundle.COMPONENT.resolve("servicemonitor.yaml"));
    serviceMonitor.path("spec").path("selector").path("matchLabels").properties().forEach(e ->
        assertThat(service.path("metadata").path("labels").path(e.getKey()).asText()).isEqualTo(e.getValue().asText()));
    JsonNode podMonitor = MonitoringBundle.yaml(MonitoringBundle.COMPONENT.resolve("podmonitor/podmonitor.yaml"));
    assertSelectsTheOperatorsPods(podMonitor.path("spec").path("selector").path("matchLabels"));

    for (JsonNode endpoint : new JsonNode[] {serviceMonitor.path("spec").path("endpoints").get(0),
        podMonitor.path("spec").path("podMetricsEndpoints").get(0)}) {
      assertThat(endpoint.path("port").asText()).isEqualTo("metrics");
      assertThat(endpoint.path("path").asText()).isEqualTo("/metrics");
      assertThat(endpoint.path("honorLabels").asBoolean()).as("the series' namespace label is the resource's").isTrue();
      assertThat(endpoint.path("relabelings").get(0).path("targetLabel").asText()).isEqualTo("job");
      assertThat(endpoint.path("relabelings").get(0).path("replacement").asText()).isEqualTo("srt-operator");
    }
  }

  @Test
  void theHelmChartOffersEveryPartAndItsTemplatesReadTheBundlesFiles() throws Exception {
    JsonNode metrics = MonitoringBundle.yaml(MonitoringBundle.CHART.resolve("values.yaml")).path("metrics");
    for (String part : new String[] {"service", "serviceMonitor", "podMonitor", "prometheusRule", "dashboard"}) {
      assertThat(metrics.path(part).path("enabled").isBoolean()).as("metrics.%s.enabled", part).isTrue();
      assertThat(metrics.path(part).path("enabled").asBoolean()).as("off by default: the base deploys no monitoring").isFalse();
    }
    Path templates = MonitoringBundle.CHART.resolve("templates");
    assertThat(Files.readString(templates.resolve("prometheusrule.yaml"))).contains(".Files.Get \"files/prometheus-rules.yaml\"")
        .contains("kind: PrometheusRule");
    assertThat(Files.readString(templates.resolve("dashboard-configmap.yaml"))).contains(".Files.Get \"files/dashboards/srt-operator.json\"");
    assertThat(Files.readString(templates.resolve("servicemonitor.yaml"))).contains("replacement: srt-operator", "honorLabels: true",
        "port: metrics", "include \"srt-operator.selectorLabels\"");
    assertThat(Files.readString(templates.resolve("podmonitor.yaml"))).contains("replacement: srt-operator", "honorLabels: true",
        "port: metrics", "include \"srt-operator.selectorLabels\"");
    assertThat(Files.readString(templates.resolve("metrics-service.yaml"))).contains("targetPort: metrics",
        "include \"srt-operator.selectorLabels\"");
  }

  @Test
  void theDashboardIsGrafanaJsonWithAPanelForEachTopic() {
    JsonNode d = MonitoringBundle.dashboard();
    assertThat(d.path("uid").asText()).isEqualTo("srt-operator");
    Map<String, JsonNode> panels = new LinkedHashMap<>();
    Set<Integer> ids = new HashSet<>();
    for (JsonNode p : d.path("panels")) {
      assertThat(ids.add(p.path("id").asInt())).as("unique panel id %s", p.path("id")).isTrue();
      JsonNode grid = p.path("gridPos");
      assertThat(grid.path("x").asInt() + grid.path("w").asInt()).as("%s fits the 24 columns", p.path("title")).isLessThanOrEqualTo(24);
      if (!"row".equals(p.path("type").asText())) {
        assertThat(p.path("targets").size()).as("%s has queries", p.path("title")).isPositive();
        assertThat(p.path("datasource").path("uid").asText()).isEqualTo("${datasource}");
        panels.put(p.path("title").asText(), p);
      }
    }
    assertThat(panels).containsKeys("Comparisons by phase", "Runs in flight", "Cluster reachability", "Poll and submit latency",
        "Executions by operation and outcome", "Reconcile errors", "Request throughput", "Time to first token",
        "Engine prefix-cache hit ratio", "Arms");
    assertThat(MonitoringBundle.metricsUsed()).contains("srt_comparisons", "srt_runs_in_flight", "srt_cluster_reachable",
        "srt_host_exec_seconds_bucket", "srt_host_exec_seconds_count", "srt_reconcile_errors_total", "srt_arm_ttft_seconds",
        "srt_arm_request_throughput", "srt_arm_start_deadline_timestamp_seconds", "up");
  }

  private static boolean onPath(String command) {
    return Arrays.stream(System.getenv("PATH").split(File.pathSeparator)).anyMatch(d -> Files.isExecutable(Path.of(d, command)));
  }

  private Map<String, JsonNode> kustomize(String... components) throws Exception {
    assumeTrue(onPath("kubectl"), "kubectl not installed");
    // kustomize takes relative paths only: an overlay as a user writes it, beside the repository's files
    Path overlay = Files.createDirectories(Path.of("target", "monitoring-overlay", dir.getFileName().toString()));
    StringBuilder k = new StringBuilder("apiVersion: kustomize.config.k8s.io/v1beta1\nkind: Kustomization\nresources:\n- "
        + overlay.toAbsolutePath().relativize(BASE.toAbsolutePath()) + "\ncomponents:\n");
    for (String c : components) {
      k.append("- ").append(overlay.toAbsolutePath().relativize(MonitoringBundle.COMPONENT.resolve(c).toAbsolutePath().normalize())).append('\n');
    }
    Files.writeString(overlay.resolve("kustomization.yaml"), k.toString());
    return Kustomize.build(overlay);
  }

  /**
   * Issue 41, finding 10: the NetworkPolicy component renders on the base (alone, and with the
   * bundle), in the operator's namespace, selecting the operator's pods and opening only the
   * container's port named metrics to Prometheus's pods.
   */
  @Test
  void theNetworkPolicyComponentOpensOnlyTheMetricsPortToPrometheus() throws Exception {
    for (String[] components : new String[][] {{"networkpolicy"}, {".", "networkpolicy"}}) {
      Map<String, JsonNode> objects = kustomize(components);
      JsonNode policy = objects.get("NetworkPolicy/srt-operator-metrics");
      assertThat(policy).as(String.join(", ", components)).isNotNull();
      assertThat(policy.path("metadata").path("namespace").asText()).isEqualTo("srt-operator-system");
      assertSelectsTheOperatorsPods(policy.path("spec").path("podSelector").path("matchLabels"));
      assertThat(policy.path("spec").path("policyTypes")).hasSize(1).first().extracting(JsonNode::asText).isEqualTo("Ingress");
      JsonNode rule = policy.path("spec").path("ingress").get(0);
      assertThat(policy.path("spec").path("ingress")).hasSize(1);
      assertThat(rule.path("ports")).hasSize(1);
      assertThat(rule.path("ports").get(0).path("port").asText()).isEqualTo("metrics");
      assertThat(containerPorts()).contains("metrics");
      assertThat(rule.path("from").get(0).path("podSelector").path("matchLabels").path("app.kubernetes.io/name").asText())
          .isEqualTo("prometheus");
    }
    assertThat(kustomize(".")).as("off by default: the bundle alone has no NetworkPolicy")
        .doesNotContainKey("NetworkPolicy/srt-operator-metrics");
  }

  @Test
  void theComponentRendersOnTheBaseInTheOperatorsNamespace() throws Exception {
    Map<String, JsonNode> objects = kustomize(".");
    assertThat(objects).containsKeys("Deployment/srt-operator", "Service/srt-operator-metrics", "ServiceMonitor/srt-operator",
        "PrometheusRule/srt-operator", "ConfigMap/srt-operator-dashboard").doesNotContainKey("PodMonitor/srt-operator");
    for (String o : new String[] {"Service/srt-operator-metrics", "ServiceMonitor/srt-operator", "PrometheusRule/srt-operator",
        "ConfigMap/srt-operator-dashboard"}) {
      assertThat(objects.get(o).path("metadata").path("namespace").asText()).as(o).isEqualTo("srt-operator-system");
    }
    JsonNode dashboard = objects.get("ConfigMap/srt-operator-dashboard");
    assertThat(dashboard.path("metadata").path("labels").path("grafana_dashboard").asText()).isEqualTo("1");
    assertThat(dashboard.path("data").path("srt-operator.json").asText()).isEqualTo(Files.readString(MonitoringBundle.DASHBOARD));
    assertThat(objects.get("PrometheusRule/srt-operator").path("spec")).isEqualTo(MonitoringBundle.yaml(MonitoringBundle.RULES));

    Map<String, JsonNode> withPodMonitor = kustomize(".", "podmonitor");
    assertThat(withPodMonitor).containsKeys("PodMonitor/srt-operator", "PrometheusRule/srt-operator", "ConfigMap/srt-operator-dashboard")
        .doesNotContainKeys("Service/srt-operator-metrics", "ServiceMonitor/srt-operator");
  }
}
