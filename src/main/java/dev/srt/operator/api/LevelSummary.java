package dev.srt.operator.api;

import com.fasterxml.jackson.annotation.JsonInclude;
import java.util.LinkedHashMap;
import java.util.Map;

/** An arm's succeeded runs at one level of the load ladder: how many, and the mean of each metric. */
@JsonInclude(JsonInclude.Include.NON_NULL)
public class LevelSummary {
  /** The level's load: a concurrency or a request rate (req/s). */
  public Double load;

  /** Runs with numbers at this level. */
  public Integer n;

  /** Mean over those runs of each metric kept in the status (the verdict metrics, goodput %, requests). */
  public Map<String, Double> means = new LinkedHashMap<>();
}
