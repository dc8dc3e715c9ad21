package dev.srt.operator.results;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.StreamReadConstraints;
import com.fasterxml.jackson.core.StreamReadFeature;
import com.fasterxml.jackson.core.exc.StreamConstraintsException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.srt.operator.api.RunFact;
import dev.srt.operator.api.RunFacts;
import dev.srt.operator.verdict.FactKind;
import java.io.IOException;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * A run's {@code facts.json} (docs/run-protocol.md#facts), read like its result files: cut at
 * {@link #MAX_BYTES} on the host, then checked here. The file is one JSON object whose
 * {@code facts} is a list of at most {@link #MAX_FACTS} objects, each with a unique {@code name}
 * and exactly one of {@code value} and {@code unknown}, all printable text within bounds. A file
 * that breaks any of this gives no facts at all, with the reason, naming the key but never
 * quoting the file. The kinds and digests are computed here ({@link FactKind}), never read.
 */
public final class FactsFile {
  static final String PATH = "facts.json";
  static final int MAX_BYTES = 4 * 1024 * 1024;
  static final int MAX_FACTS = 20_000;
  static final int MAX_NAME = 200;
  static final int MAX_TEXT = 512;
  private static final Pattern PRINTABLE = Pattern.compile("[^\\p{Cntrl}\\p{Cf}]*");
  private static final Pattern TIMESTAMP = Pattern.compile("[0-9][0-9T:.Z+-]{0,39}");
  private static final ObjectMapper MAPPER = new ObjectMapper(JsonFactory.builder()
      .streamReadConstraints(StreamReadConstraints.builder().maxNestingDepth(8).maxNumberLength(32).maxStringLength(MAX_BYTES).build())
      .enable(StreamReadFeature.STRICT_DUPLICATE_DETECTION)
      .build());

  private FactsFile() {}

  /**
   * The facts of a run whose {@code facts.json} exists but is not a regular file: never read (a
   * FIFO would block its reader, a link or a directory is not what the run writes), and named as
   * what it is, so that nobody looks for a facts step that failed.
   *
   * @param kind what the host found: {@code link}, {@code fifo}, {@code directory}, else another kind of file
   */
  public static RunFacts notRegular(String kind) {
    String what = switch (kind) {
      case "link" -> "a symbolic link";
      case "fifo" -> "a FIFO";
      case "directory" -> "a directory";
      case "hardlink" -> "a file with another name (a hard link)";
      default -> "not a regular file";
    };
    return RunFacts.none(PATH + " is " + what + ": skipped");
  }

  /** What the file says; {@code bytes} null when the run has none. */
  public static RunFacts parse(byte[] bytes) {
    if (bytes == null) {
      return RunFacts.none("the run wrote no " + PATH + " (a run of an earlier version, or its facts step failed: see logs/facts.log)");
    }
    if (bytes.length > MAX_BYTES) {
      return RunFacts.none(PATH + " is larger than " + MAX_BYTES / (1024 * 1024) + " MiB");
    }
    try {
      return facts(read(bytes));
    } catch (Malformed e) {
      return RunFacts.none(PATH + " is malformed: " + e.getMessage());
    }
  }

  private static JsonNode read(byte[] bytes) throws Malformed {
    try (JsonParser p = MAPPER.createParser(bytes)) {
      JsonNode root = MAPPER.readTree(p);
      if (p.nextToken() != null) {
        throw new Malformed("more than one JSON value");
      }
      return root;
    } catch (StreamConstraintsException e) {
      throw new Malformed("nested deeper than the facts program writes");
    } catch (IOException e) {
      // Jackson's message may quote the file: only its kind is told
      throw new Malformed(String.valueOf(e.getMessage()).startsWith("Duplicate field") ? "a key appears twice in one object" : "not JSON");
    }
  }

  private static RunFacts facts(JsonNode root) throws Malformed {
    if (root == null || !root.isObject()) {
      throw new Malformed("not a JSON object");
    }
    JsonNode list = root.get("facts");
    if (list == null || !list.isArray()) {
      throw new Malformed("facts is not a list");
    }
    if (list.size() > MAX_FACTS) {
      throw new Malformed("more than " + MAX_FACTS + " facts");
    }
    RunFacts out = new RunFacts();
    JsonNode at = root.get("capturedAt");
    if (at != null && !at.isNull()) {
      out.capturedAt = text(at, "capturedAt", 40);
      if (!TIMESTAMP.matcher(out.capturedAt).matches()) {
        throw new Malformed("capturedAt is not a UTC time");
      }
    }
    List<RunFact> facts = new ArrayList<>();
    Set<String> names = new HashSet<>();
    for (int i = 0; i < list.size(); i++) {
      JsonNode f = list.get(i);
      String where = "facts[" + i + "]";
      if (!f.isObject()) {
        throw new Malformed(where + " is not an object");
      }
      String name = text(f.get("name"), where + ".name", MAX_NAME);
      if (name.isBlank() || !names.add(name)) {
        throw new Malformed(where + ".name is " + (name.isBlank() ? "empty" : "not unique"));
      }
      boolean hasValue = f.has("value");
      if (hasValue == f.has("unknown")) {
        throw new Malformed(where + " needs exactly one of value and unknown");
      }
      String value = hasValue ? text(f.get("value"), where + ".value", MAX_TEXT) : null;
      String unknown = hasValue ? null : text(f.get("unknown"), where + ".unknown", MAX_TEXT);
      facts.add(new RunFact(name, FactKind.of(name).wire(), value, unknown));
    }
    out.facts = facts;
    out.count = facts.size();
    out.unknownCount = (int) facts.stream().filter(f -> f.value == null).count();
    out.heldConstantDigest = FactKind.HELD_CONSTANT.digest(facts);
    out.routingDigest = FactKind.ROUTING.digest(facts);
    return out;
  }

  private static String text(JsonNode node, String where, int max) throws Malformed {
    if (node == null || !node.isTextual()) {
      throw new Malformed(where + " is not text");
    }
    String s = node.asText();
    if (s.length() > max) {
      throw new Malformed(where + " is longer than " + max + " characters");
    }
    if (!PRINTABLE.matcher(s).matches()) {
      throw new Malformed(where + " has control characters");
    }
    return s;
  }

  /** A facts file that is not what the run's facts program writes; the message never quotes it. */
  private static final class Malformed extends Exception {
    private static final long serialVersionUID = 1L;

    Malformed(String message) {
      super(message, null, false, false);
    }
  }
}
