package dev.srt.operator.run;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.core.JsonProcessingException;
import dev.srt.operator.api.GpuClusterSpec;
import dev.srt.operator.api.RouterComparisonSpec;
import dev.srt.operator.base.Mappers;

/**
 * A run's {@code record.json}, written beside its script and {@code plan.json} at submission: what
 * the run is and what it was submitted with, so that a report of it, read later from the host,
 * shows what the run ran with rather than what today's spec says. It holds no secret: the specs
 * name their Secrets, never their values.
 *
 * @param specHash the hash of the arm's spec at submission ({@link dev.srt.operator.plan.SpecHash})
 * @param spec the comparison's spec as submitted
 * @param cluster the GpuCluster's name
 * @param clusterSpec the GpuCluster's spec as submitted
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public record RecordFile(int version, String namespace, String comparison, String arm, String runId, String specHash,
    String scriptHash, String submittedAt, RouterComparisonSpec spec, String cluster, GpuClusterSpec clusterSpec) {
  public static final int VERSION = 1;

  public String json() {
    try {
      return Mappers.json().writerWithDefaultPrettyPrinter().writeValueAsString(this) + "\n";
    } catch (JsonProcessingException e) {
      throw new IllegalStateException("a record is always JSON", e);
    }
  }

  /** @throws IllegalArgumentException when {@code json} is not a record this version reads */
  public static RecordFile parse(String json) {
    try {
      RecordFile r = Mappers.json().readValue(json, RecordFile.class);
      if (r.version() != VERSION || r.runId() == null || r.arm() == null) {
        throw new IllegalArgumentException("not a run record of version " + VERSION);
      }
      return r;
    } catch (JsonProcessingException e) {
      throw new IllegalArgumentException("not a run record: " + e.getOriginalMessage(), e);
    }
  }
}
