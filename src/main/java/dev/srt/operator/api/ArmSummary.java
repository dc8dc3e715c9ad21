package dev.srt.operator.api;

import com.fasterxml.jackson.annotation.JsonInclude;
import java.util.LinkedHashMap;
import java.util.Map;

/** An arm's runs summed up: what its verdicts are computed from. */
@JsonInclude(JsonInclude.Include.NON_NULL)
public class ArmSummary {
  /** Succeeded runs (the ones the metrics summarise). */
  public int n;

  /** Finished runs, succeeded or failed. */
  public int runs;

  /** Failed requests over all requests of the succeeded runs (0 to 1), when the benchmark reported both. */
  public Double failedRatio;

  /** Per metric (as in BenchmarkResults), its mean, spread and 95% interval over the succeeded runs. */
  public Map<String, MetricSummary> metrics = new LinkedHashMap<>();
}
