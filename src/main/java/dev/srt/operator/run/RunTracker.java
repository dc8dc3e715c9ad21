package dev.srt.operator.run;

import dev.srt.operator.api.ArmReason;
import dev.srt.operator.api.ArmPhase;
import dev.srt.operator.api.ArmStatus;
import dev.srt.operator.host.JobState;
import dev.srt.operator.host.JobStatus;
import dev.srt.operator.results.RunResults;
import dev.srt.operator.api.SloSpec;
import dev.srt.operator.plan.Ladder;
import java.util.List;
import java.time.Duration;
import java.time.Instant;
import java.util.EnumSet;
import java.util.Set;

/**
 * The one lifecycle of a run, pure: from what was submitted ({@link RunRecord}), what the host has
 * said of it since ({@link RunView}), what its driver remembers ({@link RunMemory}) and the time,
 * the run's status and what its driver must do next. {@code apply} and {@code wait} in the CLI, the
 * operator's poller and {@code report} are its drivers; none has rules of its own.
 *
 * <p>The rules: events, then the job's state, fold into the status ({@link EventFold}); the job
 * state waits while events are still being read; a job the host no longer knows fails the run once
 * {@link #NOT_FOUND_GRACE} has passed since the last sign of it (its submission, its last event, the
 * last look that found the job); a cancel the host does not confirm within
 * {@link #CANCEL_SETTLE} is taken as done; a run that finished well is shown as succeeded only once
 * its result files were read, or reading them failed {@link #RESULT_READS} times; a run that ended
 * without writing its outcome (killed hard) has its leftover processes stopped, unless it was
 * cancelled on purpose.
 */
public final class RunTracker {
  /**
   * How long a submitted job may be unknown to the host before the run fails: long enough for a
   * slow scheduler to list a fresh job, short enough to notice a job that vanished.
   */
  public static final Duration NOT_FOUND_GRACE = Duration.ofMinutes(1);
  /** How long after a cancel a run that has not ended is declared cancelled anyway. */
  public static final Duration CANCEL_SETTLE = Duration.ofSeconds(60);
  /** How often reading a succeeded run's result files may fail before it is left without results. */
  public static final int RESULT_READS = 3;

  /** What a driver does for a run after a step, then looks again. */
  public enum Action {
    /** Read the run's result files ({@link RunHost#results}) and put them in the next {@link RunView}. */
    READ_RESULTS,
    /** Stop what the run left running ({@link RunHost#cancel}), then remember it ({@link RunMemory#reaped}). */
    REAP
  }

  /**
   * What {@link Action#READ_RESULTS} reads: the run's results directory when {@code levels} is
   * empty, else those levels of its ladder; goodput against {@code slo} when there is one.
   */
  public record Reading(List<Ladder.Level> levels, SloSpec slo) {
    public Reading {
      levels = List.copyOf(levels);
    }
  }

  /** The run's status after a look, the memory to keep, what to do, and what to read for {@link Action#READ_RESULTS}. */
  public record Step(ArmStatus status, RunMemory memory, Set<Action> actions, Reading reading) {
    public Step {
      actions = Set.copyOf(actions);
    }

    public ArmPhase phase() {
      return status.phase();
    }

    public boolean ended() {
      return phase().terminal();
    }
  }

  private RunTracker() {}

  /** The status of the run {@code record} describes, before anything was seen of it. */
  public static ArmStatus submitted(RunRecord record) {
    return EventFold.submitted(record);
  }

  /** One look at a run. */
  public static Step step(RunRecord record, RunView view, RunMemory memory, Instant now) {
    ArmStatus s = EventFold.submitted(record);
    JobStatus job = view.caughtUp() ? view.job() : null;
    EventFold.apply(s, view.events(), job, now);
    Set<Action> actions = EnumSet.noneOf(Action.class);

    if (job != null && job.state() != JobState.NOT_FOUND && job.state() != JobState.UNKNOWN) {
      memory = memory.jobSeen(now);
    }
    if (job != null && job.state() == JobState.NOT_FOUND && !phase(s).terminal()) {
      // The grace runs from the last sign of the job: its submission, its run's last event, or the
      // last look that found it, whichever is latest.
      Instant from = latest(latest(record.submittedAt(), lastEvent(view)), memory.jobSeenAt());
      if (Duration.between(from, now).compareTo(NOT_FOUND_GRACE) > 0) {
        end(s, ArmPhase.Failed, ArmReason.JobNotFound, "the host no longer knows job " + record.jobId() + " and the run reported no outcome"
            + (job.reason() == null ? "" : " (" + job.reason() + ")"), now);
      }
    }

    if (memory.cancelSentAt() != null && !phase(s).terminal()
        && Duration.between(memory.cancelSentAt(), now).compareTo(CANCEL_SETTLE) > 0) {
      end(s, ArmPhase.Cancelled, null, memory.cancelFailure() == null
          ? "cancelled; the host did not confirm the end within " + CANCEL_SETTLE.toSeconds() + " s"
          : "the cancel failed (" + memory.cancelFailure() + "); job " + record.jobId() + " may still be running", now);
    }

    // A run over a ladder that failed keeps the levels it finished: they are read as a succeeded run's.
    List<Ladder.Level> finished = EventFold.finishedLevels(record.ladder(), view.events());
    boolean measured = phase(s) == ArmPhase.Succeeded || (phase(s) == ArmPhase.Failed && !finished.isEmpty());
    Reading reading = null;
    if (measured) {
      if (view.results() != null) {
        EventFold.results(s, view.results());
      } else if (memory.resultReadFailures() >= RESULT_READS) {
        EventFold.results(s, RunResults.none("cannot read the result files: " + memory.resultReadError()));
      } else {
        // Shown as ended only with its numbers: no status of a run that measured something lacks
        // numbers that are merely still to be read.
        s.message = phase(s) == ArmPhase.Succeeded ? "benchmark finished; reading its result files"
            : "reading the result files of the levels it finished (" + s.message + ")";
        s.phase(ArmPhase.Benchmarking);
        s.finishedAt = null;
        actions.add(Action.READ_RESULTS);
        reading = new Reading(finished, record.slo());
      }
    }

    if (phase(s).terminal() && record.jobId() != null && memory.cancelSentAt() == null
        && !EventFold.reportedOutcome(view.events())) {
      if (memory.reap() == null) {
        actions.add(Action.REAP);
      } else {
        s.message = s.message + (memory.reap().isEmpty() ? "; its leftover processes were stopped"
            : "; stopping its leftover processes failed: " + memory.reap());
      }
    }
    return new Step(s, memory, actions, reading);
  }

  /** The status of a run whose submission failed: the run never started. */
  public static ArmStatus submitFailed(RunRecord record, String error, Instant now) {
    ArmStatus s = EventFold.submitted(record);
    end(s, ArmPhase.Failed, ArmReason.SubmitFailed, "submit failed: " + error, now);
    return s;
  }

  private static Instant lastEvent(RunView view) {
    Instant last = null;
    for (var e : view.events()) {
      last = latest(last, e.ts());
    }
    return last;
  }

  private static Instant latest(Instant a, Instant b) {
    return a == null ? b : b == null || a.isAfter(b) ? a : b;
  }

  private static ArmPhase phase(ArmStatus s) {
    return s.phase();
  }

  private static void end(ArmStatus s, ArmPhase phase, ArmReason reason, String message, Instant now) {
    s.phase = phase.name();
    if (reason != null) {
      s.reason(reason);
    }
    s.message = message;
    s.finishedAt = now.toString();
  }
}
