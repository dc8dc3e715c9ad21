package dev.srt.operator.plan;

import com.fasterxml.jackson.databind.JsonNode;
import dev.srt.operator.api.ArmSpec;
import dev.srt.operator.api.RouterComparison;
import dev.srt.operator.config.FieldPath;
import dev.srt.operator.base.Mappers;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.TreeSet;
import java.util.function.Function;

/**
 * What differs between the arms of a comparison: the fields that express the difference (by
 * construction only arm fields can differ), and which rendered parts are identical across arms.
 */
public final class ArmDiff {
  /** One field and its value in each arm (null where the arm does not set it). */
  public record FieldRow(String field, Map<String, String> values) {}

  /** One rendered part and the groups of arms that render it identically. */
  public record PartRow(String part, List<List<String>> identicalGroups) {
    public String describe(List<String> arms) {
      if (identicalGroups.size() == 1) {
        return arms.size() == 1 ? "one arm" : "identical in all arms";
      }
      List<String> same = identicalGroups.stream().filter(g -> g.size() > 1).map(g -> String.join(", ", g)).toList();
      return same.isEmpty() ? "different in every arm" : "identical in " + String.join("; identical in ", same);
    }
  }

  public record Result(List<String> arms, List<FieldRow> fields, List<PartRow> parts) {}

  private ArmDiff() {}

  public static Result of(RouterComparison rc, Map<String, RunPlan> plans) {
    List<String> arms = rc.getSpec().arms.stream().map(a -> a.name).toList();
    Map<String, Map<String, String>> flat = new LinkedHashMap<>();
    for (ArmSpec arm : rc.getSpec().arms) {
      Map<String, String> f = new LinkedHashMap<>();
      flatten(Mappers.json().valueToTree(arm), "", f);
      f.remove("name");
      flat.put(arm.name, f);
    }
    List<FieldRow> fields = new ArrayList<>();
    TreeSet<String> keys = new TreeSet<>();
    flat.values().forEach(m -> keys.addAll(m.keySet()));
    for (String key : keys) {
      Map<String, String> values = new LinkedHashMap<>();
      arms.forEach(a -> values.put(a, flat.get(a).get(key)));
      if (values.values().stream().distinct().count() > 1) {
        fields.add(new FieldRow(key, values));
      }
    }
    List<PartRow> parts = List.of(
        part("worker commands", arms, plans, RunPlan::workerProcesses),
        part("router command", arms, plans, p -> p.processes(Role.ROUTER)),
        part("build stages", arms, plans, RunPlan::builds),
        part("readiness gates", arms, plans, RunPlan::gates),
        part("benchmark command", arms, plans, p -> p.processes(Role.BENCHMARK)));
    return new Result(arms, fields, parts);
  }

  private static PartRow part(String name, List<String> arms, Map<String, RunPlan> plans, Function<RunPlan, Object> select) {
    List<List<String>> groups = new ArrayList<>();
    List<Object> keys = new ArrayList<>();
    for (String arm : arms) {
      Object value = select.apply(plans.get(arm));
      int i = indexOf(keys, value);
      if (i < 0) {
        keys.add(value);
        groups.add(new ArrayList<>(List.of(arm)));
      } else {
        groups.get(i).add(arm);
      }
    }
    return new PartRow(name, groups);
  }

  private static int indexOf(List<Object> keys, Object value) {
    for (int i = 0; i < keys.size(); i++) {
      if (Objects.equals(keys.get(i), value)) {
        return i;
      }
    }
    return -1;
  }

  private static void flatten(JsonNode node, String path, Map<String, String> out) {
    if (node.isObject()) {
      for (Iterator<Map.Entry<String, JsonNode>> it = node.fields(); it.hasNext(); ) {
        Map.Entry<String, JsonNode> e = it.next();
        flatten(e.getValue(), FieldPath.field(path, e.getKey()), out);
      }
    } else if (node.isArray()) {
      if (node.isEmpty()) {
        return;
      }
      out.put(path, node.toString());
    } else if (!node.isNull()) {
      out.put(path, node.asText());
    }
  }
}
