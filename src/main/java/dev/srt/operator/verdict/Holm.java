package dev.srt.operator.verdict;

import java.util.Arrays;
import java.util.Comparator;
import java.util.stream.IntStream;

/**
 * Holm–Bonferroni: many tests at once (every metric of every arm at every level) keep the chance of
 * any false "better" or "worse" at α. Sorted ascending, p_(i) is rejected while p_(i) ≤ α / (m - i
 * + 1), stopping at the first that is not; equivalently, each adjusted p is max over j ≤ i of
 * min(1, (m - j + 1) p_(j)), compared with α.
 */
public final class Holm {
  private Holm() {}

  /**
   * The level each raw p-value of {@code p} is decided at, in the same order: p_i is significant
   * after Holm (its adjusted p at most {@code alpha}) exactly when p_i ≤ level_i. The i-th smallest
   * is held to α / (m − i + 1) while every smaller one was rejected; from the first that is not,
   * Holm stops, and every later one is held to that first level, which none of them meets. A
   * verdict's detectable effect is computed at this level, the one its word was decided at.
   */
  public static double[] decisionLevels(double[] p, double alpha) {
    int m = p.length;
    Integer[] order = ascending(p);
    double[] levels = new double[m];
    double level = alpha / m;
    boolean stopped = false;
    for (int rank = 0; rank < m; rank++) {
      int i = order[rank];
      if (!stopped) {
        level = alpha / (m - rank);
        stopped = p[i] > level;
      }
      levels[i] = level;
    }
    return levels;
  }

  private static Integer[] ascending(double[] p) {
    Integer[] order = IntStream.range(0, p.length).boxed().toArray(Integer[]::new);
    Arrays.sort(order, Comparator.comparingDouble(i -> p[i]));
    return order;
  }

  /** The adjusted p-values of {@code p}, in the same order. */
  public static double[] adjust(double[] p) {
    int m = p.length;
    Integer[] order = ascending(p);
    double[] adjusted = new double[m];
    double running = 0;
    for (int rank = 0; rank < m; rank++) {
      int i = order[rank];
      running = Math.max(running, Math.min(1, (m - rank) * p[i]));
      adjusted[i] = running;
    }
    return adjusted;
  }
}
