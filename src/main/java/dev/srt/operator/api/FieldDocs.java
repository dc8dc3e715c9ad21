package dev.srt.operator.api;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The Javadoc of every field of the API classes, read from their sources at build time, keyed by
 * class and JSON property name. Javadoc is where the API is documented; {@link CrdPostProcessor}
 * makes it the CRD's descriptions, which {@code kubectl explain} shows.
 */
final class FieldDocs {
  // A Javadoc comment, then annotations, then a public field or a getter. The type may carry
  // type-use annotations (List<@Size(max = 4096) String>).
  private static final Pattern MEMBER = Pattern.compile(
      "/\\*\\*((?:(?!\\*/).)*)\\*/\\s*((?:@[^\\n]*\\n\\s*)*)public\\s+(?:[\\w.<>, ?\\[\\]]|@\\w+(?:\\([^)\\n]*\\))?)+\\s+(\\w+)\\s*(\\(\\)|[=;])",
      Pattern.DOTALL);
  // The Javadoc of a top-level class, before its annotations.
  private static final Pattern CLASS = Pattern.compile(
      "/\\*\\*((?:(?!\\*/).)*)\\*/\\s*(?:@[^\\n]*\\n\\s*|//[^\\n]*\\n\\s*)*public\\s+(?:final\\s+)?(?:class|enum|interface)\\s+(\\w+)",
      Pattern.DOTALL);
  private static final Pattern JSON_NAME = Pattern.compile("@JsonProperty\\(\"([^\"]+)\"\\)");
  private static final Pattern INLINE_TAG = Pattern.compile("\\{@(?:code|link|literal) ([^}]*)}");

  private final Map<String, Map<String, String>> docs = new HashMap<>();
  private final Map<String, String> classDocs = new HashMap<>();

  static FieldDocs read(Path sourceDir) throws IOException {
    FieldDocs d = new FieldDocs();
    try (var files = Files.list(sourceDir)) {
      for (Path file : files.filter(f -> f.toString().endsWith(".java")).toList()) {
        String className = file.getFileName().toString().replace(".java", "");
        String source = Files.readString(file);
        Matcher c = CLASS.matcher(source);
        if (c.find() && c.group(2).equals(className)) {
          d.classDocs.put(className, text(c.group(1)));
        }
        Matcher m = MEMBER.matcher(source);
        while (m.find()) {
          String member = m.group(3);
          boolean method = m.group(4).equals("()");
          if (m.group(2).contains("@JsonIgnore") || (method && !member.startsWith("get") && !m.group(2).contains("@JsonProperty"))) {
            continue; // not a property: a typed accessor such as mode() or phase()
          }
          Matcher json = JSON_NAME.matcher(m.group(2));
          String property = json.find() ? json.group(1)
              : method && member.startsWith("get") && member.length() > 3
                  ? Character.toLowerCase(member.charAt(3)) + member.substring(4) : member;
          d.docs.computeIfAbsent(className, k -> new HashMap<>()).put(property, text(m.group(1)));
        }
      }
    }
    return d;
  }

  /** The documentation of a property of a class, or null. */
  String of(Class<?> type, String property) {
    return docs.getOrDefault(type.getSimpleName(), Map.of()).get(property);
  }

  /** The documentation of a class, or null. */
  String ofClass(Class<?> type) {
    return classDocs.get(type.getSimpleName());
  }

  private static String text(String javadoc) {
    String plain = javadoc.lines().map(l -> l.strip().replaceFirst("^\\*\\s?", "")).reduce("", (a, b) -> a + " " + b);
    return INLINE_TAG.matcher(plain).replaceAll("$1").replaceAll("\\s+", " ").strip();
  }
}
