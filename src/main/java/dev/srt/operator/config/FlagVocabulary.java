package dev.srt.operator.config;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The real command-line flags of each program an arm runs (lists taken from the programs' sources,
 * one option per line with its aliases, in {@code flags/<program>.txt}), and how the program's
 * parser matches a flag to an option: argparse (and getopt) take any unambiguous prefix of a long
 * option ({@code --output-fil} is {@code --output-file}), clap and cyclopts only whole names. A user
 * flag is matched as its program will match it, so that neither an alias ({@code --model} for
 * {@code --model-path}) nor an abbreviation can set a flag srt-operator manages; a flag the program
 * does not have is an error (a newer version's flag needs a line in its list: docs/config-reference.md,
 * "Flag vocabularies").
 */
public final class FlagVocabulary {
  public static final String SGLANG_SERVER = "sglang-launch-server";
  public static final String SGL_ROUTER = "sgl-router";
  public static final String DYNAMO_FRONTEND = "dynamo-frontend";
  public static final String DYNAMO_SIDECAR = "dynamo-sglang-sidecar";
  public static final String BENCH_SERVING = "sglang-bench-serving";
  public static final String AIPERF = "aiperf-profile";

  /** How a program's parser reads a long option: the file's {@code # parser:} line. */
  public enum Parser {
    /** Python's argparse with allow_abbrev (its default): exact names, else an unambiguous prefix. */
    ARGPARSE(true),
    /** C getopt_long (sbatch, srun): the same. */
    GETOPT(true),
    /** Rust's clap without infer_long_args (its default): whole names only. */
    CLAP(false),
    /** Python's cyclopts: whole names only. */
    CYCLOPTS(false);

    final boolean abbreviations;

    Parser(boolean abbreviations) {
      this.abbreviations = abbreviations;
    }
  }

  /** A program's options: each name (with its {@code --}) and the primary name of its option (the line's first). */
  record Program(String name, Parser parser, boolean complete, Map<String, String> primary) {
    /** The options whose names start with {@code prefix}, by primary name (an option's aliases count once). */
    Set<String> startingWith(String prefix) {
      Set<String> out = new TreeSet<>();
      primary.forEach((n, p) -> {
        if (n.startsWith(prefix)) {
          out.add(p);
        }
      });
      return out;
    }
  }

  /** What a flag written by the user selects in its program. */
  public record Match(String option, Kind kind, Set<String> candidates) {
    public enum Kind {
      /** The option's own name or one of its aliases. */
      EXACT,
      /** An unambiguous prefix the parser expands. */
      ABBREVIATION,
      /** A prefix of several options: the parser refuses it. */
      AMBIGUOUS,
      /** No option of the program. */
      UNKNOWN
    }
  }

  /**
   * Loaded on first use, from {@code flags/<program>.txt}: a router kind names its program's list
   * in its own class, so that adding one needs no entry here.
   */
  private static final Map<String, Program> LISTS = new ConcurrentHashMap<>();

  private FlagVocabulary() {}

  /** Whether {@code flag} (with its leading --) is an option (or an alias of one) of {@code program}. */
  public static boolean knows(String program, String flag) {
    return program(program).primary().containsKey(flag);
  }

  /** Every option name and alias of {@code program}, with their leading --. */
  public static Set<String> flags(String program) {
    return program(program).primary().keySet();
  }

  public static Parser parser(String program) {
    return program(program).parser();
  }

  /**
   * Whether the list is every option of the program ({@code # complete: no} says otherwise: an
   * option outside it is passed as given, e.g. a Slurm site's SPANK plugin options).
   */
  public static boolean complete(String program) {
    return program(program).complete();
  }

  /** What {@code flag} (with its --, as the program gets it) selects in {@code program}. */
  public static Match match(String program, String flag) {
    Program p = program(program);
    String exact = p.primary().get(flag);
    if (exact != null) {
      return new Match(exact, Match.Kind.EXACT, Set.of(exact));
    }
    if (!p.parser().abbreviations) {
      return new Match(null, Match.Kind.UNKNOWN, Set.of());
    }
    Set<String> candidates = p.startingWith(flag);
    return switch (candidates.size()) {
      case 0 -> new Match(null, Match.Kind.UNKNOWN, Set.of());
      case 1 -> new Match(candidates.iterator().next(), Match.Kind.ABBREVIATION, candidates);
      default -> new Match(null, Match.Kind.AMBIGUOUS, candidates);
    };
  }

  /** The option (its primary name, without --) a flag map's {@code key} selects, or null when none. */
  public static String option(String program, String key) {
    Match m = match(program, "--" + key.replace('_', '-'));
    return m.option() == null ? null : m.option().substring(2);
  }

  /**
   * The problems of a flag map (keys without --, '_' read as '-'): a flag the program does not
   * have or cannot tell from another, and a flag srt-operator sets itself ({@code managed}, by any
   * name, alias or abbreviation of it), which {@code who} names in the message.
   */
  public static void check(List<Problem> out, String program, String path, Map<String, Object> args, Set<String> managed, String who) {
    if (args == null) {
      return;
    }
    for (String key : args.keySet()) {
      if (!Rules.FLAG_NAME.matcher(key).matches()) {
        continue; // not a flag name at all (Rules.flags)
      }
      problem(program, "--" + key.replace('_', '-'), managed, who).ifPresent(p -> out.add(p.at(FieldPath.field(path, key))));
    }
  }

  /** As {@link #check} for a raw argument list: its options are the words that start with --. */
  public static void checkArgs(List<Problem> out, String program, String path, List<String> args, Set<String> managed, String who) {
    if (args == null) {
      return;
    }
    for (int i = 0; i < args.size(); i++) {
      String a = args.get(i);
      if (a != null && a.startsWith("--") && !a.equals("--")) {
        String flag = a.contains("=") ? a.substring(0, a.indexOf('=')) : a;
        String at = FieldPath.index(path, i);
        problem(program, flag, managed, who).ifPresent(p -> out.add(p.at(at)));
      }
    }
  }

  /** A problem without its path yet. */
  private record Unplaced(boolean error, String message) {
    Problem at(String path) {
      return error ? Problem.error(path, message) : Problem.warning(path, message);
    }
  }

  private static Optional<Unplaced> problem(String program, String flag, Set<String> managed, String who) {
    Match m = match(program, flag);
    Parser parser = parser(program);
    String shown = Echo.value(flag);
    switch (m.kind()) {
      case UNKNOWN -> {
        if (!complete(program)) {
          return Optional.empty();
        }
        return Optional.of(new Unplaced(true, shown + " is not a flag of " + program + ": check the spelling; a flag of "
            + "another version of the program needs a line in srt-operator's flag vocabulary (docs/config-reference.md, "
            + "\"Flag vocabularies\")"));
      }
      case AMBIGUOUS -> {
        return Optional.of(new Unplaced(true, shown + " is a prefix of several flags of " + program + " ("
            + listed(m.candidates()) + "), which " + parser.name().toLowerCase(Locale.ROOT) + " refuses: write the flag in full"));
      }
      default -> { }
    }
    String primary = m.option();
    Set<String> managedOptions = managedOptions(program, managed);
    if (managedOptions.contains(primary)) {
      String how = m.kind() == Match.Kind.ABBREVIATION ? " abbreviates " + primary + " (" + parser.name().toLowerCase(Locale.ROOT)
          + " takes an unambiguous prefix)," : !flag.equals(primary) ? " is " + primary + " (another name of it)," : "";
      return Optional.of(new Unplaced(true, shown + how + " is set by srt-operator " + who + " ("
          + listed(managedOptions) + (managedOptions.size() == 1 ? " is" : " are") + " managed)"));
    }
    if (m.kind() == Match.Kind.ABBREVIATION) {
      return Optional.of(new Unplaced(false, shown + " abbreviates " + primary + " of " + program
          + ": write it in full (another version may add a flag that makes the prefix ambiguous)"));
    }
    return Optional.empty();
  }

  /** The primary names (with --) of the managed flags of {@code program}. */
  private static Set<String> managedOptions(String program, Set<String> managed) {
    Set<String> out = new TreeSet<>();
    for (String m : managed) {
      String p = program(program).primary().get("--" + m);
      out.add(p != null ? p : "--" + m);
    }
    return out;
  }

  private static String listed(Set<String> flags) {
    List<String> all = new ArrayList<>(flags);
    return all.size() <= 6 ? String.join(", ", all) : String.join(", ", all.subList(0, 6)) + ", ...";
  }

  private static Program program(String name) {
    return LISTS.computeIfAbsent(name, FlagVocabulary::load);
  }

  private static Program load(String name) {
    try (InputStream in = FlagVocabulary.class.getResourceAsStream("flags/" + name + ".txt")) {
      if (in == null) {
        throw new IllegalArgumentException("no flag list for " + name);
      }
      Parser parser = null;
      boolean complete = true;
      Map<String, String> primary = new HashMap<>();
      for (String line : new String(in.readAllBytes(), StandardCharsets.UTF_8).split("\n")) {
        if (line.startsWith("# parser:")) {
          parser = Parser.valueOf(line.substring("# parser:".length()).trim().split("\\s+")[0].toUpperCase(Locale.ROOT));
        } else if (line.startsWith("# complete:")) {
          complete = !line.substring("# complete:".length()).trim().startsWith("no");
        } else if (line.startsWith("--")) {
          Set<String> names = new LinkedHashSet<>();
          for (String word : line.trim().split("\\s+")) {
            if (word.startsWith("--")) {
              names.add(word);
            }
          }
          String first = names.iterator().next();
          names.forEach(n -> primary.put(n, first));
        }
      }
      if (parser == null) {
        throw new IllegalStateException("flags/" + name + ".txt has no '# parser:' line");
      }
      return new Program(name, parser, complete, Map.copyOf(primary));
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
