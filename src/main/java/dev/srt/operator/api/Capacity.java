package dev.srt.operator.api;

import com.fasterxml.jackson.annotation.JsonInclude;

/**
 * An arm's capacity at its SLO: the load at which the share of good requests (goodput %) first
 * falls below spec.slo.attainment, climbing the ladder from its lowest level, linearly interpolated
 * between the last level that meets it and that first miss (a level without a goodput % is a miss);
 * never extrapolated beyond the ladder, and a later level that meets it again does not raise it.
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public class Capacity {
  /** The sustained load is below the lowest level: value is that level. */
  public static final String BELOW = "below";
  /** The sustained load is above the highest level: value is that level. */
  public static final String ABOVE = "above";

  /**
   * Mean capacity over the succeeded runs; with bound set, the end of the ladder it lies beyond in
   * every run. Absent when the runs disagree about being inside the ladder (see reason).
   */
  public Double value;

  /**
   * Low end of the 95% interval of the mean (2 runs or more): Student t over the logits of the runs'
   * capacities as shares of the highest level, mapped back, so that it stays inside [0, highest level].
   */
  public Double low;

  /** High end of the 95% interval of the mean. */
  public Double high;

  /** concurrency or req/s, as the load's mode. */
  public String unit;

  /**
   * below (under the lowest level in every run: goodput % misses attainment already there) or
   * above (at or over attainment at every level in every run); absent when inside the ladder.
   */
  public String bound;

  /** Runs the capacity is computed from. */
  public Integer n;

  /** Why there is no value. */
  public String reason;
}
