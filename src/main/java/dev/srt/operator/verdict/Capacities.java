package dev.srt.operator.verdict;

import dev.srt.operator.api.ArmRun;
import dev.srt.operator.api.Capacity;
import dev.srt.operator.api.LevelResults;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Objects;

/**
 * Capacity at SLO: per run, the highest load at which the share of good requests (goodput %) is at
 * least the attainment, linearly interpolated on goodput % between the last level that meets it and
 * the next (the first above it that does not); below the lowest or above the highest level it is
 * said so, never extrapolated. Per arm, the mean over its succeeded runs with a 95% interval.
 */
public final class Capacities {
  private Capacities() {}

  /**
   * One run's capacity: {@code value} inside the ladder (bound null), or the end of the ladder it
   * lies beyond ({@link Capacity#BELOW} the lowest level, {@link Capacity#ABOVE} the highest).
   */
  public record RunCapacity(double value, String bound) {
    /** {@code 37.5}, {@code < 8}, {@code > 64}. */
    public String text() {
      String v = format(value);
      return bound == null ? v : (Capacity.BELOW.equals(bound) ? "< " : "> ") + v;
    }
  }

  /** A run's capacity from its levels, or null when no level has a goodput %. */
  public static RunCapacity of(List<LevelResults> levels, double attainment) {
    if (levels == null) {
      return null;
    }
    List<LevelResults> measured = levels.stream()
        .filter(l -> l.load != null && l.results != null && l.results.goodputRatio != null)
        .sorted(Comparator.comparingDouble(l -> l.load)).toList();
    if (measured.isEmpty()) {
      return null;
    }
    int last = -1;
    for (int i = 0; i < measured.size(); i++) {
      if (goodput(measured.get(i)) >= attainment) {
        last = i;
      }
    }
    if (last < 0) {
      return new RunCapacity(measured.get(0).load, Capacity.BELOW);
    }
    if (last == measured.size() - 1) {
      return new RunCapacity(measured.get(last).load, Capacity.ABOVE);
    }
    LevelResults meets = measured.get(last);
    LevelResults misses = measured.get(last + 1);
    double share = (goodput(meets) - attainment) / (goodput(meets) - goodput(misses));
    return new RunCapacity(meets.load + share * (misses.load - meets.load), null);
  }

  private static double goodput(LevelResults l) {
    return l.results.goodputRatio;
  }

  /** The capacities of the succeeded runs that have one, in run order. */
  public static List<RunCapacity> perRun(List<ArmRun> runs, double attainment) {
    return Summaries.succeeded(runs).stream().map(r -> of(r.levels, attainment)).filter(Objects::nonNull).toList();
  }

  /** An arm's capacity over its succeeded runs, or null when none has one. */
  public static Capacity of(List<ArmRun> runs, double attainment, String unit) {
    List<RunCapacity> each = perRun(runs, attainment);
    if (each.isEmpty()) {
      return null;
    }
    Capacity c = new Capacity();
    c.unit = unit;
    c.n = each.size();
    String problem = censored(each);
    if (problem != null) {
      c.reason = problem;
      return c;
    }
    if (each.get(0).bound() != null) {
      c.value = each.get(0).value();
      c.bound = each.get(0).bound();
      return c;
    }
    double[] xs = values(each);
    c.value = Statistics.mean(xs);
    if (xs.length > 1) {
      Statistics.Interval ci = Statistics.meanInterval(xs);
      c.low = ci.low();
      c.high = ci.high();
    }
    return c;
  }

  /**
   * Why the runs give no one capacity: some lie beyond the ladder and others not (or beyond both
   * ends); null when all are inside, or all beyond the same end.
   */
  static String censored(List<RunCapacity> each) {
    long below = each.stream().filter(r -> Capacity.BELOW.equals(r.bound())).count();
    long above = each.stream().filter(r -> Capacity.ABOVE.equals(r.bound())).count();
    if (below == each.size() || above == each.size() || below + above == 0) {
      return null;
    }
    List<String> parts = new ArrayList<>();
    if (below > 0) {
      parts.add("below the lowest level (" + format(each.stream().filter(r -> r.bound() != null && r.bound().equals(Capacity.BELOW))
          .findFirst().orElseThrow().value()) + ") in " + below + " of " + each.size() + " runs: add lower levels");
    }
    if (above > 0) {
      parts.add("above the highest level (" + format(each.stream().filter(r -> r.bound() != null && r.bound().equals(Capacity.ABOVE))
          .findFirst().orElseThrow().value()) + ") in " + above + " of " + each.size() + " runs: add higher levels");
    }
    return "the capacity is " + String.join("; ", parts);
  }

  /** The values of runs inside the ladder. */
  static double[] values(List<RunCapacity> each) {
    return each.stream().filter(r -> r.bound() == null).mapToDouble(RunCapacity::value).toArray();
  }

  static String format(double v) {
    return new java.math.BigDecimal(v).round(new java.math.MathContext(4)).stripTrailingZeros().toPlainString();
  }
}
