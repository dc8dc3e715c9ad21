package dev.srt.operator.config;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The real command-line flags of each program an arm runs (lists taken from the programs' sources,
 * one option per line with its aliases). A user flag outside the list is probably a typo or a flag
 * of another version: {@code validate} warns, and the value is still passed through.
 */
public final class FlagVocabulary {
  public static final String SGLANG_SERVER = "sglang-launch-server";
  public static final String SGL_ROUTER = "sgl-router";
  public static final String DYNAMO_FRONTEND = "dynamo-frontend";
  public static final String DYNAMO_SIDECAR = "dynamo-sglang-sidecar";
  public static final String BENCH_SERVING = "sglang-bench-serving";
  public static final String AIPERF = "aiperf-profile";

  /**
   * Loaded on first use, from {@code flags/<program>.txt}: a router kind names its program's list
   * in its own class, so that adding one needs no entry here.
   */
  private static final Map<String, Set<String>> LISTS = new java.util.concurrent.ConcurrentHashMap<>();

  private FlagVocabulary() {}

  /** Whether {@code flag} (with its leading --) is an option of {@code program}. */
  public static boolean knows(String program, String flag) {
    return flags(program).contains(flag);
  }

  public static Set<String> flags(String program) {
    return LISTS.computeIfAbsent(program, FlagVocabulary::load);
  }

  /** Warnings for user flags (keys without --) the program does not have. */
  public static List<Problem> check(String program, String path, Map<String, Object> args) {
    if (args == null) {
      return List.of();
    }
    return args.keySet().stream()
        .filter(k -> !knows(program, "--" + k.replace('_', '-')))
        .map(k -> Problem.warning(FieldPath.field(path, k), "--" + Echo.value(k.replace('_', '-')) + " is not a known flag of " + program
            + " (passed through as given; check the spelling and the version you run)"))
        .toList();
  }

  /** Warnings for the options (words starting with --) of a raw argument list. */
  public static List<Problem> checkArgs(String program, String path, List<String> args) {
    if (args == null) {
      return List.of();
    }
    List<Problem> out = new java.util.ArrayList<>();
    for (int i = 0; i < args.size(); i++) {
      String a = args.get(i);
      if (a != null && a.startsWith("--") && !knows(program, a.contains("=") ? a.substring(0, a.indexOf('=')) : a)) {
        out.add(Problem.warning(path + "[" + i + "]", Echo.value(a) + " is not a known flag of " + program
            + " (passed through as given; check the spelling and the version you run)"));
      }
    }
    return out;
  }

  private static Set<String> load(String name) {
    try (InputStream in = FlagVocabulary.class.getResourceAsStream("flags/" + name + ".txt")) {
      if (in == null) {
        throw new IllegalArgumentException("no flag list for " + name);
      }
      Set<String> flags = new HashSet<>();
      for (String line : new String(in.readAllBytes(), StandardCharsets.UTF_8).split("\n")) {
        if (line.startsWith("--")) {
          for (String word : line.trim().split("\\s+")) {
            if (word.startsWith("--")) {
              flags.add(word);
            }
          }
        }
      }
      return Set.copyOf(flags);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
