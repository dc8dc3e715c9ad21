package dev.srt.operator.verdict;

import dev.srt.operator.api.ExecutionSpec;
import dev.srt.operator.api.LoadSpec;
import dev.srt.operator.api.RouterComparisonSpec;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

/**
 * How a comparison's runs are judged, from its spec: against which arm, on which metrics, at which
 * load levels, when two arms count as equivalent, and the SLO attainment capacity is judged on.
 *
 * @param levels the ladder's loads, ascending; one null entry for a comparison without a ladder
 * @param equivalenceMargin as a share of the baseline's mean (0.02 = ±2%)
 * @param attainment spec.slo.attainment, or null without an SLO (then no capacity)
 * @param loadUnit the unit of the levels and capacities (concurrency, req/s), null without a ladder
 * @param requireFacts spec.execution.requireFacts: differing held-constant facts make verdicts
 *     not-comparable (else a warning)
 */
public record VerdictSettings(String baseline, double maxFailedRatio, List<Metric> metrics, double equivalenceMargin,
    List<Double> levels, Double attainment, String loadUnit, boolean requireFacts) {

  public VerdictSettings {
    metrics = List.copyOf(metrics);
    levels = Collections.unmodifiableList(new ArrayList<>(levels));
  }

  /** Settings that require equal facts (the default). */
  public VerdictSettings(String baseline, double maxFailedRatio, List<Metric> metrics, double equivalenceMargin, List<Double> levels,
      Double attainment, String loadUnit) {
    this(baseline, maxFailedRatio, metrics, equivalenceMargin, levels, attainment, loadUnit, true);
  }

  /** These settings, with {@code spec.execution.requireFacts} as given. */
  public VerdictSettings withRequireFacts(boolean require) {
    return new VerdictSettings(baseline, maxFailedRatio, metrics, equivalenceMargin, levels, attainment, loadUnit, require);
  }

  /** The settings of {@code spec}. */
  public static VerdictSettings of(RouterComparisonSpec spec) {
    ExecutionSpec e = spec.execution == null ? new ExecutionSpec() : spec.execution;
    LoadSpec load = spec.workload == null ? null : spec.workload.load;
    List<Double> levels = load == null || load.levels == null || load.levels.isEmpty() ? nullLevel() : load.levels;
    return new VerdictSettings(baseline(spec), e.maxFailedRatioOrDefault(), metrics(e.verdictMetrics, spec.slo != null),
        e.equivalenceMarginOrDefault(), levels, spec.slo == null ? null : spec.slo.attainmentOrDefault(),
        load == null ? null : load.unit(), e.requireFactsOrDefault());
  }

  /** A comparison without a ladder or an SLO, judged on the default metrics. */
  public static VerdictSettings of(String baseline, double maxFailedRatio) {
    return new VerdictSettings(baseline, maxFailedRatio, metrics(null, false), ExecutionSpec.DEFAULT_EQUIVALENCE_MARGIN, nullLevel(),
        null, null, true);
  }

  /** {@code spec.execution.baseline}, or the first arm. */
  public static String baseline(RouterComparisonSpec spec) {
    if (spec.execution != null && spec.execution.baseline != null) {
      return spec.execution.baseline;
    }
    return spec.arms.isEmpty() ? null : spec.arms.get(0).name;
  }

  /** The verdict metrics by name (names that are not metrics are left out); the default drops goodput without an SLO. */
  static List<Metric> metrics(List<String> names, boolean slo) {
    List<Metric> out = new ArrayList<>();
    List<String> wanted = names != null ? names
        : ExecutionSpec.DEFAULT_VERDICT_METRICS.stream().filter(n -> slo || !n.startsWith("goodput")).toList();
    for (String n : wanted) {
      Metric.of(n).filter(m -> m.direction != Metric.Direction.NONE).ifPresent(out::add);
    }
    return out;
  }

  /** Whether the runs measure a ladder of loads. */
  public boolean ladder() {
    return loadUnit != null;
  }

  /** Whether each arm gets a capacity, and a verdict on it: a ladder with an SLO. */
  public boolean judgesCapacity() {
    return ladder() && attainment != null;
  }

  private static List<Double> nullLevel() {
    List<Double> one = new ArrayList<>();
    one.add(null);
    return one;
  }
}
