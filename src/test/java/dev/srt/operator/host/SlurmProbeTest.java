package dev.srt.operator.host;

import static org.assertj.core.api.Assertions.assertThat;

import dev.srt.operator.base.Shell;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The Slurm side of the batched poll, run by real bash with stand-ins for {@code squeue} and
 * {@code sacct} that record their calls: one squeue for all jobs, one sacct for the jobs squeue no
 * longer lists, whatever the number of runs.
 */
class SlurmProbeTest {
  @TempDir Path work;

  private Path bin;
  private Path calls;

  /** A stand-in that records its arguments, one call per line, then prints {@code output} and exits {@code code}. */
  private void standIn(String name, String output, int code) throws Exception {
    Path file = bin.resolve(name);
    Files.writeString(file, "#!/bin/bash\nprintf '%s %s\\n' " + Shell.quote(name) + " \"$*\" >>" + Shell.quote(calls.toString())
        + "\nprintf '%s' " + Shell.quote(output) + "\nexit " + code + "\n");
    Files.setPosixFilePermissions(file, PosixFilePermissions.fromString("rwx------"));
  }

  private Map<RunRef, RunObservation> poll(List<ActiveRun> runs) throws Exception {
    Transport withStandIns = new CountingTransport(new LocalTransport(),
        command -> "PATH=" + Shell.quote(bin.toString()) + ":\"$PATH\"\n" + command);
    return new ClusterObserver(new SlurmBackend(withStandIns, work.resolve("w").toString())).poll(runs);
  }

  private RunRef run(int i) {
    return new RunRef("default", "c", "arm-" + i, String.format("r%08x", i));
  }

  @Test
  void oneSqueueForAllJobsAndOneSacctForTheForgottenOnes() throws Exception {
    bin = Files.createDirectories(work.resolve("bin"));
    calls = work.resolve("calls");
    StringBuilder listed = new StringBuilder();
    List<ActiveRun> runs = new ArrayList<>();
    for (int i = 0; i < 100; i++) {
      int job = 1000 + i;
      RunRef run = run(i);
      if (i % 2 == 1) { // half the job ids come from the run directory's job-id
        Path dir = Files.createDirectories(Path.of(run.runDir(work.resolve("w").toString())));
        Files.writeString(dir.resolve("job-id"), job + "\n");
      }
      runs.add(new ActiveRun(run, i % 2 == 0 ? Integer.toString(job) : null, 0));
      if (i < 90) {
        listed.append(job).append(i < 80 ? "|PENDING|Priority|0|\n" : "|FAILED|NonZeroExitCode|256|\n");
      }
    }
    standIn("squeue", listed.toString(), 0);
    standIn("sacct", "1090|srt|TIMEOUT|0:15|TimeLimit\n", 0);

    Map<RunRef, RunObservation> seen = poll(runs);

    List<String> made = Files.readAllLines(calls);
    assertThat(made).hasSize(2);
    assertThat(made.get(0)).startsWith("squeue --states=all -h -j 1000,1001,1002,").contains(",1099 -O ");
    assertThat(made.get(1)).startsWith("sacct -n -P -X -j 1090,1091,").contains(",1099 -o ");
    assertThat(seen.get(run(0)).job()).isEqualTo(new JobStatus(JobState.PENDING, "Priority", null));
    assertThat(seen.get(run(81)).job()).isEqualTo(new JobStatus(JobState.FAILED, "NonZeroExitCode", 1));
    assertThat(seen.get(run(90)).job()).isEqualTo(new JobStatus(JobState.TIMEOUT, "TimeLimit", 143));
    assertThat(seen.get(run(91)).job().state()).isEqualTo(JobState.NOT_FOUND);
  }

  @Test
  void withoutAccountingForgottenJobsAreNotFoundAndControllerTroubleIsUnknown() throws Exception {
    bin = Files.createDirectories(work.resolve("bin"));
    calls = work.resolve("calls");
    standIn("squeue", "slurm_load_jobs error: Invalid job id specified\n", 1);
    standIn("sacct", "Slurm accounting storage is disabled\n", 1);
    RunObservation alone = poll(List.of(new ActiveRun(run(0), "77", 0))).get(run(0));
    assertThat(alone.job()).isEqualTo(new JobStatus(JobState.NOT_FOUND, "Slurm no longer knows job 77", null));

    standIn("squeue", "slurm_load_jobs error: Unable to contact slurm controller (connect failure)\n", 1);
    RunObservation down = poll(List.of(new ActiveRun(run(0), "77", 0))).get(run(0));
    assertThat(down.job().state()).isEqualTo(JobState.UNKNOWN);
    assertThat(down.job().reason()).contains("Unable to contact slurm controller");
    // no job id anywhere: nothing is asked
    Files.delete(calls);
    assertThat(poll(List.of(new ActiveRun(run(5), null, 0))).get(run(5)).job().state()).isEqualTo(JobState.NOT_FOUND);
    assertThat(calls).doesNotExist();
  }

  @Test
  void hostileJobIdsNeverReachACommand() throws Exception {
    bin = Files.createDirectories(work.resolve("bin"));
    calls = work.resolve("calls");
    standIn("squeue", "5|RUNNING|None|0|\n", 0);
    RunObservation seen = poll(List.of(new ActiveRun(run(0), "5,6 $(touch pwned)", 0), new ActiveRun(run(1), "5", 0)))
        .get(run(0));
    assertThat(seen.job().state()).isEqualTo(JobState.NOT_FOUND);
    assertThat(Files.readAllLines(calls)).singleElement().asString().contains("-j 5 -O");
    ClusterObserverTest.assertNothingInjected(work);
  }

  @Test
  void saysWhichCancelsSrtOperatorRequested() throws Exception {
    bin = Files.createDirectories(work.resolve("bin"));
    calls = work.resolve("calls");
    standIn("squeue", "7|CANCELLED|None|36608|\n8|CANCELLED|None|36608|\n", 0);
    Path ours = Files.createDirectories(Path.of(run(0).runDir(work.resolve("w").toString())));
    Files.writeString(ours.resolve("cancel-requested"), "");
    Map<RunRef, RunObservation> seen = poll(List.of(new ActiveRun(run(0), "7", 0), new ActiveRun(run(1), "8", 0)));
    assertThat(seen.get(run(0)).job()).isEqualTo(new JobStatus(JobState.CANCELLED, null, 143, true));
    assertThat(seen.get(run(1)).job()).isEqualTo(new JobStatus(JobState.CANCELLED, null, 143, false));
  }
}
