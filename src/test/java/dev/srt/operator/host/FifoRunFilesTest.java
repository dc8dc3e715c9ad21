package dev.srt.operator.host;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue 41, finding 2, case by case: a FIFO that a run made of one of its own files (or of the
 * file another run reads) no longer stalls the next run of a detached queue, a retried submission,
 * or the poll of a Slurm run, and the user is told which file it is. Real bash, local transport.
 */
class FifoRunFilesTest {
  private static final Duration BOUND = Duration.ofSeconds(20);

  @TempDir Path work;
  private LocalTransport local;

  @BeforeEach
  void open() {
    local = new LocalTransport();
  }

  @AfterEach
  void close() {
    local.close();
  }

  private Path fifo(RunRef run, String name) throws Exception {
    Path dir = Files.createDirectories(Path.of(run.runDir(work.toString())));
    Path p = dir.resolve(name);
    assertThat(new ProcessBuilder("mkfifo", p.toString()).start().waitFor()).isZero();
    return p;
  }

  /** Before: the wrapper's {@code cat "$SRT_AFTER_RUN_DIR/pid"} waited for a writer forever, and so did every run queued after. */
  @Test
  void theNextRunOfADetachedQueueDoesNotWaitOnAFifoAsThePidOfTheRunBefore() throws Exception {
    DirectBackend direct = new DirectBackend(local, work.toString(), Duration.ofSeconds(1));
    RunRef before = new RunRef("default", "fifo", "a", "r00000001");
    RunRef next = new RunRef("default", "fifo", "b", "r00000002");
    fifo(before, "pid");
    Submission s = assertTimeoutPreemptively(BOUND,
        () -> direct.submit(next, RunFiles.script(TestScripts.succeeding()).after(new RunFiles.After(before, "1"))));
    assertThat(s.jobId()).matches("\\d+");
    Path exitCode = Path.of(direct.runDirectory(next).exitCode());
    Awaitility.await().atMost(BOUND).pollInterval(Duration.ofMillis(100)).until(() -> Files.isRegularFile(exitCode));
    assertThat(Files.readString(exitCode).strip()).isEqualTo("0");
    assertThat(Files.readString(Path.of(direct.runDirectory(next).scriptLog())))
        .contains("not waiting for the run before this one: its pid is not a regular file (a FIFO): not read");
  }

  /** A pid that is there but not a regular file: the run may have started, so it is not started again, and the error says why. */
  @Test
  void aSubmissionWhosePidIsAFifoIsRefusedPromptlyNamingIt() throws Exception {
    DirectBackend direct = new DirectBackend(local, work.toString(), Duration.ofSeconds(1));
    RunRef run = new RunRef("default", "fifo", "a", "r00000003");
    fifo(run, "pid");
    assertTimeoutPreemptively(BOUND, () -> assertThatThrownBy(() -> direct.submit(run, RunFiles.script(TestScripts.succeeding())))
        .isInstanceOf(HostException.class).hasMessageContaining("pid is not a regular file (a FIFO): not read"));
    assertThat(Path.of(direct.runDirectory(run).script())).doesNotExist();
  }

  /** A Slurm run's job-id made a FIFO: the poll answers at once (no squeue asked: no job id), the run failed with the file named. */
  @Test
  void aSlurmJobIdThatIsAFifoFailsTheRunInThePoll() throws Exception {
    SlurmBackend slurm = new SlurmBackend(local, work.toString());
    RunRef run = new RunRef("default", "fifo", "a", "r00000004");
    fifo(run, "job-id");
    Map<RunRef, RunObservation> seen = assertTimeoutPreemptively(BOUND,
        () -> new ClusterObserver(slurm).poll(List.of(new ActiveRun(run, null, 0))));
    JobStatus job = seen.get(run).job();
    assertThat(job.state()).isEqualTo(JobState.FAILED);
    assertThat(job.reason()).isEqualTo("job-id is not a regular file (a FIFO): not read");
  }
}
