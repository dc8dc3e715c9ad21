package dev.srt.operator.verdict;

import dev.srt.operator.api.ArmSummary;
import dev.srt.operator.api.Capacity;
import dev.srt.operator.api.MetricSummary;
import dev.srt.operator.api.Verdict;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * How a summary and a verdict read in every report (the table {@code apply} ends with, Markdown,
 * HTML), so that they all say the same thing the same way.
 */
public final class Cells {
  private Cells() {}

  /**
   * {@code 150.2 ± 4.1} (mean ± half the 95% interval), {@code 94.8 [86.0, 100.0]%} when the
   * interval is not symmetric (a share's, kept inside 0 to 100%), the value alone for one run,
   * {@code -} for none.
   */
  public static String meanPlusMinus(ArmSummary summary, Metric metric) {
    MetricSummary m = summary == null ? null : summary.metrics.get(metric.key());
    if (m == null || m.mean == null) {
      return "-";
    }
    double scale = metric.share() ? 100 : 1;
    String unit = metric.share() ? "%" : metric.unit.equals("ms") ? " ms" : "";
    String mean = shown(metric, m.mean * scale);
    if (m.ci95 == null || m.ci95.size() != 2) {
      return mean + unit;
    }
    double below = m.mean - m.ci95.get(0);
    double above = m.ci95.get(1) - m.mean;
    if (Math.abs(above - below) > 1e-9 * Math.max(1, Math.abs(m.mean))) {
      return mean + " [" + shown(metric, m.ci95.get(0) * scale) + ", " + shown(metric, m.ci95.get(1) * scale) + "]" + unit;
    }
    return mean + " ± " + shown(metric, (above + below) / 2 * scale) + unit;
  }

  /** A value as the metric shows it, a share (already in percent) to one decimal. */
  private static String shown(Metric metric, double value) {
    return metric.share() ? String.format(Locale.ROOT, "%.1f", value) : metric.format(value);
  }

  /** The short name of a metric: {@code req/s}, {@code p99 TTFT}, {@code goodput %}, {@code capacity}, ... */
  public static String label(String metricKey) {
    return switch (metricKey) {
      case "request_throughput" -> "req/s";
      case "output_throughput" -> "output tok/s";
      case "total_throughput" -> "total tok/s";
      case "mean_ttft_ms" -> "mean TTFT";
      case "median_ttft_ms" -> "p50 TTFT";
      case "p90_ttft_ms" -> "p90 TTFT";
      case "p99_ttft_ms" -> "p99 TTFT";
      case "mean_itl_ms" -> "mean ITL";
      case "median_itl_ms" -> "p50 ITL";
      case "p90_itl_ms" -> "p90 ITL";
      case "p99_itl_ms" -> "p99 ITL";
      case "mean_tpot_ms" -> "mean TPOT";
      case "p99_tpot_ms" -> "p99 TPOT";
      case "mean_e2e_latency_ms" -> "mean e2e";
      case "p99_e2e_latency_ms" -> "p99 e2e";
      case "goodput" -> "goodput";
      case "goodput_ratio" -> "goodput %";
      case "engine_cache_hit_rate" -> "cache hit";
      case "worker_requests_max_over_min" -> "requests max/min";
      case "worker_requests_max_over_mean" -> "requests max/mean";
      default -> metricKey;
    };
  }

  /** A load level as read: {@code c=32}, {@code 2.5 req/s}. */
  public static String level(Double load, String unit) {
    if (load == null) {
      return "-";
    }
    String v = Capacities.format(load);
    return "req/s".equals(unit) ? v + " req/s" : "c=" + v;
  }

  /** {@code +3.1% [-2.0, +8.2]}, or the difference alone when there is no interval, {@code -} when neither. */
  public static String delta(Verdict v) {
    if (v.deltaPct == null) {
      return "-";
    }
    String d = String.format(Locale.ROOT, "%+.1f%%", v.deltaPct);
    List<Double> ci = v.ci95Pct;
    return ci == null || ci.size() != 2 ? d : d + String.format(Locale.ROOT, " [%+.1f, %+.1f]", ci.get(0), ci.get(1));
  }

  /** {@code 0.0123 (Holm 0.0492)}: the raw and the adjusted p-value; {@code -} untested. */
  public static String pValues(Verdict v) {
    if (v.pValue == null) {
      return "-";
    }
    return p(v.pValue) + (v.pAdjusted == null ? "" : " (Holm " + p(v.pAdjusted) + ")");
  }

  /** {@code 0.0123}, {@code <0.0001}. */
  static String p(double p) {
    return p < 0.0001 ? "<0.0001" : String.format(Locale.ROOT, "%.4f", p);
  }

  /**
   * {@code 17.1% at α 0.0017}: the detectable effect and the level it is computed at, the verdict's
   * own after Holm; {@code -} untested.
   */
  public static String detectable(Verdict v) {
    if (v.mdePct == null) {
      return "-";
    }
    return String.format(Locale.ROOT, "%.1f%%", v.mdePct) + (v.alpha == null ? "" : " at α " + p(v.alpha));
  }

  /**
   * {@code req/s +3.1% [-2.0, +8.2] inconclusive (detects ≥ 6.1%)}: the detectable effect is given
   * where it explains the verdict, and an interval that excludes 0 under a verdict that is not
   * better or worse says why: {@code req/s +14.4% [+4.7, +24.2] inconclusive (not significant after
   * Holm: p 0.0030, Holm 0.0870; detects ≥ 17.1%)}.
   */
  public static String verdictLine(Verdict v) {
    List<String> why = new ArrayList<>();
    if (v.note != null) {
      why.add(v.note);
    }
    if (Verdicts.INCONCLUSIVE.equals(v.verdict) && v.mdePct != null) {
      why.add(String.format(Locale.ROOT, "detects ≥ %.1f%%", v.mdePct));
    }
    String line = label(v.metric) + " " + delta(v) + " " + v.verdict;
    return why.isEmpty() ? line : line + " (" + String.join("; ", why) + ")";
  }

  /** {@code 37.5 [31.2, 43.8] concurrency}, {@code > 64 concurrency}, {@code -} without one. */
  public static String capacity(Capacity c) {
    if (c == null || c.value == null) {
      return "-";
    }
    String unit = c.unit == null ? "" : " " + c.unit;
    if (c.bound != null) {
      return (Capacity.BELOW.equals(c.bound) ? "< " : "> ") + Capacities.format(c.value) + unit;
    }
    String ci = c.low == null || c.high == null ? "" : " [" + Capacities.format(c.low) + ", " + Capacities.format(c.high) + "]";
    return Capacities.format(c.value) + ci + unit;
  }

  /** The failed-request share of an arm, {@code 0.4%}, or {@code -} when the benchmark did not say. */
  public static String failedRatio(ArmSummary summary) {
    return summary == null || summary.failedRatio == null ? "-" : String.format(Locale.ROOT, "%.1f%%", summary.failedRatio * 100);
  }
}
