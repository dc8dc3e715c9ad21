package dev.srt.operator.host;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;

import dev.srt.operator.results.RunResults;
import java.io.RandomAccessFile;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue 41, finding 2: every reader of a run directory (the poll, the listing of runs, the
 * submitted files, the result files, {@code logs}, the pid lookup, cancel) over run directories
 * whose files are each, at random, a regular file, an empty one, a FIFO nobody writes, a link (to
 * a regular file outside, to {@code /dev/zero}, to a directory, dangling), a directory, a hard link
 * to {@code secret.env}, or a sparse file far over every bound. Real bash reads them (local
 * transport, as on a direct host). Before the one reader, a FIFO as {@code pid}, {@code record.json}
 * or {@code exit-code} held the poll, the listing and the lookups until their 60 s timeout.
 *
 * <p>Properties: every read returns within {@link #BOUND}; nothing behind a link or a second name
 * is ever read (the targets hold a marker no output may contain); a regular file within its bound
 * is read; a refused pid, exit-code or events.jsonl fails the run with the file named; the other
 * run of the same poll is observed as usual.
 */
class RunDirectoryReadersPropertyTest {
  /** Far under the 60 s command timeout that a blocked read ran into. */
  private static final Duration BOUND = Duration.ofSeconds(20);
  private static final String OUTSIDE = "OUTSIDE-THE-RUN-7f3a";
  private static final String SECRET = "SECRET-VALUE-91c2";
  private static final int TRIALS = Integer.getInteger("srt.readers.trials", 12);

  /** What a run file is made into. */
  enum Kind { REGULAR, EMPTY, FIFO, LINK_TO_FILE, LINK_TO_DEV_ZERO, LINK_TO_DIR, DANGLING_LINK, DIRECTORY, HARD_LINK, HUGE }

  /** The files the readers open, relative to the run directory, with the content a regular one holds. */
  enum RunFile {
    RECORD("record.json", "{\n  \"runId\" : \"%s\",\n  \"submittedAt\" : \"2026-11-30T05:40:00Z\"\n}\n"),
    PLAN("plan.json", "{\"plan\":\"%s\"}\n"),
    PID("pid", "4000000\n"),
    PGID("pgid", "4000000\n"),
    PGIDS("pgids", "4000001\n"),
    EXIT_CODE("exit-code", "0\n"),
    EVENTS("events.jsonl", "{\"ts\":\"2026-11-30T05:40:00Z\",\"event\":\"phase\",\"phase\":\"starting\"}\n"),
    FACTS("facts.json", "{}\n"),
    BENCH("results/bench-serving.jsonl", "{\"completed\": 3}\n"),
    SCRAPE("results/metrics-before.txt", "# srt-scrape http://127.0.0.1:6100/metrics\n"),
    LOG("logs/worker-0.log", "log line of %s\n");

    final String path;
    final String content;

    RunFile(String path, String content) {
      this.path = path;
      this.content = content;
    }
  }

  @TempDir Path work;
  private LocalTransport local;

  @BeforeEach
  void open() {
    local = new LocalTransport();
  }

  @AfterEach
  void close() {
    dev.srt.operator.testinfra.Links.removeAll(work);
    local.close();
  }

  @Test
  void noReaderBlocksOrReadsAnythingButRegularFilesWithinTheirBound() throws Exception {
    long seed = Long.getLong("srt.readers.seed", System.nanoTime());
    Random random = new Random(seed);
    Path outside = Files.createDirectories(work.resolve("outside"));
    Files.writeString(outside.resolve("file"), OUTSIDE + "\n");
    for (int trial = 0; trial < TRIALS; trial++) {
      Path workDir = Files.createDirectories(work.resolve("w" + trial));
      RunRef hostile = new RunRef("default", "cmp", "arm", String.format("r%08x", 2 * trial + 1));
      RunRef clean = new RunRef("default", "cmp", "arm", String.format("r%08x", 2 * trial));
      EnumMap<RunFile, Kind> kinds = new EnumMap<>(RunFile.class);
      for (RunFile f : RunFile.values()) {
        kinds.put(f, Kind.values()[random.nextInt(Kind.values().length)]);
      }
      // every kind in every place over the trials, whatever the seed: one file takes the trial's kind
      kinds.put(RunFile.values()[trial % RunFile.values().length], Kind.values()[trial % Kind.values().length]);
      String what = "seed " + seed + ", trial " + trial + ": " + kinds;
      make(workDir, clean, new EnumMap<>(RunFile.class), outside);
      make(workDir, hostile, kinds, outside);
      readAll(workDir, clean, hostile, kinds, what);
    }
  }

  /** A run directory with a {@code secret.env} and each run file as {@code kinds} says (regular by default). */
  private static void make(Path workDir, RunRef run, Map<RunFile, Kind> kinds, Path outside) throws Exception {
    Path dir = Files.createDirectories(Path.of(run.runDir(workDir.toString())));
    Files.createDirectories(dir.resolve("logs"));
    Files.createDirectories(dir.resolve("results"));
    Files.writeString(dir.resolve("secret.env"), "export HF_TOKEN=" + SECRET + "\n");
    for (RunFile f : RunFile.values()) {
      Path p = dir.resolve(f.path);
      switch (kinds.getOrDefault(f, Kind.REGULAR)) {
        case REGULAR -> Files.writeString(p, f.content.formatted(run.runId()));
        case EMPTY -> Files.writeString(p, "");
        case FIFO -> assertThat(new ProcessBuilder("mkfifo", p.toString()).start().waitFor()).isZero();
        case LINK_TO_FILE -> Files.createSymbolicLink(p, outside.resolve("file"));
        case LINK_TO_DEV_ZERO -> Files.createSymbolicLink(p, Path.of("/dev/zero"));
        case LINK_TO_DIR -> Files.createSymbolicLink(p, outside);
        case DANGLING_LINK -> Files.createSymbolicLink(p, outside.resolve("nowhere"));
        case DIRECTORY -> Files.createDirectories(p);
        case HARD_LINK -> Files.createLink(p, dir.resolve("secret.env"));
        case HUGE -> {
          try (RandomAccessFile file = new RandomAccessFile(p.toFile(), "rw")) {
            file.setLength(300L * 1024 * 1024); // sparse: over every reader's bound (256 MiB to scan)
          }
        }
      }
    }
  }

  private void readAll(Path workDir, RunRef clean, RunRef hostile, Map<RunFile, Kind> kinds, String what) {
    DirectBackend backend = new DirectBackend(local, workDir.toString(), Duration.ofSeconds(1));
    List<String> seen = new ArrayList<>();

    Map<RunRef, RunObservation> polled = bounded(what + " (poll)", () -> new ClusterObserver(backend).poll(List.of(
        new ActiveRun(clean, null, 0), new ActiveRun(hostile, null, 0))));
    seen.add(polled.toString());
    assertThat(polled.get(clean).events()).as(what).extracting(RunEvent::event).containsExactly("phase");
    assertThat(polled.get(clean).job().state()).as(what).isEqualTo(JobState.COMPLETED);
    JobStatus job = polled.get(hostile).job();
    for (RunFile control : List.of(RunFile.PID, RunFile.EXIT_CODE, RunFile.EVENTS)) {
      if (refused(kinds.get(control), false)) {
        assertThat(job.state()).as(what).isEqualTo(JobState.FAILED);
        assertThat(job.reason()).as(what).contains(control.path + " is not a regular file (");
      }
    }
    if (!refused(kinds.get(RunFile.PID), false) && !refused(kinds.get(RunFile.EXIT_CODE), false)
        && !refused(kinds.get(RunFile.EVENTS), false)) {
      assertThat(job.reason() == null ? "" : job.reason()).as(what).doesNotContain("is not a regular file");
    }

    Map<String, List<LatestRuns.Found>> listed = bounded(what + " (listing)",
        () -> LatestRuns.find(local, workDir.toString(), "default", "cmp", List.of("arm"), 5));
    seen.add(listed.toString());
    assertThat(listed.get("arm")).as(what).extracting(LatestRuns.Found::run).contains(clean);

    Map<RunRef, String> dirs = new LinkedHashMap<>();
    dirs.put(clean, backend.runDirectory(clean).path());
    dirs.put(hostile, backend.runDirectory(hostile).path());
    Map<RunRef, SubmittedFiles> submitted = bounded(what + " (records)", () -> SubmittedFiles.read(local, dirs));
    seen.add(submitted.toString());
    assertThat(submitted.get(clean).record()).as(what).contains(clean.runId());
    SubmittedFiles files = submitted.get(hostile);
    Kind record = kinds.get(RunFile.RECORD);
    if (record == Kind.REGULAR) {
      assertThat(files.record()).as(what).contains(hostile.runId());
    } else if (refused(record, true)) {
      assertThat(files.record()).as(what).isNull();
      assertThat(files.refused()).as(what).contains("record.json is not a regular file (");
    }
    if (record == Kind.HUGE) {
      assertThat(files.record()).as(what + ": over 8 MiB").isNull();
    }

    RunResults results = bounded(what + " (results)",
        () -> ResultsFetch.read(local, backend.runDirectory(hostile).path(), RunResults.RESULTS, null, ResultsFetch.TIMEOUT));
    seen.add(String.valueOf(results));
    seen.add(String.valueOf(results.facts() == null ? null : results.facts().unknown));

    ExecResult log = bounded(what + " (logs)", () -> RunLogs.tail(local, backend.runDirectory(hostile).path(), "worker-0", 5, BOUND));
    seen.add(log.stdout() + log.stderr());
    if (kinds.get(RunFile.LOG) == Kind.REGULAR) {
      assertThat(log.stdout()).as(what).contains("log line of " + hostile.runId());
    } else if (refused(kinds.get(RunFile.LOG), true)) {
      assertThat(log.succeeded()).as(what).isFalse();
      assertThat(log.stderr()).as(what).contains("logs/worker-0.log is not a regular file");
    }

    ExecResult lookup = bounded(what + " (pid lookup)", () -> local.exec(backend.lookupCommand(hostile), BOUND));
    seen.add(lookup.stdout() + lookup.stderr());
    if (refused(kinds.get(RunFile.PID), false)) {
      assertThat(lookup.succeeded()).as(what + ": a run whose pid is refused is not started again").isFalse();
      assertThat(lookup.stderr()).as(what).contains("pid is not a regular file (");
    }

    ExecResult cancel = bounded(what + " (cancel)", () -> local.exec(backend.cancelCommand(hostile), BOUND));
    assertThat(cancel.stdout()).as(what).contains("gone");

    for (String output : seen) {
      assertThat(output).as(what).doesNotContain(OUTSIDE).doesNotContain(SECRET);
    }
  }

  /**
   * Whether the readers refuse a file of this kind: anything but a regular file, and for readers
   * that hand its content on ({@code withContent}) also a regular file with a second name.
   */
  private static boolean refused(Kind kind, boolean withContent) {
    return switch (kind) {
      case REGULAR, EMPTY, HUGE -> false;
      case HARD_LINK -> withContent;
      default -> true;
    };
  }

  private interface Read<T> {
    T get() throws Exception;
  }

  private static <T> T bounded(String what, Read<T> read) {
    return assertTimeoutPreemptively(BOUND, read::get, () -> what + " did not return within " + BOUND);
  }
}
