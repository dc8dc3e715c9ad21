package dev.srt.operator.emulator;

import java.io.PrintStream;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Reads command lines the way the emulated Python and Rust programs do (argparse with
 * parse_known_args, clap): {@code --name value}, {@code --name=value}, unambiguous prefixes of a
 * known name, later occurrences win. Options the emulator does not use are skipped together with
 * their values, so a script written for the real program never fails here because of a flag the
 * emulator has no use for. None of the emulated programs takes positional arguments, which is
 * what makes "every following non-option word belongs to the unknown flag" safe; the build tools
 * that do take positionals use {@link #withPositionals()}.
 *
 * <p>{@link #strict(String)} parsers know every flag of the real program ({@link FlagVocabulary})
 * and refuse a command line exactly where the real parser does, with its kind of message and
 * exit status ({@link UsageError}): an unknown flag, an invalid choice or number, a missing value
 * or required option, an ambiguous prefix (argparse), a repeated option (clap, cyclopts). The
 * options a stand-in declares then only name what it reads; the real parser decides the rest.
 */
public final class ArgParser {
  public enum Kind {
    FLAG,
    VALUE,
    LIST
  }

  /**
   * A name's meaning: the key its values are stored under, how it reads values and, in strict
   * mode, the real option it is a name of ({@code negative}: a name that sets it false).
   */
  record Spec(String key, Kind kind, FlagVocabulary.Option option, boolean negative) {
    Spec(String key, Kind kind) {
      this(key, kind, null, false);
    }
  }

  /** A command line the real program refuses: its message, and the status the real program exits with. */
  public static final class UsageError extends IllegalArgumentException {
    private final int status;

    public UsageError(int status, String message) {
      super(message);
      this.status = status;
    }

    public int status() {
      return status;
    }
  }

  private final String program;
  private final Map<String, Spec> byName = new LinkedHashMap<>();
  private boolean positionals;
  private final FlagVocabulary vocabulary;
  /** Keys the stand-in declared (strict mode): the options it reads; the others are reported as ignored. */
  private final Set<String> declared = new LinkedHashSet<>();
  /** Names a stand-in declared that the real program does not have (strict mode): never accepted. */
  private final Set<String> notReal = new LinkedHashSet<>();

  public ArgParser(String program) {
    this.program = program;
    this.vocabulary = null;
  }

  private ArgParser(String program, FlagVocabulary vocabulary) {
    this.program = program;
    this.vocabulary = vocabulary;
    for (FlagVocabulary.Option o : vocabulary.options()) {
      Kind kind = switch (o.kind()) {
        case FLAG, EXIT -> Kind.FLAG;
        case VALUE, OPTIONAL -> Kind.VALUE;
        case LIST, LIST0 -> Kind.LIST;
      };
      for (String n : o.names()) {
        byName.put(n, new Spec(o.name(), kind, o, false));
      }
      for (String n : o.negatives()) {
        byName.put(n, new Spec(o.name(), kind, o, true));
      }
    }
  }

  /**
   * A parser that accepts exactly what the real {@code program} accepts, by its vocabulary
   * ({@code flags/<program>.flags}); the stand-in's {@link #value}/{@link #flag}/{@link #list}
   * declarations then name the options it reads (their first name is the key) and no longer add
   * names of their own: a name the real program lacks is refused as the real program refuses it.
   */
  public static ArgParser strict(String program) {
    return new ArgParser(program, FlagVocabulary.of(program));
  }

  /** Names a strict parser's stand-in declared that the real program does not have. */
  public Set<String> namesNotInTheRealProgram() {
    return Set.copyOf(notReal);
  }

  /**
   * For programs with positional arguments (git, pip, cargo): an unknown option is then taken as
   * a bare flag, so that the words after it stay positional.
   */
  public ArgParser withPositionals() {
    this.positionals = true;
    return this;
  }

  public ArgParser flag(String... names) {
    return add(Kind.FLAG, names);
  }

  public ArgParser value(String... names) {
    return add(Kind.VALUE, names);
  }

  public ArgParser list(String... names) {
    return add(Kind.LIST, names);
  }

  private ArgParser add(Kind kind, String... names) {
    if (vocabulary != null) {
      return declare(names);
    }
    Spec spec = new Spec(names[0], kind);
    for (String n : names) {
      byName.put(n, spec);
    }
    return this;
  }

  /** Strict mode: the real options named by {@code names} are read under the key {@code names[0]}. */
  private ArgParser declare(String... names) {
    String key = names[0];
    declared.add(key);
    for (String n : names) {
      Spec spec = byName.get(n);
      if (spec == null) {
        notReal.add(n);
        continue;
      }
      FlagVocabulary.Option o = spec.option();
      for (String alias : o.names()) {
        byName.put(alias, new Spec(key, byName.get(alias).kind(), o, false));
      }
      for (String alias : o.negatives()) {
        byName.put(alias, new Spec(key, byName.get(alias).kind(), o, true));
      }
    }
    return this;
  }

  /** As {@link #parse(List)}; a strict clap parser also reads (and checks) options from their environment variables. */
  public Parsed parse(List<String> argv, Map<String, String> env) {
    if (vocabulary == null) {
      return parse(argv);
    }
    StrictParse.Result r = new StrictParse(program, vocabulary, byName, positionals).parse(argv, env);
    Map<String, List<String>> values = new LinkedHashMap<>();
    List<String> ignored = new ArrayList<>();
    r.values().forEach((key, got) -> {
      if (declared.contains(key)) {
        values.put(key, got.values());
      } else {
        ignored.addAll(got.tokens());
      }
    });
    return new Parsed(values, ignored, r.positional());
  }

  public Parsed parse(List<String> argv) {
    if (vocabulary != null) {
      return parse(argv, Map.of());
    }
    Map<String, List<String>> values = new LinkedHashMap<>();
    List<String> ignored = new ArrayList<>();
    List<String> positional = new ArrayList<>();
    int i = 0;
    while (i < argv.size()) {
      String token = argv.get(i++);
      if (!isOption(token)) {
        (positionals ? positional : ignored).add(token);
        continue;
      }
      String name = token;
      String inline = null;
      int eq = token.indexOf('=');
      if (token.startsWith("--") && eq > 0) {
        name = token.substring(0, eq);
        inline = token.substring(eq + 1);
      }
      Spec spec = resolve(name);
      if (spec == null) {
        ignored.add(token);
        while (!positionals && inline == null && i < argv.size() && !isOption(argv.get(i))) {
          ignored.add(argv.get(i++));
        }
        continue;
      }
      List<String> got = new ArrayList<>();
      switch (spec.kind()) {
        case FLAG -> got.add(inline == null ? "true" : inline);
        case VALUE -> {
          if (inline != null) {
            got.add(inline);
          } else if (i < argv.size()) {
            got.add(argv.get(i++));
          } else {
            throw new IllegalArgumentException(program + ": argument " + name + ": expected one argument");
          }
        }
        case LIST -> {
          if (inline != null) {
            got.add(inline);
          }
          while (i < argv.size() && !isOption(argv.get(i))) {
            got.add(argv.get(i++));
          }
          if (got.isEmpty()) {
            throw new IllegalArgumentException(program + ": argument " + name + ": expected at least one argument");
          }
        }
      }
      values.put(spec.key(), got);
    }
    return new Parsed(values, ignored, positional);
  }

  private Spec resolve(String name) {
    Spec exact = byName.get(name);
    if (exact != null || !name.startsWith("--")) {
      return exact;
    }
    Set<Spec> candidates = new LinkedHashSet<>();
    byName.forEach((n, s) -> {
      if (n.startsWith(name)) {
        candidates.add(s);
      }
    });
    return candidates.size() == 1 ? candidates.iterator().next() : null;
  }

  /** argparse's rule: a word starting with '-' is an option unless it reads as a negative number. */
  static boolean isOption(String token) {
    if (token.length() < 2 || token.charAt(0) != '-') {
      return false;
    }
    try {
      Double.parseDouble(token);
      return false;
    } catch (NumberFormatException e) {
      return true;
    }
  }

  /** The result of one parse: the known options by their first name, and everything skipped. */
  public static final class Parsed {
    private final Map<String, List<String>> values;
    private final List<String> ignored;
    private final List<String> positional;

    Parsed(Map<String, List<String>> values, List<String> ignored, List<String> positional) {
      this.values = values;
      this.ignored = List.copyOf(ignored);
      this.positional = List.copyOf(positional);
    }

    /** Positional words, for parsers made {@link ArgParser#withPositionals()}. */
    public List<String> positional() {
      return positional;
    }

    public boolean has(String key) {
      return values.containsKey(key);
    }

    public String get(String key, String fallback) {
      List<String> v = values.get(key);
      return v == null ? fallback : v.get(v.size() - 1);
    }

    public String get(String key) {
      return get(key, null);
    }

    public int getInt(String key, int fallback) {
      String v = get(key);
      return v == null ? fallback : Integer.parseInt(v.trim());
    }

    public double getDouble(String key, double fallback) {
      String v = get(key);
      return v == null ? fallback : Double.parseDouble(v.trim());
    }

    public boolean flag(String key) {
      String v = get(key);
      return v != null && !v.equalsIgnoreCase("false");
    }

    public List<String> list(String key) {
      List<String> v = values.get(key);
      return v == null ? List.of() : List.copyOf(v);
    }

    /**
     * The skipped options with the words that followed each ({@code --mem-fraction-static 0.85} →
     * {@code mem-fraction-static: [0.85]}, a bare flag → no words), the last occurrence winning.
     */
    public Map<String, List<String>> ignoredOptions() {
      Map<String, List<String>> out = new LinkedHashMap<>();
      List<String> current = null;
      for (String token : ignored) {
        if (isOption(token)) {
          int eq = token.indexOf('=');
          String name = token.replaceFirst("^-+", "");
          current = new ArrayList<>();
          if (token.startsWith("--") && eq > 0) {
            name = token.substring(2, eq);
            current.add(token.substring(eq + 1));
          }
          out.remove(name);
          out.put(name, current);
        } else if (current != null) {
          current.add(token);
        }
      }
      return out;
    }

    /** What was skipped; the emulated programs log it once so a surprising flag is visible. */
    public List<String> ignored() {
      return ignored;
    }

    public void reportIgnored(String program, PrintStream err) {
      if (!ignored.isEmpty()) {
        err.println(program + " (emulated): not emulated, accepted and ignored: " + String.join(" ", ignored));
      }
    }
  }
}
