package dev.srt.operator.host;

import static org.assertj.core.api.Assertions.assertThat;

import dev.srt.operator.base.Shell;
import dev.srt.operator.testinfra.TestHosts;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.stream.Stream;
import org.awaitility.Awaitility;
import org.awaitility.core.ConditionFactory;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * DirectBackend over SSH (the test sshd) and over LocalTransport. Both reach this machine, so
 * the tests can also look at its processes directly.
 */
class DirectBackendIT {
  private static final Duration T = Duration.ofSeconds(30);

  /**
   * Starts, each in its own process group recorded in pgids: a child of the run that ignores TERM
   * (so only the KILL phase stops it), and a process that is NOT the run's (no SRT_RUN_ID), as a
   * broken or malicious script might list. Then waits.
   */
  private static final String SCRIPT_WITH_GROUPS = TestScripts.PREAMBLE + """
      setsid bash -c 'trap "" TERM; while :; do sleep 1; done' </dev/null >/dev/null 2>&1 &
      echo $! >>pgids
      echo $! >results/child.pid
      env -u SRT_RUN_ID setsid sleep 300 </dev/null >/dev/null 2>&1 &
      echo $! >>pgids
      echo $! >results/foreign.pid
      ev phase ',"phase":"ready"'
      sleep 300
      """;

  private Transport transport;
  private RemoteWorkDir work;
  private final List<Long> foreignToKill = new ArrayList<>();

  static Stream<Arguments> transports() {
    return Stream.of(Arguments.of("ssh"), Arguments.of("local"));
  }

  private DirectBackend open(String kind) throws Exception {
    transport = kind.equals("ssh") ? new SshTransport(TestHosts.ssh().sshConfig()) : new LocalTransport();
    work = new RemoteWorkDir(transport);
    return new DirectBackend(transport, work.path, Duration.ofSeconds(3));
  }

  @AfterEach
  void tearDown() throws Exception {
    for (long pid : foreignToKill) {
      ProcessHandle.of(pid).ifPresent(ProcessHandle::destroyForcibly);
    }
    if (work != null) {
      work.close();
    }
    if (transport != null) {
      transport.close();
    }
  }

  private static RunRef newRun(String arm) {
    return new RunRef("default", "direct-it", arm, "r" + UUID.randomUUID().toString().substring(0, 8));
  }

  private static ConditionFactory await() {
    return Awaitility.await().atMost(Duration.ofSeconds(60)).pollInterval(Duration.ofMillis(200));
  }

  private String read(String path) throws HostException {
    return transport.exec("cat " + Shell.quote(path), T).orThrow("cat " + path).stdout().strip();
  }

  @ParameterizedTest
  @MethodSource("transports")
  void startsDetachedAndReportsRunningThenCompleted(String kind) throws Exception {
    DirectBackend direct = open(kind);
    RunRef run = newRun("ok");

    long start = System.nanoTime();
    Submission s = direct.submit(run, TestScripts.succeeding());
    assertThat(Duration.ofNanos(System.nanoTime() - start)).as("submit returns while the script runs")
        .isLessThan(Duration.ofSeconds(3));
    assertThat(direct.status(run, s.jobId()).state()).isEqualTo(JobState.RUNNING);
    assertThat(read(direct.runDirectory(run).pgid())).isEqualTo(s.jobId());

    ClusterObserver observer = new ClusterObserver(direct);
    List<String> events = new ArrayList<>();
    List<JobState> states = new ArrayList<>();
    long[] offset = {0};
    await().until(() -> {
      RunObservation seen = observer.poll(List.of(new ActiveRun(run, s.jobId(), offset[0]))).get(run);
      offset[0] = seen.nextOffset();
      seen.events().forEach(e -> events.add(e.event()));
      states.add(seen.job().state());
      return seen.job().terminal();
    });
    assertThat(events).containsExactly("run-started", "phase", "phase", "finished");
    assertThat(states).contains(JobState.RUNNING).last().isEqualTo(JobState.COMPLETED);
    assertThat(read(direct.runDirectory(run).exitCode())).isEqualTo("0");
    assertThat(read(direct.runDirectory(run).results() + "/run-id")).isEqualTo(run.runId());
  }

  @ParameterizedTest
  @MethodSource("transports")
  void aRunSubmittedAfterAnotherStartsWhenThatOneHasEndedAndACancelWhileWaitingStartsNothing(String kind) throws Exception {
    DirectBackend direct = open(kind);
    RunRef first = newRun("first");
    RunRef second = newRun("second");
    RunRef third = newRun("third");
    Submission a = direct.submit(first, TestScripts.sleeping());
    Submission b = direct.submit(second, RunFiles.script(TestScripts.succeeding()).after(new RunFiles.After(first, a.jobId())));
    Submission c = direct.submit(third, RunFiles.script(TestScripts.succeeding()).after(new RunFiles.After(second, b.jobId())));
    await().until(() -> transport.exec("test -s " + Shell.quote(direct.runDirectory(first).events()), T).exitCode() == 0);

    // queued behind the first: started (a pid, so a poll finds it) but its script has not begun
    assertThat(direct.status(second, b.jobId()).state()).isEqualTo(JobState.RUNNING);
    assertThat(transport.exec("test -e " + Shell.quote(direct.runDirectory(second).events()), T).exitCode())
        .as("the second run's script has not started").isNotZero();

    direct.cancel(first, a.jobId());
    await().until(() -> direct.status(second, b.jobId()).terminal());
    assertThat(direct.status(second, b.jobId()).state()).isEqualTo(JobState.COMPLETED);
    assertThat(read(direct.runDirectory(second).results() + "/run-id")).isEqualTo(second.runId());

    // the third waits on the second, which has ended: it runs at once
    await().until(() -> direct.status(third, c.jobId()).terminal());
    assertThat(read(direct.runDirectory(third).exitCode())).isEqualTo("0");

    // a run cancelled while it waits ends without its script ever starting
    RunRef blocker = newRun("blocker");
    RunRef waiting = newRun("waiting");
    Submission x = direct.submit(blocker, TestScripts.sleeping());
    Submission y = direct.submit(waiting, RunFiles.script(TestScripts.succeeding()).after(new RunFiles.After(blocker, x.jobId())));
    direct.cancel(waiting, y.jobId());
    await().until(() -> direct.status(waiting, y.jobId()).terminal());
    assertThat(read(direct.runDirectory(waiting).exitCode())).isEqualTo("143");
    assertThat(transport.exec("test -e " + Shell.quote(direct.runDirectory(waiting).events()), T).exitCode()).isNotZero();
    assertThat(direct.status(blocker, x.jobId()).state()).as("the run it waited for goes on").isEqualTo(JobState.RUNNING);
    direct.cancel(blocker, x.jobId());
  }

  @ParameterizedTest
  @MethodSource("transports")
  void aSecondSubmitFindsTheFirst(String kind) throws Exception {
    DirectBackend direct = open(kind);
    RunRef run = newRun("twice");
    Submission first = direct.submit(run, TestScripts.sleeping());
    assertThat(direct.submit(run, TestScripts.sleeping())).isEqualTo(new Submission(first.jobId(), true));
    assertThat(Processes.withRunId(run.runId()).stream().map(Processes::group).distinct())
        .as("one process group: the run was started once").containsExactly(Long.parseLong(first.jobId()));
    direct.cancel(run, first.jobId());
  }

  @ParameterizedTest
  @MethodSource("transports")
  void cancelKillsEveryProcessOfTheRunAndNothingElse(String kind) throws Exception {
    DirectBackend direct = open(kind);
    RunRef run = newRun("cancel");
    RunDirectory dir = direct.runDirectory(run);
    Submission s = direct.submit(run, SCRIPT_WITH_GROUPS);
    await().until(() -> transport.exec("test -s " + Shell.quote(dir.results() + "/foreign.pid"), T).succeeded());
    long child = Long.parseLong(read(dir.results() + "/child.pid"));
    long foreign = Long.parseLong(read(dir.results() + "/foreign.pid"));
    foreignToKill.add(foreign);
    assertThat(Processes.running(child)).isTrue();
    assertThat(Processes.withRunId(run.runId())).contains(Long.parseLong(s.jobId()), child);

    direct.cancel(run, s.jobId());

    assertThat(Processes.withRunId(run.runId())).isEmpty();
    assertThat(Processes.running(child)).isFalse();
    assertThat(Processes.running(foreign)).as("a process without the run's SRT_RUN_ID survives").isTrue();
    assertThat(direct.status(run, s.jobId()).state()).isEqualTo(JobState.CANCELLED);

    direct.cancel(run, s.jobId());
    direct.cancel(newRun("never-started"), null);
    assertThat(Processes.running(foreign)).isTrue();
  }

  @ParameterizedTest
  @MethodSource("transports")
  void aFailingScriptEndsFailedWithItsExitCode(String kind) throws Exception {
    DirectBackend direct = open(kind);
    RunRef run = newRun("fails");
    Submission s = direct.submit(run, TestScripts.failing(3));
    await().until(() -> direct.status(run, s.jobId()).terminal());
    assertThat(direct.status(run, s.jobId())).isEqualTo(new JobStatus(JobState.FAILED, null, 3));
  }
}
