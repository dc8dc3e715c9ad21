package dev.srt.operator.realprograms;

import dev.srt.operator.api.GpuCluster;
import dev.srt.operator.api.RouterComparison;
import dev.srt.operator.config.LoadedResources;
import dev.srt.operator.config.Problem;
import dev.srt.operator.config.Validator;
import dev.srt.operator.importer.RecipeImport;
import dev.srt.operator.plan.Examples;
import dev.srt.operator.plan.Planner;
import dev.srt.operator.plan.ProcessSpec;
import dev.srt.operator.plan.RunPlan;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

/**
 * Every command line the renderer emits for a program, across the examples: each comparison of
 * {@code examples/*.yaml} and each srtctl recipe set of {@code examples/srtctl/*} (imported in
 * process, as {@code srt-operator import} does), every arm, on each example cluster (Slurm and
 * direct) that accepts it. The argv comes from the plan's processes, never from a script; a
 * custom benchmark command ({@code bash -c "aiperf profile ..."}) is split into words by bash
 * itself, with the process's environment, as the run does.
 */
public final class EmittedCommandLines {
  /** One emitted command line: the program's own arguments (after {@code python3 -m X}), with the process's environment. */
  public record CommandLine(String source, String program, List<String> args, Map<String, String> env) {
    @Override
    public String toString() {
      return source + ": " + program + " " + String.join(" ", args);
    }
  }

  private EmittedCommandLines() {}

  /** The emitted command lines of {@code program} (python's module name, or {@code aiperf}), without duplicates. */
  public static List<CommandLine> of(String program) {
    Map<List<Object>, CommandLine> unique = new LinkedHashMap<>();
    for (CommandLine c : all()) {
      if (c.program().equals(program)) {
        unique.putIfAbsent(List.of(c.args(), c.env()), c);
      }
    }
    return List.copyOf(unique.values());
  }

  public static List<CommandLine> all() {
    List<CommandLine> out = new ArrayList<>();
    List<GpuCluster> clusters = List.of(Examples.cluster(Examples.SLURM_CLUSTER), Examples.cluster(Examples.DIRECT_CLUSTER));
    for (Path example : yamlFiles(Path.of("examples"))) {
      for (RouterComparison rc : Examples.load(example).comparisons()) {
        plans(example.toString(), rc, clusters, out);
      }
    }
    for (Path recipes : directories(Path.of("examples/srtctl"))) {
      RecipeImport.Result imported = RecipeImport.run(yamlFiles(recipes), null, Map.of(), false, null);
      if (imported.refused()) {
        throw new AssertionError("the recipes of " + recipes + " do not import: " + imported.problems());
      }
      LoadedResources loaded = LoadedResources.parse(recipes + " (imported)", imported.comparisonYaml());
      for (RouterComparison rc : loaded.comparisons()) {
        plans(recipes + " (imported)", rc, clusters, out);
      }
    }
    return out;
  }

  private static void plans(String source, RouterComparison rc, List<GpuCluster> clusters, List<CommandLine> out) {
    for (GpuCluster cluster : clusters) {
      if (Validator.validate(rc, cluster).stream().anyMatch(Problem::isError)) {
        continue;
      }
      for (var arm : rc.getSpec().arms) {
        RunPlan plan = Planner.plan(rc, cluster, arm.name, null);
        for (ProcessSpec p : plan.processes()) {
          CommandLine c = commandLine(source + " " + arm.name + " (" + plan.mode().id() + ") " + p.name(), p);
          if (c != null) {
            out.add(c);
          }
        }
      }
    }
  }

  private static CommandLine commandLine(String source, ProcessSpec p) {
    List<String> argv = p.argv();
    if (argv.size() >= 3 && argv.get(0).startsWith("python") && argv.get(1).equals("-m")) {
      return new CommandLine(source, argv.get(2), argv.subList(3, argv.size()), p.env());
    }
    if (argv.get(0).equals("aiperf")) {
      return new CommandLine(source, "aiperf", argv.subList(1, argv.size()), p.env());
    }
    if (argv.size() == 3 && argv.get(0).equals("bash") && argv.get(1).equals("-c") && argv.get(2).startsWith("aiperf ")) {
      return new CommandLine(source, "aiperf", wordsOf(argv.get(2), p.env()), p.env());
    }
    return null;
  }

  /** The arguments bash gives {@code aiperf} in a custom benchmark command, with the process's environment. */
  private static List<String> wordsOf(String command, Map<String, String> env) {
    try {
      ProcessBuilder pb = new ProcessBuilder("bash", "-c", "aiperf() { printf '%s\\0' \"$@\"; }\n" + command);
      pb.environment().putAll(env);
      pb.redirectError(ProcessBuilder.Redirect.DISCARD);
      Process bash = pb.start();
      byte[] words = bash.getInputStream().readAllBytes();
      if (!bash.waitFor(30, TimeUnit.SECONDS) || bash.exitValue() != 0) {
        throw new AssertionError("bash could not expand " + command);
      }
      String text = new String(words, StandardCharsets.UTF_8);
      return text.isEmpty() ? List.of() : List.of(text.substring(0, text.length() - 1).split("\0", -1));
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new AssertionError(e);
    }
  }

  private static List<Path> yamlFiles(Path dir) {
    try (Stream<Path> files = Files.list(dir)) {
      return files.filter(f -> f.toString().endsWith(".yaml")).sorted().toList();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  private static List<Path> directories(Path dir) {
    try (Stream<Path> files = Files.list(dir)) {
      return files.filter(Files::isDirectory).sorted().toList();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
