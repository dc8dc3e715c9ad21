package dev.srt.operator.host;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.List;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Turns one run's events.jsonl into events, chunk by chunk, as it grows. The caller reads the
 * file from {@link #readOffset()} and hands over what it got; a last line without its newline
 * is kept until the rest arrives (the script may be mid-write). A file smaller than the offset
 * was replaced, so reading starts over. Lines that are not a JSON object with an {@code event}
 * are skipped with a warning, as are lines longer than {@link #MAX_LINE_BYTES}.
 *
 * <p>Not thread-safe: one reader per file, used by one poller.
 */
public final class EventLogReader {
  private static final Logger log = LoggerFactory.getLogger(EventLogReader.class);
  private static final ObjectMapper JSON =
      new ObjectMapper().enable(DeserializationFeature.FAIL_ON_TRAILING_TOKENS);
  /** A longer line is not an event any script writes; it is dropped rather than buffered without end. */
  public static final int MAX_LINE_BYTES = 1024 * 1024;

  /** What one chunk yielded. */
  public record Read(List<RunEvent> events, boolean restarted, int skippedLines) {}

  private final String source;
  private long readOffset;
  private final ByteArrayOutputStream pending = new ByteArrayOutputStream();
  private boolean discardingLongLine;

  /**
   * @param source names the file in warnings (e.g. the run)
   * @param startOffset where to start: 0, or a {@link #resumeOffset()} saved earlier
   */
  public EventLogReader(String source, long startOffset) {
    if (startOffset < 0) {
      throw new IllegalArgumentException("offset must be >= 0: " + startOffset);
    }
    this.source = source;
    this.readOffset = startOffset;
  }

  /** Where the next chunk must start in the file. */
  public long readOffset() {
    return readOffset;
  }

  /**
   * Where a new reader would have to start to miss no event: the start of the partial line, if
   * one is pending. This is the offset worth persisting.
   */
  public long resumeOffset() {
    return readOffset - pending.size();
  }

  /**
   * Takes the next chunk of the file.
   *
   * @param fileSize the file's size when the chunk was read, or -1 if it does not exist
   * @param chunkOffset where in the file {@code chunk} starts: {@link #readOffset()}, or 0 when
   *     the file had become smaller than that
   */
  public Read accept(long fileSize, long chunkOffset, byte[] chunk) {
    boolean restarted = false;
    if (fileSize >= 0 && fileSize < readOffset) {
      log.warn("{}: events.jsonl shrank from at least {} to {} bytes; reading it again from the start",
          source, readOffset, fileSize);
      readOffset = 0;
      pending.reset();
      discardingLongLine = false;
      restarted = true;
    }
    if (chunkOffset != readOffset) {
      log.warn("{}: ignoring a chunk read at offset {} while expecting {}", source, chunkOffset, readOffset);
      return new Read(List.of(), restarted, 0);
    }
    List<RunEvent> events = new ArrayList<>();
    int skipped = 0;
    int lineStart = 0;
    for (int i = 0; i < chunk.length; i++) {
      if (chunk[i] != '\n') {
        continue;
      }
      if (discardingLongLine) {
        discardingLongLine = false;
      } else {
        pending.write(chunk, lineStart, i - lineStart);
        if (!parseLine(pending.toByteArray(), events)) {
          skipped++;
        }
      }
      pending.reset();
      lineStart = i + 1;
    }
    if (!discardingLongLine) {
      pending.write(chunk, lineStart, chunk.length - lineStart);
      if (pending.size() > MAX_LINE_BYTES) {
        long lineOffset = readOffset + chunk.length - pending.size();
        log.warn("{}: skipping a line longer than {} bytes at offset {}", source, MAX_LINE_BYTES, lineOffset);
        pending.reset();
        discardingLongLine = true;
        skipped++;
      }
    }
    readOffset += chunk.length;
    return new Read(events, restarted, skipped);
  }

  /** Adds the line's event, or returns false (after a warning) when the line is not one. */
  private boolean parseLine(byte[] bytes, List<RunEvent> events) {
    String line = new String(bytes, StandardCharsets.UTF_8).strip();
    if (line.isEmpty()) {
      return true;
    }
    try {
      JsonNode node = JSON.readTree(line);
      JsonNode event = node == null ? null : node.get("event");
      if (node == null || !node.isObject() || event == null || !event.isTextual()) {
        log.warn("{}: skipping an events.jsonl line without an event: {}", source, abbreviate(line));
        return false;
      }
      events.add(new RunEvent(timestamp(node.get("ts")), event.asText(), node));
      return true;
    } catch (JsonProcessingException e) {
      log.warn("{}: skipping a malformed events.jsonl line: {}", source, abbreviate(line));
      return false;
    }
  }

  private static Instant timestamp(JsonNode ts) {
    if (ts == null || !ts.isTextual()) {
      return null;
    }
    try {
      return Instant.parse(ts.asText());
    } catch (DateTimeParseException e) {
      return null;
    }
  }

  private static String abbreviate(String line) {
    return ExecResult.abbreviate(line, 200);
  }
}
