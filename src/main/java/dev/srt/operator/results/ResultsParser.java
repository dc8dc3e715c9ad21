package dev.srt.operator.results;

import dev.srt.operator.api.SloSpec;
import dev.srt.operator.results.ResultJson.Malformed;
import dev.srt.operator.verdict.LatencyQuantiles;
import java.util.Arrays;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;

/**
 * Computes the numbers of one results directory (a run's, or one level's of a ladder) from the
 * contents of its result files ({@link ResultFile}): the client's numbers from bench_serving's last
 * row ({@link BenchServingRow}) or AIPerf's export ({@link AiPerfExport}) under bench_serving's
 * names; from the requests they recorded ({@code --output-details}, AIPerf's records) the latency
 * percentiles the tool did not give itself and, with an SLO, goodput ({@link RequestMetrics}); and
 * from the two scrapes around the benchmark the engines' own numbers ({@link EngineScrapes}).
 *
 * <p>Only known keys are read, and each must be a finite non-negative number (a non-finite one, as
 * Python's json writes for "no value", is left out); counts are bounded. A file that breaks any of
 * this gives no results at all, with the reason; nothing here throws on content.
 */
public final class ResultsParser {
  private ResultsParser() {}

  /**
   * The numbers of the fetched files (a file that is absent is not in the map; for {@link
   * ResultFile#BENCH_SERVING} the value is its last row).
   *
   * @param slo the comparison's SLO, or null (then no goodput)
   * @param dir the results directory, relative to the run directory (named in problems)
   */
  public static RunResults parse(Map<ResultFile, byte[]> files, SloSpec slo, String dir) {
    for (Map.Entry<ResultFile, byte[]> f : files.entrySet()) {
      if (f.getValue().length > f.getKey().maxBytes) {
        return RunResults.none(dir + "/" + f.getKey().path + (f.getKey() == ResultFile.BENCH_SERVING ? ": its last row" : "")
            + " is larger than " + f.getKey().maxBytes / 1024 + " KiB");
      }
    }
    try {
      Map<ResultMetric, String> metrics = new EnumMap<>(ResultMetric.class);
      List<RequestRecord> requests = List.of();
      if (files.containsKey(ResultFile.BENCH_SERVING)) {
        BenchServingRow.Parsed row = BenchServingRow.parse(files.get(ResultFile.BENCH_SERVING));
        metrics.putAll(row.summary());
        requests = row.requests();
      } else if (files.containsKey(ResultFile.AIPERF)) {
        metrics.putAll(AiPerfExport.parse(files.get(ResultFile.AIPERF)));
        if (files.containsKey(ResultFile.AIPERF_RECORDS)) {
          requests = AiPerfRecords.parse(files.get(ResultFile.AIPERF_RECORDS));
        }
      }
      String duration = metrics.get(ResultMetric.DURATION);
      // The tool's own numbers win; the requests fill in the percentiles it does not report.
      RequestMetrics.of(requests, duration == null ? Double.NaN : Double.parseDouble(duration), slo).forEach(metrics::putIfAbsent);
      if (files.containsKey(ResultFile.METRICS_BEFORE) && files.containsKey(ResultFile.METRICS_AFTER)) {
        metrics.putAll(EngineScrapes.parse(files.get(ResultFile.METRICS_BEFORE), files.get(ResultFile.METRICS_AFTER)));
      }
      if (metrics.isEmpty()) {
        return RunResults.none("no headline numbers in the run's result files (" + dir + "/" + ResultFile.BENCH_SERVING.path + ", "
            + dir + "/" + ResultFile.AIPERF.path + ", " + dir + "/" + ResultFile.METRICS_BEFORE.path + " and " + dir + "/"
            + ResultFile.METRICS_AFTER.path + ")");
      }
      List<RequestRecord> ok = requests.stream().filter(RequestRecord::success).toList();
      return RunResults.of(metrics).withLatency(ok.isEmpty() ? null : LatencyQuantiles.of(
          ok.stream().mapToDouble(RequestRecord::ttftMs).toArray(), ok.stream().flatMapToDouble(r -> Arrays.stream(r.itlsMs())).toArray()));
    } catch (Malformed e) {
      return RunResults.none(dir + "/" + e.getMessage());
    }
  }

  /** {@link #parse(Map, SloSpec, String)} of a run's {@code results/} without an SLO. */
  static RunResults parse(Map<ResultFile, byte[]> files) {
    return parse(files, null, RunResults.RESULTS);
  }
}
