package dev.srt.operator.report;

import dev.srt.operator.api.MetricSummary;
import dev.srt.operator.verdict.Cells;
import dev.srt.operator.verdict.ComparisonReport;
import dev.srt.operator.verdict.ComparisonReport.ArmReport;
import dev.srt.operator.verdict.Metric;
import java.util.ArrayList;
import java.util.List;

/**
 * Each arm's mean on one metric as a bar from zero, with its 95% interval as a whisker (arms with
 * one run have no whisker) and the mean written above the bar.
 */
final class BarChart {
  private static final double WIDTH = 56;

  private BarChart() {}

  static String draw(ComparisonReport report, Metric metric) {
    List<String> arms = report.arms.stream().map(a -> a.name).toList();
    List<Double> all = new ArrayList<>();
    for (ArmReport arm : report.arms) {
      MetricSummary s = StripChart.summary(arm, metric);
      if (s != null && s.mean != null) {
        all.add(MetricText.shown(metric, s.mean));
      }
      if (s != null && s.ci95 != null && s.ci95.size() == 2) {
        all.add(MetricText.shown(metric, s.ci95.get(1)));
        all.add(MetricText.shown(metric, s.ci95.get(0)));
      }
    }
    double hi = all.stream().mapToDouble(d -> d).max().orElse(1);
    double lo = all.stream().mapToDouble(d -> d).min().orElse(0);
    // Headroom for the value written above the tallest bar.
    Scale scale = Scale.covering(lo, hi * 1.12, true);
    Frame f = new Frame(MetricText.heading(metric) + ": mean per arm with its 95% interval", arms, scale);
    for (int i = 0; i < report.arms.size(); i++) {
      ArmReport arm = report.arms.get(i);
      MetricSummary s = StripChart.summary(arm, metric);
      if (s == null || s.mean == null) {
        f.svg.text(f.x(i), f.bottom() - 6, "middle", "none", "no data");
        continue;
      }
      String colour = Palette.of(i);
      double mean = MetricText.shown(metric, s.mean);
      double top = Math.min(f.y(mean), f.y(0));
      f.svg.rect(f.x(i) - WIDTH / 2, top, WIDTH, Math.abs(f.y(0) - f.y(mean)), "bar", colour,
          arm.name + ": " + Cells.meanPlusMinus(arm.summary, metric) + " (" + arm.summary.n + " runs)");
      double labelY = f.y(mean) - 6;
      if (s.ci95 != null && s.ci95.size() == 2) {
        double yLow = f.y(MetricText.shown(metric, s.ci95.get(0)));
        double yHigh = f.y(MetricText.shown(metric, s.ci95.get(1)));
        f.svg.line(f.x(i), yLow, f.x(i), yHigh, "whisker");
        f.svg.line(f.x(i) - 9, yLow, f.x(i) + 9, yLow, "whisker");
        f.svg.line(f.x(i) - 9, yHigh, f.x(i) + 9, yHigh, "whisker");
        labelY = Math.min(labelY, yHigh - 6);
      }
      f.svg.text(f.x(i), labelY, "middle", "value", MetricText.valueWithUnit(metric, s.mean));
    }
    return f.svg.end();
  }
}
