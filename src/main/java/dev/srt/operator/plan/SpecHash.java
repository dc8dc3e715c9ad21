package dev.srt.operator.plan;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.srt.operator.api.ArmSpec;
import dev.srt.operator.api.GpuClusterSpec;
import dev.srt.operator.api.RouterComparisonSpec;
import dev.srt.operator.api.SchemaDefaults;
import dev.srt.operator.base.Mappers;

/**
 * The hash of what one arm runs with: every shared field, the arm's own fields and the cluster's
 * settings, but not the other arms, {@code execution} (but its warm-up, which changes what a run
 * sends) or {@code suspend}. A change of it means the arm must run again; adding another arm,
 * reordering arms or asking for more repetitions does not.
 */
public final class SpecHash {
  private SpecHash() {}

  public static String of(RouterComparisonSpec spec, ArmSpec arm, GpuClusterSpec cluster) {
    // A value equal to its schema default is no value: the API server writes defaults into stored
    // objects, and a CRD that gains a default must not rerun every arm.
    spec = SchemaDefaults.cleared(spec);
    arm = SchemaDefaults.cleared(arm);
    cluster = SchemaDefaults.cleared(cluster);
    ObjectNode shared = Mappers.json().valueToTree(spec);
    shared.remove("arms");
    shared.remove("execution");
    if (spec.execution != null && spec.execution.warmupRequests != null) {
      shared.put("warmupRequests", spec.execution.warmupRequests);
    }
    shared.remove("suspend");
    ObjectNode all = Mappers.json().createObjectNode();
    all.set("shared", shared);
    all.set("arm", Mappers.json().valueToTree(arm));
    if (cluster != null) {
      all.set("cluster", Mappers.json().valueToTree(cluster));
    }
    try {
      String canonical = Mappers.json().copy().configure(SerializationFeature.ORDER_MAP_ENTRIES_BY_KEYS, true)
          .writeValueAsString(Mappers.json().treeToValue(all, Object.class));
      return Hashes.sha256(canonical).substring(0, 16);
    } catch (JsonProcessingException e) {
      throw new IllegalStateException(e);
    }
  }
}
