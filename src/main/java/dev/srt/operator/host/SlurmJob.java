package dev.srt.operator.host;

import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * One job as Slurm's tools print it, and the parsers for their output. The parsers are total:
 * odd or newer output gives {@link JobState#UNKNOWN}, never an exception.
 *
 * @param comment the job's {@code --comment}, null when unset
 */
public record SlurmJob(String jobId, String name, JobStatus status, String comment) {

  /** {@code squeue --states=all -h -o} format for {@link #parseSqueueLine}; the comment comes last because it may contain anything. */
  public static final String SQUEUE_FORMAT = "%i|%T|%r|%j|%k";
  /**
   * {@code squeue --states=all -h -O} format for {@link #parseSqueueStatus}: the one squeue of a
   * poll. {@code -O}, because only it has the exit code; each field ends in {@code |}, unpadded.
   */
  public static final String SQUEUE_STATUS_FORMAT = "JobID:|,State:|,Reason:|,exit_code:|";
  /** {@code sacct -n -P -X -o} fields for {@link #parseSacctLine}. */
  public static final String SACCT_FIELDS = "JobID,JobName,State,ExitCode,Reason";

  /** squeue's %t codes. */
  private static final Map<String, String> SHORT_NAMES = Map.ofEntries(
      Map.entry("PD", "PENDING"), Map.entry("RQ", "REQUEUED"), Map.entry("RH", "REQUEUE_HOLD"),
      Map.entry("RF", "REQUEUE_FED"), Map.entry("RD", "RESV_DEL_HOLD"), Map.entry("CF", "CONFIGURING"),
      Map.entry("R", "RUNNING"), Map.entry("CG", "COMPLETING"), Map.entry("S", "SUSPENDED"),
      Map.entry("ST", "STOPPED"), Map.entry("RS", "RESIZING"), Map.entry("SI", "SIGNALING"),
      Map.entry("SO", "STAGE_OUT"), Map.entry("CD", "COMPLETED"), Map.entry("F", "FAILED"),
      Map.entry("SE", "SPECIAL_EXIT"), Map.entry("CA", "CANCELLED"), Map.entry("RV", "REVOKED"),
      Map.entry("TO", "TIMEOUT"), Map.entry("DL", "DEADLINE"), Map.entry("NF", "NODE_FAIL"),
      Map.entry("BF", "BOOT_FAIL"), Map.entry("OOM", "OUT_OF_MEMORY"), Map.entry("PR", "PREEMPTED"));
  /** code:signal; longer numbers than an int holds are no exit code (and would not parse). */
  private static final Pattern EXIT_CODE = Pattern.compile("(\\d{1,9}):(\\d{1,9})");

  /** Parses one line of {@code squeue --states=all -h -o '%i|%T|%r|%j|%k'}. */
  public static Optional<SlurmJob> parseSqueueLine(String line) {
    String[] f = line.strip().split("\\|", 5);
    if (f.length < 5 || f[0].isEmpty()) {
      return Optional.empty();
    }
    return Optional.of(new SlurmJob(f[0], f[3], status(f[1], f[2], null), nullIfUnset(f[4])));
  }

  /**
   * Parses one line of {@code squeue -O} with {@link #SQUEUE_STATUS_FORMAT}. Its exit code is the
   * job's raw wait status (768 for exit 3, 15 for SIGTERM); a {@code code:signal} pair is read too.
   */
  public static Optional<SlurmJob> parseSqueueStatus(String line) {
    String[] f = line.strip().split("\\|", -1);
    if (f.length < 5 || !f[0].matches("\\d+") || !f[f.length - 1].isEmpty()) {
      return Optional.empty();
    }
    String reason = String.join("|", java.util.Arrays.asList(f).subList(2, f.length - 2));
    return Optional.of(new SlurmJob(f[0], null, status(f[1], reason, codeAndSignal(f[f.length - 2])), null));
  }

  private static String codeAndSignal(String exitCode) {
    String text = exitCode.strip();
    if (!text.matches("\\d{1,10}")) {
      return text;
    }
    long raw = Long.parseLong(text);
    return ((raw >> 8) & 0xff) + ":" + (raw & 0x7f);
  }

  /** Parses one line of {@code sacct -n -P -X -o JobID,JobName,State,ExitCode,Reason}. */
  public static Optional<SlurmJob> parseSacctLine(String line) {
    String[] f = line.strip().split("\\|", -1);
    if (f.length < 5 || f[0].isEmpty()) {
      return Optional.empty();
    }
    return Optional.of(new SlurmJob(f[0], f[1], status(f[2], f[4], f[3]), null));
  }

  /**
   * Maps a Slurm state (long name like {@code CANCELLED by 0}, or squeue's short code) to a
   * {@link JobStatus}. States folded into a broader one keep their Slurm name as the reason when
   * Slurm gave none.
   */
  public static JobStatus status(String slurmState, String reason, String exitCode) {
    String raw = slurmState == null ? "" : slurmState.strip();
    String word = raw.split("\\s", 2)[0].replaceAll("\\+$", "").toUpperCase(Locale.ROOT);
    String name = SHORT_NAMES.getOrDefault(word, word);
    JobState state = switch (name) {
      case "PENDING", "REQUEUED", "REQUEUE_HOLD", "REQUEUE_FED", "RESV_DEL_HOLD", "CONFIGURING" -> JobState.PENDING;
      case "RUNNING", "COMPLETING", "SUSPENDED", "STOPPED", "RESIZING", "SIGNALING", "STAGE_OUT" -> JobState.RUNNING;
      case "COMPLETED" -> JobState.COMPLETED;
      case "FAILED", "SPECIAL_EXIT" -> JobState.FAILED;
      case "CANCELLED", "REVOKED" -> JobState.CANCELLED;
      case "TIMEOUT", "DEADLINE" -> JobState.TIMEOUT;
      case "NODE_FAIL", "BOOT_FAIL" -> JobState.NODE_FAIL;
      case "OUT_OF_MEMORY" -> JobState.OUT_OF_MEMORY;
      case "PREEMPTED" -> JobState.PREEMPTED;
      default -> JobState.UNKNOWN;
    };
    String why = nullIfUnset(reason);
    boolean saysMore = !name.equals(state.name()) || raw.contains(" ");
    if (why == null && !name.isEmpty() && saysMore) {
      why = raw;
    }
    // Slurm prints ExitCode=0:0 for jobs still running; only an ended job has a real one.
    return new JobStatus(state, why, state.terminal() ? exitCode(exitCode) : null);
  }

  /** {@code code:signal} to one number: the code, or {@code 128 + signal} for a death by signal. */
  static Integer exitCode(String text) {
    if (text == null) {
      return null;
    }
    Matcher m = EXIT_CODE.matcher(text.strip());
    if (!m.matches()) {
      return null;
    }
    int code = Integer.parseInt(m.group(1));
    int signal = Integer.parseInt(m.group(2));
    return signal != 0 ? 128 + signal : code;
  }

  private static String nullIfUnset(String value) {
    if (value == null) {
      return null;
    }
    String v = value.strip();
    return v.isEmpty() || v.equals("None") || v.equals("(null)") ? null : v;
  }
}
