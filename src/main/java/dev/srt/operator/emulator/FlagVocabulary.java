package dev.srt.operator.emulator;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Every flag a real program's own parser declares, at the pinned versions: the resources
 * {@code flags/<program>.flags}, generated from the real programs (their argparse parsers,
 * aiperf's cyclopts app, the sidecar's clap {@code --help}) by the test resource
 * {@code real-programs/flags.py} and kept equal to them by {@code RealFlagVocabularyIT}. With it a
 * stand-in refuses what the real program refuses ({@link ArgParser#strict}), and accepts every
 * flag the real one accepts, whether it emulates it or not.
 *
 * <p>One option per line: its names (comma-separated, the first is the option's name), its
 * kind ({@code flag}, {@code value}, {@code optional} for argparse's {@code nargs='?'},
 * {@code list} for one or more values, {@code list0} for zero or more, {@code exit} for
 * {@code --help}/{@code --version}), then {@code key=value} attributes: {@code negative=} the
 * names that set it false, {@code type=int|float}, {@code choices=a|b}, {@code env=} (clap reads
 * the option from that variable), {@code metavar=} (clap's value name), and {@code required}.
 */
public record FlagVocabulary(String program, Dialect dialect, List<Option> options) {
  /** How the program's parser reads a command line and how it refuses one. */
  public enum Dialect {
    /** Python argparse, {@code parse_args}: prefixes, unknown flags exit 2 ("unrecognized arguments"). */
    ARGPARSE,
    /** argparse through {@code parse_known_args}, the leftovers refused by the program itself (dynamo.frontend: exit 1). */
    ARGPARSE_KNOWN,
    /** Rust clap: exact names, each option once, unknown flags exit 2 ("unexpected argument"). */
    CLAP,
    /** Python cyclopts (aiperf): exact names, each option once unless a list, every refusal exits 1. */
    CYCLOPTS
  }

  public enum Kind {
    FLAG, VALUE, OPTIONAL, LIST, LIST0, EXIT
  }

  /** One option as the real parser declares it. */
  public record Option(List<String> names, Kind kind, List<String> negatives, String type, List<String> choices,
      boolean required, String env, String metavar) {
    public String name() {
      return names.get(0);
    }
  }

  private static final Map<String, FlagVocabulary> LOADED = new ConcurrentHashMap<>();

  /** The vocabulary of {@code program} (the resource's name without {@code .flags}). */
  public static FlagVocabulary of(String program) {
    return LOADED.computeIfAbsent(program, p -> find(p).orElseThrow(() -> new IllegalStateException("no flags/" + p + ".flags")));
  }

  static Optional<FlagVocabulary> find(String program) {
    try (InputStream in = FlagVocabulary.class.getResourceAsStream("flags/" + program + ".flags")) {
      return in == null ? Optional.empty() : Optional.of(parse(program, new String(in.readAllBytes(), StandardCharsets.UTF_8)));
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** Reads the text of a {@code .flags} file. */
  public static FlagVocabulary parse(String program, String text) {
    Dialect dialect = null;
    List<Option> options = new ArrayList<>();
    for (String raw : text.split("\n")) {
      String line = raw.strip();
      if (line.startsWith("# dialect:")) {
        dialect = Dialect.valueOf(line.substring("# dialect:".length()).strip().toUpperCase().replace('-', '_'));
      }
      if (line.isEmpty() || line.startsWith("#")) {
        continue;
      }
      options.add(option(line));
    }
    if (dialect == null) {
      throw new IllegalArgumentException("flags/" + program + ".flags names no dialect");
    }
    return new FlagVocabulary(program, dialect, List.copyOf(options));
  }

  private static Option option(String line) {
    String[] words = line.split(" ");
    List<String> negatives = List.of();
    List<String> choices = List.of();
    String type = null;
    String env = null;
    String metavar = null;
    boolean required = false;
    for (int i = 2; i < words.length; i++) {
      String w = words[i];
      int eq = w.indexOf('=');
      String key = eq < 0 ? w : w.substring(0, eq);
      String value = eq < 0 ? "" : w.substring(eq + 1);
      switch (key) {
        case "negative" -> negatives = List.of(value.split(","));
        case "choices" -> choices = List.of(value.split("\\|"));
        case "type" -> type = value;
        case "env" -> env = value;
        case "metavar" -> metavar = value;
        case "required" -> required = true;
        default -> throw new IllegalArgumentException("unknown attribute " + w + " in: " + line);
      }
    }
    return new Option(Arrays.asList(words[0].split(",")), Kind.valueOf(words[1].toUpperCase()), negatives, type, choices,
        required, env, metavar);
  }
}
