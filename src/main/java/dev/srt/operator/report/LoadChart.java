package dev.srt.operator.report;

import dev.srt.operator.api.Capacity;
import dev.srt.operator.api.MetricSummary;
import dev.srt.operator.api.LoadSpec;
import dev.srt.operator.verdict.Cells;
import dev.srt.operator.verdict.ComparisonReport;
import dev.srt.operator.verdict.ComparisonReport.ArmReport;
import dev.srt.operator.verdict.ComparisonReport.LevelReport;
import dev.srt.operator.verdict.Metric;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * One metric against load over a ladder: per arm a line through its means at each level, with its
 * 95% interval as a shaded band, the load on a log axis when the ladder spans eight times or more
 * (so that 8, 16, 32, 64 are evenly spaced). The goodput chart adds the SLO's attainment as a
 * dashed line and each arm's capacity as a dashed mark where its curve crosses it.
 */
final class LoadChart {
  static final int WIDTH = 640;
  static final int HEIGHT = 280;
  private static final int LEFT = 64;
  private static final int RIGHT = 16;
  private static final int TOP = 14;
  private static final int BOTTOM = 64;

  private final ComparisonReport report;
  private final Metric metric;
  private final double minLoad;
  private final double maxLoad;
  private final boolean log;
  private final Scale scale;
  private final Svg svg;

  private LoadChart(ComparisonReport report, Metric metric, Double attainment) {
    this.report = report;
    this.metric = metric;
    List<Double> loads = new ArrayList<>();
    List<Double> values = new ArrayList<>();
    for (ArmReport arm : report.arms) {
      for (LevelReport level : arm.levels) {
        MetricSummary s = summary(level);
        if (level.load != null && s != null && s.mean != null) {
          loads.add(level.load);
          values.add(shown(s.mean));
          if (s.ci95 != null && s.ci95.size() == 2) {
            values.add(shown(s.ci95.get(0)));
            values.add(shown(s.ci95.get(1)));
          }
        }
      }
    }
    if (attainment != null) {
      values.add(shown(attainment));
    }
    minLoad = loads.stream().mapToDouble(d -> d).min().orElse(1);
    maxLoad = loads.stream().mapToDouble(d -> d).max().orElse(2);
    log = minLoad > 0 && maxLoad / minLoad >= 8;
    scale = values.isEmpty() ? Scale.covering(0, 1, true)
        : Scale.covering(values.stream().mapToDouble(d -> d).min().orElseThrow(), values.stream().mapToDouble(d -> d).max().orElseThrow(),
            metric.share());
    svg = new Svg(WIDTH, HEIGHT, MetricText.heading(metric) + " against load, per arm");
  }

  /** The chart of {@code metric}; {@code attainment} (goodput %) draws the SLO line and the capacities. */
  static String draw(ComparisonReport report, Metric metric, Double attainment) {
    LoadChart c = new LoadChart(report, metric, attainment);
    c.axes();
    for (int i = 0; i < report.arms.size(); i++) {
      c.arm(report.arms.get(i), Palette.of(i));
    }
    if (attainment != null) {
      c.capacities(attainment);
    }
    c.legend();
    return c.svg.end();
  }

  /** The value as drawn: no metric here is below 0 (an interval can reach below), no share above 100%. */
  private double shown(double value) {
    double v = Math.max(0, MetricText.shown(metric, value));
    return metric.share() ? Math.min(100, v) : v;
  }

  private MetricSummary summary(LevelReport level) {
    return level.summary == null ? null : level.summary.metrics.get(metric.key());
  }

  private double x(double load) {
    double f = log ? Math.log(load / minLoad) / Math.log(maxLoad / minLoad)
        : maxLoad == minLoad ? 0.5 : (load - minLoad) / (maxLoad - minLoad);
    return LEFT + 12 + f * (WIDTH - LEFT - RIGHT - 24);
  }

  private double y(double value) {
    return scale.y(value, TOP, HEIGHT - BOTTOM);
  }

  private void axes() {
    double bottom = HEIGHT - BOTTOM;
    for (double t : scale.ticks()) {
      svg.line(LEFT, y(t), WIDTH - RIGHT, y(t), "grid");
      svg.text(LEFT - 6, y(t) + 4, "end", "tick", scale.label(t));
    }
    svg.line(LEFT, TOP, LEFT, bottom, "axis");
    svg.line(LEFT, bottom, WIDTH - RIGHT, bottom, "axis");
    for (double load : ladder()) {
      svg.line(x(load), bottom, x(load), bottom + 4, "axis");
      svg.text(x(load), bottom + 16, "middle", "tick", LoadSpec.text(load));
    }
    svg.text((LEFT + WIDTH - RIGHT) / 2.0, bottom + 32, "middle", "tick",
        ("req/s".equals(report.loadUnit) ? "request rate (req/s)" : "requests in flight") + (log ? ", log scale" : ""));
  }

  private List<Double> ladder() {
    return report.arms.stream().flatMap(a -> a.levels.stream()).map(l -> l.load).filter(l -> l != null).distinct().sorted().toList();
  }

  private void arm(ArmReport arm, String colour) {
    List<double[]> means = new ArrayList<>();
    List<double[]> low = new ArrayList<>();
    List<double[]> high = new ArrayList<>();
    for (LevelReport level : arm.levels) {
      MetricSummary s = summary(level);
      if (level.load == null || s == null || s.mean == null) {
        continue;
      }
      means.add(new double[] {x(level.load), y(shown(s.mean))});
      if (s.ci95 != null && s.ci95.size() == 2) {
        low.add(new double[] {x(level.load), y(shown(s.ci95.get(0)))});
        high.add(new double[] {x(level.load), y(shown(s.ci95.get(1)))});
      }
    }
    if (low.size() >= 2) {
      List<double[]> band = new ArrayList<>(high);
      for (int i = low.size() - 1; i >= 0; i--) {
        band.add(low.get(i));
      }
      svg.polygon(band, "ci", colour, arm.name + ": 95% interval of the mean at each load");
    }
    svg.polyline(means, "curve", colour);
    for (int i = 0; i < means.size(); i++) {
      LevelReport level = arm.levels.stream().filter(l -> l.load != null && summary(l) != null && summary(l).mean != null)
          .toList().get(i);
      svg.circle(means.get(i)[0], means.get(i)[1], 3.5, "point", colour, arm.name + " at " + Cells.level(level.load, report.loadUnit)
          + ": " + MetricText.valueWithUnit(metric, summary(level).mean));
    }
  }

  private void capacities(double attainment) {
    double y = y(shown(attainment));
    svg.line(LEFT, y, WIDTH - RIGHT, y, "slo");
    svg.text(WIDTH - RIGHT - 2, y - 4, "end", "tick", String.format(Locale.ROOT, "SLO attainment %.0f%%", attainment * 100));
    for (int i = 0; i < report.arms.size(); i++) {
      Capacity c = report.arms.get(i).capacity;
      if (c == null || c.value == null || c.bound != null) {
        continue;
      }
      double x = x(Math.max(minLoad, Math.min(maxLoad, c.value)));
      svg.line(x, TOP, x, HEIGHT - BOTTOM, "capacity", Palette.of(i));
      svg.circle(x, y, 4.5, "run", Palette.of(i), report.arms.get(i).name + " capacity " + Cells.capacity(c));
    }
  }

  private void legend() {
    double x = LEFT;
    double y = HEIGHT - 10;
    for (int i = 0; i < report.arms.size(); i++) {
      ArmReport arm = report.arms.get(i);
      String name = arm.name.length() > 18 ? arm.name.substring(0, 17) + "…" : arm.name;
      svg.line(x, y - 4, x + 16, y - 4, "curve", Palette.of(i));
      svg.text(x + 20, y, "start", "arm", name);
      x += 40 + 7.5 * name.length();
    }
  }
}
