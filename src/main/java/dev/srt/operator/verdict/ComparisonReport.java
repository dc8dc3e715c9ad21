package dev.srt.operator.verdict;

import com.fasterxml.jackson.annotation.JsonInclude;
import dev.srt.operator.api.ArmRun;
import dev.srt.operator.api.ArmSummary;
import dev.srt.operator.api.Capacity;
import dev.srt.operator.api.Verdict;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * What a comparison's runs say, in the one shape that {@code report --json} prints, the HTML and
 * Markdown reports show and the operator's status carries: per arm its runs, its summary per load
 * level and its capacity at the SLO; the verdicts per level and on capacity. A comparison without a
 * load ladder is one level whose load is null, and its summary is also the arm's summary.
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public final class ComparisonReport {
  /** The RouterComparison's name. */
  public String comparison;
  /** The arm the verdicts compare with. */
  public String baseline;
  /** The seed of a randomized order. */
  public Long seed;
  /** The unit of the levels' loads and of capacities (concurrency, req/s); absent without a ladder. */
  public String loadUnit;
  /** The metrics verdicts are given on, in order. */
  public List<String> verdictMetrics = new ArrayList<>();
  public List<ArmReport> arms = new ArrayList<>();
  public List<Verdict> verdicts = new ArrayList<>();
  /** Each arm's runs against the baseline's, fact by fact ({@link FactChecks}). */
  public List<FactChecks.Check> factChecks = new ArrayList<>();
  /**
   * What the verdicts and capacities do not say: runs whose goodput % recovers above the attainment
   * after missing it (the capacity is the first crossing), and, where spec.execution.requireFacts is
   * false, the failed facts checks (a run without facts, routers that differ within an arm,
   * held-constant facts that differ).
   */
  public List<String> warnings = new ArrayList<>();

  /** One arm: its finished runs, their summary per level and its capacity. */
  @JsonInclude(JsonInclude.Include.NON_NULL)
  public static final class ArmReport {
    public String name;
    public List<ArmRun> runs = new ArrayList<>();
    /**
     * Without a ladder the summary of the only level; with one the runs counted over every level
     * (metrics are per level).
     */
    public ArmSummary summary;
    /** The summary at each load level, in ascending load (one level, load null, without a ladder). */
    public List<LevelReport> levels = new ArrayList<>();
    /** Capacity at the SLO (a ladder with spec.slo). */
    public Capacity capacity;

    /** The summary at {@code load}, or null. */
    public ArmSummary at(Double load) {
      return levels.stream().filter(l -> load == null ? l.load == null : l.load != null && l.load.doubleValue() == load)
          .map(l -> l.summary).findFirst().orElse(null);
    }
  }

  /** One load level of an arm. */
  @JsonInclude(JsonInclude.Include.NON_NULL)
  public static final class LevelReport {
    /** The level's load; absent without a ladder. */
    public Double load;
    public ArmSummary summary;

    public LevelReport() {}

    LevelReport(Double load, ArmSummary summary) {
      this.load = load;
      this.summary = summary;
    }
  }

  /** The report of {@code runs} (every arm's finished runs, in arm order; an arm without runs has an empty list). */
  public static ComparisonReport of(String comparison, Map<String, List<ArmRun>> runs, VerdictSettings settings) {
    ComparisonReport r = new ComparisonReport();
    r.comparison = comparison;
    r.baseline = settings.baseline();
    r.loadUnit = settings.loadUnit();
    r.verdictMetrics = settings.metrics().stream().map(Metric::key).toList();
    runs.forEach((arm, list) -> {
      ArmReport a = new ArmReport();
      a.name = arm;
      a.runs = new ArrayList<>(list);
      for (Double load : settings.levels()) {
        a.levels.add(new LevelReport(load, Summaries.at(list, load)));
      }
      a.summary = settings.ladder() ? Summaries.overLevels(list) : a.levels.get(0).summary;
      if (settings.judgesCapacity()) {
        a.capacity = Capacities.of(list, settings.attainment(), settings.loadUnit());
        r.warnings.addAll(Capacities.recoveryWarnings(arm, list, settings.attainment(), settings.loadUnit()));
      }
      r.arms.add(a);
    });
    r.verdicts = new ArrayList<>(Verdicts.of(runs, settings));
    r.factChecks = FactChecks.apply(runs, settings.baseline(), settings.requireFacts(), r.verdicts, r.warnings);
    return r;
  }

  /** The report of runs without a ladder or an SLO, judged on the default metrics. */
  /** As above; {@code requireFacts} (spec.execution.requireFacts) false turns a failed facts check into a warning. */
  public static ComparisonReport of(String comparison, Map<String, List<ArmRun>> runs, String baseline, double maxFailedRatio,
      boolean requireFacts) {
    return of(comparison, runs, VerdictSettings.of(baseline, maxFailedRatio).withRequireFacts(requireFacts));
  }

  public static ComparisonReport of(String comparison, Map<String, List<ArmRun>> runs, String baseline, double maxFailedRatio) {
    return of(comparison, runs, VerdictSettings.of(baseline, maxFailedRatio));
  }

  public ArmReport arm(String name) {
    return arms.stream().filter(a -> a.name.equals(name)).findFirst().orElse(null);
  }
}
