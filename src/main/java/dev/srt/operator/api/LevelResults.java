package dev.srt.operator.api;

import com.fasterxml.jackson.annotation.JsonInclude;

/** One load level of a run: the load it was measured at and its numbers. */
@JsonInclude(JsonInclude.Include.NON_NULL)
public class LevelResults {
  /** The level's load: a concurrency or a request rate (req/s), as in spec.workload.load.levels. */
  public Double load;

  /** The level's numbers; absent when its result files gave none. */
  public BenchmarkResults results;

  /** Why a level has no numbers. */
  public String message;

  public LevelResults() {}

  public LevelResults(Double load, BenchmarkResults results) {
    this.load = load;
    this.results = results;
  }
}
