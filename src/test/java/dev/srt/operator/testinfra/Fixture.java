package dev.srt.operator.testinfra;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.MappingIterator;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * A YAML test input with its expectations in a leading comment block:
 *
 * <pre>
 * # expect: spec.arms[1].name: duplicate arm name    an ERROR of the Java validator (path, message substring)
 * # errors: 3                                        exactly that many ERRORs
 * # cel: spec.arms: arm names must be unique         a failing CEL rule (error path, rule message); the set is exact
 * # schema: spec.arms: maxItems                      a structural-schema violation (path, keyword); the set is exact
 * # java-only: why the CRD cannot reject it           neither CEL nor the structural schema rejects it
 * </pre>
 *
 * Files under {@code fixtures/valid} carry no expectations: everything must accept them.
 */
public record Fixture(
    Path file, String text, List<Expect> expects, Integer errors, List<String> cel, List<String> schema, String javaOnly) {

  public static final Path ROOT = Path.of("src/test/resources/fixtures");
  public static final Path EXAMPLES = Path.of("examples");

  private static final ObjectMapper YAML = new ObjectMapper(new YAMLFactory());
  private static final Pattern HEADER = Pattern.compile("^#\\s*(expect|errors|cel|schema|java-only):\\s*(.*?)\\s*$");

  /** {@code path: message} as written after {@code # expect:}. */
  public record Expect(String path, String message) {
    @Override
    public String toString() {
      return path + ": " + message;
    }
  }

  public static List<Fixture> invalid() {
    return list(ROOT.resolve("invalid"));
  }

  public static List<Fixture> valid() {
    return list(ROOT.resolve("valid"));
  }

  /** The shipped examples: accepted like the valid fixtures. */
  public static List<Fixture> examples() {
    return list(EXAMPLES);
  }

  public static List<Fixture> list(Path dir) {
    try (Stream<Path> files = Files.list(dir)) {
      return files.filter(f -> f.toString().endsWith(".yaml")).sorted().map(Fixture::read).toList();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  public static Fixture read(Path file) {
    String text;
    try {
      text = Files.readString(file);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    List<Expect> expects = new ArrayList<>();
    List<String> cel = new ArrayList<>();
    List<String> schema = new ArrayList<>();
    Integer errors = null;
    String javaOnly = null;
    for (String line : text.lines().toList()) {
      if (!line.startsWith("#")) {
        if (line.isBlank()) {
          continue;
        }
        break; // the header ends with the first line of YAML
      }
      Matcher m = HEADER.matcher(line);
      if (!m.matches()) {
        continue;
      }
      String value = m.group(2);
      switch (m.group(1)) {
        case "expect" -> {
          int cut = value.indexOf(": ");
          if (cut < 0) {
            throw new IllegalArgumentException(file + ": '# expect:' needs 'path: message', got " + value);
          }
          expects.add(new Expect(value.substring(0, cut), value.substring(cut + 2)));
        }
        case "errors" -> errors = Integer.valueOf(value);
        case "cel" -> cel.add(value);
        case "schema" -> schema.add(value);
        default -> javaOnly = value;
      }
    }
    return new Fixture(file, text, List.copyOf(expects), errors, List.copyOf(cel), List.copyOf(schema), javaOnly);
  }

  public String name() {
    return file.getFileName().toString();
  }

  public boolean isInvalid() {
    return file.startsWith(ROOT.resolve("invalid"));
  }

  /** The YAML documents of the file, as trees (empty documents skipped). */
  public List<JsonNode> documents() {
    List<JsonNode> docs = new ArrayList<>();
    try (MappingIterator<JsonNode> it = YAML.readerFor(JsonNode.class).readValues(text)) {
      while (it.hasNext()) {
        JsonNode doc = it.next();
        if (doc != null && !doc.isNull() && !doc.isMissingNode()) {
          docs.add(doc);
        }
      }
    } catch (IOException e) {
      throw new UncheckedIOException(file + ": not YAML", e);
    }
    return docs;
  }

  @Override
  public String toString() {
    return file.toString();
  }
}
