package dev.srt.operator.emulator;

import static org.assertj.core.api.Assertions.assertThat;

import dev.srt.operator.api.Mode;
import dev.srt.operator.cli.EmulateCommand;
import dev.srt.operator.config.FrontendRules;
import dev.srt.operator.plan.ProcessSpec;
import dev.srt.operator.plan.Role;
import dev.srt.operator.plan.RunPlan;
import dev.srt.operator.render.GoldenScriptsTest;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/**
 * A router kind registered without an emulator program fails here: the router command of each
 * kind's golden plan reaches, through the emulated host's shims, a program {@code emulate} has,
 * so that every kind runs end to end on the emulated host.
 */
class EmulatedRouterKindsTest {
  @TempDir Path tmp;

  @Test
  void everyRegisteredRouterKindsCommandReachesAnEmulatedProgram() throws Exception {
    Set<String> programs = new CommandLine(new EmulateCommand()).getSubcommands().keySet();
    Set<String> shims = new java.util.TreeSet<>();
    new ShimInstaller(new JavaLauncher(Path.of("java"), Path.of("srt-operator.jar")), tmp.resolve("state"), null, null)
        .install(tmp.resolve("bin")).forEach(p -> shims.add(p.getFileName().toString()));

    Map<String, String> programByKind = new TreeMap<>();
    for (GoldenScriptsTest.Golden g : GoldenScriptsTest.goldens()) {
      if (g.mode() != Mode.DIRECT) {
        continue;
      }
      RunPlan plan = g.plan().call();
      ProcessSpec router = plan.processes().stream().filter(p -> p.role() == Role.ROUTER).findFirst().orElseThrow();
      programByKind.put(plan.frontend(), emulatedProgram(router.argv(), shims));
    }
    assertThat(programByKind.keySet()).containsAll(FrontendRules.all().keySet());
    programByKind.forEach((kind, program) -> assertThat(programs).as(kind + " runs " + program).contains(program));
  }

  /** The {@code emulate} program a command reaches: a Python module the python shim routes, or a binary named like a shim. */
  private static String emulatedProgram(List<String> argv, Set<String> shims) {
    List<String> command = argv.stream().dropWhile(w -> w.equals("env") || w.contains("=")).toList();
    String program = Path.of(command.get(0)).getFileName().toString();
    if (program.startsWith("python") && command.size() > 2 && command.get(1).equals("-m")) {
      return ShimInstaller.PYTHON_MODULES.getOrDefault(command.get(2), "no emulated module " + command.get(2));
    }
    return shims.contains(program) ? program : "no shim for " + program;
  }
}
