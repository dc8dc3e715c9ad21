package dev.srt.operator.emulator;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * The options the real {@code python -m dynamo.frontend} knows at ai-dynamo 1.6.1 (the resource
 * {@code dynamo-frontend-1.6.1.options}, taken from its own parser), so the stand-in refuses what
 * it refuses. The real one parses with {@code parse_known_args} and then, with its default chat
 * processor, stops on anything left over: {@code Unknown arguments specified: ['--x', 'v']} and
 * exit 1 (dynamo/frontend/main.py, {@code parse_args}). argparse's abbreviations count as known:
 * a word that begins exactly one option's name is that option.
 */
final class DynamoFrontendOptions {
  static final String RESOURCE = "dynamo-frontend-1.6.1.options";
  private static final Set<String> KNOWN = load();

  private DynamoFrontendOptions() {}

  /**
   * The words of {@code argv} the real frontend would leave over: each unknown option with the
   * words that follow it up to the next option (argparse hands those over too, having no
   * positionals). Empty when the real one accepts the line.
   */
  static List<String> unknown(List<String> argv) {
    List<String> out = new ArrayList<>();
    boolean inUnknown = false;
    for (String word : argv) {
      if (word.startsWith("-") && word.length() > 1 && !isNumber(word)) {
        String name = word.startsWith("--") && word.contains("=") ? word.substring(0, word.indexOf('=')) : word;
        inUnknown = !known(name);
      }
      if (inUnknown) {
        out.add(word);
      }
    }
    return out;
  }

  /** The message the real frontend logs before exiting 1: a Python list of the words. */
  static String message(List<String> unknown) {
    return "Unknown arguments specified: " + unknown.stream().map(w -> "'" + w.replace("\\", "\\\\").replace("'", "\\'") + "'")
        .collect(Collectors.joining(", ", "[", "]"));
  }

  private static boolean known(String name) {
    if (KNOWN.contains(name)) {
      return true;
    }
    // argparse's allow_abbrev: only long options, and a prefix of exactly one
    return name.startsWith("--") && KNOWN.stream().filter(k -> k.startsWith(name)).count() == 1;
  }

  private static boolean isNumber(String word) {
    try {
      Double.parseDouble(word);
      return true;
    } catch (NumberFormatException e) {
      return false;
    }
  }

  private static Set<String> load() {
    try (InputStream in = DynamoFrontendOptions.class.getResourceAsStream(RESOURCE)) {
      if (in == null) {
        throw new IllegalStateException("missing resource " + RESOURCE);
      }
      return new String(in.readAllBytes(), StandardCharsets.UTF_8).lines().map(String::strip)
          .filter(l -> !l.isEmpty() && !l.startsWith("#")).collect(Collectors.toUnmodifiableSet());
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
