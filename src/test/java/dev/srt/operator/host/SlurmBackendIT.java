package dev.srt.operator.host;

import static org.assertj.core.api.Assertions.assertThat;

import dev.srt.operator.base.Shell;
import dev.srt.operator.testinfra.TestHosts;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import org.awaitility.Awaitility;
import org.awaitility.core.ConditionFactory;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** SlurmBackend over SSH against the real single-node Slurm (see .ci/start-slurm.sh). */
class SlurmBackendIT {
  private static final Duration T = Duration.ofSeconds(30);

  private SshTransport ssh;
  private RemoteWorkDir work;
  private SlurmBackend slurm;
  private final List<String> submitted = new ArrayList<>();

  @BeforeEach
  void setUp() throws Exception {
    TestHosts.requireSlurm();
    ssh = new SshTransport(TestHosts.ssh().sshConfig());
    work = new RemoteWorkDir(ssh);
    slurm = new SlurmBackend(ssh, work.path);
  }

  @AfterEach
  void tearDown() throws Exception {
    if (ssh == null) {
      return;
    }
    if (!submitted.isEmpty()) {
      List<String> scancel = new ArrayList<>(List.of("scancel"));
      scancel.addAll(submitted);
      ssh.exec(Shell.join(scancel), T);
    }
    work.close();
    ssh.close();
  }

  private static RunRef newRun(String arm) {
    return new RunRef("default", "slurm-it", arm, "r" + UUID.randomUUID().toString().substring(0, 8));
  }

  private static ConditionFactory await() {
    return Awaitility.await().atMost(Duration.ofSeconds(60)).pollInterval(Duration.ofMillis(300));
  }

  private Submission submit(RunRef run, String script) throws HostException {
    Submission s = slurm.submit(run, script);
    submitted.add(s.jobId());
    return s;
  }

  @Test
  void aRunGoesThroughItsStatesAndItsEventsArriveIncrementally() throws Exception {
    RunRef run = newRun("ok");
    Submission submission = submit(run, TestScripts.succeeding());
    assertThat(submission.alreadyExisted()).isFalse();

    ClusterObserver observer = new ClusterObserver(slurm);
    List<JobState> states = new ArrayList<>();
    List<String> events = new ArrayList<>();
    List<Integer> eventsPerPoll = new ArrayList<>();
    long[] offset = {0};
    await().until(() -> {
      RunObservation seen = observer.poll(List.of(new ActiveRun(run, submission.jobId(), offset[0]))).get(run);
      offset[0] = seen.nextOffset();
      states.add(seen.job().state());
      seen.events().forEach(e -> events.add(e.event()));
      if (!seen.events().isEmpty()) {
        eventsPerPoll.add(seen.events().size());
      }
      return seen.job().terminal();
    });

    assertThat(states.get(states.size() - 1)).isEqualTo(JobState.COMPLETED);
    assertThat(states).contains(JobState.RUNNING);
    assertThat(states.subList(0, states.indexOf(JobState.RUNNING))).allMatch(s -> s == JobState.PENDING);
    assertThat(events).containsExactly("run-started", "phase", "phase", "finished");
    assertThat(eventsPerPoll).as("events arrive over several polls").hasSizeGreaterThan(1);
    assertThat(slurm.status(run, null)).isEqualTo(new JobStatus(JobState.COMPLETED, null, 0));
    String runId = ssh.exec("cat " + Shell.quote(slurm.runDirectory(run).results() + "/run-id"), T).stdout().strip();
    assertThat(runId).isEqualTo(run.runId());
  }

  @Test
  void submittingTheSameRunAgainReturnsTheSameJob() throws Exception {
    RunRef run = newRun("twice");
    Submission first = submit(run, TestScripts.sleeping());
    Submission second = slurm.submit(run, TestScripts.sleeping());
    assertThat(second).isEqualTo(new Submission(first.jobId(), true));

    // Even when the job-id file was lost (a crash right after sbatch), the job is found by name and marker.
    ssh.exec("rm -f -- " + Shell.quote(slurm.runDirectory(run).jobId()), T).orThrow("rm job-id");
    assertThat(slurm.submit(run, TestScripts.sleeping())).isEqualTo(new Submission(first.jobId(), true));

    String jobs = ssh.exec(Shell.join(List.of("squeue", "--states=all", "-h", "--name=" + run.jobName(), "-o", "%i")), T)
        .orThrow("squeue").stdout();
    assertThat(jobs.strip().lines()).containsExactly(first.jobId());
  }

  @Test
  void cancelStopsTheJobAndRepeatingItIsHarmless() throws Exception {
    RunRef run = newRun("cancel");
    Submission s = submit(run, TestScripts.sleeping());
    await().until(() -> slurm.status(run, s.jobId()).state() == JobState.RUNNING);

    slurm.cancel(run, s.jobId());
    await().untilAsserted(() -> assertThat(slurm.status(run, s.jobId()).state()).isEqualTo(JobState.CANCELLED));
    assertThat(slurm.status(run, s.jobId()).exitCode()).isEqualTo(143);

    slurm.cancel(run, s.jobId());
    slurm.cancel(run, null);
    slurm.cancel(newRun("never-submitted"), null);
    slurm.cancel(run, "999999999");
  }

  @Test
  void aJobSubmittedAfterAnotherWaitsOnItsDependencyAndRunsWhenItEndsHoweverItEnds() throws Exception {
    RunRef first = newRun("first");
    RunRef second = newRun("second");
    Submission a = submit(first, TestScripts.sleeping());
    Submission b = slurm.submit(second, RunFiles.script(TestScripts.succeeding()).after(new RunFiles.After(first, a.jobId())));
    submitted.add(b.jobId());
    await().until(() -> slurm.status(first, a.jobId()).state() == JobState.RUNNING);
    String reason = ssh.exec(Shell.join(List.of("squeue", "-h", "-j", b.jobId(), "-o", "%r")), T).orThrow("squeue").stdout().strip();
    assertThat(reason).isEqualTo("Dependency");
    assertThat(slurm.status(second, b.jobId()).state()).isEqualTo(JobState.PENDING);

    slurm.cancel(first, a.jobId()); // afterany: a cancelled predecessor still lets it run
    await().until(() -> slurm.status(second, b.jobId()).terminal());
    assertThat(slurm.status(second, b.jobId()).state()).isEqualTo(JobState.COMPLETED);
  }

  @Test
  void aFailingScriptEndsFailedWithItsExitCode() throws Exception {
    RunRef run = newRun("fails");
    Submission s = submit(run, TestScripts.failing(3));
    await().until(() -> slurm.status(run, s.jobId()).terminal());
    JobStatus status = slurm.status(run, s.jobId());
    assertThat(status.state()).isEqualTo(JobState.FAILED);
    assertThat(status.exitCode()).isEqualTo(3);
  }

  @Test
  void onePollObservesManyRunsWithOneRemoteCommand() throws Exception {
    List<ActiveRun> runs = new ArrayList<>();
    for (int i = 0; i < 4; i++) {
      RunRef run = newRun("many-" + i);
      runs.add(new ActiveRun(run, submit(run, TestScripts.failing(i + 1)).jobId(), 0));
    }
    CountingTransport counting = new CountingTransport(ssh);
    ClusterObserver observer = new ClusterObserver(new SlurmBackend(counting, work.path));
    await().until(() -> observer.poll(runs).values().stream().allMatch(o -> o.job().terminal()));
    int polls = counting.execCount();
    var last = observer.poll(runs);
    assertThat(counting.execCount()).isEqualTo(polls + 1);
    for (int i = 0; i < runs.size(); i++) {
      assertThat(last.get(runs.get(i).run()).job()).isEqualTo(new JobStatus(JobState.FAILED, "NonZeroExitCode", i + 1));
    }
  }

  @Test
  void anUnknownJobIsNotFound() throws Exception {
    assertThat(slurm.status(newRun("ghost"), "999999999").state()).isEqualTo(JobState.NOT_FOUND);
    assertThat(slurm.status(newRun("ghost"), null).state()).isEqualTo(JobState.NOT_FOUND);
  }
}
