package dev.srt.operator.host;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.Arrays;
import org.junit.jupiter.api.Test;

class EventLogReaderTest {
  private static final String STARTED =
      "{\"ts\":\"2026-11-30T05:40:00Z\",\"event\":\"run-started\",\"arm\":\"sgl-router\",\"runId\":\"r1a2b3c4d\"}\n";
  private static final String PHASE = "{\"ts\":\"2026-11-30T05:40:01Z\",\"event\":\"phase\",\"phase\":\"building\"}\n";

  private static byte[] bytes(String s) {
    return s.getBytes(StandardCharsets.UTF_8);
  }

  @Test
  void readsCompleteLinesAndAdvances() {
    EventLogReader reader = new EventLogReader("t", 0);
    byte[] chunk = bytes(STARTED + PHASE);
    EventLogReader.Read read = reader.accept(chunk.length, 0, chunk);
    assertThat(read.events()).extracting(RunEvent::event).containsExactly("run-started", "phase");
    assertThat(read.events().get(0).ts()).isEqualTo(Instant.parse("2026-11-30T05:40:00Z"));
    assertThat(read.events().get(0).text("arm")).isEqualTo("sgl-router");
    assertThat(read.events().get(1).text("phase")).isEqualTo("building");
    assertThat(reader.readOffset()).isEqualTo(chunk.length);
    assertThat(reader.resumeOffset()).isEqualTo(chunk.length);
  }

  @Test
  void keepsAPartialLastLineUntilItsRestArrives() {
    EventLogReader reader = new EventLogReader("t", 0);
    byte[] all = bytes(STARTED + PHASE);
    int cut = STARTED.length() + 20;
    byte[] first = Arrays.copyOfRange(all, 0, cut);
    byte[] rest = Arrays.copyOfRange(all, cut, all.length);

    EventLogReader.Read one = reader.accept(cut, 0, first);
    assertThat(one.events()).extracting(RunEvent::event).containsExactly("run-started");
    assertThat(one.skippedLines()).isZero();
    assertThat(reader.readOffset()).isEqualTo(cut);
    assertThat(reader.resumeOffset()).isEqualTo(STARTED.length());

    EventLogReader.Read two = reader.accept(all.length, cut, rest);
    assertThat(two.events()).extracting(RunEvent::event).containsExactly("phase");
    assertThat(reader.resumeOffset()).isEqualTo(all.length);
  }

  @Test
  void startsFromAGivenOffset() {
    byte[] all = bytes(STARTED + PHASE);
    EventLogReader reader = new EventLogReader("t", STARTED.length());
    byte[] tail = Arrays.copyOfRange(all, STARTED.length(), all.length);
    assertThat(reader.accept(all.length, STARTED.length(), tail).events())
        .extracting(RunEvent::event).containsExactly("phase");
  }

  @Test
  void aFileSmallerThanTheOffsetIsReadAgainFromTheStart() {
    EventLogReader reader = new EventLogReader("t", 0);
    byte[] first = bytes(STARTED + PHASE);
    reader.accept(first.length, 0, first);

    byte[] rewritten = bytes(PHASE);
    EventLogReader.Read read = reader.accept(rewritten.length, 0, rewritten);
    assertThat(read.restarted()).isTrue();
    assertThat(read.events()).extracting(RunEvent::event).containsExactly("phase");
    assertThat(reader.readOffset()).isEqualTo(rewritten.length);
  }

  @Test
  void aRestartDropsAPendingPartialLine() {
    EventLogReader reader = new EventLogReader("t", 0);
    byte[] partial = bytes(STARTED + "{\"ts\":\"2026-11-30T05:40:01Z\",\"ev");
    reader.accept(partial.length, 0, partial);
    byte[] rewritten = bytes(PHASE);
    EventLogReader.Read read = reader.accept(rewritten.length, 0, rewritten);
    assertThat(read.events()).extracting(RunEvent::event).containsExactly("phase");
  }

  @Test
  void skipsMalformedLinesAndKeepsGoing() {
    EventLogReader reader = new EventLogReader("t", 0);
    byte[] chunk = bytes("not json\n" + "{\"ts\":\"x\",\"event\":\"phase\",\"phase\":\"ready\"}\n"
        + "[1,2]\n" + "{\"no\":\"event\"}\n" + "{\"event\":7}\n" + "{\"event\":\"a\"} trailing\n" + "\n" + PHASE);
    EventLogReader.Read read = reader.accept(chunk.length, 0, chunk);
    assertThat(read.events()).extracting(RunEvent::event).containsExactly("phase", "phase");
    assertThat(read.events().get(0).ts()).isNull();
    assertThat(read.skippedLines()).isEqualTo(5);
    assertThat(reader.readOffset()).isEqualTo(chunk.length);
  }

  @Test
  void toleratesUnknownEventsAndFieldsAndCrlf() {
    EventLogReader reader = new EventLogReader("t", 0);
    byte[] chunk = bytes("{\"ts\":\"2026-11-30T05:40:00Z\",\"event\":\"warp\",\"new\":{\"x\":1}}\r\n");
    RunEvent event = reader.accept(chunk.length, 0, chunk).events().get(0);
    assertThat(event.event()).isEqualTo("warp");
    assertThat(event.fields().get("new").get("x").asInt()).isEqualTo(1);
  }

  @Test
  void aLineLongerThanTheLimitIsSkippedWithoutBufferingItAll() {
    EventLogReader reader = new EventLogReader("t", 0);
    byte[] huge = bytes("{\"event\":\"x\",\"pad\":\"" + "a".repeat(EventLogReader.MAX_LINE_BYTES) + "\"}");
    EventLogReader.Read first = reader.accept(huge.length + 1, 0, huge);
    assertThat(first.events()).isEmpty();
    assertThat(first.skippedLines()).isEqualTo(1);
    byte[] rest = bytes("more of it\n" + PHASE);
    EventLogReader.Read second = reader.accept(huge.length + rest.length, huge.length, rest);
    assertThat(second.events()).extracting(RunEvent::event).containsExactly("phase");
    assertThat(second.skippedLines()).isZero();
  }

  @Test
  void aChunkFromTheWrongOffsetIsIgnored() {
    EventLogReader reader = new EventLogReader("t", 10);
    byte[] chunk = bytes(PHASE);
    assertThat(reader.accept(100, 50, chunk).events()).isEmpty();
    assertThat(reader.readOffset()).isEqualTo(10);
  }

  @Test
  void aMissingFileChangesNothing() {
    EventLogReader reader = new EventLogReader("t", 10);
    assertThat(reader.accept(-1, 10, new byte[0]).restarted()).isFalse();
    assertThat(reader.readOffset()).isEqualTo(10);
  }
}
