package dev.srt.operator.emulator;

import dev.srt.operator.emulator.ArgParser.Spec;
import dev.srt.operator.emulator.ArgParser.UsageError;
import dev.srt.operator.emulator.FlagVocabulary.Dialect;
import dev.srt.operator.emulator.FlagVocabulary.Kind;
import dev.srt.operator.emulator.FlagVocabulary.Option;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * One strict parse ({@link ArgParser#strict}): reads a command line as the real program's parser
 * does and throws {@link UsageError} where that parser refuses it, with its message and status.
 * The rules per dialect are those of Python 3.11's argparse (the pinned environment's), clap 4 and
 * cyclopts 4 as observed on the pinned programs (RealFlagsIT's tables run each refusal against
 * the real program and the stand-in).
 */
final class StrictParse {
  /** What one option got: its values (last occurrence, or accumulated for cyclopts lists) and the tokens that gave them. */
  record Got(List<String> values, List<String> tokens) {}

  record Result(Map<String, Got> values, List<String> positional) {}

  private final String program;
  private final FlagVocabulary vocabulary;
  private final Map<String, Spec> byName;
  private final boolean positionals;
  private final Dialect dialect;

  StrictParse(String program, FlagVocabulary vocabulary, Map<String, Spec> byName, boolean positionals) {
    this.program = program;
    this.vocabulary = vocabulary;
    this.byName = byName;
    this.positionals = positionals;
    this.dialect = vocabulary.dialect();
  }

  Result parse(List<String> argv, Map<String, String> env) {
    Map<String, Got> values = new LinkedHashMap<>();
    Set<Option> seen = new HashSet<>();
    List<String> unknown = new ArrayList<>();
    List<String> positional = new ArrayList<>();
    int i = 0;
    while (i < argv.size()) {
      String token = argv.get(i++);
      if (!ArgParser.isOption(token)) {
        if (positionals && dialect != Dialect.CLAP) {
          positional.add(token);
        } else if (dialect == Dialect.CLAP) {
          throw new UsageError(2, "unexpected argument '" + token + "' found");
        } else {
          unknown.add(token);
        }
        continue;
      }
      String name = token;
      String inline = null;
      int eq = token.indexOf('=');
      if (token.startsWith("--") && eq > 0) {
        name = token.substring(0, eq);
        inline = token.substring(eq + 1);
      }
      Spec spec = resolve(token, name);
      if (spec == null) {
        if (dialect == Dialect.CLAP) {
          throw new UsageError(2, "unexpected argument '" + name + "' found");
        }
        if (dialect == Dialect.CYCLOPTS) {
          throw new UsageError(1, "Unknown option: " + name + ".");
        }
        unknown.add(token);
        continue;
      }
      Option o = spec.option();
      if (!seen.add(o) && o.kind() != Kind.LIST && o.kind() != Kind.LIST0) {
        if (dialect == Dialect.CLAP) {
          throw new UsageError(2, "the argument '" + display(o) + "' cannot be used multiple times");
        }
        if (dialect == Dialect.CYCLOPTS) {
          throw new UsageError(1, "Parameter " + o.name() + " specified multiple times.");
        }
      }
      List<String> tokens = new ArrayList<>(List.of(token));
      List<String> got = new ArrayList<>();
      switch (o.kind()) {
        case FLAG, EXIT -> got.add(flagValue(o, spec, name, inline));
        case VALUE -> {
          if (inline != null) {
            got.add(inline);
          } else if (i < argv.size() && !ArgParser.isOption(argv.get(i))) {
            got.add(argv.get(i));
            tokens.add(argv.get(i++));
          } else {
            throw missingValue(o, name);
          }
        }
        case OPTIONAL -> {
          if (inline != null) {
            got.add(inline);
          } else if (i < argv.size() && !ArgParser.isOption(argv.get(i))) {
            got.add(argv.get(i));
            tokens.add(argv.get(i++));
          }
        }
        case LIST, LIST0 -> {
          if (inline != null) {
            got.add(inline);
          }
          while (i < argv.size() && !ArgParser.isOption(argv.get(i))) {
            got.add(argv.get(i));
            tokens.add(argv.get(i++));
          }
          if (got.isEmpty() && o.kind() == Kind.LIST) {
            throw dialect == Dialect.CYCLOPTS ? missingValue(o, name)
                : new UsageError(2, "argument " + names(o) + ": expected at least one argument");
          }
        }
      }
      for (String v : got) {
        check(o, v);
      }
      Got before = values.get(spec.key());
      if (dialect == Dialect.CYCLOPTS && before != null && (o.kind() == Kind.LIST || o.kind() == Kind.LIST0)) {
        got.addAll(0, before.values());
        tokens.addAll(0, before.tokens());
      }
      values.remove(spec.key());
      values.put(spec.key(), new Got(got, tokens));
    }
    for (Option o : vocabulary.options()) {
      if (dialect == Dialect.CLAP && !seen.contains(o) && o.env() != null && env.containsKey(o.env())) {
        check(o, env.get(o.env()));
      }
      if (o.required() && !seen.contains(o) && (o.env() == null || !env.containsKey(o.env()))) {
        throw dialect == Dialect.CLAP
            ? new UsageError(2, "the following required arguments were not provided:\n  " + display(o))
            : new UsageError(2, "the following arguments are required: " + names(o));
      }
    }
    if (!unknown.isEmpty()) {
      throw dialect == Dialect.ARGPARSE_KNOWN
          ? new UsageError(1, "Unknown arguments specified: "
              + unknown.stream().map(t -> "'" + t + "'").collect(Collectors.joining(", ", "[", "]")))
          : new UsageError(2, "unrecognized arguments: " + String.join(" ", unknown));
    }
    return new Result(values, positional);
  }

  /** argparse matches unambiguous prefixes of long options (Python 3.11: ambiguous per option string); clap and cyclopts exact names only. */
  private Spec resolve(String token, String name) {
    Spec exact = byName.get(name);
    boolean argparse = dialect == Dialect.ARGPARSE || dialect == Dialect.ARGPARSE_KNOWN;
    if (exact != null || !argparse || !name.startsWith("--")) {
      return exact;
    }
    List<String> matches = byName.keySet().stream().filter(n -> n.startsWith(name)).toList();
    if (matches.size() > 1) {
      throw new UsageError(2, "ambiguous option: " + token + " could match " + String.join(", ", matches));
    }
    return matches.isEmpty() ? null : byName.get(matches.get(0));
  }

  private String flagValue(Option o, Spec spec, String name, String inline) {
    if (inline == null) {
      return spec.negative() ? "false" : "true";
    }
    switch (dialect) {
      case CLAP -> throw new UsageError(2, "unexpected value '" + inline + "' for '" + name + "' found; no more were expected");
      case CYCLOPTS -> {
        String v = inline.toLowerCase(Locale.ROOT);
        if (Set.of("true", "yes", "y", "1", "on", "t").contains(v)) {
          return spec.negative() ? "false" : "true";
        }
        if (Set.of("false", "no", "n", "0", "off", "f").contains(v)) {
          return spec.negative() ? "true" : "false";
        }
        throw new UsageError(1, "Invalid value for " + o.name() + ": unable to convert \"" + inline + "\" into bool.");
      }
      default -> throw new UsageError(2, "argument " + names(o) + ": ignored explicit argument '" + inline + "'");
    }
  }

  private UsageError missingValue(Option o, String name) {
    return switch (dialect) {
      case CLAP -> new UsageError(2, "a value is required for '" + display(o) + "' but none was supplied");
      case CYCLOPTS -> new UsageError(1, "Command \"" + program + "\" parameter " + o.name() + " requires an argument.");
      default -> new UsageError(2, "argument " + names(o) + ": expected one argument");
    };
  }

  /** A value against the option's choices and type, refused with the real parser's words. */
  private void check(Option o, String value) {
    if (!o.choices().isEmpty() && !allowed(o, value)) {
      throw switch (dialect) {
        case CLAP -> new UsageError(2, "invalid value '" + value + "' for '" + display(o) + "'\n  [possible values: "
            + String.join(", ", o.choices()) + "]");
        case CYCLOPTS -> new UsageError(1, "Invalid value for " + o.name() + ": input should be "
            + o.choices().stream().map(c -> "'" + c + "'").collect(Collectors.joining(", ")) + ", got '" + value + "'.");
        default -> new UsageError(2, "argument " + names(o) + ": invalid choice: '" + value + "' (choose from "
            + o.choices().stream().map(c -> "'" + c + "'").collect(Collectors.joining(", ")) + ")");
      };
    }
    if (o.type() != null && !PythonNumbers.parses(o.type(), value)) {
      throw new UsageError(2, "argument " + names(o) + ": invalid " + o.type() + " value: '" + value + "'");
    }
  }

  /** cyclopts compares enum values without case (aiperf's enums are case-insensitive). */
  private boolean allowed(Option o, String value) {
    return dialect == Dialect.CYCLOPTS ? o.choices().stream().anyMatch(c -> c.equalsIgnoreCase(value)) : o.choices().contains(value);
  }

  /** argparse names an option by all its strings: {@code argument -m/--model}. */
  private static String names(Option o) {
    return String.join("/", o.names());
  }

  /** clap names an option with its value name: {@code --grpc-endpoint <GRPC_ENDPOINT>}. */
  private static String display(Option o) {
    return o.metavar() == null ? o.name() : o.name() + " <" + o.metavar() + ">";
  }

  /** What Python's int() and float() accept, for argparse's {@code type=int|float}. */
  static final class PythonNumbers {
    private PythonNumbers() {}

    static boolean parses(String type, String text) {
      String t = text.strip().replace("_", "");
      if (t.isEmpty() || text.contains("__") || text.strip().startsWith("_") || text.strip().endsWith("_")) {
        return false;
      }
      try {
        if (type.equals("int")) {
          new java.math.BigInteger(t.startsWith("+") ? t.substring(1) : t);
          return true;
        }
        String lower = t.toLowerCase(Locale.ROOT).replaceFirst("^[+-]", "");
        if (Set.of("inf", "infinity", "nan").contains(lower)) {
          return true;
        }
        if (!lower.matches("[0-9.e+-]+")) {
          return false;
        }
        Double.parseDouble(t);
        return true;
      } catch (NumberFormatException e) {
        return false;
      }
    }
  }
}
