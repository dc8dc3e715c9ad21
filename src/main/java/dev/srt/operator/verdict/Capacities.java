package dev.srt.operator.verdict;

import dev.srt.operator.api.ArmRun;
import dev.srt.operator.api.Capacity;
import dev.srt.operator.api.LevelResults;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Objects;

/**
 * Capacity at SLO: per run, the load at which the share of good requests (goodput %) first falls
 * below the attainment, walking the ladder up from its lowest level, linearly interpolated on
 * goodput % between the last level that met it and that first miss; below the lowest or above the
 * highest level it is said so, never extrapolated. A curve that dips below and recovers keeps its
 * first crossing (and says so): a load the arm did not sustain is no capacity because a higher one
 * happened to go well. Per arm, the mean over its succeeded runs with a 95% interval that stays
 * inside [0, highest level] ({@link BoundedIntervals#inBracket}).
 */
public final class Capacities {
  private Capacities() {}

  /**
   * One run's capacity: {@code value} inside the ladder (bound null), or the end of the ladder it
   * lies beyond ({@link Capacity#BELOW} the lowest level, {@link Capacity#ABOVE} the highest);
   * {@code recovery} when its goodput % met the attainment again above its first miss, else null.
   */
  public record RunCapacity(double value, String bound, Recovery recovery) {
    /** {@code 37.5}, {@code < 8}, {@code > 64}. */
    public String text() {
      String v = format(value);
      return bound == null ? v : (Capacity.BELOW.equals(bound) ? "< " : "> ") + v;
    }
  }

  /** Goodput % missed the attainment first at {@code missedAt} and met it again at {@code recoveredAt}, a higher load. */
  public record Recovery(double missedAt, double recoveredAt) {}

  /** A run's capacity from its levels, or null when no level has a goodput % (a run without an SLO). */
  public static RunCapacity of(List<LevelResults> levels, double attainment) {
    if (levels == null) {
      return null;
    }
    List<LevelResults> ladder = levels.stream().filter(l -> l.load != null).sorted(Comparator.comparingDouble(l -> l.load)).toList();
    if (ladder.stream().noneMatch(l -> l.results != null && l.results.goodputRatio != null)) {
      return null;
    }
    int miss = firstMiss(ladder, attainment);
    if (miss < 0) {
      return new RunCapacity(ladder.get(ladder.size() - 1).load, Capacity.ABOVE, null);
    }
    Recovery recovery = recovery(ladder, miss, attainment);
    if (miss == 0) {
      return new RunCapacity(ladder.get(0).load, Capacity.BELOW, recovery);
    }
    LevelResults meets = ladder.get(miss - 1);
    LevelResults misses = ladder.get(miss);
    double share = (goodput(meets) - attainment) / (goodput(meets) - goodput(misses));
    return new RunCapacity(meets.load + share * (misses.load - meets.load), null, recovery);
  }

  /** The index of the first level, lowest first, whose goodput % is below the attainment; -1 when none is. */
  private static int firstMiss(List<LevelResults> ladder, double attainment) {
    for (int i = 0; i < ladder.size(); i++) {
      if (goodput(ladder.get(i)) < attainment) {
        return i;
      }
    }
    return -1;
  }

  private static Recovery recovery(List<LevelResults> ladder, int miss, double attainment) {
    for (int i = miss + 1; i < ladder.size(); i++) {
      if (goodput(ladder.get(i)) >= attainment) {
        return new Recovery(ladder.get(miss).load, ladder.get(i).load);
      }
    }
    return null;
  }

  /**
   * A level's goodput %. A level of the ladder without one (no numbers, or every request failed
   * where the results give no ratio) counts as 0, a miss: skipping it would let the capacity climb
   * past a load nobody saw the arm sustain.
   */
  private static double goodput(LevelResults l) {
    return l.results == null || l.results.goodputRatio == null ? 0 : l.results.goodputRatio;
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
      // a capacity inside the ladder lies in (0, highest level): so does its interval
      Statistics.Interval ci = BoundedIntervals.inBracket(xs, 0, highestLevel(runs));
      c.low = ci.low();
      c.high = ci.high();
    }
    return c;
  }

  /** The highest load any succeeded run measured. */
  private static double highestLevel(List<ArmRun> runs) {
    return Summaries.succeeded(runs).stream().filter(r -> r.levels != null).flatMap(r -> r.levels.stream())
        .filter(l -> l.load != null).mapToDouble(l -> l.load).max().orElseThrow();
  }

  /**
   * A warning for each succeeded run whose goodput % recovers above the attainment after its first
   * miss: {@code cache-aware run r1234: goodput % recovers above the attainment at c=64 after missing
   * it at c=32; the capacity is the first crossing}. The capacity does not hide the dip, and the
   * reader learns that a higher load went well.
   */
  public static List<String> recoveryWarnings(String arm, List<ArmRun> runs, double attainment, String unit) {
    List<String> out = new ArrayList<>();
    for (ArmRun run : Summaries.succeeded(runs)) {
      RunCapacity c = of(run.levels, attainment);
      if (c != null && c.recovery() != null) {
        String name = run.runId != null ? "run " + run.runId : run.repetition != null ? "repetition " + run.repetition : "a run";
        out.add(arm + " " + name + ": goodput % recovers above the attainment at " + Cells.level(c.recovery().recoveredAt(), unit)
            + " after missing it at " + Cells.level(c.recovery().missedAt(), unit) + "; the capacity is the first crossing");
      }
    }
    return out;
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
