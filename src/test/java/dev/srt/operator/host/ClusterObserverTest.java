package dev.srt.operator.host;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The batched poll, run for real by bash on this machine (direct backend, run state from files). */
class ClusterObserverTest {
  private static final String EVENT = "{\"ts\":\"2026-11-30T05:40:00Z\",\"event\":\"phase\",\"phase\":\"building\"}\n";
  /** Text that would break a naive framing: our own markers, a quote, a NUL, invalid UTF-8. */
  private static final String HOSTILE_LINE =
      "{\"ts\":\"2026-11-30T05:40:00Z\",\"event\":\"x\",\"msg\":\"\\nEND\\nF 0 events AAAA ' \\\" \\u0000\"}\n";

  @TempDir Path work;

  private RunRef run(int i) {
    return new RunRef("default", "cmp", "arm-" + i, "r0000000" + i);
  }

  private Path runDir(RunRef run) throws Exception {
    Path dir = Path.of(run.runDir(work.toString()));
    Files.createDirectories(dir);
    return dir;
  }

  private static void append(Path file, String text) throws Exception {
    append(file, text.getBytes(StandardCharsets.UTF_8));
  }

  private static void append(Path file, byte[] bytes) throws Exception {
    Files.write(file, bytes, StandardOpenOption.CREATE, StandardOpenOption.APPEND);
  }

  @Test
  void oneRemoteCommandPerPollWhateverTheNumberOfRuns() throws Exception {
    for (int n : new int[] {1, 12}) {
      Path workDir = work.resolve("n" + n);
      CountingTransport transport = new CountingTransport(new LocalTransport());
      ClusterObserver observer = new ClusterObserver(new DirectBackend(transport, workDir.toString()));
      List<ActiveRun> runs = new ArrayList<>();
      for (int i = 0; i < n; i++) {
        RunRef run = run(i);
        Path dir = Files.createDirectories(Path.of(run.runDir(workDir.toString())));
        append(dir.resolve("events.jsonl"), EVENT);
        runs.add(new ActiveRun(run, null, 0));
      }
      Map<RunRef, RunObservation> seen = observer.poll(runs);
      assertThat(transport.execCount()).isEqualTo(1);
      assertThat(seen).hasSize(n);
      seen.values().forEach(o -> assertThat(o.events()).hasSize(1));
    }
  }

  @Test
  void fileContentCannotBreakTheFraming() throws Exception {
    RunRef a = run(1);
    RunRef b = run(2);
    Path eventsA = runDir(a).resolve("events.jsonl");
    append(eventsA, HOSTILE_LINE);
    append(eventsA, new byte[] {(byte) 0xff, (byte) 0xfe, '\n'});
    append(eventsA, EVENT);
    append(runDir(b).resolve("events.jsonl"), EVENT);
    Files.writeString(runDir(a).resolve("exit-code"), "0\n");

    ClusterObserver observer = new ClusterObserver(new DirectBackend(new LocalTransport(), work.toString()));
    Map<RunRef, RunObservation> seen = observer.poll(List.of(new ActiveRun(a, null, 0), new ActiveRun(b, null, 0)));

    RunObservation obsA = seen.get(a);
    assertThat(obsA.events()).extracting(RunEvent::event).containsExactly("x", "phase");
    assertThat(obsA.events().get(0).text("msg")).isEqualTo("\nEND\nF 0 events AAAA ' \" \u0000");
    assertThat(obsA.skippedLines()).isEqualTo(1);
    assertThat(obsA.nextOffset()).isEqualTo(Files.size(eventsA));
    assertThat(obsA.job()).isEqualTo(new JobStatus(JobState.COMPLETED, null, 0));
    assertThat(seen.get(b).events()).extracting(RunEvent::event).containsExactly("phase");
    assertThat(seen.get(b).job().state()).isEqualTo(JobState.NOT_FOUND);
  }

  @Test
  void hostileRunDirectoriesArePassedAsData() throws Exception {
    Path hostileWork = Files.createDirectories(work.resolve("it's $(touch pwned) `touch pwned2`"));
    RunRef hostile = new RunRef("default", "c", "x'; touch pwned3; echo '\\", "r1");
    Path dir = Files.createDirectories(Path.of(hostile.runDir(hostileWork.toString())));
    append(dir.resolve("events.jsonl"), EVENT);
    Files.writeString(dir.resolve("exit-code"), "0\n");
    ClusterObserver observer = new ClusterObserver(new DirectBackend(new LocalTransport(), hostileWork.toString()));
    RunObservation seen = observer.poll(List.of(new ActiveRun(hostile, null, 0))).get(hostile);
    assertThat(seen.events()).hasSize(1);
    assertThat(seen.job().state()).isEqualTo(JobState.COMPLETED);
    assertNothingInjected(work);
  }

  /** The hostile names above would create these files in the working directory if bash ran them. */
  static void assertNothingInjected(Path work) throws Exception {
    for (Path dir : List.of(work, Path.of("").toAbsolutePath())) {
      try (var files = Files.walk(dir)) {
        assertThat(files.map(p -> p.getFileName().toString()))
            .doesNotContain("pwned", "pwned2", "pwned3");
      }
    }
  }

  @Test
  void eventsAreReadIncrementallyAcrossPollsWithPartialLines() throws Exception {
    RunRef run = run(1);
    Path events = runDir(run).resolve("events.jsonl");
    ClusterObserver observer = new ClusterObserver(new DirectBackend(new LocalTransport(), work.toString()));

    RunObservation none = observer.poll(List.of(new ActiveRun(run, null, 0))).get(run);
    assertThat(none.events()).isEmpty();
    assertThat(none.nextOffset()).isZero();

    append(events, EVENT + EVENT.substring(0, 30));
    RunObservation first = observer.poll(List.of(new ActiveRun(run, null, 0))).get(run);
    assertThat(first.events()).hasSize(1);
    assertThat(first.nextOffset()).isEqualTo(EVENT.length());

    append(events, EVENT.substring(30) + EVENT);
    RunObservation second = observer.poll(List.of(new ActiveRun(run, null, first.nextOffset()))).get(run);
    assertThat(second.events()).hasSize(2);
    assertThat(second.nextOffset()).isEqualTo(3L * EVENT.length());

    // A fresh observer (operator restart) continues from the persisted offset.
    ClusterObserver restarted = new ClusterObserver(new DirectBackend(new LocalTransport(), work.toString()));
    append(events, EVENT);
    RunObservation third = restarted.poll(List.of(new ActiveRun(run, null, second.nextOffset()))).get(run);
    assertThat(third.events()).hasSize(1);
  }

  @Test
  void aRewrittenFileIsReadFromTheStart() throws Exception {
    RunRef run = run(1);
    Path events = runDir(run).resolve("events.jsonl");
    append(events, EVENT + EVENT + EVENT);
    ClusterObserver observer = new ClusterObserver(new DirectBackend(new LocalTransport(), work.toString()));
    RunObservation first = observer.poll(List.of(new ActiveRun(run, null, 0))).get(run);
    Files.writeString(events, EVENT);
    RunObservation second = observer.poll(List.of(new ActiveRun(run, null, first.nextOffset()))).get(run);
    assertThat(second.eventsRestarted()).isTrue();
    assertThat(second.events()).hasSize(1);
    assertThat(second.nextOffset()).isEqualTo(EVENT.length());
  }

  @Test
  void readsAreBoundedPerRunAndCatchUpOverPolls() throws Exception {
    RunRef run = run(1);
    Path events = runDir(run).resolve("events.jsonl");
    append(events, EVENT.repeat(10));
    int limit = EVENT.length() * 3 + 5;
    ClusterObserver observer = new ClusterObserver(
        new DirectBackend(new LocalTransport(), work.toString()), limit, Duration.ofSeconds(30));
    long offset = 0;
    int total = 0;
    int polls = 0;
    RunObservation seen;
    do {
      seen = observer.poll(List.of(new ActiveRun(run, null, offset))).get(run);
      assertThat(seen.events().size()).isLessThanOrEqualTo(4);
      total += seen.events().size();
      offset = seen.nextOffset();
      polls++;
    } while (seen.moreEventsPending());
    assertThat(total).isEqualTo(10);
    assertThat(polls).isEqualTo(4);
  }

  /** The poll's total is shared in order: runs past it read nothing now, say more is pending, and catch up. */
  @Test
  void thePollsTotalIsBoundedAndTheRunsPastItCatchUp() throws Exception {
    List<ActiveRun> runs = new ArrayList<>();
    for (int i = 0; i < 4; i++) {
      append(runDir(run(i)).resolve("events.jsonl"), EVENT.repeat(2));
      runs.add(new ActiveRun(run(i), null, 0));
    }
    ClusterObserver observer = new ClusterObserver(new DirectBackend(new LocalTransport(), work.toString()),
        2 * EVENT.length(), 5 * EVENT.length(), Duration.ofSeconds(30));
    Map<RunRef, RunObservation> first = observer.poll(runs);
    assertThat(runs).extracting(r -> first.get(r.run()).events().size()).containsExactly(2, 2, 1, 0);
    assertThat(runs).extracting(r -> first.get(r.run()).moreEventsPending()).containsExactly(false, false, true, true);
    List<ActiveRun> next = runs.stream().map(r -> new ActiveRun(r.run(), null, first.get(r.run()).nextOffset())).toList();
    Map<RunRef, RunObservation> second = observer.poll(next);
    assertThat(next).extracting(r -> second.get(r.run()).events().size()).containsExactly(0, 0, 1, 2);
  }

  @Test
  void missingFilesAndDirectoriesAreEmptyReadsNotErrors() throws Exception {
    RunRef never = run(7);
    ClusterObserver observer = new ClusterObserver(new DirectBackend(new LocalTransport(), work.toString()));
    RunObservation seen = observer.poll(List.of(new ActiveRun(never, "123", 0))).get(never);
    assertThat(seen.events()).isEmpty();
    assertThat(seen.job().state()).isEqualTo(JobState.NOT_FOUND);
  }

  @Test
  void statusOnlyRunsSkipTheEvents() throws Exception {
    RunRef run = run(1);
    append(runDir(run).resolve("events.jsonl"), EVENT);
    Files.writeString(runDir(run).resolve("exit-code"), "1\n");
    Backend backend = new DirectBackend(new LocalTransport(), work.toString());
    RunObservation seen = new ClusterObserver(backend).poll(List.of(ActiveRun.statusOnly(run, null))).get(run);
    assertThat(seen.events()).isEmpty();
    assertThat(seen.job()).isEqualTo(new JobStatus(JobState.FAILED, null, 1));
    assertThat(backend.status(run, null)).isEqualTo(seen.job());
  }

  @Test
  void noRunsNoRemoteCommand() throws Exception {
    CountingTransport transport = new CountingTransport(new LocalTransport());
    assertThat(new ClusterObserver(new DirectBackend(transport, work.toString())).poll(List.of())).isEmpty();
    assertThat(transport.execCount()).isZero();
  }

  @Test
  void aTransportFailureFailsThePollAsAWhole() {
    Transport down = new FakeTransport((cmd, in) -> {
      throw new HostException(HostException.Kind.UNREACHABLE, "down");
    });
    ClusterObserver observer = new ClusterObserver(new DirectBackend(down, "/w"));
    assertThatThrownBy(() -> observer.poll(List.of(new ActiveRun(run(1), null, 0))))
        .isInstanceOfSatisfying(HostException.class, e -> assertThat(e.kind()).isEqualTo(HostException.Kind.UNREACHABLE));
  }

  @Test
  void outputCutShortFailsThePoll() {
    Transport truncated = new FakeTransport((cmd, in) -> new ExecResult(0,
        PollAnswer.encoded(new PollAnswer().fact(0, "alive", "1").body(), false), ""));
    ClusterObserver observer = new ClusterObserver(new DirectBackend(truncated, "/w"));
    assertThatThrownBy(() -> observer.poll(List.of(new ActiveRun(run(1), null, 0))))
        .isInstanceOfSatisfying(HostException.class, e -> assertThat(e.kind()).isEqualTo(HostException.Kind.IO));
  }

  @Test
  void anUnreadableJobStateIsUnknownNotAnException() throws Exception {
    // "exit-code" is "x": not a number.
    String answer = new PollAnswer().fact(0, "pid", "123").fact(0, "exit-code", "x").fact(0, "size", "0")
        .fact(0, "start", "0").fact(0, "events", "").output();
    Transport odd = new FakeTransport((cmd, in) -> new ExecResult(0, "motd noise\n" + answer, ""));
    RunObservation seen = new ClusterObserver(new DirectBackend(odd, "/w"))
        .poll(List.of(new ActiveRun(run(1), null, 0))).get(run(1));
    assertThat(seen.job().state()).isEqualTo(JobState.UNKNOWN);
    assertThat(seen.events()).isEmpty();
  }
}
