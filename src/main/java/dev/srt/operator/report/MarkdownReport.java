package dev.srt.operator.report;

import dev.srt.operator.config.Echo;
import dev.srt.operator.verdict.ComparisonReport;
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
  private MarkdownReport() {}

  public static String render(ReportContext ctx) {
    ComparisonReport report = ctx.report();
    StringBuilder out = new StringBuilder();
    out.append("## Router comparison ").append(cell(report.comparison)).append("\n\n");
    out.append(report.arms.size()).append(" arms, ").append(report.arms.stream().mapToInt(a -> a.runs.size()).sum())
        .append(" runs, baseline **").append(cell(report.baseline)).append("**; read from ").append(cell(ctx.source() == null ? "-" : ctx.source()))
        .append(", generated ").append(DateTimeFormatter.ISO_INSTANT.format(ctx.generatedAt().truncatedTo(ChronoUnit.SECONDS).atOffset(ZoneOffset.UTC)))
        .append(".\n\n");

    out.append("### Verdicts against ").append(cell(report.baseline)).append("\n\n");
    List<ReportTables.VerdictRow> verdicts = ReportTables.verdicts(report);
    if (verdicts.isEmpty()) {
      out.append("No verdicts: they need a baseline arm and at least one other arm.\n\n");
    } else {
      List<List<String>> rows = new ArrayList<>();
      verdicts.forEach(v -> rows.add(List.of(cell(v.arm()), cell(v.metric()), v.delta(), v.interval(),
          v.mark() + " **" + cell(v.verdict()) + "**")));
      table(out, List.of("arm", "metric", "difference", "95% interval", "verdict"), List.of(false, false, true, true, false), rows);
      List<String> reasons = ReportTables.notComparable(report);
      if (!reasons.isEmpty()) {
        out.append("Not comparable:\n\n");
        reasons.forEach(r -> out.append("- ").append(cell(r)).append('\n'));
        out.append('\n');
      }
    }

    out.append("### Per-arm summary (mean ± half 95% interval)\n\n");
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

    out.append("### Runs\n\n");
    table(out, List.of("arm", "rep.", "run id", "phase", "started", "run directory", "message"), List.of(false, true, false, false, false, false, false),
        ReportTables.runs(report).stream()
            .map(r -> List.of(cell(r.arm()), cell(r.repetition()), code(r.runId()), cell(r.phase()), cell(r.startedAt()), code(r.runDir()),
                cell(r.message())))
            .toList());
    return out.toString();
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
