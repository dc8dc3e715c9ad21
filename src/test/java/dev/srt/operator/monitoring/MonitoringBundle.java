package dev.srt.operator.monitoring;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import dev.srt.operator.base.Mappers;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;

/** The files of the monitoring bundle and what they read: the kustomize component and the Helm chart's copies. */
final class MonitoringBundle {
  static final Path COMPONENT = Path.of("manifests", "monitoring");
  static final Path CHART = Path.of("operator", "helm", "srt-operator");
  /** The alert rules in Prometheus' rule file format (the Helm chart's; the PrometheusRule holds the same groups). */
  static final Path RULES = CHART.resolve("files/prometheus-rules.yaml");
  static final Path RULE_TESTS = COMPONENT.resolve("tests/rules.test.yaml");
  static final Path PROMETHEUS_RULE = COMPONENT.resolve("prometheusrule.yaml");
  static final Path DASHBOARD = COMPONENT.resolve("dashboards/srt-operator.json");
  static final Path CHART_DASHBOARD = CHART.resolve("files/dashboards/srt-operator.json");
  /** Series Prometheus makes itself, per target, which no scrape contains. */
  static final Set<String> PROMETHEUS_OWN = Set.of("up");

  private static final ObjectMapper YAML = new ObjectMapper(new YAMLFactory());

  private MonitoringBundle() {}

  static JsonNode yaml(Path file) {
    try {
      return YAML.readTree(file.toFile());
    } catch (IOException e) {
      throw new UncheckedIOException(file.toString(), e);
    }
  }

  static JsonNode dashboard() {
    try {
      return Mappers.json().readTree(DASHBOARD.toFile());
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** Every rule of the rules file: {@code alert} (or {@code record}) and {@code expr}. */
  static List<JsonNode> rules() {
    List<JsonNode> out = new ArrayList<>();
    yaml(RULES).path("groups").forEach(g -> g.path("rules").forEach(out::add));
    return out;
  }

  /** The PromQL of every panel and every variable of the dashboard. */
  static List<String> dashboardQueries() {
    List<String> out = new ArrayList<>();
    for (JsonNode panel : dashboard().path("panels")) {
      panel.path("targets").forEach(t -> out.add(t.path("expr").asText()));
      panel.path("panels").forEach(p -> p.path("targets").forEach(t -> out.add(t.path("expr").asText())));
    }
    for (JsonNode v : dashboard().path("templating").path("list")) {
      if ("query".equals(v.path("type").asText())) {
        out.add(v.path("query").isObject() ? v.path("query").path("query").asText() : v.path("query").asText());
      }
    }
    return out;
  }

  /** Every metric name the dashboard and the rules read. */
  static Set<String> metricsUsed() {
    Set<String> names = new TreeSet<>();
    dashboardQueries().forEach(q -> names.addAll(PromQlNames.of(q)));
    rules().forEach(r -> names.addAll(PromQlNames.of(r.path("expr").asText())));
    return names;
  }
}
