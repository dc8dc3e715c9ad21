package dev.srt.operator.run;

import dev.srt.operator.api.ArmSpec;
import dev.srt.operator.api.GpuCluster;
import dev.srt.operator.api.RouterComparison;
import dev.srt.operator.api.RouterComparisonSpec;
import dev.srt.operator.base.Mappers;
import dev.srt.operator.plan.SpecHash;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * What runs read back from a host ran with, next to today's spec: a report shows the runs' own
 * spec (from the newest run's {@code record.json}) when it is not today's, and says so, and says
 * when the runs did not all hold the same things constant.
 *
 * @param ranWith the comparison the report describes: today's, or the newest run's record of it
 *     (with today's {@code execution}, which only says how runs are judged)
 * @param ranOn the GpuCluster likewise
 * @param notes one sentence per thing a reader must know
 */
public record SpecDrift(RouterComparison ranWith, GpuCluster ranOn, List<String> notes) {

  /** {@code cluster} is the cluster as the runs were submitted to it (for the CLI: with the emulator's shims). */
  public static SpecDrift of(RouterComparison today, GpuCluster cluster, Map<String, List<PastRuns.PastRun>> runs) {
    List<String> notes = new ArrayList<>();
    List<String> unrecorded = new ArrayList<>();
    List<String> drifted = new ArrayList<>();
    Map<String, List<String>> heldConstant = new LinkedHashMap<>();
    PastRuns.PastRun newest = null;
    for (List<PastRuns.PastRun> list : runs.values()) {
      for (PastRuns.PastRun run : list) {
        String name = run.ref().arm() + "/" + run.ref().runId();
        RecordFile record = run.record();
        if (record == null || record.spec() == null) {
          unrecorded.add(name);
          continue;
        }
        heldConstant.computeIfAbsent(SpecHash.of(record.spec(), null, record.clusterSpec()), k -> new ArrayList<>()).add(name);
        ArmSpec arm = today.getSpec().arms.stream().filter(a -> a.name.equals(run.ref().arm())).findFirst().orElse(null);
        String todays = arm == null ? null : SpecHash.of(today.getSpec(), arm, cluster == null ? null : cluster.getSpec());
        if (!record.specHash().equals(todays)) {
          drifted.add(name);
          if (newest == null || record.submittedAt().compareTo(newest.record().submittedAt()) > 0) {
            newest = run;
          }
        }
      }
    }
    if (!unrecorded.isEmpty()) {
      notes.add("run(s) " + String.join(", ", unrecorded) + " have no record.json (submitted by an older srt-operator): "
          + "what they ran with is not known, and today's spec is shown");
    }
    RouterComparison ranWith = today;
    GpuCluster ranOn = cluster;
    if (!drifted.isEmpty()) {
      notes.add("run(s) " + String.join(", ", drifted) + " ran with another spec than today's: what was held constant is shown "
          + "as run " + newest.ref().arm() + "/" + newest.ref().runId() + " recorded it");
      ranWith = Mappers.json().convertValue(today, RouterComparison.class);
      RouterComparisonSpec spec = Mappers.json().convertValue(newest.record().spec(), RouterComparisonSpec.class);
      spec.execution = today.getSpec().execution;
      ranWith.setSpec(spec);
      if (cluster != null && newest.record().clusterSpec() != null) {
        ranOn = Mappers.json().convertValue(cluster, GpuCluster.class);
        ranOn.setSpec(newest.record().clusterSpec());
      }
    }
    if (heldConstant.size() > 1) {
      Set<String> groups = new LinkedHashSet<>();
      heldConstant.values().forEach(g -> groups.add(String.join(", ", g)));
      notes.add("the runs did not all run with the same model, engines, workload and cluster (their records differ): "
          + String.join(" | ", groups) + "; compare only runs within one group");
    }
    return new SpecDrift(ranWith, ranOn, notes);
  }
}
