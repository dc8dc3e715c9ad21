package dev.srt.operator.config;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.core.StreamReadConstraints;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import com.fasterxml.jackson.dataformat.yaml.YAMLParser;
import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.yaml.snakeyaml.LoaderOptions;

/**
 * Reads multi-document YAML (the same files users {@code kubectl apply}) into trees, remembering
 * the line of every field so problems can be reported as {@code FILE:LINE: PATH: message}.
 *
 * <p>It reads what kubectl would send to the API server, or refuses: a file above {@link
 * #MAX_BYTES} is refused before it is parsed; a file without any object is an error; a key written
 * twice in one map is an error (kubectl refuses it too); aliases and merge keys ({@code <<}) are
 * refused rather than half-resolved, since a Kubernetes object never needs them.
 */
public final class YamlLoader {
  /** The largest file (or text) that is read: 1 MiB, about the API server's limit for one object. */
  public static final int MAX_BYTES = 1 << 20;
  static final String NO_ALIASES = "YAML anchors/aliases are not supported; write the value out";
  static final String NO_MERGE_KEYS = "YAML merge keys (<<) and anchors/aliases are not supported; write the fields out";
  static final String EMPTY = "no Kubernetes object in this file (it is empty, or only comments and ---)";
  private static final String MERGE_KEY = "<<";
  private static final int MAX_NESTING = 100;
  /** Jackson's own bound on a number's length: past it a number is refused at its field, not by the parser. */
  private static final int MAX_NUMBER_CHARS = StreamReadConstraints.DEFAULT_MAX_NUM_LEN;
  /** YAML 1.1's not-a-number and infinities, which the parser reads as floats. */
  private static final java.util.regex.Pattern NOT_FINITE = java.util.regex.Pattern.compile("[-+]?\\.(nan|NaN|NAN|inf|Inf|INF)");

  // rebuild(): YAMLFactory.builder() would not keep the default parser features (empty scalars as null).
  private static final YAMLFactory YAML = new YAMLFactory().rebuild()
      .loaderOptions(loaderOptions())
      .streamReadConstraints(StreamReadConstraints.builder().maxNestingDepth(MAX_NESTING).maxStringLength(MAX_BYTES).build())
      .build();
  private static final JsonNodeFactory NODES = JsonNodeFactory.instance;

  private YamlLoader() {}

  /** Problems that make a whole file unreadable as Kubernetes objects, each at {@code FILE:LINE}. */
  public static final class Rejected extends IOException {
    private static final long serialVersionUID = 1L;
    private final transient List<Problem> problems;

    Rejected(List<Problem> problems) {
      super(problems.get(0).toString());
      this.problems = List.copyOf(problems);
    }

    public List<Problem> problems() {
      return problems;
    }
  }

  public static List<SourceDocument> load(Path file) throws IOException {
    String name = file.toString();
    // Refused before parsing: a huge scalar costs the parser time and memory out of all proportion.
    if (Files.isRegularFile(file) && Files.size(file) > MAX_BYTES) {
      throw tooLarge(name, Files.size(file));
    }
    byte[] bytes;
    try (InputStream in = Files.newInputStream(file)) {
      bytes = in.readNBytes(MAX_BYTES + 1);
    }
    if (bytes.length > MAX_BYTES) {
      throw tooLarge(name, -1); // not a regular file (a pipe): its size was not known
    }
    return parse(name, StandardCharsets.UTF_8.newDecoder().decode(ByteBuffer.wrap(bytes)).toString());
  }

  /**
   * Parses YAML text; {@code name} is used in locations. Empty documents are skipped, but text
   * without any document is refused.
   *
   * @throws Rejected for too large or empty text, duplicate keys, aliases or merge keys
   */
  public static List<SourceDocument> parse(String name, String text) throws IOException {
    long bytes = utf8Length(text);
    if (bytes > MAX_BYTES) {
      throw tooLarge(name, bytes);
    }
    List<SourceDocument> docs = new ArrayList<>();
    List<Problem> problems = new ArrayList<>();
    try (JsonParser p = YAML.createParser(text)) {
      JsonToken t;
      while ((t = p.nextToken()) != null) {
        int first = p.currentTokenLocation().getLineNr();
        Map<String, Integer> lines = new HashMap<>();
        JsonNode tree = new Reader(name, (YAMLParser) p, lines, problems).read(t, "", false);
        if (tree != null && !tree.isNull() && !tree.isMissingNode()) {
          docs.add(new SourceDocument(name, docs.size(), first, tree, lines));
        }
      }
    }
    if (!problems.isEmpty()) {
      throw new Rejected(problems);
    }
    if (docs.isEmpty()) {
      throw new Rejected(List.of(Problem.error("", EMPTY).at(new Problem.Location(name, 1))));
    }
    return docs;
  }

  private static Rejected tooLarge(String name, long bytes) {
    return new Rejected(List.of(Problem.error("", (bytes < 0 ? "is larger than" : "is " + bytes + " bytes, more than")
        + " the limit of 1 MiB (" + MAX_BYTES + " bytes) for one file; it was not read").at(new Problem.Location(name, 1))));
  }

  /** Counted, not encoded: the text may be far above the limit. */
  private static long utf8Length(String text) {
    long n = 0;
    for (int i = 0; i < text.length(); i++) {
      char c = text.charAt(i);
      n += c < 0x80 ? 1 : c < 0x800 || Character.isSurrogate(c) ? 2 : 3;
    }
    return n;
  }

  private static LoaderOptions loaderOptions() {
    LoaderOptions o = new LoaderOptions();
    o.setCodePointLimit(MAX_BYTES); // a second guard: every text is checked against MAX_BYTES first
    o.setNestingDepthLimit(MAX_NESTING);
    return o;
  }

  /** One document's tree, with the line of each path; problems are collected, not thrown, so all are reported. */
  private record Reader(String file, YAMLParser p, Map<String, Integer> lines, List<Problem> problems) {

    /** {@code quiet}: inside a merge key, whose problem was reported once already. */
    JsonNode read(JsonToken t, String path, boolean quiet) throws IOException {
      if (p.isCurrentAlias() && !quiet) {
        reject(path, NO_ALIASES + " (*" + Echo.value(p.getText()) + ")");
      }
      switch (t) {
        case START_OBJECT -> {
          ObjectNode obj = NODES.objectNode();
          Map<String, Integer> keyLines = new HashMap<>();
          while (p.nextToken() != JsonToken.END_OBJECT) {
            String key = p.currentName();
            int line = line();
            String child = FieldPath.field(path, key);
            JsonToken value = p.nextToken();
            if (MERGE_KEY.equals(key)) {
              if (!quiet) {
                problems.add(Problem.error(path, NO_MERGE_KEYS).at(new Problem.Location(file, line)));
              }
              read(value, child, true);
              continue;
            }
            Integer firstLine = keyLines.putIfAbsent(key, line);
            if (firstLine != null && !quiet) {
              problems.add(Problem.error(child, "duplicate key: already set at line " + firstLine
                  + " (a key may appear only once in a map)").at(new Problem.Location(file, line)));
            }
            lines.putIfAbsent(child, line);
            obj.set(key, read(value, child, quiet));
          }
          return obj;
        }
        case START_ARRAY -> {
          ArrayNode arr = NODES.arrayNode();
          int i = 0;
          while ((t = p.nextToken()) != JsonToken.END_ARRAY) {
            String child = FieldPath.index(path, i++);
            lines.put(child, line());
            arr.add(read(t, child, quiet));
          }
          return arr;
        }
        case VALUE_STRING -> {
          return NODES.textNode(p.getText());
        }
        case VALUE_NUMBER_INT -> {
          if (p.getTextLength() > MAX_NUMBER_CHARS) {
            reject(path, "a number of " + p.getTextLength() + " digits: no field takes more than " + MAX_NUMBER_CHARS);
            return NODES.nullNode();
          }
          // An integer beyond long stays exact; SchemaCheck reports it as out of range for its field.
          return p.getNumberType() == JsonParser.NumberType.BIG_INTEGER
              ? NODES.numberNode(p.getBigIntegerValue()) : NODES.numberNode(p.getLongValue());
        }
        case VALUE_NUMBER_FLOAT -> {
          // YAML's .nan and .inf are floats to the parser, and no number to any field here: say so at the field,
          // rather than failing the whole file with Jackson's "Malformed numeric value".
          String text = p.getText().strip();
          if (NOT_FINITE.matcher(text).matches()) {
            reject(path, Echo.value(text) + " is not a finite number: write a number such as 0.5 (not-a-number and infinity are refused)");
            return NODES.nullNode();
          }
          if (p.getTextLength() > MAX_NUMBER_CHARS) {
            reject(path, "a number of " + p.getTextLength() + " characters: no field takes more than " + MAX_NUMBER_CHARS);
            return NODES.nullNode();
          }
          return NODES.numberNode(p.getDecimalValue());
        }
        case VALUE_TRUE -> {
          return NODES.booleanNode(true);
        }
        case VALUE_FALSE -> {
          return NODES.booleanNode(false);
        }
        case VALUE_NULL -> {
          return NODES.nullNode();
        }
        case VALUE_EMBEDDED_OBJECT -> {
          reject(path, "binary values (!!binary) are not supported; write the value as a string");
          return NODES.nullNode();
        }
        default -> throw new IOException("unexpected YAML token " + t);
      }
    }

    private int line() {
      return p.currentTokenLocation().getLineNr();
    }

    private void reject(String path, String message) {
      problems.add(Problem.error(path, message).at(new Problem.Location(file, line())));
    }
  }
}
