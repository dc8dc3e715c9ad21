package dev.srt.operator.run;

import dev.srt.operator.api.ArmStatus;
import dev.srt.operator.host.JobStatus;
import dev.srt.operator.host.RunEvent;
import dev.srt.operator.plan.RunPlan;
import java.time.Instant;
import java.util.List;

/** A run of a plan replayed through {@link RunTracker} as a driver that has just started would: fresh memory, all events caught up. */
final class Replays {
  private Replays() {}

  static RunRecord record(RunPlan plan, Instant submittedAt) {
    return RunRecord.of(plan, "r1", "42", "/runs/r1", "h", "s", submittedAt);
  }

  static ArmStatus replay(RunRecord record, List<RunEvent> events, JobStatus job, Instant now) {
    return RunTracker.step(record, new RunView(events, true, job, null), RunMemory.FRESH, now).status();
  }
}
