package dev.srt.operator.reconcile;

import dev.srt.operator.api.ConditionReason;
import dev.srt.operator.config.Echo;
import dev.srt.operator.host.HostCheck;
import dev.srt.operator.host.HostException;
import dev.srt.operator.plan.Requirement;
import io.fabric8.kubernetes.api.model.Condition;
import java.time.Instant;
import java.util.List;
import java.util.stream.Collectors;

/**
 * The {@code PrerequisitesMet} condition of a GpuCluster (what every run on it needs) or of a
 * RouterComparison (what its arms' plans need), from the last check of the host. False names,
 * in its reason, the kind of the first missing requirement and, in its message, every missing one
 * with what was found and the fix. Unknown while the host has not been checked yet, or when the
 * check itself failed. A RouterComparison submits no run unless it is True.
 *
 * @param met null while unknown
 */
public record PrerequisiteCondition(Boolean met, String reason, String message) {
  public static final String TYPE = "PrerequisitesMet";
  /** Condition messages stay readable in {@code kubectl describe}. */
  static final int MAX_MESSAGE = 2048;

  static final PrerequisiteCondition CHECKING = new PrerequisiteCondition(null, "Checking", "checking the host's prerequisites");

  /** What a finished check says. */
  static PrerequisiteCondition of(HostCheck.Report report, String host) {
    List<HostCheck.Finding> missing = report.missing();
    if (missing.isEmpty()) {
      return new PrerequisiteCondition(true, "Met", "all " + report.findings().size() + " requirements met on " + host);
    }
    String message = missing.size() + " missing on " + host + ": " + missing.stream()
        .map(f -> Echo.escape(f.requirement().label()) + ": " + Echo.escape(f.found()) + " (needed by "
            + String.join(", ", f.needed().neededBy()) + "; fix: " + Echo.escape(f.requirement().fix()) + ")")
        .collect(Collectors.joining("; "));
    return new PrerequisiteCondition(false, reason(missing.get(0).requirement()),
        message.length() > MAX_MESSAGE ? message.substring(0, MAX_MESSAGE) + "..." : message);
  }

  /** The check could not run: nothing is known of the prerequisites. */
  static PrerequisiteCondition failed(HostException e) {
    return new PrerequisiteCondition(null, "CheckFailed", "the prerequisite check failed: " + Echo.escape(e.getMessage()));
  }

  /** Sets the condition; {@code c} null (not assessed) leaves it as it was. */
  static void set(List<Condition> conditions, PrerequisiteCondition c, Long generation, Instant now) {
    if (c != null) {
      Conditions.set(conditions, TYPE, c.met() == null ? Conditions.UNKNOWN : c.met() ? Conditions.TRUE : Conditions.FALSE,
          ConditionReason.valueOf(c.reason()), c.message(), generation, now);
    }
  }

  /** The reason of a missing requirement: its kind. */
  static String reason(Requirement r) {
    if (r instanceof Requirement.Program || r instanceof Requirement.Python) {
      return "ProgramMissing";
    }
    if (r instanceof Requirement.PythonImport || r instanceof Requirement.PythonTool) {
      return "PythonPackageMissing";
    }
    if (r instanceof Requirement.SlurmPartition) {
      return "SlurmPartitionMissing";
    }
    if (r instanceof Requirement.SlurmJob) {
      return "SlurmJobRejected";
    }
    if (r instanceof Requirement.Gpus) {
      return "NotEnoughGpus";
    }
    if (r instanceof Requirement.GpuType) {
      return "GpuTypeMismatch";
    }
    if (r instanceof Requirement.ModelDir) {
      return "ModelMissing";
    }
    if (r instanceof Requirement.FreeDisk) {
      return "NotEnoughDisk";
    }
    if (r instanceof Requirement.PortsFree) {
      return "PortsInUse";
    }
    return "ContainerRuntimeMissing";
  }
}
