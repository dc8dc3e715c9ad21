package dev.srt.operator.host;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The newest runs of an arm, as the host lists them: dated by the record's submittedAt, so runs
 * whose files have the same time (a filesystem with whole-second times) still come back in the
 * order they were submitted, not in the order of their random ids.
 */
class LatestRunsTest {
  @TempDir Path work;

  private Path run(String arm, String runId, String submittedAt, String jobId) throws IOException {
    Path dir = Path.of(new RunRef("default", "cmp", arm, runId).runDir(work.toString()));
    Files.createDirectories(dir);
    if (submittedAt != null) {
      Files.writeString(dir.resolve("record.json"), """
          {
            "version" : 1,
            "runId" : "%s",
            "submittedAt" : "%s",
            "spec" : { }
          }
          """.formatted(runId, submittedAt));
    } else {
      Files.writeString(dir.resolve("events.jsonl"), "{}\n");
    }
    if (jobId != null) {
      Files.writeString(dir.resolve("job-id"), jobId + "\n");
    }
    return dir;
  }

  private static void sameSecond(Path... dirs) throws IOException {
    for (Path d : dirs) {
      Path f = Files.exists(d.resolve("record.json")) ? d.resolve("record.json") : d.resolve("events.jsonl");
      Files.setLastModifiedTime(f, FileTime.from(Instant.parse("2026-12-04T06:00:00Z")));
    }
  }

  private Map<String, List<LatestRuns.Found>> find(int perArm) throws HostException {
    try (LocalTransport local = new LocalTransport()) {
      return LatestRuns.find(local, work.toString(), "default", "cmp", List.of("a", "b", "none"), perArm);
    }
  }

  @Test
  void runsWrittenInTheSameSecondComeBackInTheOrderTheyWereSubmitted() throws Exception {
    // Submitted in the order f, 3, a (each id sorts before the one submitted before it).
    sameSecond(run("a", "rfffffff0", "2026-12-04T06:00:00.100Z", "101"), run("a", "r33333330", "2026-12-04T06:00:00.200Z", "102"),
        run("a", "raaaaaaa0", "2026-12-04T06:00:00.300Z", "103"));

    assertThat(find(1).get("a")).extracting(f -> f.run().runId(), LatestRuns.Found::jobId)
        .containsExactly(org.assertj.core.groups.Tuple.tuple("raaaaaaa0", "103"));
    assertThat(find(3).get("a")).as("oldest first").extracting(f -> f.run().runId())
        .containsExactly("rfffffff0", "r33333330", "raaaaaaa0");
    assertThat(find(3)).as("an arm without runs is missing").doesNotContainKey("none");
  }

  @Test
  void aRunWithoutARecordIsDatedByItsEventLog() throws Exception {
    Path old = run("b", "r00000001", null, null);
    Files.setLastModifiedTime(old.resolve("events.jsonl"), FileTime.from(Instant.parse("2026-12-01T00:00:00Z")));
    run("b", "r00000002", "2026-12-02T00:00:00Z", "7");
    Path newer = run("b", "r00000003", null, null);
    Files.setLastModifiedTime(newer.resolve("events.jsonl"), FileTime.from(Instant.parse("2026-12-03T00:00:00.5Z")));

    assertThat(find(3).get("b")).extracting(f -> f.run().runId()).containsExactly("r00000001", "r00000002", "r00000003");
    assertThat(find(3).get("b").get(1).jobId()).isEqualTo("7");
    assertThat(find(3).get("b").get(0).jobId()).isNull();
  }

  @Test
  void aDateIsTheRecordsElseTheFileTimeElseTheEpoch() {
    assertThat(LatestRuns.date("2026-12-04T06:00:00.123Z", "")).isEqualTo(Instant.parse("2026-12-04T06:00:00.123Z"));
    assertThat(LatestRuns.date("", "1796364621.489968772")).isEqualTo(Instant.ofEpochSecond(1796364621L, 489968772));
    assertThat(LatestRuns.date("not a date", "12")).isEqualTo(Instant.ofEpochSecond(12));
    assertThat(LatestRuns.date("", "")).isEqualTo(Instant.EPOCH);
  }
}
