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
}
