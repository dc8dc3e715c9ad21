package dev.srt.operator.run;

import dev.srt.operator.api.GpuCluster;
import dev.srt.operator.api.RouterComparison;
import dev.srt.operator.host.HostException;
import dev.srt.operator.host.RunFiles;
import dev.srt.operator.host.RunRef;
import dev.srt.operator.host.SecretEnvFile;
import dev.srt.operator.host.Submission;
import dev.srt.operator.plan.Hashes;
import dev.srt.operator.plan.RunPlan;
import dev.srt.operator.plan.SpecHash;
import dev.srt.operator.render.Scripts;
import java.time.Instant;

/**
 * The one submit step of a run, whichever driver takes it: render the plan, hash the script, submit
 * it with its {@code plan.json} and {@code record.json} (idempotent: a run that already has a job
 * gets that job back), and record what was submitted.
 */
public final class Submissions {
  private Submissions() {}

  /**
   * What is submitted for one run of an arm: its plan, script and their hashes, and the specs it
   * comes from (for its {@code record.json}).
   */
  public record Prepared(RunPlan plan, String script, String scriptHash, String planJson, String scriptFileName,
      String specHash, RouterComparison comparison, GpuCluster cluster) {
    /** {@code plan} is the arm's plan on {@code cluster} (as the driver runs it, e.g. with the emulator's shims). */
    public static Prepared of(RouterComparison comparison, GpuCluster cluster, RunPlan plan) {
      String script = Scripts.render(plan);
      String specHash = SpecHash.of(comparison.getSpec(), comparison.getSpec().arms.stream()
          .filter(a -> a.name.equals(plan.arm())).findFirst().orElseThrow(), cluster.getSpec());
      return new Prepared(plan, script, "sha256:" + Hashes.sha256(script), plan.json(), Scripts.fileName(plan), specHash,
          comparison, cluster);
    }

    RecordFile record(RunRef ref, Instant now) {
      return new RecordFile(RecordFile.VERSION, ref.namespace(), ref.comparison(), ref.arm(), ref.runId(), specHash, scriptHash,
          now.toString(), comparison.getSpec(), cluster.getMetadata().getName(), cluster.getSpec());
    }
  }

  /**
   * Submits {@code prepared} as run {@code ref} and returns its record.
   *
   * @throws HostException when the host refused the submission or could not be reached
   */
  public static RunRecord submit(RunHost host, RunRef ref, Prepared prepared, SecretEnvFile secrets, Instant now)
      throws HostException {
    return submit(host, ref, prepared, secrets, now, null);
  }

  /** {@link #submit(RunHost, RunRef, Prepared, SecretEnvFile, Instant)} to start after {@code after} (null: at once). */
  public static RunRecord submit(RunHost host, RunRef ref, Prepared prepared, SecretEnvFile secrets, Instant now, RunFiles.After after)
      throws HostException {
    Submission sub = host.submit(ref, new RunFiles(prepared.script(), prepared.planJson(), prepared.record(ref, now).json(), secrets,
        after));
    return RunRecord.of(prepared.plan(), ref.runId(), sub.jobId(), host.runDir(ref), prepared.scriptHash(), prepared.specHash(), now)
        .foundExisting(sub.alreadyExisted());
  }

  /** The record of a run whose submission failed: its identity, no job. */
  public static RunRecord unsubmitted(RunHost host, RunRef ref, Prepared prepared, Instant now) {
    return RunRecord.of(prepared.plan(), ref.runId(), null, host.runDir(ref), prepared.scriptHash(), prepared.specHash(), now);
  }
}
