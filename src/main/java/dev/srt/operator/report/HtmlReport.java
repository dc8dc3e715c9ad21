package dev.srt.operator.report;

import com.github.mustachejava.DefaultMustacheFactory;
import com.github.mustachejava.Mustache;
import dev.srt.operator.verdict.ComparisonReport;
import dev.srt.operator.verdict.Metric;
import java.io.StringWriter;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The report people look at: one self-contained HTML page (inline CSS and SVG charts, no script,
 * nothing fetched) with the verdicts, charts of every run, the per-arm summary, what was held
 * constant, how the arms differ, and every run. Values go through Mustache's HTML escaping; the
 * charts are built by {@link Svg}, which escapes its own text.
 */
public final class HtmlReport {
  /** Compiled once: a Mustache is safe to execute concurrently. */
  private static final Mustache TEMPLATE = new DefaultMustacheFactory("dev/srt/operator/report").compile("report.html.mustache");

  /** A chart with its caption; {@code svg} is inserted as markup. */
  record Chart(String kind, String metric, String caption, String svg) {}

  /** An arm as a column head: its chart colour and whether it is the baseline. */
  record ArmColumn(String name, String colour, boolean baseline) {}

  private HtmlReport() {}

  public static String render(ReportContext ctx) {
    ComparisonReport report = ctx.report();
    ArmDifferences differences = ArmDifferences.of(ctx);
    Map<String, Object> scope = new HashMap<>();
    scope.put("comparison", report.comparison);
    scope.put("baseline", report.baseline);
    scope.put("source", ctx.source() == null ? "-" : ctx.source());
    scope.put("notes", ctx.notes());
    scope.put("generator", ctx.generator());
    scope.put("generatedAt", DateTimeFormatter.ISO_INSTANT.format(ctx.generatedAt().truncatedTo(ChronoUnit.SECONDS).atOffset(ZoneOffset.UTC)));
    scope.put("armCount", report.arms.size());
    scope.put("runCount", report.arms.stream().mapToInt(a -> a.runs.size()).sum());
    List<ArmColumn> arms = new ArrayList<>();
    for (int i = 0; i < report.arms.size(); i++) {
      String name = report.arms.get(i).name;
      arms.add(new ArmColumn(name, Palette.of(i), name.equals(report.baseline)));
    }
    scope.put("arms", arms);
    List<ReportTables.VerdictRow> verdicts = ReportTables.verdicts(report);
    scope.put("verdicts", verdicts);
    scope.put("hasVerdicts", !verdicts.isEmpty());
    scope.put("verdictNote", MarkdownReport.VERDICT_NOTE);
    scope.put("ladder", report.loadUnit != null);
    List<String> notComparable = ReportTables.notComparable(report);
    scope.put("notComparable", notComparable);
    scope.put("hasNotComparable", !notComparable.isEmpty());
    scope.put("charts", charts(ctx));
    scope.put("summary", ReportTables.summary(report));
    scope.put("facts", HeldConstant.of(ctx, differences));
    List<Provenance.Row> provenance = Provenance.rows(report);
    scope.put("provenance", provenance);
    scope.put("hasProvenance", !provenance.isEmpty());
    scope.put("warnings", report.warnings);
    scope.put("hasWarnings", !report.warnings.isEmpty());
    scope.put("diffProblem", differences.problem());
    if (differences.diff() != null) {
      scope.put("hasDiff", true);
      scope.put("diffRows", ReportTables.diff(differences.diff()));
      scope.put("parts", differences.diff().parts().stream()
          .map(p -> Map.of("part", p.part(), "description", p.describe(differences.diff().arms()))).toList());
    }
    scope.put("runs", ReportTables.runs(report));
    StringWriter out = new StringWriter();
    TEMPLATE.execute(out, scope);
    return out.toString();
  }

  /** The TTFT and ITL CDFs of the arms at the chosen level, when the runs' distributions were read. */
  private static List<Chart> cdfs(ReportContext ctx) {
    Distributions d = ctx.distributions();
    if (d == null || d.arms().isEmpty()) {
      return List.of();
    }
    List<String> order = ctx.report().arms.stream().map(a -> a.name).toList();
    String at = d.load() == null ? "" : " at " + dev.srt.operator.verdict.Cells.level(d.load(), ctx.report().loadUnit) + " (" + d.why() + ")";
    List<Chart> out = new ArrayList<>();
    for (CdfChart.Latency latency : CdfChart.Latency.values()) {
      String svg = CdfChart.draw(d, latency, order, ctx.report().loadUnit);
      if (svg != null) {
        out.add(new Chart("cdf", latency.name.toLowerCase(java.util.Locale.ROOT) + "_cdf", latency.name + " distribution" + at
            + ": each arm's quantiles averaged over its runs; dots at p50, p90 and p99", svg));
      }
    }
    return out;
  }

  private static List<Chart> charts(ReportContext ctx) {
    ComparisonReport report = ctx.report();
    List<Chart> charts = new ArrayList<>();
    if (report.loadUnit != null) {
      // a ladder: each metric against load, once; goodput % with the SLO and the capacities
      var slo = ctx.comparison().getSpec().slo;
      if (slo != null) {
        charts.add(new Chart("load", Metric.GOODPUT_RATIO.key(), "Goodput % against load: the SLO's attainment and each arm's capacity",
            LoadChart.draw(report, Metric.GOODPUT_RATIO, slo.attainmentOrDefault())));
      }
      for (Metric m : report.verdictMetrics.stream().flatMap(k -> Metric.of(k).stream()).toList()) {
        if (slo == null || m != Metric.GOODPUT_RATIO) {
          charts.add(new Chart("load", m.key(), MetricText.heading(m) + " against load: means and 95% intervals",
              LoadChart.draw(report, m, null)));
        }
      }
      charts.addAll(cdfs(ctx));
      return charts;
    }
    // each metric once: a dot per run with the mean and its 95% interval (the verdicts' metrics, then
    // the headline ones they leave out)
    java.util.LinkedHashSet<Metric> drawn = new java.util.LinkedHashSet<>(report.verdictMetrics.stream()
        .flatMap(k -> Metric.of(k).stream()).toList());
    drawn.addAll(List.of(Metric.REQUEST_THROUGHPUT, Metric.MEAN_TTFT_MS, Metric.ENGINE_CACHE_HIT_RATE));
    for (Metric m : drawn) {
      charts.add(new Chart("strip", m.key(), MetricText.heading(m) + ": every run, the mean and its 95% interval",
          StripChart.draw(report, m)));
    }
    charts.addAll(cdfs(ctx));
    return charts;
  }
}
