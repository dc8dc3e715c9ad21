package dev.srt.operator.report;

import dev.srt.operator.config.Echo;
import dev.srt.operator.api.ArmRun;
import dev.srt.operator.api.BenchmarkResults;
import dev.srt.operator.api.LevelResults;
import dev.srt.operator.verdict.Cells;
import dev.srt.operator.verdict.ComparisonReport;
import dev.srt.operator.verdict.Metric;
import dev.srt.operator.api.Verdict;
import dev.srt.operator.verdict.Verdicts;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;

/**
 * The report's tables as GitHub Markdown, for pasting into a pull request: verdicts, per-arm
 * summary, what was held constant, and the runs. The rows are those of the HTML report.
 */
public final class MarkdownReport {
  /** What the verdict words and columns mean; the HTML report says the same. */
  static final String VERDICT_NOTE = "Difference: (arm mean − baseline mean) / baseline mean, its 95% interval by Fieller's method "
      + "(the ratios Welch's test does not reject, never below −100%). p: Welch's test, then Holm–Bonferroni over every verdict of "
      + "its family (over a ladder, the capacity verdicts are one family and the verdicts at each load the other). better/worse: "
      + "adjusted p ≤ 0.05, in the metric's direction (↑ higher is better, ↓ lower is better); equivalent: the 90% interval lies "
      + "within the equivalence margin (two one-sided tests); inconclusive: neither, and differences under the detectable effect "
      + "(80% power at α, the level Holm decided the verdict at) could not have been seen; an interval that excludes 0 without a "
      + "better or worse is not significant after Holm. not-comparable: a side has fewer than 2 succeeded runs or failed too many "
      + "requests, neither side's runs vary, or the baseline's runs do not tell its mean from 0.";

  private MarkdownReport() {}

  public static String render(ReportContext ctx) {
    ComparisonReport report = ctx.report();
    StringBuilder out = new StringBuilder();
    out.append("## Router comparison ").append(cell(report.comparison)).append("\n\n");
    out.append(report.arms.size()).append(" arms, ").append(report.arms.stream().mapToInt(a -> a.runs.size()).sum())
        .append(" runs, baseline **").append(cell(report.baseline)).append("**; read from ").append(cell(ctx.source() == null ? "-" : ctx.source()))
        .append(", generated ").append(DateTimeFormatter.ISO_INSTANT.format(ctx.generatedAt().truncatedTo(ChronoUnit.SECONDS).atOffset(ZoneOffset.UTC)))
        .append(ctx.generator() == null ? "" : " by " + cell(ctx.generator())).append(".\n\n");
    ctx.notes().forEach(n -> out.append("> **Note:** ").append(cell(n)).append("\n\n"));

    boolean ladder = report.loadUnit != null;
    if (ladder) {
      capacity(out, ctx);
    }
    out.append("### Verdicts against ").append(cell(report.baseline)).append(ladder ? " at each load" : "").append("\n\n");
    List<ReportTables.VerdictRow> verdicts = report.verdicts.stream().filter(v -> !ladder || !Verdicts.CAPACITY.equals(v.metric))
        .map(v -> ReportTables.verdict(v, report.loadUnit)).toList();
    if (verdicts.isEmpty()) {
      out.append("No verdicts: they need a baseline arm and at least one other arm.\n\n");
    } else {
      List<List<String>> rows = new ArrayList<>();
      verdicts.forEach(v -> {
        List<String> row = new ArrayList<>(List.of(cell(v.arm())));
        if (ladder) {
          row.add(cell(v.level()));
        }
        row.addAll(List.of(cell(v.metric()), v.delta(), v.interval(), cell(v.p()), cell(v.detectable()), verdictCell(v)));
        rows.add(row);
      });
      List<String> header = new ArrayList<>(List.of("arm"));
      List<Boolean> right = new ArrayList<>(List.of(false));
      if (ladder) {
        header.add("load");
        right.add(true);
      }
      header.addAll(List.of("metric", "difference", "95% interval", "p (Holm)", "detectable", "verdict"));
      right.addAll(List.of(false, true, true, true, true, false));
      table(out, header, right, rows);
      out.append(VERDICT_NOTE).append("\n\n");
      List<String> reasons = ReportTables.notComparable(report);
      if (!reasons.isEmpty()) {
        out.append("Not comparable:\n\n");
        reasons.forEach(r -> out.append("- ").append(cell(r)).append('\n'));
        out.append('\n');
      }
    }
    if (!report.warnings.isEmpty()) {
      out.append("Warnings:\n\n");
      report.warnings.forEach(w -> out.append("- ").append(cell(w)).append('\n'));
      out.append('\n');
    }

    if (ladder) {
      perLevel(out, report);
    }
    out.append("### Per-arm summary (mean ± half 95% interval)").append(ladder ? ", over every level" : "").append("\n\n");
    List<String> header = new ArrayList<>(List.of(""));
    List<Boolean> right = new ArrayList<>(List.of(false));
    report.arms.forEach(a -> {
      header.add(a.name.equals(report.baseline) ? a.name + " (baseline)" : a.name);
      right.add(true);
    });
    List<List<String>> summary = new ArrayList<>();
    for (ReportTables.SummaryRow r : ReportTables.summary(report)) {
      List<String> row = new ArrayList<>(List.of(cell(r.label())));
      r.cells().forEach(c -> row.add(cell(c)));
      summary.add(row);
    }
    table(out, header, right, summary);

    out.append("### Held constant\n\n");
    table(out, List.of("", "value"), List.of(false, false),
        HeldConstant.of(ctx, ArmDifferences.of(ctx)).stream().map(f -> List.of(cell(f.label()), code(f.value()))).toList());

    provenance(out, report);

    out.append("### Runs\n\n");
    table(out, List.of("arm", "rep.", "run id", "phase", "started", "run directory", "message"), List.of(false, true, false, false, false, false, false),
        ReportTables.runs(report).stream()
            .map(r -> List.of(cell(r.arm()), cell(r.repetition()), code(r.runId()), cell(r.phase()), cell(r.startedAt()), code(r.runDir()),
                cell(r.message())))
            .toList());
    runValues(out, report);
    return out.toString();
  }

  /**
   * The answer a ladder is run for, first: each arm's capacity at the SLO with its interval, and
   * its verdict against the baseline (a family of its own for Holm).
   */
  private static void capacity(StringBuilder out, ReportContext ctx) {
    ComparisonReport report = ctx.report();
    out.append("### Capacity at the SLO\n\n");
    List<List<String>> rows = new ArrayList<>();
    for (ComparisonReport.ArmReport arm : report.arms) {
      Verdict v = report.verdicts.stream().filter(x -> x.arm.equals(arm.name) && Verdicts.CAPACITY.equals(x.metric)).findFirst()
          .orElse(null);
      ReportTables.VerdictRow row = v == null ? null : ReportTables.verdict(v, report.loadUnit);
      String verdict = arm.name.equals(report.baseline) ? "baseline" : row == null ? "-" : verdictCell(row)
          + (row.reason().isEmpty() ? "" : " (" + cell(row.reason()) + ")");
      rows.add(List.of(cell(arm.name), cell(Cells.capacity(arm.capacity)), row == null ? "-" : row.delta(), row == null ? "-" : row.interval(),
          row == null ? "-" : cell(row.p()), verdict));
    }
    table(out, List.of("arm", "capacity [95% interval]", "difference", "95% interval", "p (Holm)", "verdict"),
        List.of(false, true, true, true, true, false), rows);
    var slo = ctx.comparison().getSpec().slo;
    out.append("Capacity: the load at which fewer than ").append(slo == null ? "-" : java.math.BigDecimal.valueOf(slo.attainmentOrDefault()).movePointRight(2).stripTrailingZeros().toPlainString())
        .append("% of requests first meet the SLO, climbing the ladder, interpolated between the last level that met it and that "
            + "first miss (< the lowest level: even it misses; > the highest: every level meets); its interval stays inside 0 to the "
            + "highest level. The capacity verdicts are a Holm family of their own.\n\n");
  }

  /** {@code ~ **inconclusive** (not significant after Holm: p 0.0030, Holm 0.0870)}: the word, and what qualifies it. */
  private static String verdictCell(ReportTables.VerdictRow v) {
    return v.mark() + " **" + cell(v.verdict()) + "**" + (v.note().isEmpty() ? "" : " (" + cell(v.note()) + ")");
  }

  /** Each verdict metric at each load: a row per level, a column per arm (mean ± half its 95% interval). */
  private static void perLevel(StringBuilder out, ComparisonReport report) {
    out.append("### At each load (mean ± half 95% interval)\n\n");
    List<Double> loads = report.arms.stream().flatMap(a -> a.levels.stream()).map(l -> l.load).filter(l -> l != null).distinct().sorted()
        .toList();
    List<String> header = new ArrayList<>(List.of("load"));
    List<Boolean> right = new ArrayList<>(List.of(true));
    report.arms.forEach(a -> {
      header.add(a.name.equals(report.baseline) ? a.name + " (baseline)" : a.name);
      right.add(true);
    });
    for (Metric m : report.verdictMetrics.stream().flatMap(k -> Metric.of(k).stream()).toList()) {
      out.append("**").append(cell(MetricText.heading(m))).append("**\n\n");
      List<List<String>> rows = new ArrayList<>();
      for (Double load : loads) {
        List<String> row = new ArrayList<>(List.of(cell(Cells.level(load, report.loadUnit))));
        report.arms.forEach(a -> row.add(cell(Cells.meanPlusMinus(a.at(load), m))));
        rows.add(row);
      }
      table(out, header, right, rows);
    }
  }

  /** Every run's own value of each verdict metric (at each level of a ladder), folded away. */
  private static void runValues(StringBuilder out, ComparisonReport report) {
    // what each run actually measured comes first: the requests that completed and failed
    List<Metric> metrics = java.util.stream.Stream.concat(java.util.stream.Stream.of(Metric.COMPLETED, Metric.FAILED),
        report.verdictMetrics.stream().flatMap(k -> Metric.of(k).stream()).filter(m -> m != Metric.COMPLETED && m != Metric.FAILED)).toList();
    boolean ladder = report.loadUnit != null;
    List<List<String>> rows = new ArrayList<>();
    for (ComparisonReport.ArmReport arm : report.arms) {
      for (ArmRun run : arm.runs) {
        List<LevelResults> levels = ladder && run.levels != null ? run.levels : null;
        if (levels == null) {
          rows.add(values(arm.name, run, null, run.results, metrics, report.loadUnit));
        } else {
          levels.forEach(l -> rows.add(values(arm.name, run, l.load, l.results, metrics, report.loadUnit)));
        }
      }
    }
    if (rows.isEmpty() || metrics.isEmpty()) {
      return;
    }
    List<String> header = new ArrayList<>(List.of("arm", "rep.", "run id"));
    List<Boolean> right = new ArrayList<>(List.of(false, true, false));
    if (ladder) {
      header.add("load");
      right.add(true);
    }
    metrics.forEach(m -> {
      header.add(m == Metric.COMPLETED ? "completed" : m == Metric.FAILED ? "failed" : MetricText.heading(m));
      right.add(true);
    });
    out.append("<details><summary>Run values: each run's own numbers").append(ladder ? " at each load" : "")
        .append("</summary>\n\n");
    table(out, header, right, rows);
    out.append("</details>\n\n");
  }

  private static List<String> values(String arm, ArmRun run, Double load, BenchmarkResults results, List<Metric> metrics, String unit) {
    List<String> row = new ArrayList<>(List.of(cell(arm), cell(run.repetition == null ? "-" : String.valueOf(run.repetition)), code(run.runId)));
    if (unit != null) {
      row.add(cell(Cells.level(load, unit)));
    }
    for (Metric m : metrics) {
      Double v = m.of(results);
      row.add(v == null ? "-" : cell(MetricText.valueWithUnit(m, v)));
    }
    return row;
  }

  /** The provenance table ({@link Provenance}): ≠ marks a held-constant fact that differs, and routing the router's facts. */
  private static void provenance(StringBuilder out, ComparisonReport report) {
    out.append("### Provenance (the runs' facts)\n\n");
    List<Provenance.Row> rows = Provenance.rows(report);
    if (rows.isEmpty()) {
      out.append("No run has facts.\n\n");
      return;
    }
    out.append("**≠** a held-constant fact that differs between runs (verdicts over them are not comparable); *routing* the router's own facts.\n\n");
    List<String> header = new ArrayList<>(List.of("fact"));
    List<Boolean> right = new ArrayList<>(List.of(false));
    report.arms.forEach(a -> {
      header.add(a.name);
      right.add(false);
    });
    List<List<String>> table = new ArrayList<>();
    for (Provenance.Row r : rows) {
      List<String> row = new ArrayList<>(List.of((r.alarm() ? "**≠** " : "") + code(r.name()) + (r.routing() ? " *routing*" : "")));
      r.cells().forEach(c -> row.add(r.alarm() ? "**" + code(c) + "**" : code(c)));
      table.add(row);
    }
    table(out, header, right, table);
  }

  /** A table of {@code rows} already in Markdown, under {@code header} (plain text). */
  private static void table(StringBuilder out, List<String> header, List<Boolean> rightAligned, List<List<String>> rows) {
    out.append('|');
    header.forEach(h -> out.append(' ').append(cell(h)).append(" |"));
    out.append("\n|");
    rightAligned.forEach(r -> out.append(r ? " ---: |" : " --- |"));
    out.append('\n');
    for (List<String> row : rows) {
      out.append('|');
      row.forEach(c -> out.append(' ').append(c).append(" |"));
      out.append('\n');
    }
    out.append('\n');
  }

  /**
   * A value as a code span, so that a path or flags keep their underscores and asterisks. A code
   * span shows {@code \|} literally on GitHub only inside tables, which is where it is used; its
   * backticks are chosen longer than any run of backticks in the value.
   */
  private static String code(String value) {
    if (value == null || value.isEmpty() || value.equals("-")) {
      return "-";
    }
    String fence = "`";
    while (value.contains(fence)) {
      fence += "`";
    }
    String body = Echo.escape(value.replace("\r", " ").replace("\n", " ")).replace("|", "\\|");
    String pad = body.startsWith("`") || body.endsWith("`") ? " " : "";
    return fence + pad + body + pad + fence;
  }

  /**
   * Text in a table cell: {@code |} would end the cell and a line break the row; markup and
   * Markdown's own characters are escaped so that a spec value shows as it is written.
   */
  static String cell(String value) {
    if (value == null) {
      return "";
    }
    StringBuilder b = new StringBuilder();
    // Control characters (ESC, BEL, ...) become \\uXXXX text: the Markdown is printed to terminals too.
    for (char c : Echo.escape(value.replace('\r', ' ').replace('\n', ' ')).toCharArray()) {
      switch (c) {
        case '|' -> b.append("\\|");
        case '\n', '\r' -> b.append(' ');
        case '<' -> b.append("&lt;");
        case '>' -> b.append("&gt;");
        case '&' -> b.append("&amp;");
        case '\\', '*', '_', '`', '[', ']' -> b.append('\\').append(c);
        default -> b.append(c);
      }
    }
    return b.toString();
  }
}
