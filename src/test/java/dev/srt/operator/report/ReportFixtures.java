package dev.srt.operator.report;

import dev.srt.operator.api.ArmRun;
import dev.srt.operator.api.BenchmarkResults;
import dev.srt.operator.api.GpuCluster;
import dev.srt.operator.api.RouterComparison;
import dev.srt.operator.base.Mappers;
import dev.srt.operator.verdict.ComparisonReport;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Reports of synthetic runs: the realistic example of docs/report-example.* (sgl-router
 * cache_aware vs round_robin vs Dynamo's KV router, 3 repetitions each) and, for the tests, a
 * comparison with a flaky arm and hostile spec values.
 */
final class ReportFixtures {
  static final Instant GENERATED = Instant.parse("2026-11-20T14:05:00Z");
  static final Instant FIRST_START = Instant.parse("2026-11-20T12:00:00Z");

  private ReportFixtures() {}

  static final String CLUSTER = """
      apiVersion: srt.dev/v1alpha1
      kind: GpuCluster
      metadata: {name: h100-box}
      spec:
        mode: slurm
        transport: ssh
        ssh: {host: login-01.example.internal, port: 22, user: bench}
        workDir: /scratch/srt-operator
        gpusPerNode: 8
        gpuType: h100
        slurm: {partition: batch, timeLimit: "02:00:00"}
      """;

  static final String EXAMPLE = """
      apiVersion: srt.dev/v1alpha1
      kind: RouterComparison
      metadata: {name: qwen3-32b-routers}
      spec:
        clusterRef: {name: h100-box}
        model: {path: /models/Qwen3-32B-FP8, servedModelName: Qwen/Qwen3-32B-FP8}
        resources: {aggNodes: 1, aggWorkers: 2, gpusPerWorker: 4}
        backend:
          type: sglang
          args: {tensor-parallel-size: 4, page-size: 64, enable-metrics: true}
          kvEvents: {publisher: zmq, topic: kv-events}
        dynamo:
          hash: 4dca1626b2708383514fcd65ac816ba7429c05a4
          source: {git: https://github.com/ai-dynamo/dynamo}
          eventPlane: zmq
          requestPlane: tcp
        observability: {enabled: true}
        workload:
          tool: bench-serving
          args: {backend: sglang-oai-chat, dataset-name: generated-shared-prefix, num-prompts: 1024}
        arms:
        - name: sgl-cache-aware
          frontend: {type: sgl-router, source: /src/sglang/sgl-router, args: {policy: cache_aware}}
        - name: sgl-round-robin
          frontend: {type: sgl-router, source: /src/sglang/sgl-router, args: {policy: round_robin}}
        - name: dynamo-kv
          frontend: {type: dynamo, args: {router-mode: kv}}
        execution: {order: interleaved, repetitions: 3, baseline: sgl-cache-aware, warmupRequests: 32}
      """;

  /** A comparison whose spec and runs carry markup and quotes, and whose third arm fails requests. */
  static final String HOSTILE = """
      apiVersion: srt.dev/v1alpha1
      kind: RouterComparison
      metadata: {name: "cmp-<script>alert(1)</script>"}
      spec:
        clusterRef: {name: h100-box}
        model: {path: "/models/<script>alert('model')</script>"}
        resources: {aggNodes: 1, aggWorkers: 2, gpusPerWorker: 4}
        backend: {args: {tensor-parallel-size: 4}}
        workload:
          tool: bench-serving
          args: {dataset-name: "<img src=x onerror=alert(2)>", num-prompts: 64}
        arms:
        - name: base
          frontend: {type: sgl-router, args: {policy: cache_aware}}
        - name: other
          frontend: {type: sgl-router, args: {policy: "round_robin\\"><script>alert(3)</script>|x"}}
        - name: flaky
          frontend: {type: sgl-router, args: {policy: random}}
        execution: {repetitions: 3, baseline: base}
      """;

  static RouterComparison comparison(String yaml) {
    return read(yaml, RouterComparison.class);
  }

  static GpuCluster cluster() {
    return read(CLUSTER, GpuCluster.class);
  }

  private static <T> T read(String yaml, Class<T> type) {
    try {
      return Mappers.yaml().readValue(yaml, type);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** One run's numbers, the others derived from them as a bench_serving run would report. */
  record Numbers(double requestThroughput, double meanTtftMs, double p99TtftMs, double cacheHitRate, long completed, long failed) {}

  static ArmRun run(String comparison, String arm, int repetition, int slot, String phase, Numbers n) {
    ArmRun r = new ArmRun();
    r.runId = String.format("r%02d-%s", slot, Integer.toHexString((arm + repetition).hashCode() & 0xfffff));
    r.repetition = repetition;
    r.phase = phase;
    r.jobId = String.valueOf(48_210 + slot);
    r.runDir = "/scratch/srt-operator/default/" + comparison + "/" + arm + "/" + r.runId;
    Instant start = FIRST_START.plusSeconds(600L * slot);
    r.startedAt = start.toString();
    r.finishedAt = start.plusSeconds(540).toString();
    r.facts = dev.srt.operator.verdict.AgreeingFacts.of();
    if (n != null) {
      BenchmarkResults b = new BenchmarkResults();
      b.completed = n.completed();
      b.failed = n.failed();
      b.requestThroughput = n.requestThroughput();
      b.duration = n.completed() / n.requestThroughput();
      b.outputThroughput = n.requestThroughput() * 243.5;
      b.totalThroughput = n.requestThroughput() * 1291.5;
      b.meanTtftMs = n.meanTtftMs();
      b.medianTtftMs = n.meanTtftMs() * 0.91;
      b.p99TtftMs = n.p99TtftMs();
      b.meanItlMs = 11.2 + n.meanTtftMs() / 400;
      b.p99ItlMs = 38.5 + n.meanTtftMs() / 60;
      b.meanE2eLatencyMs = n.meanTtftMs() + 243.5 * b.meanItlMs;
      b.engineCacheHitRate = n.cacheHitRate();
      b.workerRequestsMaxOverMin = 1.0 + (1 - n.cacheHitRate()) * 0.1;
      r.results = b;
    } else {
      r.message = "readiness gate router-health timed out after 30m";
    }
    return r;
  }

  /** The example: sgl-router cache_aware (baseline) vs round_robin vs Dynamo KV routing, interleaved. */
  static ReportContext example() {
    String name = "qwen3-32b-routers";
    Map<String, List<Numbers>> numbers = new LinkedHashMap<>();
    numbers.put("sgl-cache-aware", List.of(new Numbers(152.3, 412.0, 1210, 0.631, 1024, 0), new Numbers(148.9, 430.5, 1290, 0.635, 1024, 0),
        new Numbers(155.1, 398.2, 1180, 0.628, 1024, 0)));
    numbers.put("sgl-round-robin", List.of(new Numbers(131.2, 596.4, 1720, 0.420, 1024, 0), new Numbers(136.8, 571.0, 1650, 0.369, 1024, 0),
        new Numbers(128.4, 622.7, 1810, 0.401, 1023, 1)));
    numbers.put("dynamo-kv", List.of(new Numbers(149.0, 405.3, 1250, 0.655, 1024, 0), new Numbers(157.6, 441.8, 1330, 0.642, 1024, 0),
        new Numbers(146.2, 420.1, 1190, 0.661, 1024, 0)));
    Map<String, List<ArmRun>> runs = new LinkedHashMap<>();
    numbers.keySet().forEach(a -> runs.put(a, new ArrayList<>()));
    int slot = 0;
    for (int rep = 1; rep <= 3; rep++) {
      for (var e : numbers.entrySet()) {
        runs.get(e.getKey()).add(run(name, e.getKey(), rep, slot++, "Succeeded", e.getValue().get(rep - 1)));
      }
    }
    ComparisonReport report = ComparisonReport.of(name, runs, "sgl-cache-aware", 0.01);
    return new ReportContext(report, comparison(EXAMPLE), cluster(), "GpuCluster h100-box over ssh", GENERATED);
  }

  /**
   * Three arms of three repetitions: {@code other} is slower, {@code flaky} has a failed run and
   * fails 6% of its requests (not comparable); run messages carry markup.
   */
  static ReportContext hostile() {
    RouterComparison rc = comparison(HOSTILE);
    String name = rc.getMetadata().getName();
    Map<String, List<ArmRun>> runs = new LinkedHashMap<>();
    runs.put("base", List.of(run(name, "base", 1, 0, "Succeeded", new Numbers(150.0, 410, 1200, 0.63, 64, 0)),
        run(name, "base", 2, 3, "Succeeded", new Numbers(152.0, 405, 1190, 0.64, 64, 0)),
        run(name, "base", 3, 6, "Succeeded", new Numbers(149.0, 415, 1230, 0.62, 64, 0))));
    runs.put("other", List.of(run(name, "other", 1, 1, "Succeeded", new Numbers(120.0, 600, 1700, 0.40, 64, 0)),
        run(name, "other", 2, 4, "Succeeded", new Numbers(124.0, 590, 1650, 0.41, 64, 0)),
        run(name, "other", 3, 7, "Succeeded", new Numbers(118.0, 610, 1750, 0.39, 64, 0))));
    ArmRun failed = run(name, "flaky", 2, 5, "Failed", null);
    failed.message = "router exited: <img src=x onerror=alert(4)> | see router.log";
    runs.put("flaky", List.of(run(name, "flaky", 1, 2, "Succeeded", new Numbers(170.0, 300, 900, 0.60, 60, 4)), failed,
        run(name, "flaky", 3, 8, "Succeeded", new Numbers(172.0, 310, 950, 0.61, 60, 4))));
    ComparisonReport report = ComparisonReport.of(name, runs, "base", 0.01);
    return new ReportContext(report, rc, cluster(), "Kubernetes default/<b>cmp</b>", GENERATED);
  }
}
