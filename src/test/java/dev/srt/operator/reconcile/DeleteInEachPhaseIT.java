package dev.srt.operator.reconcile;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.srt.operator.api.ArmStatus;
import dev.srt.operator.api.ArmPhase;
import dev.srt.operator.testinfra.TestHosts;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.function.Predicate;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * A RouterComparison deleted in each phase of its run, through the whole operator on this machine
 * over SSH: the finalizer goes, and nothing of the run is left on the host: no process with its
 * {@code SRT_RUN_ID}, no pending or running Slurm job, none of its ports listening, and (direct) the
 * host's lease free. One comparison (one sgl-router arm) per phase, deleted one after another.
 *
 * <p>"Ready" is the arm with every endpoint ready and its router ready: the {@code Ready} phase
 * itself lasts only the metrics scrape before the benchmark starts, so the case deletes while the
 * canary (slowed with {@code SRT_EMULATOR_SPEED}) is in flight.
 */
class DeleteInEachPhaseIT {
  static final String ARM = "- name: a\n  frontend: {type: sgl-router, source: /src/sglang/experimental/sgl-router, args: {policy: cache_aware}}\n";

  OperatorOnTestHost host;
  Process leaseHolder;
  String gpuHog;

  @AfterEach
  void stop() throws Exception {
    if (leaseHolder != null) {
      leaseHolder.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
    }
    if (gpuHog != null) {
      EmulatedSlurmHost.run(List.of("scancel", gpuHog));
    }
    if (host != null) {
      host.close();
    }
  }

  @Test
  void deletingInEachPhaseLeavesNoProcessJobPortOrLease() throws Exception {
    host = OperatorOnTestHost.start("srt-delete-");
    host.cluster("slurm-box", "slurm", Map.of());
    host.cluster("direct-box", "direct", Map.of());
    Path lease = host.workDir("direct-box").resolve("host.lease");

    // Queued (direct): another holder has the host's lease; the run waits for it.
    Files.createDirectories(lease.getParent());
    leaseHolder = new ProcessBuilder("bash", "-c", "exec 9>>\"$1\"; flock 9; echo held; exec sleep 600", "hold", lease.toString()).start();
    assertThat(new String(leaseHolder.getInputStream().readNBytes(5))).isEqualTo("held\n");
    assertNothingLeft(deleteWhen("queued", "direct-box", Map.of(), a -> a.phase.equals(ArmPhase.Queued.name())), true);
    leaseHolder.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
    leaseHolder = null;
    assertThat(leaseFree(lease)).as("nothing of the queued run took the lease once it was free").isTrue();

    // Submitted (Slurm): the job pends behind a job holding every GPU of the partition.
    gpuHog = EmulatedSlurmHost.run(List.of("sbatch", "--parsable", "-p", TestHosts.slurmPartition(), "--gres=gpu:8", "-J", "srt-fault-gpu-hog",
        "-o", "/dev/null", "--wrap", "sleep 300")).strip();
    await().atMost(Duration.ofSeconds(30)).until(() -> OperatorOnTestHost.jobState(gpuHog).equals("RUNNING"));
    assertNothingLeft(deleteWhen("submitted", "slurm-box", Map.of(),
        a -> a.phase.equals(ArmPhase.Submitted.name()) && a.message != null && a.message.startsWith("pending")), true);
    EmulatedSlurmHost.run(List.of("scancel", gpuHog));
    gpuHog = null;

    // Starting (Slurm): the engine is up but never healthy within the test.
    assertNothingLeft(deleteWhen("starting", "slurm-box", Map.of("SRT_EMULATOR_STARTUP_DELAY_MS", "600000"),
        a -> a.phase.equals(ArmPhase.Starting.name()) && OperatorOnTestHost.listens(6100)), true);

    // Ready (Slurm): every endpoint and the router ready, the canary in flight (a slow engine).
    assertNothingLeft(deleteWhen("ready", "slurm-box", Map.of("SRT_EMULATOR_SPEED", "0.0005"),
        a -> a.router != null && a.router.ready && a.workers != null && a.workers.ready == 1), true);

    // Benchmarking, direct and Slurm.
    assertNothingLeft(deleteWhen("bench-direct", "direct-box", Map.of(), a -> a.phase.equals(ArmPhase.Benchmarking.name())), true);
    assertThat(leaseFree(lease)).as("the host's lease is free").isTrue();
    assertNothingLeft(deleteWhen("bench-slurm", "slurm-box", Map.of(), a -> a.phase.equals(ArmPhase.Benchmarking.name())), true);

    // Finished (Slurm): nothing to cancel; the comparison just goes.
    Deleted finished = deleteWhen("finished", "slurm-box", Map.of(), a -> a.phase().terminal());
    assertThat(finished.arm().phase).as(finished.arm().message).isEqualTo(ArmPhase.Succeeded.name());
    assertNothingLeft(finished, false);
    await().atMost(Duration.ofSeconds(30)).untilAsserted(() -> assertThat(OperatorOnTestHost.jobState(finished.arm().jobId)).isEqualTo("COMPLETED"));
  }

  /** A deleted comparison on {@code cluster} and its arm as it was when it was deleted. */
  record Deleted(String name, String cluster, ArmStatus arm) {}

  /** Creates comparison {@code name}, waits until its arm satisfies {@code phase}, deletes it, and waits until it is gone. */
  Deleted deleteWhen(String name, String cluster, Map<String, String> backendEnv, Predicate<ArmStatus> phase) {
    host.comparison(name, cluster, ARM, backendEnv);
    ArmStatus arm = host.awaitArm(name, "a", Duration.ofSeconds(60), a -> a.runId != null && (phase.test(a) || a.phase().terminal()));
    assertThat(phase).as(name + ": " + arm.phase + " " + arm.message).accepts(arm);
    host.client.resource(host.get(name)).delete();
    await(name + " deleted (finalizer removed)").atMost(Duration.ofSeconds(60)).until(() -> host.get(name) == null);
    return new Deleted(name, cluster, arm);
  }

  /** No process of the run, its Slurm job (if any) neither pending nor running, none of its ports listening. */
  void assertNothingLeft(Deleted deleted, boolean cancelled) throws Exception {
    ArmStatus arm = deleted.arm();
    String what = deleted.name() + " (run " + arm.runId + ", " + arm.phase + ")";
    await().atMost(Duration.ofSeconds(30)).untilAsserted(() -> assertThat(OperatorOnTestHost.live(arm.runId)).as(what).isEmpty());
    if (deleted.cluster().startsWith("slurm") && arm.jobId != null) {
      await().atMost(Duration.ofSeconds(30)).untilAsserted(() ->
          assertThat(OperatorOnTestHost.jobState(arm.jobId)).as(what).isIn(cancelled ? "CANCELLED" : "COMPLETED"));
    }
    await().atMost(Duration.ofSeconds(15)).untilAsserted(() ->
        assertThat(OperatorOnTestHost.listening(OperatorOnTestHost.ARM_PORTS)).as(what).isEmpty());
    List<String> events = host.events(deleted.name());
    if (cancelled) {
      assertThat(events).as(what).contains("Cancelled arm a: cancelled because the comparison is being deleted");
    } else {
      assertThat(events).as(what).noneMatch(e -> e.startsWith("Cancelled"));
    }
  }

  static boolean leaseFree(Path lease) throws Exception {
    Process p = new ProcessBuilder("flock", "-n", lease.toString(), "true").start();
    return p.waitFor(10, TimeUnit.SECONDS) && p.exitValue() == 0;
  }
}
