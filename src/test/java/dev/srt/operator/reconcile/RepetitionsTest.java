package dev.srt.operator.reconcile;

import static org.assertj.core.api.Assertions.assertThat;

import dev.srt.operator.api.ArmRun;
import dev.srt.operator.api.ArmStatus;
import dev.srt.operator.api.RouterComparison;
import dev.srt.operator.api.RouterComparisonStatus;
import dev.srt.operator.api.RunFact;
import dev.srt.operator.api.RunFacts;
import dev.srt.operator.api.Verdict;
import dev.srt.operator.base.Mappers;
import dev.srt.operator.host.RunRef;
import dev.srt.operator.verdict.FactKind;
import dev.srt.operator.verdict.Verdicts;
import io.fabric8.kubernetes.api.model.Event;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * spec.execution: every arm runs its repetitions in the order asked for; each finished run is kept
 * in the arm's status with its numbers, the arm is summed up, and the other arms get verdicts
 * against the baseline once the comparison is complete.
 */
class RepetitionsTest {
  static final String NS = "reps";

  MockApiServer api;
  KubernetesClient client;
  FakeHosts.State host;
  RouterComparisonReconciler reconciler;
  RouterComparison rc;

  @BeforeEach
  void setUp() {
    api = new MockApiServer();
    client = api.client;
    host = new FakeHosts.State();
    reconciler = ComparisonFixture.reconciler(client, host, true, Duration.ofMillis(100));
  }

  @AfterEach
  void tearDown() {
    reconciler.close();
    api.close();
  }

  RouterComparison comparison(String execution) {
    String yaml = ComparisonFixture.example().replace("  execution: {order: declared}", "  execution: " + execution);
    return ComparisonFixture.comparison(client, NS, yaml, "{mode: slurm, transport: local, workDir: /work, gpusPerNode: 8, pollInterval: 100ms}");
  }

  ArmStatus arm(String name) {
    return rc.getStatus().arms.stream().filter(a -> a.name.equals(name)).findFirst().orElseThrow();
  }

  /** Reconciles until a new run is in flight, then lets it succeed with these numbers. */
  String runNext(double reqs, double ttft, double hit) {
    int before = host.runs().size();
    Awaitility.await().atMost(Duration.ofSeconds(10)).pollInterval(Duration.ofMillis(20)).until(() -> {
      reconciler.reconcile(rc, null);
      return host.runs().size() > before;
    });
    RunRef run = host.runs().get(host.runs().size() - 1);
    host.writeResults(run, "completed", "1000", "failed", "0", "request_throughput", String.valueOf(reqs), "mean_ttft_ms",
        String.valueOf(ttft), "p99_ttft_ms", String.valueOf(ttft * 2), "p99_itl_ms", String.valueOf(ttft / 10), "engine_cache_hit_rate", String.valueOf(hit));
    host.succeed(run);
    Awaitility.await().atMost(Duration.ofSeconds(10)).pollInterval(Duration.ofMillis(20)).until(() -> {
      reconciler.reconcile(rc, null);
      return arm(run.arm()).runs.stream().anyMatch(r -> r.runId.equals(run.runId()));
    });
    return run.arm();
  }

  @Test
  void interleavedRoundsKeepEveryRunAndEndWithVerdicts() {
    rc = comparison("{order: interleaved, repetitions: 3, baseline: sgl-router}");
    rc.getSpec().arms.remove(2); // two arms are enough here
    List<String> order = new ArrayList<>();
    double[][] numbers = {{150, 400, 0.60}, {100, 600, 0.30}, {152, 404, 0.62}, {101, 590, 0.31}, {148, 396, 0.61}, {99, 610, 0.29}};
    for (double[] n : numbers) {
      order.add(runNext(n[0], n[1], n[2]));
      if (order.size() < numbers.length) {
        assertThat(rc.getStatus().phase).as("between runs").isEqualTo("Running");
      }
    }
    reconciler.reconcile(rc, null);

    assertThat(order).containsExactly("sgl-router", "dynamo-kv", "sgl-router", "dynamo-kv", "sgl-router", "dynamo-kv");
    assertThat(host.submitCalls.get()).isEqualTo(6);
    RouterComparisonStatus s = rc.getStatus();
    assertThat(s.phase).isEqualTo("Succeeded");
    assertThat(s.runsSummary).isEqualTo("6/6");
    assertThat(s.armsSummary).isEqualTo("2/2");
    assertThat(arm("sgl-router").runs).extracting(r -> r.repetition).containsExactly(1, 2, 3);
    assertThat(arm("sgl-router").runs).extracting(r -> r.results.requestThroughput).containsExactly(150.0, 152.0, 148.0);
    assertThat(arm("sgl-router").summary.n).isEqualTo(3);
    assertThat(arm("sgl-router").summary.metrics.get("request_throughput").mean).isEqualTo(150.0);
    assertThat(arm("dynamo-kv").runs).allMatch(r -> r.runDir != null && r.startedAt != null && r.finishedAt != null);
    assertThat(s.baseline).isEqualTo("sgl-router");
    assertThat(s.verdicts).extracting(v -> v.arm + " " + v.metric + " " + v.verdict).containsExactly(
        "dynamo-kv request_throughput worse", "dynamo-kv p99_ttft_ms worse", "dynamo-kv p99_itl_ms worse",
        "dynamo-kv engine_cache_hit_rate worse");
    assertThat(s.seed).as("only a randomized order has a seed").isNull();

    // The Complete event carries the verdicts; each run's Succeeded event says which run it was.
    List<Event> events = client.v1().events().inNamespace(NS).list().getItems();
    assertThat(events).filteredOn(e -> e.getReason().equals("Complete")).singleElement()
        .satisfies(e -> assertThat(e.getMessage()).startsWith("all 2 arms succeeded (3 runs each); against sgl-router: dynamo-kv req/s -33.3% ["));
    assertThat(events).filteredOn(e -> e.getReason().equals("Succeeded")).extracting(Event::getMessage)
        .anyMatch(m -> m.startsWith("arm dynamo-kv run 3/3: succeeded: 99.0 req/s"));
  }

  /** Facts as a run writes them: the model's tokenizer hash and the router's binary. */
  static RunFacts facts(String tokenizer, String router) {
    RunFacts f = new RunFacts();
    f.facts = List.of(new RunFact("model tokenizer.json sha256", FactKind.of("model tokenizer.json sha256").wire(), tokenizer, null),
        new RunFact("router binary sha256", FactKind.of("router binary sha256").wire(), router, null));
    f.count = 2;
    f.unknownCount = 0;
    f.heldConstantDigest = FactKind.HELD_CONSTANT.digest(f.facts);
    f.routingDigest = FactKind.ROUTING.digest(f.facts);
    return f;
  }

  @Test
  void runsWhoseHeldConstantFactsDifferRaiseFactsDifferWithOneWarningAndStatusKeepsDigestsOnly() {
    rc = comparison("{order: interleaved, repetitions: 2, baseline: sgl-router}");
    rc.getSpec().arms.removeIf(a -> a.name.equals("dynamo-kv-policy"));
    for (int i = 0; i < 4; i++) {
      int before = host.runs().size();
      Awaitility.await().atMost(Duration.ofSeconds(10)).pollInterval(Duration.ofMillis(20)).until(() -> {
        reconciler.reconcile(rc, null);
        return host.runs().size() > before;
      });
      RunRef run = host.runs().get(host.runs().size() - 1);
      host.writeResults(run, "completed", "1000", "failed", "0", "request_throughput", String.valueOf(100 + i));
      // the second arm's runs saw another tokenizer: its verdicts compare nothing
      host.writeFacts(run, facts(run.arm().equals("sgl-router") ? "3f2a81c0aa" : "9c41d2e7bb", run.arm()));
      host.succeed(run);
      Awaitility.await().atMost(Duration.ofSeconds(10)).pollInterval(Duration.ofMillis(20)).until(() -> {
        reconciler.reconcile(rc, null);
        return arm(run.arm()).runs.stream().anyMatch(r -> r.runId.equals(run.runId()));
      });
    }
    RouterComparisonStatus s = rc.getStatus();
    var differ = Conditions.find(s.conditions, StatusAggregator.FACTS_DIFFER);
    assertThat(differ.getStatus()).isEqualTo("True");
    assertThat(differ.getReason()).isEqualTo("HeldConstantFactsDiffer");
    // the status keeps each run's digests, so the condition names the runs and their digests
    assertThat(differ.getMessage()).contains("dynamo-kv against sgl-router", "held-constant facts digest",
        "(runs 1-2 of sgl-router)", "(runs 1-2 of dynamo-kv)", "srt-operator report names each fact");
    assertThat(s.verdicts).isNotEmpty().allSatisfy(v -> assertThat(v.verdict).isEqualTo(Verdicts.NOT_COMPARABLE));
    // digests and counts per run; the facts themselves stay in the run directories
    assertThat(s.arms).allSatisfy(a -> assertThat(a.runs).hasSize(2).allSatisfy(r -> {
      assertThat(r.facts.heldConstantDigest).isNotBlank();
      assertThat(r.facts.facts).isNull();
    }));
    List<Event> warnings = client.v1().events().inNamespace(NS).list().getItems().stream()
        .filter(e -> e.getReason().equals("FactsDiffer")).toList();
    assertThat(warnings).singleElement().satisfies(e -> {
      assertThat(e.getType()).isEqualTo("Warning");
      assertThat(e.getMessage()).contains("dynamo-kv against sgl-router");
    });
  }

  /** Runs {@code n} runs of the comparison, each succeeding with its numbers and the facts {@code facts} gives it. */
  private List<RunRef> runAll(int n, java.util.function.BiFunction<RunRef, Integer, RunFacts> facts) {
    List<RunRef> out = new ArrayList<>();
    for (int i = 0; i < n; i++) {
      int before = host.runs().size();
      Awaitility.await().atMost(Duration.ofSeconds(10)).pollInterval(Duration.ofMillis(20)).until(() -> {
        reconciler.reconcile(rc, null);
        return host.runs().size() > before;
      });
      RunRef run = host.runs().get(host.runs().size() - 1);
      host.writeResults(run, "completed", "1000", "failed", "0", "request_throughput", String.valueOf(100 + i));
      host.writeFacts(run, facts.apply(run, i));
      host.succeed(run);
      Awaitility.await().atMost(Duration.ofSeconds(10)).pollInterval(Duration.ofMillis(20)).until(() -> {
        reconciler.reconcile(rc, null);
        return arm(run.arm()).runs.stream().anyMatch(r -> r.runId.equals(run.runId()));
      });
      out.add(run);
    }
    return out;
  }

  /** A run whose facts.json could not be read fails closed in the status too: FactsDiffer names it, its arm is refused. */
  @Test
  void aRunWithoutFactsRaisesFactsDifferAsFactsUnknownAndItsArmIsNotComparable() {
    rc = comparison("{order: interleaved, repetitions: 2, baseline: sgl-router}");
    rc.getSpec().arms.removeIf(a -> a.name.equals("dynamo-kv-policy"));
    List<RunRef> runs = runAll(4, (run, i) -> i == 3 ? RunFacts.none("facts.json is malformed: not JSON") : facts("3f2a81c0aa", run.arm()));
    RunRef broken = runs.get(3);

    var differ = Conditions.find(rc.getStatus().conditions, StatusAggregator.FACTS_DIFFER);
    assertThat(differ.getStatus()).isEqualTo("True");
    assertThat(differ.getReason()).isEqualTo("FactsUnknown");
    assertThat(differ.getMessage()).startsWith("run " + broken.runId() + " of " + broken.arm() + " has no facts: facts.json is malformed: not JSON");
    assertThat(rc.getStatus().verdicts).isNotEmpty().allSatisfy(v -> {
      assertThat(v.verdict).isEqualTo(Verdicts.NOT_COMPARABLE);
      assertThat(v.reason).startsWith("run " + broken.runId() + " of " + broken.arm() + " has no facts");
    });
  }

  /** With requireFacts: false the verdicts stand and the FactsDiffer condition is the status's warning. */
  @Test
  void withRequireFactsFalseARunWithoutFactsIsAWarningInTheStatus() {
    rc = comparison("{order: interleaved, repetitions: 2, baseline: sgl-router, requireFacts: false}");
    rc.getSpec().arms.removeIf(a -> a.name.equals("dynamo-kv-policy"));
    runAll(4, (run, i) -> i == 3 ? RunFacts.none("the run wrote no facts.json") : facts("3f2a81c0aa", run.arm()));

    var differ = Conditions.find(rc.getStatus().conditions, StatusAggregator.FACTS_DIFFER);
    assertThat(differ.getStatus()).isEqualTo("True");
    assertThat(differ.getMessage()).contains("has no facts: the run wrote no facts.json", "(requireFacts: false: the verdicts stand)");
    assertThat(rc.getStatus().verdicts).isNotEmpty().noneSatisfy(v -> assertThat(String.valueOf(v.reason)).contains("facts"));
  }

  /** The status keeps digests: a routing digest that differs within one arm still refuses its verdicts. */
  @Test
  void aRouterThatDiffersWithinAnArmIsFoundByItsDigestInTheStatus() {
    rc = comparison("{order: interleaved, repetitions: 2, baseline: sgl-router}");
    rc.getSpec().arms.removeIf(a -> a.name.equals("dynamo-kv-policy"));
    runAll(4, (run, i) -> facts("3f2a81c0aa", i == 3 ? "another build" : run.arm()));

    var differ = Conditions.find(rc.getStatus().conditions, StatusAggregator.FACTS_DIFFER);
    assertThat(differ.getStatus()).isEqualTo("True");
    assertThat(differ.getReason()).isEqualTo("RoutingFactsDifferWithinArm");
    assertThat(differ.getMessage()).contains("routing facts differ between the runs of one arm", "router facts digest", "(run 1 of dynamo-kv)",
        "(run 2 of dynamo-kv)");
    assertThat(rc.getStatus().verdicts).isNotEmpty().allSatisfy(v -> assertThat(v.verdict).isEqualTo(Verdicts.NOT_COMPARABLE));
  }

  @Test
  void runsWithEqualHeldConstantFactsAgree() {
    rc = comparison("{repetitions: 1}");
    for (int i = 0; i < 3; i++) {
      int before = host.runs().size();
      Awaitility.await().atMost(Duration.ofSeconds(10)).pollInterval(Duration.ofMillis(20)).until(() -> {
        reconciler.reconcile(rc, null);
        return host.runs().size() > before;
      });
      RunRef run = host.runs().get(host.runs().size() - 1);
      host.writeResults(run, "completed", "1000", "failed", "0", "request_throughput", "100");
      // routers may differ: that is what is compared
      host.writeFacts(run, facts("3f2a81c0aa", run.arm()));
      host.succeed(run);
      Awaitility.await().atMost(Duration.ofSeconds(10)).pollInterval(Duration.ofMillis(20)).until(() -> {
        reconciler.reconcile(rc, null);
        return arm(run.arm()).runs.stream().anyMatch(r -> r.runId.equals(run.runId()));
      });
    }
    var agree = Conditions.find(rc.getStatus().conditions, StatusAggregator.FACTS_DIFFER);
    assertThat(agree.getStatus()).isEqualTo("False");
    assertThat(agree.getReason()).isEqualTo("FactsAgree");
    assertThat(client.v1().events().inNamespace(NS).list().getItems()).noneMatch(e -> e.getReason().equals("FactsDiffer"));
  }

  @Test
  void declaredOrderRunsEveryRepetitionOfAnArmFirstAndAFailedRunIsCountedNotRetried() {
    rc = comparison("{repetitions: 2}");
    rc.getSpec().arms.remove(2);
    runNext(150, 400, 0.6);
    // The second run of sgl-router fails.
    int before = host.runs().size();
    Awaitility.await().atMost(Duration.ofSeconds(10)).until(() -> {
      reconciler.reconcile(rc, null);
      return host.runs().size() > before;
    });
    RunRef failing = host.runs().get(host.runs().size() - 1);
    assertThat(failing.arm()).isEqualTo("sgl-router");
    host.emit(failing, "failed", "reason", "GateTimeout", "message", "worker-0 not ready");
    host.emit(failing, "finished", "status", "failed", "code", "1");
    Awaitility.await().atMost(Duration.ofSeconds(10)).until(() -> {
      reconciler.reconcile(rc, null);
      return arm("sgl-router").runs.size() == 2;
    });
    assertThat(rc.getStatus().conditions).filteredOn(c -> c.getType().equals("Degraded")).singleElement()
        .satisfies(c -> assertThat(c.getMessage()).contains("1 of 2 runs failed"));
    runNext(100, 600, 0.3);
    runNext(101, 601, 0.3);
    reconciler.reconcile(rc, null);

    assertThat(host.runs()).extracting(RunRef::arm).containsExactly("sgl-router", "sgl-router", "dynamo-kv", "dynamo-kv");
    assertThat(rc.getStatus().phase).isEqualTo("Failed");
    assertThat(arm("sgl-router").runs).extracting(r -> r.phase).containsExactly("Succeeded", "Failed");
    assertThat(arm("sgl-router").summary.n).isEqualTo(1);
    Verdict v = rc.getStatus().verdicts.get(0);
    assertThat(v.verdict).isEqualTo(Verdicts.NOT_COMPARABLE);
    assertThat(v.reason).isEqualTo("sgl-router has 1 succeeded run with this metric (2 are needed)");
  }

  @Test
  void aRandomizedOrderIsSeededAndItsSeedIsInTheStatus() {
    rc = comparison("{order: randomized, repetitions: 2}");
    runNext(1, 1, 0.1);
    assertThat(rc.getStatus().seed).isNotNull();
    assertThat(rc.getStatus().runsSummary).isEqualTo("1/6");
  }

  @Test
  void tenArmsOfTwentyRunsWithEveryMetricStayUnderTheStatusSizeLimit() throws Exception {
    rc = comparison("{repetitions: 20}");
    RouterComparisonStatus s = new RouterComparisonStatus();
    for (int a = 0; a < 10; a++) {
      ArmStatus arm = ComparisonState.pending("arm-with-a-longish-name-" + a);
      for (int r = 1; r <= 20; r++) {
        arm.runId = String.format("r%08x", a * 100 + r);
        arm.repetition = r;
        arm.phase = "Succeeded";
        arm.jobId = String.valueOf(100000 + a * 100 + r);
        arm.runDir = "/lustre/fsw/team/srt-operator/work/a-namespace/a-comparison-name/" + arm.name + "/" + arm.runId;
        arm.startedAt = "2026-12-01T10:00:00Z";
        arm.finishedAt = "2026-12-01T10:12:34.567Z";
        arm.message = "benchmark finished";
        arm.results = new dev.srt.operator.api.BenchmarkResults();
        for (dev.srt.operator.verdict.Metric m : dev.srt.operator.verdict.Metric.values()) {
          m.set(arm.results, 12345.678901234 + r);
        }
        dev.srt.operator.run.ArmRuns.record(arm);
      }
      s.arms.add(arm);
    }
    byte[] json = Mappers.json().writeValueAsString(s).getBytes(StandardCharsets.UTF_8);
    assertThat(s.arms.get(0).runs).hasSize(20).allSatisfy((ArmRun r) -> assertThat(r.results).isNotNull());
    // Every one of the 28 metrics set in every run, each with 15 digits: the worst case of today's status. etcd takes
    // objects up to 1.5 MiB; this bound is a tripwire for growth (it was 256 KiB at 27 metrics, before shed_ratio).
    assertThat(json.length).as("status bytes").isLessThan(288 * 1024);
  }
}
