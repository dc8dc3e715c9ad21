package dev.srt.operator.importer;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.BooleanNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.databind.node.TextNode;
import dev.srt.operator.config.Durations;
import dev.srt.operator.config.Problem;
import dev.srt.operator.config.ReservedEnvNames;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;

/** The shared sections that are mapped as a whole: health check, KV events, benchmark, Dynamo. */
final class Finish {
  /** srtctl's health-check defaults: 180 attempts, 10 s apart. */
  static final int ATTEMPTS = 180;
  static final int INTERVAL_SECONDS = 10;
  /** srtctl's default Dynamo release, installed when a recipe names no other source. */
  static final String DYNAMO_VERSION = "0.8.0";
  /** What every srt-operator benchmark process has exported to it (see plan.Workload). */
  static final Set<String> EXPORTED = Set.of("SRT_FRONTEND_URL", "AIPERF_ARTIFACT_DIR", "SRT_MODEL", "SRT_RESULTS_DIR", "SRT_SEED");
  /** srtctl's Python with AIPerf installed, on a direct host. */
  static final String RUTER_PYTHON = "SRTCTL_RUTER_PYTHON";
  /** The longest duration a spec takes (config/Durations.MAX), in seconds. */
  static final long MAX_SECONDS = Durations.MAX.toSeconds();

  private Finish() {}

  static void healthCheck(Recipe r, Draft d) {
    long attempts = ATTEMPTS;
    long interval = INTERVAL_SECONDS;
    for (Recipe.Leaf l : r.under("health_check")) {
      switch (l.path()) {
        case "health_check.max_attempts" -> attempts = seconds(l, d, ATTEMPTS);
        case "health_check.interval_seconds" -> interval = seconds(l, d, INTERVAL_SECONDS);
        default -> d.ignore(l, "not an srtctl health_check field the importer knows");
      }
    }
    if (attempts * interval > MAX_SECONDS) {
      d.problems.add(Problem.error("health_check", "max_attempts x interval_seconds = " + attempts + " x " + interval + " s, more than "
          + MAX_SECONDS + " s (7 days, the longest timeout)").at(r.locate("health_check.max_attempts")));
      return;
    }
    ObjectNode hc = Draft.object(d.spec, "healthCheck");
    hc.put("timeout", duration((long) attempts * interval));
    hc.put("interval", duration(interval));
  }

  /**
   * A whole number of 1 to {@link #MAX_SECONDS} (a count or seconds); {@code fallback} (with the
   * problem) when it is not one: read as an int, a larger number would wrap around.
   */
  static long seconds(Recipe.Leaf l, Draft d, long fallback) {
    JsonNode v = l.value();
    if (v.isIntegralNumber() && v.canConvertToLong() && v.asLong() >= 1 && v.asLong() <= MAX_SECONDS) {
      return v.asLong();
    }
    d.error(l, "must be a whole number from 1 to " + MAX_SECONDS + ", not " + l.shown());
    return fallback;
  }

  static String duration(long seconds) {
    return seconds % 3600 == 0 ? seconds / 3600 + "h" : seconds % 60 == 0 ? seconds / 60 + "m" : seconds + "s";
  }

  /**
   * srtctl's kv_events_config: {@code true} turns events on for prefill and decode workers only; a
   * map turns them on per worker mode, {@code true} or a map merged over publisher zmq, topic
   * kv-events. srt-operator's workers all publish or none do.
   */
  static void kvEvents(Recipe r, Draft d, boolean disaggregated) {
    List<String> modes = disaggregated ? List.of("prefill", "decode") : List.of("aggregated");
    Recipe.Leaf whole = r.get("backend.kv_events_config");
    List<JsonNode> perMode = new ArrayList<>();
    if (whole != null) {
      if (whole.value().asBoolean() && !disaggregated) {
        d.notes.add(whole.where() + ": backend.kv_events_config: true turns KV events on for prefill and decode workers only "
            + "(as in srtctl), so these aggregated workers publish none; write {aggregated: true} to turn them on");
      }
      modes.forEach(m -> perMode.add(whole.value().asBoolean() ? BooleanNode.TRUE : null));
    } else {
      for (Recipe.Leaf l : r.under("backend.kv_events_config")) {
        if (!modes.contains(l.key())) {
          d.ignore(l, "this topology has no " + l.key() + " workers");
        }
      }
      modes.forEach(m -> perMode.add(r.get("backend.kv_events_config." + m) == null ? null : r.get("backend.kv_events_config." + m).value()));
    }
    List<JsonNode> on = perMode.stream().map(v -> v == null || v.isNull() || (v.isBoolean() && !v.asBoolean()) ? null : v).toList();
    if (on.stream().distinct().count() > 1) {
      d.problems.add(Problem.error("backend.kv_events_config", "srt-operator's workers all publish KV events the same way or none do; "
          + "write the same value for " + String.join(" and ", modes)).at(r.locate("backend.kv_events_config." + modes.get(0))));
      return;
    }
    JsonNode v = on.get(0);
    if (v == null) {
      return;
    }
    ObjectNode kv = Draft.object(d.spec, "backend.kvEvents");
    kv.put("publisher", "zmq");
    kv.put("topic", "kv-events");
    if (v.isObject()) {
      v.fields().forEachRemaining(e -> {
        if (e.getKey().equals("publisher") || e.getKey().equals("topic")) {
          kv.set(e.getKey(), e.getValue());
        } else {
          d.notes.add(r.locate("backend.kv_events_config." + modes.get(0)).file() + ": backend.kv_events_config." + modes.get(0) + "."
              + e.getKey() + " ignored: srt-operator gives each worker its own endpoint tcp://*:5200+i");
        }
      });
    }
  }

  /**
   * srtctl's benchmark: a custom command keeps working (an aiperf {@code --goodput} in it becomes
   * spec.slo), sa-bench becomes a load ladder ({@link SaBench}), mooncake-router the aiperf replay
   * of its trace ({@link MooncakeRouter}, read from {@code traceDir}); the other built-in types are
   * not imported.
   */
  static void workload(Recipe r, Draft d, EnvReferences env, String traceDir) {
    String type = r.text("benchmark.type");
    Problem.Location at = r.locate("benchmark.type");
    SaBench.sweep(r, d);
    if ("sa-bench".equals(type)) {
      SaBench.workload(r, d);
      return;
    }
    if ("mooncake-router".equals(type)) {
      MooncakeRouter.workload(r, d, traceDir);
      return;
    }
    if (!"custom".equals(type)) {
      String hint = "router".equals(type)
          ? ": it runs Dynamo's prefix-ratio benchmark (benchmarks/router/prefix_ratio_benchmark.py), a sweep over shared-prefix "
              + "ratios rather than over load; write it as type: custom with its command, or use sa-bench or mooncake-router"
          : ": write the benchmark as type: custom with its command";
      d.problems.add(Problem.error("benchmark.type", (type == null || type.equals("manual")
          ? "manual (srtctl's default) runs no benchmark, and an arm needs one" : type + " is not imported") + hint).at(at));
      return;
    }
    ObjectNode w = Draft.object(d.spec, "workload");
    w.put("tool", "custom");
    String command = r.text(Recipe.COMMAND);
    if (command == null || command.isBlank()) {
      d.problems.add(Problem.error(Recipe.COMMAND, "type: custom needs command").at(r.locate(Recipe.COMMAND)));
      return;
    }
    w.put("command", command);
    for (Recipe.Leaf l : r.under("benchmark")) {
      if (l.path().startsWith("benchmark.env.")) {
        d.env(d.spec, "workload.env", l);
      } else if (!l.path().equals("benchmark.type") && !l.path().equals(Recipe.COMMAND)) {
        d.ignore(l, "used by srtctl's built-in benchmark types or its benchmark container only; the custom command runs on the host");
      }
    }
    commandVariables(r, d, env, command);
    Goodput.slo(command, d, r.locate(Recipe.COMMAND));
  }

  /**
   * The command's {@code $NAME}s are the shell's at run time, and the command is written as it is:
   * those srt-operator exports are left alone; srtctl's own run-time ones it does not export refuse
   * the import; a name that looks secret becomes a secretEnv reference; one given with --env is
   * written to workload.env with its value; any other one is listed, for the user to give the run.
   */
  private static void commandVariables(Recipe r, Draft d, EnvReferences env, String command) {
    Problem.Location at = r.locate(Recipe.COMMAND);
    ObjectNode wenv = Draft.object(d.spec, "workload.env");
    for (String name : EnvReferences.names(command)) {
      if (EXPORTED.contains(name) || wenv.has(name) || d.secretEnv.containsKey(name)
          || ReservedEnvNames.reason(name) != null && !name.startsWith("SRT")) {
        continue;
      }
      if (name.equals(RUTER_PYTHON)) {
        wenv.put(name, "python3");
        d.notes.add(at.file() + ":" + at.line() + ": workload.env." + name + ": python3 (srtctl's Python with aiperf; "
            + "the host's python3 here: edit it if aiperf lives elsewhere)");
      } else if (name.startsWith("SRT") || name.startsWith("AIPERF_")) {
        d.problems.add(Problem.error(Recipe.COMMAND, "uses $" + name + ", which srtctl sets at run time and srt-operator does not "
            + "(it exports " + String.join(", ", EXPORTED.stream().sorted().toList()) + ")").at(at));
      } else if (EnvReferences.looksSecret(name)) {
        d.secretEnv.put(name, name);
        d.notes.add(at.file() + ":" + at.line() + ": benchmark.command uses $" + name + ", which looks secret: spec.secretEnv." + name
            + " references it (Secret key " + name + "); its value is never written");
      } else if (env.given(name)) {
        wenv.put(name, env.take(name));
        d.notes.add(at.file() + ":" + at.line() + ": workload.env." + name + ": taken from the environment of the import (--env " + name + ")");
      } else {
        d.problems.add(Problem.warning(Recipe.COMMAND, "uses $" + name + ", which the run does not set (the command's shell expands it "
            + "at run time): add it to spec.workload.env or spec.secretEnv, or import with --env " + name).at(at));
      }
    }
  }

  /** spec.dynamo, one for every Dynamo arm: they must agree on it. */
  static void dynamo(List<Recipe> dynamoArms, Draft d) {
    if (dynamoArms.isEmpty()) {
      return;
    }
    List<Problem> differ = Fairness.differences(dynamoArms, p -> p.startsWith("dynamo.")
        && ArmFields.SHARED_DYNAMO.contains(p.substring("dynamo.".length()).replaceAll("[.\\[].*", "")),
        " (the Dynamo install and planes are one spec.dynamo for every Dynamo arm)");
    if (!differ.isEmpty()) {
      d.problems.addAll(differ);
      return;
    }
    Recipe r = dynamoArms.get(0);
    ObjectNode dyn = Draft.object(d.spec, "dynamo");
    boolean install = r.get("dynamo.install") == null || r.get("dynamo.install").value().asBoolean(true);
    for (Recipe.Leaf l : r.under("dynamo")) {
      String field = l.path().substring("dynamo.".length());
      switch (field) {
        case "install" -> {
          if (!install) {
            dyn.put("install", false);
          }
        }
        case "version", "hash" -> {
          if (install) {
            dyn.set(field, TextNode.valueOf(l.value().asText()));
          } else {
            d.ignore(l, "dynamo.install: false: the host's Dynamo is used, nothing is installed");
          }
        }
        case "top_of_tree" -> {
          if (l.value().asBoolean()) {
            d.error(l, "srt-operator builds pinned commits only: set dynamo.hash to a 40-hex commit");
          }
        }
        case "wheel" -> d.error(l, "srtctl's wheel is the version of staged wheels; set spec.dynamo.wheel to the wheel's absolute host path by hand");
        case "cargo_patches" -> d.error(l, "cargo patches of the Dynamo build are not supported");
        case "request_plane" -> dyn.set("requestPlane", l.value());
        case "event_plane" -> dyn.set("eventPlane", l.value());
        case "sidecar_port" -> dyn.set("sidecarPort", l.value());
        case "sidecar_startup_timeout" -> dyn.put("sidecarStartupTimeout", duration(seconds(l, d, 1)));
        default -> { } // the arm's own fields (ArmFields)
      }
    }
    if (install && !dyn.has("hash") && !dyn.has("version")) {
      dyn.put("version", DYNAMO_VERSION);
      d.notes.add(r.file + ": spec.dynamo.version: " + DYNAMO_VERSION + " (srtctl's default: the recipes name no Dynamo source)");
    }
    if (!dyn.has("requestPlane")) {
      dyn.put("requestPlane", "tcp"); // srtctl's default, written out so the comparison says it
    }
  }
}
