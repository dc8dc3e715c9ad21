package dev.srt.operator.emulator;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Command lines as Go's {@code flag} package reads them, for the Go programs the emulator stands in
 * for (etcd, nats-server): {@code -name value}, {@code --name value}, {@code -name=value}; boolean
 * flags take a value only after {@code =}; parsing stops at the first non-flag word or {@code --}.
 * Unlike the argparse programs, an unknown flag is an error ({@code flag provided but not defined:
 * -x}), which the real programs answer with their usage and exit status 2.
 */
public final class GoFlags {
  /** A parse error; the message is what Go's flag package prints. */
  public static final class Error extends IllegalArgumentException {
    private final boolean help;

    Error(String message, boolean help) {
      super(message);
      this.help = help;
    }

    /** {@code -h} or {@code -help}: the program prints its usage and exits 0. */
    public boolean help() {
      return help;
    }

    /**
     * What the Go programs do with a parse error: {@code -h} prints the usage and exits 0, anything
     * else prints the error and the usage on stderr and exits 2. Returns the exit status.
     */
    public int report(String usage, java.io.PrintStream out, java.io.PrintStream err) {
      if (help) {
        out.println(usage);
        return 0;
      }
      err.println(getMessage());
      err.println(usage);
      return 2;
    }
  }

  private record Spec(String key, boolean bool) {}

  private final Map<String, Spec> byName = new HashMap<>();

  /** Flags that take a value; the first name is the key the values are read under. */
  public GoFlags value(String... names) {
    return add(false, names);
  }

  /** Boolean flags. */
  public GoFlags bool(String... names) {
    return add(true, names);
  }

  private GoFlags add(boolean bool, String... names) {
    Spec s = new Spec(names[0], bool);
    for (String n : names) {
      byName.put(n, s);
    }
    return this;
  }

  public Parsed parse(List<String> argv) {
    Map<String, String> values = new HashMap<>();
    int i = 0;
    while (i < argv.size()) {
      String token = argv.get(i);
      if (token.length() < 2 || token.charAt(0) != '-') {
        break;
      }
      i++;
      if (token.equals("--")) {
        break;
      }
      String name = token.substring(token.startsWith("--") ? 2 : 1);
      String inline = null;
      int eq = name.indexOf('=');
      if (eq >= 0) {
        inline = name.substring(eq + 1);
        name = name.substring(0, eq);
      }
      if (name.isEmpty() || name.startsWith("-") || name.startsWith("=")) {
        throw new Error("bad flag syntax: " + token, false);
      }
      Spec spec = byName.get(name);
      if (spec == null) {
        if (name.equals("h") || name.equals("help")) {
          throw new Error("help requested", true);
        }
        throw new Error("flag provided but not defined: -" + name, false);
      }
      if (spec.bool()) {
        String v = inline == null ? "true" : inline;
        if (!v.matches("(?i)1|0|t|f|true|false")) {
          throw new Error("invalid boolean value \"" + v + "\" for -" + name + ": parse error", false);
        }
        values.put(spec.key(), v.matches("(?i)1|t|true") ? "true" : "false");
      } else if (inline != null) {
        values.put(spec.key(), inline);
      } else if (i < argv.size()) {
        values.put(spec.key(), argv.get(i++));
      } else {
        throw new Error("flag needs an argument: -" + name, false);
      }
    }
    return new Parsed(values, List.copyOf(argv.subList(i, argv.size())));
  }

  /** The flags given, by key, and the words after the last flag. */
  public record Parsed(Map<String, String> values, List<String> rest) {
    public String get(String key, String fallback) {
      return values.getOrDefault(key, fallback);
    }

    public boolean bool(String key) {
      return "true".equals(values.get(key));
    }

    public int getInt(String key, int fallback) {
      String v = values.get(key);
      if (v == null) {
        return fallback;
      }
      try {
        return Integer.parseInt(v.trim());
      } catch (NumberFormatException e) {
        throw new Error("invalid value \"" + v + "\" for flag -" + key + ": parse error", false);
      }
    }

    /** Comma-separated lists such as etcd's URL flags. */
    public List<String> list(String key, String fallback) {
      List<String> out = new ArrayList<>();
      for (String s : get(key, fallback).split(",")) {
        if (!s.isBlank()) {
          out.add(s.trim());
        }
      }
      return out;
    }
  }
}
