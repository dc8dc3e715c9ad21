package dev.srt.operator.run;

import dev.srt.operator.api.ArmReason;
import dev.srt.operator.api.ArmPhase;
import dev.srt.operator.api.ArmStatus;
import dev.srt.operator.api.EndpointStatus;
import dev.srt.operator.api.RouterStatus;
import dev.srt.operator.config.Echo;
import dev.srt.operator.host.JobState;
import dev.srt.operator.host.JobStatus;
import dev.srt.operator.host.RunEvent;
import dev.srt.operator.plan.Ladder;
import dev.srt.operator.plan.RunEventType;
import com.fasterxml.jackson.databind.JsonNode;
import dev.srt.operator.results.RunResults;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * How a run's events and its job's state fold into its status: Submitted, Building, Starting,
 * Ready, Benchmarking, then Succeeded, Failed or Cancelled (docs/run-protocol.md). {@link
 * RunTracker} replays a run's whole history through it at every look, from the run's record.
 *
 * <p>A succeeded run's headline numbers come from {@link RunResults} (read from the benchmark's
 * own result files), never from events.jsonl: anything in a run can append lines to it.
 */
final class EventFold {
  /** A {@code result} event names a file under results/ in these characters; others are not listed. */
  private static final Pattern RESULT_FILE = Pattern.compile("results/[A-Za-z0-9._+=@,/-]{1,200}");
  /** More {@code result} events than this are not listed (the status must stay small). */
  static final int MAX_RESULT_FILES = 100;

  private EventFold() {}

  /** The status of the run {@code record} describes, before any of its events. */
  static ArmStatus submitted(RunRecord record) {
    ArmStatus s = new ArmStatus();
    String at = record.submittedAt().toString();
    s.name = record.arm();
    s.phase(ArmPhase.Submitted);
    s.runId = record.runId();
    s.jobId = record.jobId();
    s.runDir = record.runDir();
    s.scriptHash = record.scriptHash();
    s.specHash = record.specHash();
    s.startedAt = at;
    s.gates = new ArrayList<>(record.gates());
    s.endpoints = new ArrayList<>();
    for (RunRecord.Worker w : record.workers()) {
      EndpointStatus e = new EndpointStatus();
      e.name = w.name();
      e.node = w.node();
      e.port = w.port();
      e.healthPath = w.healthPath();
      e.metricsPort = w.metricsPort();
      e.metricsPath = w.metricsPath();
      e.grpcPort = w.grpcPort();
      e.role = w.role();
      locate(e, w);
      e.ready = false;
      e.since = at;
      s.endpoints.add(e);
    }
    s.workers = WorkerCounts.of(s.endpoints, s.endpoints.size());
    s.router = new RouterStatus();
    s.router.url = record.routerUrl();
    s.router.ready = false;
    s.router.since = at;
    s.message = record.foundExisting() ? "found the run's existing job " + record.jobId() : "submitted as job " + record.jobId();
    s.measurement = record.measurement();
    return s;
  }

  /**
   * The levels of {@code ladder} the run says it finished, in ladder order. Only a level of the
   * run's own ladder counts (its index and load as submitted): anything in a run can append
   * lines to events.jsonl.
   */
  static List<Ladder.Level> finishedLevels(Ladder ladder, List<RunEvent> events) {
    if (ladder == null) {
      return List.of();
    }
    Set<Integer> done = new HashSet<>();
    for (RunEvent e : events) {
      if (RunEventType.LEVEL_FINISHED.is(e.event())) {
        level(ladder, e).ifPresent(l -> done.add(l.index()));
      }
    }
    return ladder.levels().stream().filter(l -> done.contains(l.index())).toList();
  }

  /** The level of {@code ladder} an event names, when its index and load are the ladder's. */
  private static Optional<Ladder.Level> level(Ladder ladder, RunEvent e) {
    JsonNode index = e.fields().get("level");
    JsonNode load = e.fields().get("load");
    if (ladder == null || index == null || !index.canConvertToInt() || load == null || !load.isNumber()) {
      return Optional.empty();
    }
    return ladder.levels().stream().filter(l -> l.index() == index.asInt() && l.load() == load.asDouble()).findFirst();
  }

  /** The endpoint's URLs at the worker's address, once it is known. */
  private static void locate(EndpointStatus e, RunRecord.Worker w) {
    e.url = w.url();
    e.metricsUrl = w.metricsUrl();
  }

  /**
   * Whether the run wrote its own outcome (a {@code finished} event). One that ended without it was
   * killed before its exit handler ran, and may have left processes behind (holding ports, GPUs
   * and the host's lease) that its observer must stop.
   */
  static boolean reportedOutcome(List<RunEvent> events) {
    return events.stream().anyMatch(e -> RunEventType.FINISHED.is(e.event()));
  }

  /**
   * Applies new events, then the job state; never moves a finished run, except one that ended
   * while nobody asked srt-operator to cancel it and the host says it ended the job: the script,
   * signalled by the host (an outside {@code scancel}, a time limit, a failed node), reports itself
   * cancelled, or failed when it saw one of its processes die of the same signal first. The job's
   * state says which end it was, so such a run is Failed with that reason once the job has ended.
   */
  static void apply(ArmStatus s, List<RunEvent> events, JobStatus job, Instant now) {
    ArmPhase beforeEnd = null;
    for (RunEvent e : events) {
      if (s.phase().terminal()) {
        break;
      }
      if (RunEventType.FINISHED.is(e.event())) {
        beforeEnd = s.phase();
      }
      event(s, e);
    }
    if (job == null) {
      return;
    }
    if (!s.phase().terminal()) {
      jobState(s, job, now);
    } else if (beforeEnd != null && mayHaveBeenEndedByTheHost(s, job)) {
      if (!job.terminal()) {
        // The script reports its end before Slurm has finished the job (COMPLETING): the next
        // poll has the job's final state, and with it the reason.
        String how = s.phase() == ArmPhase.Cancelled ? "was interrupted" : "reported a failure";
        s.phase = beforeEnd.name();
        s.finishedAt = null;
        s.message = "the run " + how + " (" + s.message + "); waiting for the job's final state";
      } else if (s.phase() == ArmPhase.Cancelled || hostReason(job.state()) != null) {
        jobEnded(s, job, now, "; srt-operator did not cancel it");
      }
    }
  }

  /**
   * The run says it was cancelled or failed, and the host that knows its job says srt-operator did
   * not cancel it and has not (yet) seen it end well.
   */
  private static boolean mayHaveBeenEndedByTheHost(ArmStatus s, JobStatus job) {
    return (s.phase() == ArmPhase.Cancelled || s.phase() == ArmPhase.Failed) && s.reason == null && !job.cancelRequested()
        && job.state() != JobState.NOT_FOUND && job.state() != JobState.UNKNOWN && job.state() != JobState.COMPLETED;
  }

  /**
   * Records the headline numbers of a succeeded run, or why it has none (in its message). Any
   * other phase gets no results: only a run that finished well has read its result files.
   */
  static void results(ArmStatus s, RunResults results) {
    if (s.phase() != ArmPhase.Succeeded && (s.phase() != ArmPhase.Failed || results.levels().isEmpty())) {
      return;
    }
    s.facts = results.facts();
    if (!results.levels().isEmpty()) {
      s.levels = results.levelsAsStatus();
      return;
    }
    s.results = results.asStatus();
    if (results.problem() != null) {
      s.message = "benchmark finished; no results: " + results.problem();
    }
  }

  private static void event(ArmStatus s, RunEvent e) {
    String ts = e.ts() == null ? null : e.ts().toString();
    RunEventType type = RunEventType.of(e.event()).orElse(null);
    if (type == null) {
      return;
    }
    switch (type) {
      case PHASE -> {
        ArmPhase next = RunEventType.Phase.of(e.text("phase")).map(p -> switch (p) {
          case BUILDING -> ArmPhase.Building;
          case STARTING -> ArmPhase.Starting;
          case READY -> ArmPhase.Ready;
          case BENCHMARKING -> ArmPhase.Benchmarking;
        }).orElse(null);
        if (next != null) {
          s.phase = next.name();
          s.message = next == ArmPhase.Ready ? "all workers healthy, router ready" : null;
          if (next == ArmPhase.Ready) {
            s.readyAt = ts;
          }
        }
      }
      case QUEUED -> {
        s.phase(ArmPhase.Queued);
        s.message = "queued behind " + e.text("holder");
      }
      case LEASE_ACQUIRED -> s.message = "host lease acquired";
      case LEVEL_STARTED -> {
        Ladder ladder = RunRecord.ladder(s.measurement);
        level(ladder, e).ifPresent(l -> s.level = l.index() + "/" + ladder.levels().size() + " (" + ladder.label(l.load()) + ")");
      }
      case STAGE_STARTED -> s.message = "stage " + e.text("stage");
      case ENDPOINT_READY -> {
        if ("router".equals(e.text("role"))) {
          if (s.router == null) {
            s.router = new RouterStatus();
          }
          s.router.ready = true;
          s.router.since = ts;
          if (e.text("url") != null) {
            s.router.url = e.text("url");
          }
        } else {
          endpointReady(s, e.text("name"), e.text("url"), ts);
        }
      }
      case RESULT -> {
        if (s.resultFiles == null) {
          s.resultFiles = new ArrayList<>();
        }
        String file = e.text("file");
        if (file != null && RESULT_FILE.matcher(file).matches() && !file.contains("..")
            && s.resultFiles.size() < MAX_RESULT_FILES && !s.resultFiles.contains(file)) {
          s.resultFiles.add(file);
        }
      }
      case FAILED -> s.message = Echo.escape(e.text("reason") + ": " + e.text("message")); // the run's text, shown by kubectl
      case FINISHED -> {
        String status = String.valueOf(e.text("status"));
        s.phase = switch (status) {
          case "succeeded" -> ArmPhase.Succeeded.name();
          case "cancelled" -> ArmPhase.Cancelled.name();
          default -> ArmPhase.Failed.name();
        };
        s.finishedAt = ts;
        if ("succeeded".equals(status)) {
          s.message = "benchmark finished";
        } else if (s.message == null || s.message.isEmpty()) {
          s.message = "the run ended with code " + e.text("code");
        }
      }
      default -> { }
    }
  }

  private static void endpointReady(ArmStatus s, String name, String url, String ts) {
    if (s.endpoints == null) {
      s.endpoints = new ArrayList<>();
    }
    EndpointStatus endpoint = s.endpoints.stream().filter(x -> x.name.equals(name)).findFirst().orElse(null);
    if (endpoint == null) {
      endpoint = new EndpointStatus();
      endpoint.name = name;
      s.endpoints.add(endpoint);
    }
    if (!endpoint.ready) {
      endpoint.since = ts;
    }
    endpoint.ready = true;
    String address = RunRecord.host(url);
    if (address != null && endpoint.port != null) {
      // The run reports where it found the worker (a Slurm node's address); its declared endpoint says the rest.
      locate(endpoint, new RunRecord.Worker(name, endpoint.node == null ? 0 : endpoint.node, address, endpoint.port,
          endpoint.healthPath, endpoint.metricsPort, endpoint.metricsPath, endpoint.grpcPort, endpoint.role));
    } else if (endpoint.port == null) {
      endpoint.url = url; // a run without its plan: only what it reported is known
    }
    s.workers = WorkerCounts.of(s.endpoints, Math.max(s.endpoints.size(), s.workers == null ? 0 : s.workers.total));
  }

  private static void jobState(ArmStatus s, JobStatus job, Instant now) {
    JobState state = job.state();
    if (state == JobState.PENDING) {
      s.message = "pending" + (job.reason() == null ? "" : ": " + job.reason());
      return;
    }
    if (!job.terminal()) {
      return;
    }
    // The job ended without a "finished" event: it was killed hard, timed out or lost its node.
    if (state == JobState.CANCELLED && job.cancelRequested()) {
      s.finishedAt = now.toString();
      s.phase(ArmPhase.Cancelled);
      s.message = "cancelled";
      return;
    }
    jobEnded(s, job, now, " without reporting an outcome");
  }

  /** Failed, with the job's state as the reason and in the message. */
  private static void jobEnded(ArmStatus s, JobStatus job, Instant now, String how) {
    s.finishedAt = now.toString();
    s.phase(ArmPhase.Failed);
    s.reason(hostReason(job.state()));
    String prior = s.message == null || s.message.isEmpty() ? "" : " (" + s.message + ")";
    s.message = "job ended " + job.state() + (job.exitCode() == null ? "" : " with exit code " + job.exitCode())
        + (job.reason() == null ? "" : ": " + job.reason()) + how + prior;
  }

  /** The arm's reason for a job the host ended; null where the message says enough. */
  static ArmReason hostReason(JobState state) {
    return switch (state) {
      case CANCELLED -> ArmReason.JobCancelled;
      case TIMEOUT -> ArmReason.JobTimeLimit;
      case NODE_FAIL -> ArmReason.NodeFailure;
      case OUT_OF_MEMORY -> ArmReason.OutOfMemory;
      case PREEMPTED -> ArmReason.JobPreempted;
      default -> null;
    };
  }
}
