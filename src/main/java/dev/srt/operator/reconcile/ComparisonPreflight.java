package dev.srt.operator.reconcile;

import dev.srt.operator.run.RunHost;
import dev.srt.operator.api.GpuCluster;
import dev.srt.operator.base.Mappers;
import dev.srt.operator.host.HostException;
import dev.srt.operator.plan.Hashes;
import dev.srt.operator.plan.Planner;
import dev.srt.operator.plan.Prerequisites;
import dev.srt.operator.plan.RunPlan;
import dev.srt.operator.api.ArmPhase;
import dev.srt.operator.api.ArmStatus;
import dev.srt.operator.run.ArmRuns;
import dev.srt.operator.run.Runs;
import io.javaoperatorsdk.operator.processing.event.ResourceID;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.function.Consumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The RouterComparisons' {@code PrerequisitesMet}: what the arms' plans need, looked for on the
 * host off the reconcile thread (a reconcile never waits for a host), again when the comparison
 * or its GpuCluster changes and every {@link #EVERY} while it has runs to make. The comparison is
 * reconciled again when a check ends; until the first one has, the condition is Unknown and
 * nothing is submitted.
 */
final class ComparisonPreflight implements AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(ComparisonPreflight.class);
  /** How often the host is checked again while nothing changed. */
  static final Duration EVERY = Duration.ofMinutes(5);

  /** The last check of a comparison: for which spec and cluster, when, and what it said. */
  private record Checked(String key, Instant at, PrerequisiteCondition condition) {}

  private final Consumer<ResourceID> wakeUp;
  private final Clock clock;
  private final Duration every;
  private final Map<ResourceID, Checked> checked = new ConcurrentHashMap<>();
  private final Map<ResourceID, String> running = new ConcurrentHashMap<>();
  private final ExecutorService checks = Executors.newFixedThreadPool(2, r -> {
    Thread t = new Thread(r, "srt-prerequisites");
    t.setDaemon(true);
    return t;
  });

  ComparisonPreflight(Consumer<ResourceID> wakeUp, Clock clock, Duration every) {
    this.wakeUp = wakeUp;
    this.clock = clock;
    this.every = every;
  }

  /**
   * The condition for {@code s} with its arms at {@code arms}: the last check's while it is of this spec and cluster (a new
   * one starts when it is older than {@link #every}), else Unknown while one runs; null when the
   * comparison makes no more runs (invalid, suspended, done) or has no host that can be checked.
   */
  PrerequisiteCondition assess(ComparisonState s, Map<String, ArmStatus> arms) {
    if (!s.specErrors.isEmpty() || s.host == null || !s.host.checksPrerequisites() || s.rc.getSpec() == null || s.rc.getSpec().suspended()
        || done(s, arms)) {
      return null;
    }
    String key = specKey(s.rc.getSpec()) + "|" + s.cluster.getMetadata().getUid() + "|" + specKey(s.cluster.getSpec());
    Checked last = checked.get(s.id);
    boolean current = last != null && last.key().equals(key);
    if (!current || Duration.between(last.at(), clock.instant()).compareTo(every) >= 0) {
      start(s, key);
    }
    return current ? last.condition() : PrerequisiteCondition.CHECKING;
  }

  private void start(ComparisonState s, String key) {
    if (running.putIfAbsent(s.id, key) != null) {
      return;
    }
    GpuCluster cluster = s.cluster;
    RunHost host = s.host;
    List<RunPlan> plans;
    try {
      plans = s.rc.getSpec().arms.stream().map(a -> Planner.plan(s.rc, cluster, a.name, null)).toList();
    } catch (RuntimeException e) {
      running.remove(s.id);
      throw e;
    }
    List<Prerequisites.Needed> needed = Prerequisites.of(cluster.getSpec(), plans);
    String who = s.who;
    checks.execute(() -> {
      PrerequisiteCondition condition;
      try {
        condition = PrerequisiteCondition.of(host.check(needed, cluster.getSpec().path, cluster.getSpec().env), host.describe());
      } catch (HostException e) {
        condition = PrerequisiteCondition.failed(e);
      } catch (RuntimeException e) {
        LOG.warn("{}: prerequisite check error", who, e);
        condition = new PrerequisiteCondition(null, "CheckFailed", "the prerequisite check failed: " + e);
      }
      checked.put(s.id, new Checked(key, clock.instant(), condition));
      running.remove(s.id);
      LOG.info("{}: prerequisites {}: {}", who, condition.reason(), condition.message());
      wakeUp.accept(s.id);
    });
  }

  /** Identifies a spec's content (a generation is not kept by every API server, and counts no-op updates too). */
  static String specKey(Object spec) {
    return Hashes.sha256(Mappers.json().valueToTree(spec).toString());
  }

  /** Every run of every arm is finished: nothing is submitted any more. */
  private static boolean done(ComparisonState s, Map<String, ArmStatus> arms) {
    int repetitions = Runs.repetitions(s.rc.getSpec());
    return arms.values().stream().noneMatch(a -> ArmPhase.of(a.phase).inFlight())
        && s.rc.getSpec().arms.stream().allMatch(a -> arms.get(a.name) != null && ArmRuns.finished(arms.get(a.name)) >= repetitions);
  }

  /** The comparison is gone. */
  void forget(ResourceID id) {
    checked.remove(id);
  }

  @Override
  public void close() {
    checks.shutdownNow();
  }
}
