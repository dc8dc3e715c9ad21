package dev.srt.operator.emulator;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Just enough TOML for Cargo.toml and pyproject.toml as the build stages edit them: line-based
 * {@code key = value} pairs under {@code [section]} headers, with inline tables read into a map.
 * The stages rewrite whole dependency lines with sed, so a line is the unit cargo's checks see too.
 */
public final class TomlLines {
  private static final Pattern ASSIGN = Pattern.compile("^\\s*([A-Za-z0-9_.\"-]+)\\s*=\\s*(.*?)\\s*$");
  private static final Pattern INLINE_PAIR =
      Pattern.compile("([A-Za-z0-9_-]+)\\s*=\\s*(\"[^\"]*\"|\\[[^\\]]*\\]|true|false|[0-9.]+)");

  /** One {@code key = value} line and the section it sits in. */
  public record Entry(String section, String key, String value) {
    /** The value without quotes, for plain string values. */
    public String text() {
      return unquote(value);
    }

    /** An inline table's pairs ({@code { path = "x", features = ["a"] }}); lists stay raw. */
    public Map<String, String> table() {
      Map<String, String> m = new LinkedHashMap<>();
      Matcher pm = INLINE_PAIR.matcher(value);
      while (pm.find()) {
        m.put(pm.group(1), unquote(pm.group(2)));
      }
      return m;
    }
  }

  private final Path file;
  private final List<Entry> entries;

  private TomlLines(Path file, List<Entry> entries) {
    this.file = file;
    this.entries = entries;
  }

  public static TomlLines read(Path file) throws IOException {
    List<Entry> entries = new ArrayList<>();
    String section = "";
    for (String raw : Files.readAllLines(file)) {
      String line = raw.strip();
      if (line.startsWith("#") || line.isEmpty()) {
        continue;
      }
      if (line.startsWith("[")) {
        section = line.replaceAll("^\\[+|\\]+$", "").strip();
        continue;
      }
      Matcher m = ASSIGN.matcher(line);
      if (m.matches()) {
        entries.add(new Entry(section, unquote(m.group(1)), m.group(2)));
      }
    }
    return new TomlLines(file, entries);
  }

  public Path file() {
    return file;
  }

  public Optional<Entry> get(String section, String key) {
    return entries.stream().filter(e -> e.section().equals(section) && e.key().equals(key)).findFirst();
  }

  /** A dependency declared in any section (like the build's sed, which ignores sections). */
  public Optional<Entry> dependency(String name) {
    return entries.stream().filter(e -> e.key().equals(name) && e.section().contains("dependencies")).findFirst();
  }

  static String unquote(String v) {
    String s = v.strip();
    return s.length() >= 2 && s.startsWith("\"") && s.endsWith("\"") ? s.substring(1, s.length() - 1) : s;
  }
}
