package dev.srt.operator.verdict;

import com.fasterxml.jackson.annotation.JsonInclude;
import dev.srt.operator.api.ArmRun;
import dev.srt.operator.api.ArmSummary;
import dev.srt.operator.api.Verdict;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * What a comparison's runs say, in the one shape that {@code report --json} prints, the HTML and
 * Markdown reports show and the operator's status carries (arms' runs and summaries, verdicts).
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public final class ComparisonReport {
  /** The RouterComparison's name. */
  public String comparison;
  /** The arm the verdicts compare with. */
  public String baseline;
  /** The seed of a randomized order. */
  public Long seed;
  public List<ArmReport> arms = new ArrayList<>();
  public List<Verdict> verdicts = new ArrayList<>();
  /** Each arm's runs against the baseline's, fact by fact ({@link FactChecks}). */
  public List<FactChecks.Check> factChecks = new ArrayList<>();
  /** What the verdicts do not say: held-constant facts that differ where spec.execution.requireFacts is false. */
  public List<String> warnings = new ArrayList<>();

  /** One arm: its finished runs and their summary. */
  @JsonInclude(JsonInclude.Include.NON_NULL)
  public static final class ArmReport {
    public String name;
    public List<ArmRun> runs = new ArrayList<>();
    public ArmSummary summary;
  }

  /**
   * The report of {@code runs} (every arm's finished runs, in arm order; an arm without runs has an
   * empty list).
   */
  public static ComparisonReport of(String comparison, Map<String, List<ArmRun>> runs, String baseline, double maxFailedRatio) {
    return of(comparison, runs, baseline, maxFailedRatio, true);
  }

  /** As above; {@code requireFacts} (spec.execution.requireFacts) false turns differing facts into a warning. */
  public static ComparisonReport of(String comparison, Map<String, List<ArmRun>> runs, String baseline, double maxFailedRatio,
      boolean requireFacts) {
    ComparisonReport r = new ComparisonReport();
    r.comparison = comparison;
    r.baseline = baseline;
    Map<String, ArmSummary> summaries = new LinkedHashMap<>();
    runs.forEach((arm, list) -> {
      ArmReport a = new ArmReport();
      a.name = arm;
      a.runs = new ArrayList<>(list);
      a.summary = Summaries.of(list);
      summaries.put(arm, a.summary);
      r.arms.add(a);
    });
    r.verdicts = Verdicts.of(runs, summaries, baseline, maxFailedRatio);
    r.factChecks = FactChecks.apply(runs, baseline, requireFacts, r.verdicts, r.warnings);
    return r;
  }

  public ArmReport arm(String name) {
    return arms.stream().filter(a -> a.name.equals(name)).findFirst().orElse(null);
  }
}
