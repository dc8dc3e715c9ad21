package dev.srt.operator.api;

import com.fasterxml.jackson.annotation.JsonInclude;
import java.util.ArrayList;
import java.util.List;

/**
 * What a run measures, as it was submitted: its load ladder and its latency objective. A run is
 * read against these, never against the spec as it is today.
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public class Measurement {
  /** concurrency or request-rate, as spec.workload.load.mode when the run was submitted. */
  public String loadMode;

  /** The loads of the run's ladder, in the order it runs them. */
  public List<Double> levels = new ArrayList<>();

  /** Seconds between two levels. */
  public Long drainSeconds;

  /** spec.slo.ttftMs when the run was submitted. */
  public Double ttftMs;

  /** spec.slo.itlMs when the run was submitted. */
  public Double itlMs;

  /** spec.slo.tpotMs when the run was submitted. */
  public Double tpotMs;

  /** spec.slo.e2eMs when the run was submitted. */
  public Double e2eMs;

  /** spec.slo.attainment when the run was submitted; absent when the run had no objective. */
  public Double attainment;

  /** Keeps {@code slo}'s thresholds (flat, so that the status schema carries none of the spec's rules). */
  public void keep(SloSpec slo) {
    ttftMs = slo.ttftMs;
    itlMs = slo.itlMs;
    tpotMs = slo.tpotMs;
    e2eMs = slo.e2eMs;
    attainment = slo.attainmentOrDefault();
  }

  /** The objective the run was judged against, or null when it had none. */
  public SloSpec slo() {
    if (attainment == null) {
      return null;
    }
    SloSpec slo = new SloSpec();
    slo.ttftMs = ttftMs;
    slo.itlMs = itlMs;
    slo.tpotMs = tpotMs;
    slo.e2eMs = e2eMs;
    slo.attainment = attainment;
    return slo;
  }
}
