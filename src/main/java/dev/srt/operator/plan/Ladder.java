package dev.srt.operator.plan;

import dev.srt.operator.api.LoadSpec;
import dev.srt.operator.api.WorkloadSpec;
import dev.srt.operator.config.Durations;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/**
 * The load ladder of a run (spec.workload.load): the engines and the router start once, then the
 * benchmark runs once per level, in ascending order, each level's result files in its own
 * directory, with a pause between levels for the engines' queues to empty.
 *
 * @param mode concurrency (closed loop) or request-rate (open loop)
 * @param levels the levels, from 1, in the order they run
 * @param drainSeconds the pause between two levels
 */
public record Ladder(String mode, List<Level> levels, long drainSeconds) {
  /** The pause between levels when spec.workload.load.drainBetweenLevels does not say. */
  public static final Duration DEFAULT_DRAIN = dev.srt.operator.config.BenchmarkTime.DEFAULT_DRAIN;

  /**
   * One level: its place in the ladder (from 1), its load, and the results directory its
   * benchmark writes, relative to the run directory.
   */
  public record Level(int index, double load, String resultsDir) {}

  public Ladder {
    levels = List.copyOf(levels);
  }

  /** The ladder of a workload, or null when it sets no load (one measurement, as before ladders). */
  public static Ladder of(WorkloadSpec w) {
    LoadSpec load = w == null ? null : w.load;
    if (load == null || load.levels == null || load.levels.isEmpty()) {
      return null;
    }
    List<Level> levels = new ArrayList<>();
    for (int i = 0; i < load.levels.size(); i++) {
      levels.add(new Level(i + 1, load.levels.get(i), resultsDir(i + 1)));
    }
    return new Ladder(load.mode, levels, Durations.parse(load.drainBetweenLevels, DEFAULT_DRAIN).toSeconds());
  }

  /** The results directory of level {@code index} (from 1): {@code results/level-<index>}. */
  public static String resultsDir(int index) {
    if (index < 1) {
      throw new IllegalArgumentException("levels count from 1: " + index);
    }
    return Workload.RESULTS_DIR + "/level-" + index;
  }

  /** Whether this is the closed loop (a number of requests in flight). */
  public boolean closedLoop() {
    return LoadSpec.CONCURRENCY.equals(mode);
  }

  /** How a level reads in a live line or a status: {@code c=32}, or {@code 2.5 req/s}. */
  public String label(double load) {
    return label(mode, load);
  }

  /** {@link #label(double)} for a ladder of {@code mode}. */
  public static String label(String mode, double load) {
    return LoadSpec.CONCURRENCY.equals(mode) ? "c=" + LoadSpec.text(load) : LoadSpec.text(load) + " req/s";
  }
}
