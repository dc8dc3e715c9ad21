package dev.srt.operator.report;

import dev.srt.operator.verdict.Cells;
import dev.srt.operator.verdict.LatencyQuantiles;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.Function;

/**
 * Overlaid CDFs of one latency (TTFT or ITL), one curve per arm: the share of requests (of gaps,
 * for ITL) at or under each latency, drawn through the arm's 101 averaged quantiles. The latency
 * axis is logarithmic when the distributions span eight times or more, so that a long tail and the
 * body both read.
 */
final class CdfChart {
  static final int WIDTH = 640;
  static final int HEIGHT = 260;
  private static final int LEFT = 64;
  private static final int RIGHT = 16;
  private static final int TOP = 14;
  private static final int BOTTOM = 64;

  /** Which latency a chart draws. */
  enum Latency {
    TTFT("TTFT", "time to first token (ms)", LatencyQuantiles::ttftMs),
    ITL("ITL", "inter-token latency (ms)", LatencyQuantiles::itlMs);

    final String name;
    final String axis;
    final Function<LatencyQuantiles, double[]> quantiles;

    Latency(String name, String axis, Function<LatencyQuantiles, double[]> quantiles) {
      this.name = name;
      this.axis = axis;
      this.quantiles = quantiles;
    }
  }

  private final double lo;
  private final double hi;
  private final boolean log;
  private final Svg svg;

  private CdfChart(double lo, double hi, String label) {
    this.log = lo > 0 && hi / lo >= 8;
    Scale linear = Scale.covering(lo, hi, true);
    this.lo = log ? lo : linear.min();
    this.hi = log ? hi : linear.max();
    this.svg = new Svg(WIDTH, HEIGHT, label);
  }

  /**
   * The chart of {@code latency} for the arms of {@code d} that have it, coloured as in the rest of
   * the report ({@code armOrder} gives each arm's place); null when no arm has it.
   */
  static String draw(Distributions d, Latency latency, List<String> armOrder, String loadUnit) {
    List<String> arms = new ArrayList<>();
    double lo = Double.POSITIVE_INFINITY;
    double hi = 0;
    for (Map.Entry<String, LatencyQuantiles> e : d.arms().entrySet()) {
      double[] q = latency.quantiles.apply(e.getValue());
      if (q.length == LatencyQuantiles.POINTS) {
        arms.add(e.getKey());
        lo = Math.min(lo, q[0]);
        hi = Math.max(hi, q[q.length - 1]);
      }
    }
    if (arms.isEmpty()) {
      return null;
    }
    String at = d.load() == null ? "" : " at " + Cells.level(d.load(), loadUnit);
    CdfChart c = new CdfChart(lo, hi > lo ? hi : lo + 1, latency.name + " distribution" + at + ", per arm");
    c.axes(latency);
    for (String arm : arms) {
      int place = Math.max(0, armOrder.indexOf(arm));
      c.curve(arm, latency.quantiles.apply(d.arms().get(arm)), Palette.of(place), latency);
    }
    c.legend(arms, armOrder);
    return c.svg.end();
  }

  private double x(double ms) {
    double f = log ? Math.log(Math.max(ms, lo) / lo) / Math.log(hi / lo) : (ms - lo) / (hi - lo);
    return LEFT + f * (WIDTH - LEFT - RIGHT);
  }

  private static double y(double percent) {
    return HEIGHT - BOTTOM - percent / 100 * (HEIGHT - BOTTOM - TOP);
  }

  private void axes(Latency latency) {
    double bottom = HEIGHT - BOTTOM;
    for (int p = 0; p <= 100; p += 25) {
      svg.line(LEFT, y(p), WIDTH - RIGHT, y(p), "grid");
      svg.text(LEFT - 6, y(p) + 4, "end", "tick", p + "%");
    }
    svg.line(LEFT, TOP, LEFT, bottom, "axis");
    svg.line(LEFT, bottom, WIDTH - RIGHT, bottom, "axis");
    for (double t : ticks()) {
      svg.line(x(t), bottom, x(t), bottom + 4, "axis");
      svg.text(x(t), bottom + 16, "middle", "tick", label(t));
    }
    svg.text((LEFT + WIDTH - RIGHT) / 2.0, bottom + 32, "middle", "tick", latency.axis + (log ? ", log scale" : "")
        + "; share of " + (latency == Latency.ITL ? "gaps" : "requests") + " at or under it");
  }

  /**
   * On a log axis 1, 2 and 5 times each power of ten inside it, or the powers of ten alone when it
   * spans more than three decades (labels would collide); else round steps.
   */
  private List<Double> ticks() {
    if (!log) {
      return Scale.covering(lo, hi, true).ticks();
    }
    List<Double> out = new ArrayList<>();
    double[] steps = Math.log10(hi / lo) > 3 ? new double[] {1} : new double[] {1, 2, 5};
    for (double power = Math.pow(10, Math.floor(Math.log10(lo))); power <= hi; power *= 10) {
      for (double f : steps) {
        double t = f * power;
        if (t >= lo && t <= hi) {
          out.add(t);
        }
      }
    }
    return out;
  }

  /** {@code 2000}, {@code 5}, {@code 0.5}, {@code 0.005}: two significant digits at most, no trailing zeros. */
  private static String label(double ms) {
    if (ms >= 10) {
      return String.format(Locale.ROOT, "%.0f", ms);
    }
    return new java.math.BigDecimal(ms).round(new java.math.MathContext(2)).stripTrailingZeros().toPlainString();
  }

  private void curve(String arm, double[] q, String colour, Latency latency) {
    List<double[]> points = new ArrayList<>();
    for (int p = 0; p < q.length; p++) {
      points.add(new double[] {x(q[p]), y(p)});
    }
    svg.polyline(points, "curve", colour);
    for (int p : new int[] {50, 90, 99}) {
      svg.circle(x(q[p]), y(p), 3, "point", colour, String.format(Locale.ROOT, "%s: p%d %s %s ms", arm, p, latency.name, label(q[p])));
    }
  }

  private void legend(List<String> arms, List<String> armOrder) {
    double x = LEFT;
    double y = HEIGHT - 10;
    for (String arm : arms) {
      String name = arm.length() > 18 ? arm.substring(0, 17) + "…" : arm;
      String colour = Palette.of(Math.max(0, armOrder.indexOf(arm)));
      svg.line(x, y - 4, x + 16, y - 4, "curve", colour);
      svg.text(x + 20, y, "start", "arm", name);
      x += 40 + 7.5 * name.length();
    }
  }
}
