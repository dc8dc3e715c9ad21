package dev.srt.operator.report;

import dev.srt.operator.api.MetricSummary;
import dev.srt.operator.verdict.ComparisonReport;
import dev.srt.operator.verdict.ComparisonReport.ArmReport;
import dev.srt.operator.verdict.LatencyQuantiles;
import dev.srt.operator.verdict.Metric;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * The TTFT and ITL distributions a report draws as CDFs: each arm's, averaged over its succeeded
 * runs ({@link LatencyQuantiles#averaged}), at one load of a ladder.
 *
 * @param load the level drawn, or null for a comparison measured at one point
 * @param why how that level was chosen, one phrase (e.g. {@code the highest load every arm sustains within the SLO})
 * @param arms each arm with a distribution, in the report's order
 */
public record Distributions(Double load, String why, Map<String, LatencyQuantiles> arms) {
  public Distributions {
    Objects.requireNonNull(why, "why");
    arms = java.util.Collections.unmodifiableMap(new LinkedHashMap<>(arms));
  }

  /** The level to draw, with why; null when the report has no level every arm has results at. */
  public record Choice(double load, String why) {}

  /**
   * The default level: the highest load at which every arm's mean goodput % meets {@code
   * attainment}; without an SLO, or when no level meets it for every arm, the highest (resp.
   * lowest) load every arm has results at, where the arms can still be compared request by request.
   */
  public static Choice choose(ComparisonReport report, Double attainment) {
    List<Double> common = commonLoads(report);
    if (common.isEmpty()) {
      return null;
    }
    if (attainment == null) {
      return new Choice(common.get(common.size() - 1), "the highest load every arm has results at");
    }
    for (int i = common.size() - 1; i >= 0; i--) {
      double load = common.get(i);
      if (report.arms.stream().allMatch(a -> meets(a, load, attainment))) {
        return new Choice(load, "the highest load every arm sustains within the SLO");
      }
    }
    return new Choice(common.get(0), "the lowest load: no load is sustained within the SLO by every arm");
  }

  /** The loads at which every arm has a summary, ascending. */
  static List<Double> commonLoads(ComparisonReport report) {
    return report.arms.stream().flatMap(a -> a.levels.stream()).map(l -> l.load).filter(Objects::nonNull).distinct().sorted()
        .filter(load -> !report.arms.isEmpty() && report.arms.stream().allMatch(a -> a.at(load) != null && a.at(load).n > 0)).toList();
  }

  private static boolean meets(ArmReport arm, double load, double attainment) {
    MetricSummary goodput = arm.at(load).metrics.get(Metric.GOODPUT_RATIO.key());
    return goodput != null && goodput.mean != null && goodput.mean >= attainment;
  }
}
