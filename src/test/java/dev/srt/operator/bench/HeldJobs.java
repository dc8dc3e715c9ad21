package dev.srt.operator.bench;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The benchmark's view of the local Slurm, asked directly (not over SSH, so the sshd's log holds
 * the operator's executions alone): the jobs whose comment is one of the operator's run markers
 * in the benchmark's namespace, and their cancellation afterwards.
 */
final class HeldJobs {
  /** A job: its id, its state and its comment (the run's marker). */
  record Job(String id, String state, String comment) {}

  private final String markerPrefix;

  HeldJobs(String namespace) {
    this.markerPrefix = "srt-operator:" + namespace + "/";
  }

  /** Every job of the benchmark's namespace Slurm still lists (MinJobAge keeps ended ones an hour). */
  List<Job> jobs() throws IOException, InterruptedException {
    List<Job> jobs = new ArrayList<>();
    for (String line : run(List.of("squeue", "--states=all", "-h", "-o", "%i|%T|%k")).lines().toList()) {
      String[] f = line.split("\\|", 3);
      if (f.length == 3 && f[2].startsWith(markerPrefix)) {
        jobs.add(new Job(f[0].strip(), f[1].strip(), f[2].strip()));
      }
    }
    return jobs;
  }

  /** How many jobs each run marker has. */
  Map<String, Integer> jobsPerRun() throws IOException, InterruptedException {
    Map<String, Integer> perRun = new HashMap<>();
    jobs().forEach(j -> perRun.merge(j.comment(), 1, Integer::sum));
    return perRun;
  }

  /** Cancels whatever of the benchmark's jobs has not ended; returns how many that was. */
  int cancelLeftovers() throws IOException, InterruptedException {
    List<String> ids = jobs().stream().filter(j -> j.state().equals("PENDING") || j.state().equals("RUNNING")).map(Job::id).toList();
    for (int i = 0; i < ids.size(); i += 200) {
      List<String> argv = new ArrayList<>(List.of("scancel"));
      argv.addAll(ids.subList(i, Math.min(ids.size(), i + 200)));
      run(argv);
    }
    return ids.size();
  }

  private static String run(List<String> argv) throws IOException, InterruptedException {
    Process p = new ProcessBuilder(argv).redirectErrorStream(true).start();
    String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    if (p.waitFor() != 0) {
      throw new IOException(String.join(" ", argv) + " failed: " + out.strip());
    }
    return out;
  }
}
