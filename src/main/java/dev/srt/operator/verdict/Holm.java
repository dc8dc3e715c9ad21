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

  /** The adjusted p-values of {@code p}, in the same order. */
  public static double[] adjust(double[] p) {
    int m = p.length;
    Integer[] order = IntStream.range(0, m).boxed().toArray(Integer[]::new);
    Arrays.sort(order, Comparator.comparingDouble(i -> p[i]));
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
