package dev.srt.operator.cli;

import dev.srt.operator.api.ArmPhase;
import dev.srt.operator.api.LoadSpec;
import dev.srt.operator.api.RouterComparisonSpec;
import dev.srt.operator.report.Distributions;
import dev.srt.operator.results.RunResults;
import dev.srt.operator.run.PastRuns.PastRun;
import dev.srt.operator.verdict.ComparisonReport;
import dev.srt.operator.verdict.LatencyQuantiles;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;

/**
 * The latency distributions a report draws, from the result files its runs were read from: each
 * arm's succeeded runs at one level (the one asked for, or {@link Distributions#choose}), their
 * quantiles averaged. Nothing more is read from the host.
 */
final class ReportDistributions {
  private ReportDistributions() {}

  /**
   * @param requested the load asked for with --cdf-load, or null for the default
   * @return null when a ladder has no level every arm has results at
   * @throws ApplyCommand.UsageError when {@code requested} is not a level of the ladder
   */
  static Distributions of(ComparisonReport report, RouterComparisonSpec spec, Map<String, List<PastRun>> past, Double requested)
      throws ApplyCommand.UsageError {
    if (report.loadUnit == null) {
      if (requested != null) {
        throw new ApplyCommand.UsageError("--cdf-load: spec.workload.load sets no ladder; the comparison has one load");
      }
      return new Distributions(null, "the one load measured", arms(report, past, null));
    }
    Double load = requested;
    String why = "asked for with --cdf-load";
    if (requested != null) {
      List<Double> levels = spec.workload.load.levels;
      if (levels.stream().noneMatch(l -> l.doubleValue() == requested)) {
        throw new ApplyCommand.UsageError("--cdf-load " + LoadSpec.text(requested) + ": not a level of spec.workload.load.levels ("
            + levels.stream().map(LoadSpec::text).collect(Collectors.joining(", ")) + ")");
      }
    } else {
      Distributions.Choice choice = Distributions.choose(report, spec.slo == null ? null : spec.slo.attainmentOrDefault());
      if (choice == null) {
        return null;
      }
      load = choice.load();
      why = choice.why();
    }
    return new Distributions(load, why, arms(report, past, load));
  }

  private static Map<String, LatencyQuantiles> arms(ComparisonReport report, Map<String, List<PastRun>> past, Double load) {
    Map<String, LatencyQuantiles> out = new LinkedHashMap<>();
    for (ComparisonReport.ArmReport arm : report.arms) {
      List<LatencyQuantiles> runs = new ArrayList<>();
      for (PastRun run : past.getOrDefault(arm.name, List.of())) {
        if (ArmPhase.of(run.status().phase) == ArmPhase.Succeeded && run.results() != null) {
          LatencyQuantiles q = at(run.results(), load);
          if (q != null) {
            runs.add(q);
          }
        }
      }
      if (!runs.isEmpty()) {
        out.put(arm.name, LatencyQuantiles.averaged(runs));
      }
    }
    return out;
  }

  private static LatencyQuantiles at(RunResults results, Double load) {
    if (load == null) {
      return results.latency();
    }
    return results.levels().stream().filter(l -> l.load() == load).map(l -> l.results().latency()).filter(q -> q != null)
        .findFirst().orElse(null);
  }
}
