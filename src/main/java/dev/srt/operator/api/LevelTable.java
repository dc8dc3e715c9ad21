package dev.srt.operator.api;

import com.fasterxml.jackson.annotation.JsonInclude;
import java.util.ArrayList;
import java.util.List;

/**
 * A run's levels as the operator's status keeps them: one row of numbers per level, under one list
 * of column names, rather than one object per level that repeats every name (the status of 10 arms
 * × 10 levels × 10 runs must fit in one object).
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public class LevelTable {
  /** The columns: load, then metric names as in BenchmarkResults (request_throughput, ...). */
  public List<String> columns = new ArrayList<>();

  /** One row per level the run finished, in ascending load; null where a level has no value. */
  public List<List<Double>> rows = new ArrayList<>();
}
