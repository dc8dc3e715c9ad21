package dev.srt.operator.realprograms;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assumptions.assumeThat;

import dev.srt.operator.emulator.AiPerf;
import dev.srt.operator.emulator.DynamoFrontend;
import dev.srt.operator.emulator.DynamoSidecar;
import dev.srt.operator.emulator.FakeCheckouts;
import dev.srt.operator.emulator.SglModelGateway;
import dev.srt.operator.realprograms.EmittedCommandLines.CommandLine;
import dev.srt.operator.realprograms.RealParsers.Verdict;
import dev.srt.operator.testinfra.RealProgramsEnv;
import java.io.IOException;
import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue 39 item 5: every command line the renderer emits for a real program, across the
 * examples, gets through that program's own argument parser at the pinned versions, and so does
 * its stand-in; and what the real program refuses (a policy it does not have, a flag of another
 * program, a missing value or required option) its stand-in refuses too, with the same status.
 *
 * <p>Only values that must exist on the host are rewritten (never a flag): the trace AIPerf
 * replays and the policy YAML the Dynamo frontend reads become files of this test's, and the
 * sidecar's engine endpoint a free port.
 */
class RealFlagsIT {
  private static final PrintStream QUIET = new PrintStream(OutputStream.nullOutputStream());

  @TempDir Path dir;

  @BeforeEach
  void environment() {
    RealProgramsEnv.require();
  }

  // --- the emitted command lines -----------------------------------------------------------

  @Test
  void theModelGatewayAcceptsEveryEmittedCommandLine() {
    List<CommandLine> lines = EmittedCommandLines.of("sglang_router.launch_router");
    assertAccepted("sglang_router.launch_router", lines, realVerdicts("sglang_router.launch_router", lines));
    lines.forEach(c -> SglModelGateway.Options.parse(c.args(), QUIET));
  }

  @Test
  void theDynamoFrontendAcceptsEveryEmittedCommandLine() throws IOException {
    List<CommandLine> lines = withHostFiles(EmittedCommandLines.of("dynamo.frontend"));
    assertAccepted("dynamo.frontend", lines, realVerdicts("dynamo.frontend", lines));
    lines.forEach(c -> DynamoFrontend.Options.parse(c.args(), c.env(), QUIET));
  }

  @Test
  void aiperfAcceptsEveryEmittedCommandLine() throws IOException {
    List<CommandLine> lines = withHostFiles(EmittedCommandLines.of("aiperf"));
    assertAccepted("aiperf", lines, realVerdicts("aiperf", lines));
    lines.forEach(c -> AiPerf.Options.parse(c.args(), c.env(), QUIET));
  }

  @Test
  void theSidecarAcceptsEveryEmittedCommandLine() {
    // Workers differ only in their engine's port: one dry start per distinct command line without it.
    List<CommandLine> lines = EmittedCommandLines.of("dynamo.sglang.sidecar").stream()
        .map(c -> new CommandLine("", c.program(), c.args().stream().map(a -> a.replaceFirst("^127\\.0\\.0\\.1:[0-9]+$", "127.0.0.1:0")).toList(),
            sidecarEnv(c.env())))
        .distinct().map(RealFlagsIT::onAFreePort).toList();
    List<Verdict> verdicts = lines.stream().map(c -> RealParsers.dryStartSidecar(c.args(), c.env(), dir)).toList();
    assertAccepted("dynamo.sglang.sidecar", lines, verdicts);
    lines.forEach(c -> DynamoSidecar.Options.parse(c.args(), c.env(), QUIET));
  }

  // --- what the real programs refuse, the stand-ins refuse ----------------------------------

  /** A command line the real program refuses: with {@code status}, in a message that mentions {@code mention}. */
  record Refusal(String why, List<String> args, int status, String mention) {}

  @Test
  void theModelGatewayAndItsStandInRefuseTheSame() {
    List<String> base = List.of("--worker-urls", "http://127.0.0.1:" + RealParsers.freePort(), "--port", port(), "--prometheus-port", port());
    List<Refusal> table = List.of(
        new Refusal("sgl-router's policy spelling", plus(base, "--policy", "cache_aware_zmq"), 2, "--policy"),
        new Refusal("a flag of sgl-router the gateway lacks", plus(base, "--model-id", "Qwen/Qwen3-32B-FP8"), 2, "--model-id"),
        new Refusal("a value missing", plus(base, "--cache-threshold"), 2, "--cache-threshold"),
        new Refusal("an ambiguous prefix", plus(base, "--p", "1"), 2, "--p could match"),
        new Refusal("not a number", plus(base, "--balance-abs-threshold", "many"), 2, "--balance-abs-threshold"));
    // The gateway has no required flag: without --worker-urls it waits for service discovery.
    assertRefusedByBoth("sglang_router.launch_router", table, r -> plus(List.of("router", "sgl-model-gateway"), r.args()));
  }

  @Test
  void theDynamoFrontendAndItsStandInRefuseTheSame() {
    List<String> base = List.of("--http-port", port());
    List<Refusal> table = List.of(
        new Refusal("a router mode it does not have", plus(base, "--router-mode", "cache_aware"), 2, "--router-mode"),
        new Refusal("a flag of another program", plus(base, "--policy", "cache_aware"), 1, "--policy"),
        new Refusal("a value missing", plus(base, "--router-mode"), 2, "--router-mode"),
        new Refusal("not a number", List.of("--http-port", "eight-thousand"), 2, "--http-port"));
    // dynamo.frontend has no required flag either: every option has a default or an environment variable.
    assertRefusedByBoth("dynamo.frontend", table, r -> plus(List.of("router", "dynamo"), r.args()));
  }

  @Test
  void aiperfAndItsStandInRefuseTheSame() {
    List<String> base = List.of("profile", "--url", "http://127.0.0.1:" + RealParsers.freePort(), "--ui", "none");
    List<Refusal> table = List.of(
        new Refusal("an endpoint type it does not have", plus(base, "--model", "m", "--endpoint-type", "chat_completions"), 1, "endpoint"),
        new Refusal("a flag of bench_serving", plus(base, "--model", "m", "--max-concurrency", "8"), 1, "--max-concurrency"),
        new Refusal("the required model missing", base, 1, "models"),
        new Refusal("an option twice", plus(base, "--model", "m", "--concurrency", "1", "--concurrency", "2"), 1, "--concurrency"),
        new Refusal("a prefix (cyclopts takes whole names only)", plus(base, "--model", "m", "--request-cou", "4"), 1, "--request-cou"));
    assertRefusedByBoth("aiperf", table, r -> plus(List.of("aiperf"), r.args()));
  }

  @Test
  void theSidecarAndItsStandInRefuseTheSame() {
    List<String> base = List.of("--grpc-endpoint", "127.0.0.1:" + RealParsers.freePort());
    List<Refusal> table = List.of(
        new Refusal("SGLang's spelling of aggregated", plus(base, "--disaggregation-mode", "null"), 2, "--disaggregation-mode"),
        new Refusal("a flag of the engine", plus(base, "--grpc-port", "50051"), 2, "--grpc-port"),
        new Refusal("the required endpoint missing", List.of("--namespace", "dynamo"), 2, "--grpc-endpoint"),
        new Refusal("a prefix (clap takes whole names only)", List.of("--grpc-end", "127.0.0.1:1"), 2, "--grpc-end"),
        new Refusal("an option twice", plus(base, "--namespace", "a", "--namespace", "b"), 2, "--namespace"));
    List<String> failures = new ArrayList<>();
    for (Refusal r : table) {
      Verdict real = RealParsers.dryStartSidecar(r.args(), Map.of(), dir);
      check(failures, r, real, StandIn.run(dir, plus(List.of("dynamo-sidecar"), r.args())));
    }
    assertThat(failures).as("refusals that differ").isEmpty();
  }

  // --- helpers ---------------------------------------------------------------------------------

  private List<Verdict> realVerdicts(String program, List<CommandLine> lines) {
    return RealParsers.verdicts(program, lines.stream().map(CommandLine::args).toList(),
        lines.stream().map(c -> RealParsers.parserEnv(c.env())).toList(), dir);
  }

  private static void assertAccepted(String program, List<CommandLine> lines, List<Verdict> verdicts) {
    assertThat(lines).as("command lines the renderer emits for " + program).isNotEmpty();
    List<String> refused = new ArrayList<>();
    for (int i = 0; i < lines.size(); i++) {
      if (!verdicts.get(i).accepted()) {
        refused.add(lines.get(i) + "\n  refused (status " + verdicts.get(i).status() + ", flag " + verdicts.get(i).flag() + "): "
            + verdicts.get(i).message());
      }
    }
    assertThat(refused).as("command lines the real " + program + " refuses").isEmpty();
  }

  private void assertRefusedByBoth(String program, List<Refusal> table, java.util.function.Function<Refusal, List<String>> standIn) {
    assumeThat(StandIn.JAR).as("the shaded jar (mvn package runs before the integration tests)").exists();
    List<Verdict> real = RealParsers.verdicts(program, table.stream().map(Refusal::args).toList(),
        table.stream().map(r -> Map.<String, String>of()).toList(), dir);
    List<String> failures = new ArrayList<>();
    for (int i = 0; i < table.size(); i++) {
      check(failures, table.get(i), real.get(i), StandIn.run(dir, standIn.apply(table.get(i))));
    }
    assertThat(failures).as("refusals that differ").isEmpty();
  }

  private static void check(List<String> failures, Refusal r, Verdict real, StandIn.Exit standIn) {
    String what = r.why() + " " + r.args();
    if (real.accepted() || real.status() != r.status() || !real.message().contains(r.mention())) {
      failures.add(what + ": the real program said status " + real.status() + ": " + real.message());
    }
    if (standIn.status() != r.status() || !standIn.stderr().contains(r.mention())) {
      failures.add(what + ": the stand-in said status " + standIn.status() + ": " + standIn.stderr().strip());
    }
  }

  /** The trace and the policy YAML the command lines name, as files of this test's (same names). */
  private List<CommandLine> withHostFiles(List<CommandLine> lines) throws IOException {
    List<CommandLine> out = new ArrayList<>();
    for (CommandLine c : lines) {
      List<String> args = new ArrayList<>(c.args());
      for (int i = 0; i + 1 < args.size(); i++) {
        String flag = args.get(i);
        if (flag.equals("--input-file") || flag.equals("--router-policy-config")) {
          Path file = dir.resolve(Integer.toString(i)).resolve(Path.of(args.get(i + 1)).getFileName().toString());
          Files.createDirectories(file.getParent());
          Files.writeString(file, flag.equals("--input-file")
              ? "{\"timestamp\": 0, \"input_length\": 96, \"output_length\": 8, \"hash_ids\": [1, 2]}\n"
              : FakeCheckouts.SGL_ROUTER_CACHE_AWARE_YAML);
          args.set(i + 1, file.toString());
        }
      }
      out.add(new CommandLine(c.source(), c.program(), args, c.env()));
    }
    return out;
  }

  /** The sidecar's engine endpoint on a free port (nothing listens there): the port only, never a flag. */
  private static CommandLine onAFreePort(CommandLine c) {
    List<String> args = new ArrayList<>(c.args());
    int i = args.indexOf("--grpc-endpoint");
    if (i >= 0 && i + 1 < args.size()) {
      args.set(i + 1, args.get(i + 1).replaceFirst(":[0-9]+$", ":" + RealParsers.freePort()));
    }
    return new CommandLine(c.source(), c.program(), args, c.env());
  }

  /** The process's environment without its system port (the dry start serves nothing). */
  private static Map<String, String> sidecarEnv(Map<String, String> env) {
    Map<String, String> out = new java.util.LinkedHashMap<>(RealParsers.parserEnv(env));
    out.remove("DYN_SYSTEM_PORT");
    out.remove("ETCD_ENDPOINTS");
    return out;
  }

  private static String port() {
    return Integer.toString(RealParsers.freePort());
  }

  private static List<String> plus(List<String> base, String... more) {
    return plus(base, List.of(more));
  }

  private static List<String> plus(List<String> base, List<String> more) {
    List<String> out = new ArrayList<>(base);
    out.addAll(more);
    return out;
  }
}
