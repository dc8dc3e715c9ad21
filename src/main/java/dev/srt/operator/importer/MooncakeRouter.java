package dev.srt.operator.importer;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.srt.operator.config.Echo;
import dev.srt.operator.config.Problem;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * srtctl's mooncake-router benchmark: aiperf replaying a FAST25 Mooncake trace at its own
 * timestamps ({@code --custom-dataset-type mooncake_trace --fixed-schedule}) after a 20-request
 * warm-up, with goodput thresholds. Imported as the aiperf workload with the same dataset flags and
 * {@code spec.slo} from {@code ttft_threshold_ms} and {@code itl_threshold_ms} (srtctl's defaults
 * 2,000 and 25 ms). srtctl downloads the trace when the job runs; srt-operator's runs download
 * nothing, so the trace is read from the directory given with {@code import --trace-dir}, under
 * srtctl's file name.
 */
final class MooncakeRouter {
  /** srtctl's traces ({@code benchmarks/scripts/mooncake-router/bench.sh}), by {@code mooncake_workload}. */
  static final Map<String, String> TRACES = traces();
  static final String DEFAULT_WORKLOAD = "conversation";
  static final double DEFAULT_TTFT_MS = 2000;
  static final double DEFAULT_ITL_MS = 25;
  /** bench.sh's warm-up: {@code aiperf profile --concurrency 10 --request-count 20} before the replay. */
  static final int WARMUP_REQUESTS = 20;

  private MooncakeRouter() {}

  private static Map<String, String> traces() {
    String base = "https://raw.githubusercontent.com/kvcache-ai/Mooncake/main/FAST25-release/";
    Map<String, String> t = new LinkedHashMap<>();
    t.put("mooncake", base + "arxiv-trace/mooncake_trace.jsonl");
    t.put("conversation", base + "traces/conversation_trace.jsonl");
    t.put("synthetic", base + "traces/synthetic_trace.jsonl");
    t.put("toolagent", base + "traces/toolagent_trace.jsonl");
    return t;
  }

  /** srtctl's file name for a workload's trace, as bench.sh saves it. */
  static String fileName(String workload) {
    return workload + "_trace.jsonl";
  }

  /** {@code traceDir}: the directory of the GPU host holding the trace, null when not given. */
  static void workload(Recipe r, Draft d, String traceDir) {
    Problem.Location at = r.locate("benchmark.type");
    String workload = DEFAULT_WORKLOAD;
    double ttft = DEFAULT_TTFT_MS;
    double itl = DEFAULT_ITL_MS;
    boolean valid = true;
    for (Recipe.Leaf l : r.under("benchmark")) {
      switch (l.path()) {
        case "benchmark.type" -> { }
        case "benchmark.mooncake_workload" -> {
          workload = l.value().asText();
          if (!TRACES.containsKey(workload)) {
            d.problems.add(Problem.error(l.path(), l.shown() + " is not one of srtctl's traces: "
                + String.join(", ", TRACES.keySet())).at(l.at()));
            valid = false;
          }
        }
        case "benchmark.ttft_threshold_ms" -> {
          ttft = threshold(l, d);
          valid &= ttft > 0;
        }
        case "benchmark.itl_threshold_ms" -> {
          itl = threshold(l, d);
          valid &= itl > 0;
        }
        default -> {
          if (l.path().startsWith("benchmark.env.")) {
            d.env(d.spec, "workload.env", l);
          } else if (l.path().startsWith("benchmark.aiperf_args.")) {
            d.notes.add(l.at().file() + ":" + l.at().line() + ": " + l.path() + " ignored: srtctl's mooncake-router script does not "
                + "pass it to aiperf (add it to workload.args to give it to every arm)");
          } else {
            d.ignore(l, "not a mooncake-router field the importer knows");
          }
        }
      }
    }
    if (!valid) {
      return;
    }
    String file = fileName(workload);
    if (traceDir == null) {
      d.problems.add(Problem.error("benchmark.type", "mooncake-router replays the " + workload + " trace, which srtctl downloads when "
          + "the job runs and srt-operator's runs do not: download " + TRACES.get(workload) + " to a directory of the GPU host "
          + "and give it with --trace-dir DIR (the trace is read as DIR/" + file + ")").at(at));
      return;
    }
    if (!traceDir.startsWith("/")) {
      d.problems.add(Problem.error("--trace-dir", Echo.value(traceDir) + " must be an absolute path on the GPU host").at(at));
      return;
    }
    String input = traceDir.replaceAll("/+$", "") + "/" + file;
    ObjectNode w = Draft.object(d.spec, "workload");
    w.put("tool", "aiperf");
    ObjectNode args = Draft.object(d.spec, "workload.args");
    args.put("input-file", input);
    args.put("custom-dataset-type", "mooncake_trace");
    args.put("fixed-schedule", true);
    args.put("warmup-request-count", WARMUP_REQUESTS);
    ObjectNode slo = Draft.object(d.spec, "slo");
    slo.put("ttftMs", ttft);
    slo.put("itlMs", itl);
    d.notes.add(at.file() + ":" + at.line() + ": benchmark.type: mooncake-router → workload.tool: aiperf replaying " + input
        + " at its timestamps (download " + TRACES.get(workload) + " there), after " + WARMUP_REQUESTS
        + " warm-up requests; spec.slo: TTFT " + fmt(ttft) + " ms, ITL " + fmt(itl) + " ms (its goodput thresholds)");
  }

  private static double threshold(Recipe.Leaf l, Draft d) {
    if (l.value().isNumber() && l.value().asDouble() > 0 && l.value().asDouble() <= 1e7) {
      return l.value().asDouble();
    }
    d.problems.add(Problem.error(l.path(), l.shown() + " must be a positive number of milliseconds").at(l.at()));
    return -1;
  }

  private static String fmt(double v) {
    return v == Math.rint(v) ? Long.toString((long) v) : Double.toString(v);
  }
}
