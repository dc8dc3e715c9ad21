package dev.srt.operator.testinfra;

import dev.srt.operator.host.RunRef;
import dev.srt.operator.run.RunRecord;
import java.time.Instant;
import java.util.List;

/** Records of runs for tests that need a run to track but not its plan. */
public final class TestRecords {
  private TestRecords() {}

  /** Run {@code run}, submitted now as job {@code jobId} without a plan (no planned endpoints or gates). */
  public static RunRecord of(RunRef run, String jobId) {
    return new RunRecord(run.arm(), run.runId(), jobId, "/work/" + run, "sha256:0", "0", Instant.now(), List.of(), null, List.of());
  }
}
