package dev.srt.operator.host;

import static org.assertj.core.api.Assertions.assertThat;

import dev.srt.operator.base.Shell;
import dev.srt.operator.testinfra.TestHosts;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The poll of many Slurm runs over SSH, against the real Slurm: held jobs (they use no resources),
 * one run directory each with its job-id and a few events. Whatever the number of runs, a poll is
 * one SSH execution, and its time stays about flat.
 */
class SlurmPollScaleIT {
  private static final Duration T = Duration.ofSeconds(120);
  private static final String EVENT = "{\"ts\":\"2026-11-30T05:40:00Z\",\"event\":\"phase\",\"phase\":\"starting\"}\n";
  private static final int MOST = 300;

  private SshTransport ssh;
  private RemoteWorkDir work;
  private final List<String> jobIds = new ArrayList<>();

  @BeforeEach
  void setUp() throws Exception {
    TestHosts.requireSlurm();
    ssh = new SshTransport(TestHosts.ssh().sshConfig());
    work = new RemoteWorkDir(ssh);
  }

  @AfterEach
  void tearDown() throws Exception {
    if (ssh == null) {
      return;
    }
    if (!jobIds.isEmpty()) {
      ssh.exec("scancel " + String.join(" ", jobIds), T);
    }
    work.close();
    ssh.close();
  }

  private static RunRef run(int i) {
    return new RunRef("default", "scale", "arm-" + i, String.format("r%08x", i));
  }

  /** {@code MOST} held jobs and their run directories, made in one command. */
  private void submitHeldJobs(SlurmBackend slurm) throws HostException {
    StringBuilder dirs = new StringBuilder();
    for (int i = 0; i < MOST; i++) {
      dirs.append(Shell.quote(slurm.runDirectory(run(i)).path())).append('\n');
    }
    String script = "set -e\nwhile IFS= read -r dir; do\n"
        + "  mkdir -p -- \"$dir\"\n"
        + "  printf '%s' " + Shell.quote(EVENT.repeat(5)) + " >\"$dir/events.jsonl\"\n"
        + "  id=$(sbatch --parsable --hold -p " + Shell.quote(TestHosts.slurmPartition())
        + " -J srt-poll-scale -o /dev/null --wrap true)\n"
        + "  printf '%s\\n' \"${id%%;*}\" >\"$dir/job-id\"\n"
        + "  printf '%s\\n' \"${id%%;*}\"\n"
        + "done\n";
    String out = ssh.exec(script, dirs.toString().getBytes(java.nio.charset.StandardCharsets.UTF_8), T)
        .orThrow("submitting held jobs").stdout();
    out.lines().map(String::strip).filter(l -> l.matches("\\d+")).forEach(jobIds::add);
    assertThat(jobIds).hasSize(MOST);
  }

  @Test
  void aPollOfHeldJobsIsOneExecutionAndStaysFlat() throws Exception {
    SlurmBackend slurm = new SlurmBackend(ssh, work.path);
    submitHeldJobs(slurm);
    CountingTransport counting = new CountingTransport(ssh);
    SlurmBackend observed = new SlurmBackend(counting, work.path);
    StringBuilder figures = new StringBuilder("slurm poll over ssh:");
    long oneRun = 0;
    for (int n : new int[] {1, 3, 100, MOST}) {
      ClusterObserver observer = new ClusterObserver(observed);
      List<ActiveRun> runs = new ArrayList<>();
      for (int i = 0; i < n; i++) {
        runs.add(new ActiveRun(run(i), i % 2 == 0 ? jobIds.get(i) : null, 0));
      }
      List<Long> times = new ArrayList<>();
      for (int round = 0; round < 3; round++) {
        int before = counting.execCount();
        long start = System.nanoTime();
        Map<RunRef, RunObservation> seen = observer.poll(runs);
        times.add((System.nanoTime() - start) / 1_000_000);
        assertThat(counting.execCount() - before).as("executions of one poll of %d runs", n).isEqualTo(1);
        for (ActiveRun r : runs) {
          RunObservation o = seen.get(r.run());
          assertThat(o.job().state()).as("job of %s", r.run()).isEqualTo(JobState.PENDING);
          assertThat(o.job().reason()).isEqualTo("JobHeldUser");
          assertThat(o.events()).hasSize(round == 0 ? 5 : 0);
        }
        List<ActiveRun> next = new ArrayList<>();
        runs.forEach(r -> next.add(new ActiveRun(r.run(), r.jobId(), seen.get(r.run()).nextOffset())));
        runs = next;
      }
      long median = times.stream().sorted().toList().get(1);
      figures.append(String.format(" %d runs %d ms;", n, median));
      if (n == 1) {
        oneRun = median;
      } else if (n == MOST) {
        // What the runs add to one SSH execution, whose own cost is the host's (here about 0.5 s,
        // most of it root's ~/.bashrc, which bash sources for every command sshd runs).
        assertThat(median - oneRun).as("what %d runs add to a poll, ms", n).isLessThan(1000);
      }
    }
    System.out.println(figures);
  }
}
