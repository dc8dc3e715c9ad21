package dev.srt.operator.report;

import dev.srt.operator.verdict.Metric;
import java.util.List;
import java.util.Locale;

/**
 * How a metric is named and shown to a reader of the report: rates in percent, the unit next to the
 * name. The short headline names and the table cells themselves come from {@link
 * dev.srt.operator.verdict.Cells}, as in every other report.
 */
final class MetricText {
  /** The metrics the summary table shows, in its order (counts and durations are in the runs table). */
  static final List<Metric> SUMMARY = List.of(Metric.REQUEST_THROUGHPUT, Metric.GOODPUT, Metric.GOODPUT_RATIO, Metric.SHED_RATIO,
      Metric.OUTPUT_THROUGHPUT, Metric.MEAN_TTFT_MS, Metric.MEDIAN_TTFT_MS, Metric.P90_TTFT_MS, Metric.P99_TTFT_MS, Metric.MEAN_ITL_MS,
      Metric.MEDIAN_ITL_MS, Metric.P90_ITL_MS, Metric.P99_ITL_MS, Metric.MEAN_TPOT_MS, Metric.P99_TPOT_MS, Metric.MEAN_E2E_LATENCY_MS,
      Metric.P99_E2E_LATENCY_MS, Metric.ENGINE_CACHE_HIT_RATE, Metric.WORKER_REQUESTS_MAX_OVER_MIN, Metric.WORKER_REQUESTS_MAX_OVER_MEAN);

  private MetricText() {}

  static String name(Metric m) {
    return switch (m) {
      case REQUEST_THROUGHPUT -> "request throughput";
      case OUTPUT_THROUGHPUT -> "output throughput";
      case TOTAL_THROUGHPUT -> "total throughput";
      case MEAN_TTFT_MS -> "mean TTFT";
      case MEDIAN_TTFT_MS -> "median TTFT";
      case P99_TTFT_MS -> "p99 TTFT";
      case MEAN_ITL_MS -> "mean ITL";
      case P99_ITL_MS -> "p99 ITL";
      case P90_TTFT_MS -> "p90 TTFT";
      case MEDIAN_ITL_MS -> "median ITL";
      case P90_ITL_MS -> "p90 ITL";
      case MEAN_TPOT_MS -> "mean TPOT";
      case P99_TPOT_MS -> "p99 TPOT";
      case MEAN_E2E_LATENCY_MS -> "mean end-to-end latency";
      case P99_E2E_LATENCY_MS -> "p99 end-to-end latency";
      case GOODPUT -> "goodput";
      case GOODPUT_RATIO -> "goodput";
      case SHED_RATIO -> "shed by the router";
      case ENGINE_CACHE_HIT_RATE -> "engine cache hit rate";
      case WORKER_REQUESTS_MAX_OVER_MIN -> "worker requests max/min";
      case WORKER_REQUESTS_MAX_OVER_MEAN -> "worker requests max/mean";
      default -> m.key();
    };
  }

  /** The unit as shown: {@code %} for rates, none for ratios. */
  static String unit(Metric m) {
    return m.share() ? "%" : m.unit;
  }

  /** {@code request throughput (req/s)}, with which way is better: ↑ higher, ↓ lower. */
  static String heading(Metric m) {
    String arrow = switch (m.direction) {
      case HIGHER -> " ↑";
      case LOWER -> " ↓";
      case NONE -> "";
    };
    return name(m) + (unit(m).isEmpty() ? "" : " (" + unit(m) + ")") + arrow;
  }

  /** The value on the scale the report draws it: rates in percent. */
  static double shown(Metric m, double value) {
    return m.share() ? value * 100 : value;
  }

  /** {@code 150.20 req/s}, {@code 63.1%}, {@code 412.3 ms}. */
  static String valueWithUnit(Metric m, double value) {
    String number = m.share() ? String.format(Locale.ROOT, "%.1f", shown(m, value)) : m.format(value);
    String unit = unit(m);
    return unit.isEmpty() || unit.equals("%") ? number + unit : number + " " + unit;
  }
}
