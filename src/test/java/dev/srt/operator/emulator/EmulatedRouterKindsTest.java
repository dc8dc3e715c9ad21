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
    Set<String> programs = new java.util.TreeSet<>(new CommandLine(new EmulateCommand()).getSubcommands().keySet());
    EmulatedRouters.ALL.forEach(r -> programs.add("router " + r.kind()));
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

  @Test
  void theEmulatorsRouterTableHasEachRegisteredKindAndTheProgramItDeclares() {
    assertThat(EmulatedRouters.ALL).extracting(EmulatedRouters.Router::kind).containsExactlyInAnyOrderElementsOf(FrontendRules.all().keySet());
    for (EmulatedRouters.Router r : EmulatedRouters.ALL) {
      FrontendRules.RouterProgram declared = FrontendRules.all().get(r.kind()).routerProgram();
      assertThat(new FrontendRules.RouterProgram(r.program(), r.pythonModule())).as(r.kind()).isEqualTo(declared);
    }
  }

  @Test
  void eachRouterIsReachedThroughTheShimsAsItsKindDeclares() throws Exception {
    Set<String> shims = new java.util.TreeSet<>();
    new ShimInstaller(new JavaLauncher(Path.of("java"), Path.of("srt-operator.jar")), tmp.resolve("state"), null, null)
        .install(tmp.resolve("bin")).forEach(p -> shims.add(p.getFileName().toString()));
    for (FrontendRules kind : FrontendRules.all().values()) {
      FrontendRules.RouterProgram program = kind.routerProgram();
      if (program.pythonModule()) {
        assertThat(ShimInstaller.PYTHON_MODULES).as(kind.type()).containsEntry(program.name(), "router " + kind.type());
      } else {
        assertThat(shims).as(kind.type()).contains(program.name());
        assertThat(tmp.resolve("bin").resolve(program.name())).content().contains("emulate router " + kind.type() + " \"$@\"");
      }
    }
  }

  /** The {@code emulate} program a command reaches: a Python module the python shim routes, or a binary named like a shim. */
  private String emulatedProgram(List<String> argv, Set<String> shims) {
    Path bin = tmp.resolve("bin");
    List<String> command = argv.stream().dropWhile(w -> w.equals("env") || w.contains("=")).toList();
    String program = Path.of(command.get(0)).getFileName().toString();
    if (program.startsWith("python") && command.size() > 2 && command.get(1).equals("-m")) {
      return ShimInstaller.PYTHON_MODULES.getOrDefault(command.get(2), "no emulated module " + command.get(2));
    }
    if (!shims.contains(program)) {
      return "no shim for " + program;
    }
    try {
      // The shim of a binary ends in: exec java ... -jar srt-operator.jar emulate <program> "$@"
      var m = java.util.regex.Pattern.compile(" emulate ([a-z][a-z -]*?) \"\\$@\"").matcher(java.nio.file.Files.readString(bin.resolve(program)));
      return m.find() ? m.group(1) : "the shim " + program + " runs no emulate program";
    } catch (java.io.IOException e) {
      throw new java.io.UncheckedIOException(e);
    }
  }
}
