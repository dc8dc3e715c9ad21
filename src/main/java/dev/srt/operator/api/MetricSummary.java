package dev.srt.operator.api;

import com.fasterxml.jackson.annotation.JsonInclude;
import java.util.List;

/** One metric over an arm's succeeded runs. */
@JsonInclude(JsonInclude.Include.NON_NULL)
public class MetricSummary {
  /** Mean of the runs' values. */
  public Double mean;

  /** Sample standard deviation of the runs' values (absent with one run). */
  public Double stddev;

  /** Smallest run value. */
  public Double min;

  /** Largest run value. */
  public Double max;

  /**
   * 95% confidence interval of the mean, [low, high] (Student t on the run values; absent with one
   * run); a share's (goodput ratio, cache hit rate) intersected with [0, 1], the bounds its mean
   * cannot leave.
   */
  public List<Double> ci95;
}
