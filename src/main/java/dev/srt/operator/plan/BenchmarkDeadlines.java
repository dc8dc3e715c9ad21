package dev.srt.operator.plan;

import dev.srt.operator.api.RouterComparisonSpec;
import dev.srt.operator.config.BenchmarkTime;
import java.util.ArrayList;
import java.util.List;

/**
 * When the script stops a benchmark that has not ended (issue 41, finding 3: a run always ends).
 * A benchmark whose length the spec gives ({@link BenchmarkTime}) gets {@value #FACTOR} × that
 * length + {@value #GRACE_SECONDS} s, generous enough for a router that is slow but working (a
 * level of 1 minute is stopped after 12 minutes); one whose length is unknown, or which also sends
 * the warm-up requests, gets {@code maxSeconds}. Each deadline is at most {@code maxSeconds}, and the
 * script cuts it further to what remains of {@code maxSeconds} since the benchmarking began, so
 * that no run's benchmarking outlives {@code spec.execution.maxDuration}.
 *
 * @param maxSeconds {@code spec.execution.maxDuration} in seconds: the whole benchmarking of a run
 * @param seconds the deadline of each benchmark process, in seconds from its start, in the order they run
 */
public record BenchmarkDeadlines(long maxSeconds, List<Long> seconds) {
  /** How many times its expected length a benchmark may take. */
  public static final int FACTOR = 2;
  /** Time a benchmark may take beyond {@link #FACTOR} × its expected length: start-up, tokenizer loading, the last requests. */
  public static final long GRACE_SECONDS = 600;

  public BenchmarkDeadlines {
    seconds = List.copyOf(seconds);
  }

  /** The deadlines of the {@code benchmarks} benchmark processes of a run of {@code spec} (one per level, or one). */
  public static BenchmarkDeadlines of(RouterComparisonSpec spec, int benchmarks) {
    BenchmarkTime time = BenchmarkTime.of(spec);
    boolean warmup = spec.execution != null && spec.execution.warmupRequests != null && spec.execution.warmupRequests > 0;
    List<Long> out = new ArrayList<>();
    for (int i = 0; i < benchmarks; i++) {
      Double expected = i < time.levelSeconds().size() ? time.levelSeconds().get(i) : null;
      // The first benchmark sends the warm-up requests too, for as long as they take.
      out.add(expected == null || (i == 0 && warmup) ? time.maxSeconds() : deadline(expected, time.maxSeconds()));
    }
    return new BenchmarkDeadlines(time.maxSeconds(), out);
  }

  /** {@link #FACTOR} × {@code expected} + {@link #GRACE_SECONDS}, whole seconds rounded up, at most {@code max}. */
  static long deadline(double expected, long max) {
    double seconds = Math.ceil(FACTOR * expected) + GRACE_SECONDS;
    return seconds >= max ? max : (long) seconds;
  }

  /** The deadline of benchmark {@code index} (from 0), in seconds. */
  public long at(int index) {
    return seconds.get(index);
  }
}
