package dev.srt.operator.importer;

import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The fields every recipe shares (the fairness check made sure they agree), mapped onto the
 * comparison's spec and the GpuCluster skeleton, or ignored with a reason. A few need the whole
 * recipe (KV events, health check, benchmark) and are finished by {@link Finish}.
 */
final class SharedFields {
  static final Map<String, String> RESOURCES = Map.of("agg_nodes", "aggNodes", "agg_workers", "aggWorkers",
      "gpus_per_agg", "gpusPerWorker", "prefill_nodes", "prefillNodes", "decode_nodes", "decodeNodes",
      "prefill_workers", "prefillWorkers", "decode_workers", "decodeWorkers", "gpus_per_prefill", "gpusPerPrefill",
      "gpus_per_decode", "gpusPerDecode");
  private static final Pattern ENGINE_FLAG = Pattern.compile("backend\\.sglang_config\\.(aggregated|prefill|decode)\\..+");
  private static final Pattern ENGINE_ENV = Pattern.compile("backend\\.(aggregated|prefill|decode)_environment\\..+");
  private static final Map<String, String> ARGS_OF_MODE = Map.of("aggregated", "args", "prefill", "prefillArgs", "decode", "decodeArgs");
  static final String ONE_ROUTER = "srt-operator runs one router per arm, on the first node (no nginx, no extra frontends)";

  private SharedFields() {}

  static void map(Recipe.Leaf l, Draft d) {
    String p = l.path();
    String top = p.contains(".") ? p.substring(0, p.indexOf('.')) : p.replaceAll("\\[.*", "");
    switch (top) {
      case "model" -> model(l, d);
      case "resources" -> resources(l, d);
      case "slurm" -> slurm(l, d);
      case "sbatch_directives" -> Draft.set(d.cluster, "slurm.sbatchDirectives", l.key(), l.value());
      case "srun_options" -> Draft.set(d.cluster, "slurm.srunOptions", l.key(), l.value());
      case "backend" -> backend(l, d);
      case "environment" -> environment(l, d);
      case "observability" -> {
        if (p.equals("observability.enabled")) {
          Draft.set(d.spec, "observability", "enabled", l.value());
        } else {
          d.ignore(l, "srt-operator scrapes the router's and workers' /metrics before and after the benchmark itself "
              + "(observability.enabled); Tachometer, OpenTelemetry export and dashboards are not run");
        }
      }
      case "telemetry" -> d.ignore(l, "GPU power telemetry (DCGM exporter) is not collected");
      case "health_check", "benchmark", "sweep" -> { } // Finish and SaBench: they need the whole section
      case "infra" -> d.ignore(l, "etcd and NATS run on the first node of each Dynamo arm; move their ports in the GpuCluster's spec.infra");
      case "profiling" -> d.ignore(l, "profiling (nsys, torch) is not run");
      case "container_mounts" -> Draft.object(d.cluster, "container").withArray("mounts").add(l.key() + ":" + l.value().asText());
      case "extra_mount" -> {
        if (l.value().isArray()) {
          l.value().forEach(m -> Draft.object(d.cluster, "container").withArray("mounts").add(m.asText()));
        } else {
          Draft.object(d.cluster, "container").withArray("mounts").add(l.value().asText());
        }
      }
      case "setup_script" -> d.ignore(l, "no setup script runs before the arms; do what it does on the host or in the image");
      case "output", "enable_config_dump", "identity", "reporting" ->
          d.ignore(l, "srtctl's own bookkeeping: srt-operator writes each run to its own run directory and reports in status");
      default -> d.ignore(l, "not an srtctl recipe field the importer knows");
    }
  }

  private static void model(Recipe.Leaf l, Draft d) {
    switch (l.path()) {
      case "model.path" -> Draft.set(d.spec, "model", "path", l.value());
      case "model.container" -> Draft.set(d.cluster, "container", "image", l.value());
      case "model.precision" -> d.ignore(l, "srtctl uses it to choose recipes; the engine flags decide the precision");
      case "model.stage_dir" -> d.ignore(l, "the model is not staged: it must be at model.path on every node");
      default -> d.ignore(l, "not an srtctl model field the importer knows");
    }
  }

  private static void resources(Recipe.Leaf l, Draft d) {
    String field = l.path().substring("resources.".length());
    String mapped = RESOURCES.get(field);
    if (mapped != null) {
      Draft.set(d.spec, "resources", mapped, l.value());
    } else if (field.equals("gpu_type")) {
      Draft.set(d.cluster, "", "gpuType", l.value());
    } else if (field.equals("gpus_per_node")) {
      Draft.set(d.cluster, "", "gpusPerNode", l.value());
    } else if (field.equals("spread_workers") || field.equals("het_jobs")) {
      d.ignore(l, "workers are placed by srt-operator: packed onto nodes in the order prefill, decode, aggregated");
    } else {
      d.ignore(l, "not an srtctl resources field the importer knows");
    }
  }

  private static void slurm(Recipe.Leaf l, Draft d) {
    switch (l.path()) {
      case "slurm.account" -> Draft.set(d.cluster, "slurm", "account", l.value());
      case "slurm.partition" -> Draft.set(d.cluster, "slurm", "partition", l.value());
      case "slurm.time_limit" -> Draft.set(d.cluster, "slurm", "timeLimit", l.value());
      default -> d.ignore(l, "not an srtctl slurm field the importer knows");
    }
  }

  private static void backend(Recipe.Leaf l, Draft d) {
    String p = l.path();
    Matcher flag = ENGINE_FLAG.matcher(p);
    if (p.equals("backend.type")) {
      Draft.set(d.spec, "backend", "type", l.value());
    } else if (flag.matches()) {
      switch (l.key()) {
        // srtctl takes the first served-model-name of prefill, aggregated, decode: they agree in practice.
        case "served-model-name" -> {
          if (!Draft.object(d.spec, "model").has("servedModelName")) {
            Draft.set(d.spec, "model", "servedModelName", l.value());
          }
        }
        case "model-path", "nccl-port" -> d.ignore(l, "srt-operator sets it itself, as srtctl does (model.path, its own ports)");
        default -> Draft.set(d.spec, "backend." + ARGS_OF_MODE.get(flag.group(1)), l.key(), l.value());
      }
    } else if (ENGINE_ENV.matcher(p).matches()) {
      d.env(d.spec, "backend.env", l);
    } else if (!p.startsWith("backend.kv_events_config")) { // Finish: it depends on the topology
      d.ignore(l, "not an srtctl SGLang backend field the importer knows");
    }
  }

  /** Whether a variable of the recipe's environment reaches the processes (srtctl's own configure srtctl). */
  static boolean passedOn(String name) {
    return !SrtctlVariables.isSrtctl(name);
  }

  private static void environment(Recipe.Leaf l, Draft d) {
    if (SrtctlVariables.isSrtctl(l.key())) {
      SrtctlVariables.map(l, d);
    } else {
      // srtctl gives the recipe's environment to workers, Dynamo frontends and the benchmark.
      d.env(d.spec, "backend.env", l);
      d.env(d.spec, "workload.env", l);
    }
  }
}
