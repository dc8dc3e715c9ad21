package dev.srt.operator.verdict;

import dev.srt.operator.api.ArmSummary;
import dev.srt.operator.api.MetricSummary;
import dev.srt.operator.api.Verdict;
import java.util.List;
import java.util.Locale;

/**
 * How a summary and a verdict read in every report (the table {@code apply} ends with, Markdown,
 * HTML), so that they all say the same thing the same way.
 */
public final class Cells {
  private Cells() {}

  /** {@code 150.2 ± 4.1} (mean ± half the 95% interval), the value alone for one run, {@code -} for none. */
  public static String meanPlusMinus(ArmSummary summary, Metric metric) {
    MetricSummary m = summary == null ? null : summary.metrics.get(metric.key());
    if (m == null || m.mean == null) {
      return "-";
    }
    double scale = metric == Metric.ENGINE_CACHE_HIT_RATE ? 100 : 1;
    String unit = metric == Metric.ENGINE_CACHE_HIT_RATE ? "%" : metric.unit.equals("ms") ? " ms" : "";
    String format = metric == Metric.ENGINE_CACHE_HIT_RATE ? "%.1f" : null;
    String mean = format != null ? String.format(Locale.ROOT, format, m.mean * scale) : metric.format(m.mean);
    if (m.ci95 == null || m.ci95.size() != 2) {
      return mean + unit;
    }
    double half = (m.ci95.get(1) - m.ci95.get(0)) / 2 * scale;
    String h = format != null ? String.format(Locale.ROOT, format, half) : metric.format(half);
    return mean + " ± " + h + unit;
  }

  /** The short name of a headline metric: {@code req/s}, {@code mean TTFT}, {@code p99 TTFT}, {@code cache hit}. */
  public static String label(String metricKey) {
    return switch (metricKey) {
      case "request_throughput" -> "req/s";
      case "mean_ttft_ms" -> "mean TTFT";
      case "p99_ttft_ms" -> "p99 TTFT";
      case "engine_cache_hit_rate" -> "cache hit";
      default -> metricKey;
    };
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

  /** {@code req/s +3.1% [-2.0, +8.2] no-difference}. */
  public static String verdictLine(Verdict v) {
    return label(v.metric) + " " + delta(v) + " " + v.verdict;
  }

  /** The failed-request share of an arm, {@code 0.4%}, or {@code -} when the benchmark did not say. */
  public static String failedRatio(ArmSummary summary) {
    return summary == null || summary.failedRatio == null ? "-" : String.format(Locale.ROOT, "%.1f%%", summary.failedRatio * 100);
  }
}
