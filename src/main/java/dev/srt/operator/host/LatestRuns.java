package dev.srt.operator.host;

import dev.srt.operator.base.Shell;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Finds the newest runs of each arm of a comparison on a host: the run directories submitted last
 * (by their {@code record.json}, or the event log of a run without one), with the job id its
 * submitter recorded ({@code job-id} on Slurm, the script's {@code pid} on a direct host). A run
 * still queued behind another counts. One command for all arms.
 */
public final class LatestRuns {
  /** The newest run of an arm, and the id its backend tracks it by. */
  public record Found(RunRef run, String jobId) {}

  private static final Duration TIMEOUT = Duration.ofSeconds(60);

  private LatestRuns() {}

  /** Arms without any run are missing from the result. */
  public static Map<String, Found> find(Transport transport, String workDir, String namespace, String comparison, List<String> arms)
      throws HostException {
    Map<String, Found> latest = new LinkedHashMap<>();
    find(transport, workDir, namespace, comparison, arms, 1).forEach((arm, runs) -> latest.put(arm, runs.get(0)));
    return latest;
  }

  /**
   * The {@code perArm} newest runs of each arm, oldest first (runs of one comparison are submitted
   * one after another, so the record written last is the newest run). Arms without any run are missing.
   */
  public static Map<String, List<Found>> find(Transport transport, String workDir, String namespace, String comparison,
      List<String> arms, int perArm) throws HostException {
    return find(transport, arm -> parent(new RunRef(namespace, comparison, arm, "r00000000").runDir(workDir)), namespace, comparison,
        arms, perArm);
  }

  /** {@link #find(Transport, String, String, String, List, int)} where {@code backend} keeps its runs. */
  public static Map<String, List<Found>> find(Backend backend, String namespace, String comparison, List<String> arms, int perArm)
      throws HostException {
    return find(backend.transport(), arm -> parent(backend.runDirectory(new RunRef(namespace, comparison, arm, "r00000000")).path()),
        namespace, comparison, arms, perArm);
  }

  private static String parent(String runDir) {
    return runDir.substring(0, runDir.lastIndexOf('/'));
  }

  private static Map<String, List<Found>> find(Transport transport, java.util.function.UnaryOperator<String> armDirs, String namespace,
      String comparison, List<String> arms, int perArm) throws HostException {
    StringBuilder cmd = new StringBuilder();
    for (String arm : arms) {
      String armDir = armDirs.apply(arm);
      // a run is known by its record.json (written at submission, so a run still queued counts) or,
      // for a run submitted without one, its event log; the newest first by that file's time
      cmd.append("files=()\n")
          .append("for d in ").append(Shell.quote(armDir)).append("/r*/; do\n")
          .append("  if [ -e \"${d}record.json\" ]; then files+=(\"${d}record.json\"); ")
          .append("elif [ -e \"${d}events.jsonl\" ]; then files+=(\"${d}events.jsonl\"); fi\n")
          .append("done\n")
          .append("[ ${#files[@]} -eq 0 ] || ls -1t -- \"${files[@]}\" 2>/dev/null | head -n ").append(perArm)
          .append(" | while IFS= read -r log; do\n")
          .append("  dir=${log%/*}\n")
          .append("  job=$(head -c 64 -- \"$dir/job-id\" 2>/dev/null || head -c 64 -- \"$dir/pid\" 2>/dev/null || true)\n")
          .append("  printf '%s\\t%s\\t%s\\n' ").append(Shell.quote(arm)).append(" \"${dir##*/}\" \"$(printf '%s' \"$job\" | tr -dc 0-9)\"\n")
          .append("done\n");
    }
    String out = transport.exec(cmd.toString(), TIMEOUT).orThrow("listing the runs of " + comparison + " on " + transport.describe()).stdout();
    Map<String, List<Found>> found = new LinkedHashMap<>();
    for (String line : out.split("\n")) {
      String[] f = line.split("\t", -1);
      if (f.length == 3 && arms.contains(f[0]) && f[1].matches("r[0-9a-f]{8}")) {
        // Listed newest first: each older run goes before the ones already found.
        found.computeIfAbsent(f[0], k -> new ArrayList<>()).add(0,
            new Found(new RunRef(namespace, comparison, f[0], f[1]), f[2].isEmpty() ? null : f[2]));
      }
    }
    return found;
  }
}
