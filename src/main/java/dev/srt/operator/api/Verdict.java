package dev.srt.operator.api;

import com.fasterxml.jackson.annotation.JsonInclude;
import java.util.List;

/** How an arm compares with the baseline on one metric at one load level, or on capacity. */
@JsonInclude(JsonInclude.Include.NON_NULL)
public class Verdict {
  /** The arm compared. */
  public String arm;

  /** The arm it is compared with (spec.execution.baseline). */
  public String baseline;

  /** The metric judged (spec.execution.verdictMetrics, e.g. p99_ttft_ms), or capacity. */
  public String metric;

  /** The load level it is judged at (spec.workload.load.levels); absent for capacity and without a ladder. */
  public Double level;

  /** (arm mean - baseline mean) / baseline mean, in percent. */
  public Double deltaPct;

  /**
   * 95% confidence interval of deltaPct, [low, high]: Fieller's interval of the ratio of the means,
   * the ratios Welch's test (the one pValue comes from) does not reject at 5%, so the baseline's own
   * spread counts and it excludes 0 exactly when pValue is below 0.05; never below -100%, the ratio
   * of non-negative means being at least 0.
   */
  public List<Double> ci95Pct;

  /** Welch's two-sided p-value for a difference of the means. */
  public Double pValue;

  /**
   * pValue adjusted by Holm–Bonferroni over its family, the one the verdict is drawn from: the
   * capacity verdicts are one family, every per-level verdict (metrics, arms and levels) the other.
   */
  public Double pAdjusted;

  /**
   * The level pValue is decided at after Holm: better or worse exactly when pValue is at most it
   * (0.05 / (m - i + 1) for the i-th smallest of m p-values while Holm rejects; from the first it
   * does not, that first level).
   */
  public Double alpha;

  /**
   * The smallest difference, in percent of the baseline's mean, that these runs would detect with
   * 80% power at alpha, the level the verdict is decided at (given the observed spread and number
   * of runs): an observed difference at least this large is always better or worse.
   */
  public Double mdePct;

  /**
   * better or worse (adjusted p at most 0.05, by the metric's direction: higher throughput, goodput,
   * capacity and cache hit rate, lower latencies); equivalent when the 90% interval of the difference
   * lies within plus or minus spec.execution.equivalenceMargin; inconclusive otherwise (these runs
   * cannot tell); not-comparable when either arm has fewer than 2 succeeded runs with the metric or
   * failed more requests than spec.execution.maxFailedRatio, when neither arm's runs vary (no spread
   * to weigh a difference against), when the baseline's runs do not tell its mean from 0, or when
   * the compared runs' facts do not vouch for them: a held-constant fact differs, a run has no
   * facts, or a routing fact differs within an arm (spec.execution.requireFacts).
   */
  public String verdict;

  /** Why a verdict is not-comparable. */
  public String reason;

  /**
   * What qualifies an equivalent or inconclusive verdict whose 95% interval excludes 0: not
   * significant after Holm, with the raw and the adjusted p-value.
   */
  public String note;
}
