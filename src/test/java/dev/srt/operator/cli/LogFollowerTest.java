package dev.srt.operator.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.srt.operator.host.LocalTransport;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code logs --follow} on a run directory: the last lines, then every line the log gains, once, until the run ends. */
class LogFollowerTest {
  @TempDir Path run;

  @Test
  void printsTheLastLinesThenWhatTheLogGainsAndEndsWithTheRun() throws Exception {
    Path log = run.resolve("logs/worker-0.log");
    Files.createDirectories(log.getParent());
    Files.writeString(log, "one\ntwo\nthree\n");
    Files.writeString(run.resolve("events.jsonl"), "{\"ts\":\"2026-12-03T07:00:00.000Z\",\"event\":\"run-started\"}\n");
    ByteArrayOutputStream printed = new ByteArrayOutputStream();
    PrintStream out = new PrintStream(printed, true, StandardCharsets.UTF_8);
    try (LocalTransport local = new LocalTransport()) {
      LogFollower follower = new LogFollower(local, run.toString(), "worker-0", Duration.ofMillis(50));
      CompletableFuture<Void> following = CompletableFuture.runAsync(() -> {
        try {
          follower.follow(2, out);
        } catch (Exception e) {
          throw new IllegalStateException(e);
        }
      });
      await().atMost(Duration.ofSeconds(10)).until(() -> printed.toString(StandardCharsets.UTF_8).equals("two\nthree\n"));
      Files.writeString(log, "four\n", StandardOpenOption.APPEND);
      await().atMost(Duration.ofSeconds(10)).until(() -> printed.toString(StandardCharsets.UTF_8).endsWith("four\n"));
      assertThat(following).isNotDone();
      // the run ends; what the log gains meanwhile is still printed, then following stops
      Files.writeString(log, "five\n", StandardOpenOption.APPEND);
      Files.writeString(run.resolve("events.jsonl"), "{\"ts\":\"2026-12-03T07:00:09.000Z\",\"event\":\"finished\",\"status\":\"succeeded\"}\n",
          StandardOpenOption.APPEND);
      following.get(10, TimeUnit.SECONDS);
    }
    assertThat(printed.toString(StandardCharsets.UTF_8)).isEqualTo("two\nthree\nfour\nfive\n");
  }

  /**
   * A run that died without its finished event (killed, the node gone) still ends the follow once its
   * wrapper wrote the exit code (issue 41, finding 7: before, it followed for ever).
   */
  @Test
  void aRunThatDiedWithoutItsFinishedEventEndsTheFollowByItsExitCode() throws Exception {
    Path log = run.resolve("logs/script.log");
    Files.createDirectories(log.getParent());
    Files.writeString(log, "started\n");
    Files.writeString(run.resolve("events.jsonl"), "{\"ts\":\"2026-12-03T07:00:00.000Z\",\"event\":\"run-started\"}\n");
    ByteArrayOutputStream printed = new ByteArrayOutputStream();
    try (LocalTransport local = new LocalTransport()) {
      LogFollower follower = new LogFollower(local, run.toString(), "script", Duration.ofMillis(50));
      CompletableFuture<Void> following = CompletableFuture.runAsync(() -> {
        try {
          follower.follow(5, new PrintStream(printed, true, StandardCharsets.UTF_8));
        } catch (Exception e) {
          throw new IllegalStateException(e);
        }
      });
      await().atMost(Duration.ofSeconds(10)).until(() -> printed.toString(StandardCharsets.UTF_8).equals("started\n"));
      assertThat(following).isNotDone();
      Files.writeString(run.resolve("exit-code"), "137\n");
      following.get(10, TimeUnit.SECONDS);
    }
  }

  /**
   * A log that is a link out of the run ({@code logs/script.log -> ../secret.env}) is not followed
   * (issue 41, finding 1: before, {@code logs -f} printed the secrets), nor one that is a FIFO,
   * which would have stalled the follow.
   */
  @Test
  void aLogThatIsALinkOrAFifoIsNotFollowed() throws Exception {
    Files.createDirectories(run.resolve("logs"));
    Files.writeString(run.resolve("secret.env"), "export HF_TOKEN=hf_secret\n");
    Files.createSymbolicLink(run.resolve("logs/script.log"), Path.of("../secret.env"));
    new ProcessBuilder("mkfifo", run.resolve("logs/worker-0.log").toString()).start().waitFor();
    assertThat(run.resolve("logs/worker-0.log")).exists();
    try (LocalTransport local = new LocalTransport()) {
      for (String name : new String[] {"script", "worker-0"}) {
        ByteArrayOutputStream printed = new ByteArrayOutputStream();
        LogFollower follower = new LogFollower(local, run.toString(), name, Duration.ofMillis(50));
        CompletableFuture<Void> following = CompletableFuture.runAsync(() -> {
          try {
            follower.follow(5, new PrintStream(printed, true, StandardCharsets.UTF_8));
          } catch (Exception e) {
            throw new IllegalStateException(e);
          }
        });
        assertThat(following).as(name).failsWithin(Duration.ofSeconds(20)).withThrowableThat()
            .withMessageContaining("is not a regular file");
        assertThat(printed.toString(StandardCharsets.UTF_8)).as(name).doesNotContain("hf_secret").isEmpty();
      }
    }
  }
}
