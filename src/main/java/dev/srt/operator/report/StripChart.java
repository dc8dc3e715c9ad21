package dev.srt.operator.report;

import dev.srt.operator.api.ArmPhase;
import dev.srt.operator.api.ArmRun;
import dev.srt.operator.api.MetricSummary;
import dev.srt.operator.verdict.ComparisonReport;
import dev.srt.operator.verdict.ComparisonReport.ArmReport;
import dev.srt.operator.verdict.Metric;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * Every run of every arm on one metric: a dot per run (spread sideways by repetition so that equal
 * values stay visible), the arm's mean as a bar across, and its 95% interval as a shaded box. Runs
 * that did not succeed but still reported the metric are drawn hollow: they are not in the
 * summary.
 */
final class StripChart {
  private static final double SPREAD = 40;

  private StripChart() {}

  static String draw(ComparisonReport report, Metric metric) {
    List<String> arms = report.arms.stream().map(a -> a.name).toList();
    List<Double> all = new ArrayList<>();
    for (ArmReport arm : report.arms) {
      arm.runs.forEach(r -> value(r, metric).ifPresent(all::add));
      MetricSummary s = summary(arm, metric);
      if (s != null && s.ci95 != null && s.ci95.size() == 2) {
        all.add(MetricText.shown(metric, s.ci95.get(0)));
        all.add(MetricText.shown(metric, s.ci95.get(1)));
      }
    }
    Scale scale = all.isEmpty() ? Scale.covering(0, 1, true)
        : Scale.covering(all.stream().mapToDouble(d -> d).min().orElseThrow(), all.stream().mapToDouble(d -> d).max().orElseThrow(), false);
    Frame f = new Frame(MetricText.heading(metric) + ": every run of every arm", arms, scale);
    for (int i = 0; i < report.arms.size(); i++) {
      ArmReport arm = report.arms.get(i);
      String colour = Palette.of(i);
      MetricSummary s = summary(arm, metric);
      if (s != null && s.ci95 != null && s.ci95.size() == 2) {
        double hi = f.y(MetricText.shown(metric, s.ci95.get(1)));
        double lo = f.y(MetricText.shown(metric, s.ci95.get(0)));
        f.svg.rect(f.x(i) - SPREAD / 2 - 6, hi, SPREAD + 12, lo - hi, "ci", colour,
            arm.name + " 95% interval " + MetricText.valueWithUnit(metric, s.ci95.get(0)) + " to "
                + MetricText.valueWithUnit(metric, s.ci95.get(1)));
      }
      if (s != null && s.mean != null) {
        double y = f.y(MetricText.shown(metric, s.mean));
        f.svg.line(f.x(i) - SPREAD / 2 - 10, y, f.x(i) + SPREAD / 2 + 10, y, "mean", colour);
      }
      List<ArmRun> plotted = arm.runs.stream().filter(r -> value(r, metric).isPresent()).toList();
      for (int j = 0; j < plotted.size(); j++) {
        ArmRun r = plotted.get(j);
        double dx = plotted.size() == 1 ? 0 : SPREAD * (j / (plotted.size() - 1.0) - 0.5);
        boolean counted = r.phase() == ArmPhase.Succeeded;
        f.svg.circle(f.x(i) + dx, f.y(value(r, metric).orElseThrow()), 4.5, counted ? "run" : "run excluded",
            counted ? colour : "#ffffff", runTitle(arm.name, r, metric));
      }
    }
    return f.svg.end();
  }

  private static String runTitle(String arm, ArmRun r, Metric metric) {
    return arm + " run " + (r.repetition == null ? "?" : r.repetition) + " (" + r.runId + ", " + r.phase + "): "
        + MetricText.valueWithUnit(metric, metric.of(r.results));
  }

  private static Optional<Double> value(ArmRun r, Metric metric) {
    Double v = metric.of(r.results);
    return v == null || !Double.isFinite(v) ? Optional.empty() : Optional.of(MetricText.shown(metric, v));
  }

  static MetricSummary summary(ArmReport arm, Metric metric) {
    return arm.summary == null ? null : arm.summary.metrics.get(metric.key());
  }
}
