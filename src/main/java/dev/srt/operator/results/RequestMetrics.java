package dev.srt.operator.results;

import dev.srt.operator.api.SloSpec;
import dev.srt.operator.base.Percentiles;
import java.math.BigDecimal;
import java.math.MathContext;
import java.util.Arrays;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;

/**
 * The numbers computed from a run's requests (one entry per request sent, failures included): the
 * latency percentiles (numpy's linear percentiles, as the tools' own) and, with an SLO, goodput.
 *
 * <p>A request meets the SLO when it succeeded and every threshold that is set holds: its TTFT, the
 * 99th percentile of its own inter-token gaps (ITL, judged per request as inference-perf does; a
 * request without gaps meets it), its TPOT (a request with fewer than two output tokens has none
 * and meets it) and its end-to-end latency. Goodput is the requests that met it per second of the
 * benchmark; the goodput ratio is them over every request sent. Failed requests count: a
 * benchmark whose every request failed has goodput 0 and a goodput ratio of 0 (a router that turns
 * every request away met the SLO for none), never "no goodput".
 */
final class RequestMetrics {
  private RequestMetrics() {}

  /**
   * @param durationSeconds the benchmark's duration, or NaN when the tool did not give it (then no goodput, only its ratio)
   * @param slo null without an SLO (then no goodput)
   */
  static Map<ResultMetric, String> of(List<RequestRecord> requests, double durationSeconds, SloSpec slo) {
    Map<ResultMetric, String> out = new EnumMap<>(ResultMetric.class);
    List<RequestRecord> ok = requests.stream().filter(RequestRecord::success).toList();
    if (ok.isEmpty()) {
      if (slo != null && !requests.isEmpty()) {
        put(out, ResultMetric.GOODPUT_RATIO, 0);
        if (durationSeconds > 0) {
          put(out, ResultMetric.GOODPUT, 0);
        }
      }
      return out;
    }
    double[] ttft = sorted(ok.stream().mapToDouble(RequestRecord::ttftMs));
    put(out, ResultMetric.MEAN_TTFT_MS, mean(ttft));
    put(out, ResultMetric.MEDIAN_TTFT_MS, Percentiles.of(ttft, 50));
    put(out, ResultMetric.P90_TTFT_MS, Percentiles.of(ttft, 90));
    put(out, ResultMetric.P99_TTFT_MS, Percentiles.of(ttft, 99));
    double[] gaps = sorted(ok.stream().flatMapToDouble(r -> Arrays.stream(r.itlsMs())));
    if (gaps.length > 0) {
      put(out, ResultMetric.MEAN_ITL_MS, mean(gaps));
      put(out, ResultMetric.MEDIAN_ITL_MS, Percentiles.of(gaps, 50));
      put(out, ResultMetric.P90_ITL_MS, Percentiles.of(gaps, 90));
      put(out, ResultMetric.P99_ITL_MS, Percentiles.of(gaps, 99));
    }
    double[] tpot = sorted(ok.stream().mapToDouble(RequestRecord::tpotMs).filter(v -> !Double.isNaN(v)));
    if (tpot.length > 0) {
      put(out, ResultMetric.MEAN_TPOT_MS, mean(tpot));
      put(out, ResultMetric.P99_TPOT_MS, Percentiles.of(tpot, 99));
    }
    double[] e2e = sorted(ok.stream().mapToDouble(RequestRecord::e2eMs).filter(v -> !Double.isNaN(v)));
    if (e2e.length > 0) {
      put(out, ResultMetric.MEAN_E2E_LATENCY_MS, mean(e2e));
      put(out, ResultMetric.P99_E2E_LATENCY_MS, Percentiles.of(e2e, 99));
    }
    if (slo != null) {
      long good = ok.stream().filter(r -> meets(r, slo)).count();
      put(out, ResultMetric.GOODPUT_RATIO, (double) good / requests.size());
      if (durationSeconds > 0) {
        put(out, ResultMetric.GOODPUT, good / durationSeconds);
      }
    }
    return out;
  }

  /** Whether a succeeded request meets every threshold of {@code slo} that is set. */
  static boolean meets(RequestRecord r, SloSpec slo) {
    if (slo.ttftMs != null && !(r.ttftMs() <= slo.ttftMs)) {
      return false;
    }
    if (slo.itlMs != null && r.itlsMs().length > 0 && !(Percentiles.of(sorted(Arrays.stream(r.itlsMs())), 99) <= slo.itlMs)) {
      return false;
    }
    if (slo.tpotMs != null && !Double.isNaN(r.tpotMs()) && !(r.tpotMs() <= slo.tpotMs)) {
      return false;
    }
    return slo.e2eMs == null || r.e2eMs() <= slo.e2eMs;
  }

  private static double[] sorted(java.util.stream.DoubleStream values) {
    return values.sorted().toArray();
  }

  private static double mean(double[] xs) {
    double sum = 0;
    for (double x : xs) {
      sum += x;
    }
    return sum / xs.length;
  }

  /** Finite non-negative values only, as plain decimals of at most 10 significant digits. */
  private static void put(Map<ResultMetric, String> out, ResultMetric metric, double value) {
    if (Double.isFinite(value) && value >= 0 && value <= ResultJson.MAX_DOUBLE) {
      out.put(metric, ResultJson.plain(new BigDecimal(value).round(new MathContext(10)).stripTrailingZeros()));
    }
  }
}
