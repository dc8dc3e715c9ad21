package dev.srt.operator.config;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.srt.operator.api.RouterComparison;
import dev.srt.operator.base.Mappers;
import dev.srt.operator.plan.Examples;
import dev.srt.operator.plan.frontends.SglModelGatewayFrontend;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Consumer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue 23, hole 7, "abbreviations of managed flags pass": {@code workload.args: {output-fil:
 * /home/bench/.bashrc}} was a warning, and Python's argparse expands the prefix to
 * {@code --output-file}, writing outside the run directory; a sidecar {@code --grpc-endpoint} was
 * accepted although srt-operator sets it. A user flag is now matched as its program's parser
 * matches it (argparse and getopt: exact names, else an unambiguous prefix; clap and cyclopts: whole
 * names), aliases included, and a flag the program does not have is an error.
 */
class ManagedFlagAbbreviationsTest {
  @TempDir Path dir;

  private static List<Problem> errors(Consumer<RouterComparison> edit) {
    RouterComparison rc = Examples.comparison();
    edit.accept(rc);
    return Validator.validate(rc, Examples.cluster(Examples.DIRECT_CLUSTER)).stream().filter(Problem::isError).toList();
  }

  @Test
  void theIssuesReproIsRefusedNamingTheFlagItAbbreviates() {
    assertThat(errors(rc -> rc.getSpec().workload.args.put("output-fil", "/home/bench/.bashrc"))).singleElement().satisfies(p -> {
      assertThat(p.path()).isEqualTo("spec.workload.args.output-fil");
      assertThat(p.message()).startsWith("--output-fil abbreviates --output-file (argparse takes an unambiguous prefix), "
          + "is set by srt-operator for bench-serving");
    });
  }

  @Test
  void aManagedFlagsAliasIsRefusedToo() {
    // sglang's --model is --model-path; --nccl-init-addr is --dist-init-addr.
    assertThat(errors(rc -> rc.getSpec().backend.args.put("model", "/tmp/other-model"))).extracting(Problem::describe)
        .containsExactly("spec.backend.args.model: --model is --model-path (another name of it), is set by srt-operator for the engine "
            + "(--disaggregation-bootstrap-port, --disaggregation-mode, --dist-init-addr, --grpc-port, --host, --kv-events-config, ... are managed)");
    assertThat(errors(rc -> rc.getSpec().backend.args.put("nccl_init_addr", "10.0.0.1:5000"))).extracting(Problem::path)
        .containsExactly("spec.backend.args.nccl_init_addr");
  }

  @Test
  void theSidecarsManagedFlagIsRefusedLikeTheOthers() {
    for (List<String> args : List.of(List.of("--grpc-endpoint", "10.0.0.9:50051"), List.of("--grpc-connections", "2", "--grpc-endpoint=10.0.0.9:1"))) {
      assertThat(errors(rc -> rc.getSpec().arms.get(1).dynamo.sidecar.args = args)).as("%s", args).singleElement().satisfies(p -> {
        assertThat(p.path()).isEqualTo("spec.arms[1].dynamo.sidecar.args[" + (args.size() - (args.get(0).equals("--grpc-connections") ? 1 : 2)) + "]");
        assertThat(p.message()).startsWith("--grpc-endpoint is set by srt-operator for the Dynamo sidecar");
      });
    }
    // clap takes whole names only: a prefix is no flag of the sidecar at all.
    assertThat(errors(rc -> rc.getSpec().arms.get(1).dynamo.sidecar.args = List.of("--grpc-end", "x"))).extracting(Problem::message)
        .singleElement().asString().startsWith("--grpc-end is not a flag of dynamo-sglang-sidecar");
  }

  @Test
  void everyPrefixOfEveryManagedFlagIsRefusedInEveryFlagMap() {
    Map<String, ArgsMap> maps = new LinkedHashMap<>();
    maps.put(FlagVocabulary.SGLANG_SERVER, new ArgsMap("spec.backend.args", Validator.MANAGED_ENGINE_ARGS, rc -> rc.getSpec().backend.args));
    maps.put(FlagVocabulary.SGL_ROUTER, new ArgsMap("spec.arms[0].frontend.args", dev.srt.operator.plan.frontends.SglRouterFrontend.MANAGED_ARGS,
        rc -> rc.getSpec().arms.get(0).frontend.args));
    maps.put(FlagVocabulary.DYNAMO_FRONTEND, new ArgsMap("spec.arms[1].frontend.args", dev.srt.operator.plan.frontends.DynamoFrontend.MANAGED_ARGS,
        rc -> rc.getSpec().arms.get(1).frontend.args));
    maps.put(FlagVocabulary.BENCH_SERVING, new ArgsMap("spec.workload.args", Validator.MANAGED_BENCH_SERVING_ARGS, rc -> rc.getSpec().workload.args));
    int refused = 0;
    for (Map.Entry<String, ArgsMap> e : maps.entrySet()) {
      for (String managed : e.getValue().managed()) {
        for (int n = 1; n <= managed.length(); n++) {
          String key = managed.substring(0, n);
          List<Problem> found = errors(rc -> e.getValue().args().apply(rc).put(key, "x"));
          assertThat(found).as("%s %s", e.getKey(), key).anySatisfy(p -> assertThat(p.path()).isEqualTo(e.getValue().path() + "." + key));
          refused++;
        }
      }
    }
    assertThat(refused).isGreaterThan(100);
  }

  record ArgsMap(String path, Set<String> managed, java.util.function.Function<RouterComparison, Map<String, Object>> args) {}

  /**
   * Python's real argparse, given every option of each argparse vocabulary: for every prefix of
   * every managed flag (and of every other flag of bench-serving), whatever argparse makes of it,
   * srt-operator's reading agrees: refused when argparse would set a managed flag, accepted only
   * as the flag argparse picks.
   */
  @Test
  void theMatchIsWhatPythonsArgparseDoes() throws Exception {
    Map<String, Set<String>> managedOf = new LinkedHashMap<>();
    managedOf.put(FlagVocabulary.SGLANG_SERVER, Validator.MANAGED_ENGINE_ARGS);
    managedOf.put(FlagVocabulary.BENCH_SERVING, Validator.MANAGED_BENCH_SERVING_ARGS);
    managedOf.put(FlagVocabulary.DYNAMO_FRONTEND, dev.srt.operator.plan.frontends.DynamoFrontend.MANAGED_ARGS);
    managedOf.put(SglModelGatewayFrontend.FLAGS, SglModelGatewayFrontend.MANAGED_ARGS);
    List<Map<String, Object>> cases = new ArrayList<>();
    for (Map.Entry<String, Set<String>> e : managedOf.entrySet()) {
      assertThat(FlagVocabulary.parser(e.getKey())).isEqualTo(FlagVocabulary.Parser.ARGPARSE);
      Set<String> words = new java.util.TreeSet<>();
      for (String m : e.getValue()) {
        for (int n = 3; n <= m.length() + 2; n++) {
          words.add(("--" + m).substring(0, n));
        }
      }
      if (e.getKey().equals(FlagVocabulary.BENCH_SERVING)) {
        FlagVocabulary.flags(e.getKey()).forEach(f -> {
          for (int n = 3; n <= f.length(); n++) {
            words.add(f.substring(0, n));
          }
        });
      }
      cases.add(Map.of("program", e.getKey(), "options", groups(e.getKey()), "words", List.copyOf(words)));
    }
    Path in = dir.resolve("cases.json");
    Files.writeString(in, Mappers.json().writeValueAsString(cases));
    Path script = dir.resolve("argparse_check.py");
    Files.writeString(script, """
        import argparse, json, sys
        out = []
        for case in json.load(open(sys.argv[1])):
            parser = argparse.ArgumentParser(add_help=False, exit_on_error=False)
            for names in case["options"]:
                parser.add_argument(*names, dest=names[0], nargs="?")
            for word in case["words"]:
                try:
                    ns, rest = parser.parse_known_args([word, "x"])
                    chosen = [k for k, v in vars(ns).items() if v is not None]
                    out.append([case["program"], word, chosen[0] if chosen and not rest[:1] == [word] else None])
                except (argparse.ArgumentError, SystemExit):
                    out.append([case["program"], word, "ambiguous"])
        print(json.dumps(out))
        """);
    Process python = new ProcessBuilder("python3", script.toString(), in.toString()).redirectError(ProcessBuilder.Redirect.DISCARD).start();
    String output = new String(python.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    assertThat(python.waitFor()).as(output).isZero();
    int compared = 0;
    for (JsonNode r : Mappers.json().readTree(output)) {
      String program = r.get(0).asText();
      String word = r.get(1).asText();
      String argparse = r.get(2).isNull() ? null : r.get(2).asText();
      Set<String> managed = managedOf.get(program);
      List<Problem> problems = new ArrayList<>();
      FlagVocabulary.check(problems, program, "args", Map.of(word.substring(2), "x"), managed, "here");
      boolean refused = problems.stream().anyMatch(Problem::isError);
      String ours = FlagVocabulary.match(program, word).option();
      if (argparse == null || argparse.equals("ambiguous")) {
        assertThat(refused).as("%s %s: argparse takes it as no option (%s); srt-operator refuses it", program, word, argparse).isTrue();
      } else if (managed.stream().anyMatch(m -> FlagVocabulary.match(program, "--" + m).option().equals(argparse))) {
        assertThat(refused).as("%s %s: argparse sets managed %s", program, word, argparse).isTrue();
        assertThat(problems.get(0).message()).as("%s %s", program, word).contains(argparse);
      } else {
        assertThat(ours).as("%s %s", program, word).isEqualTo(argparse);
        assertThat(refused).as("%s %s", program, word).isFalse();
      }
      compared++;
    }
    assertThat(compared).isGreaterThan(500);
  }

  /** The vocabulary's options, each with its names (primary first). */
  private static List<List<String>> groups(String program) {
    Map<String, List<String>> byPrimary = new LinkedHashMap<>();
    for (String flag : new java.util.TreeSet<>(FlagVocabulary.flags(program))) {
      String primary = FlagVocabulary.match(program, flag).option();
      byPrimary.computeIfAbsent(primary, k -> new ArrayList<>(List.of(k)));
      if (!flag.equals(primary)) {
        byPrimary.get(primary).add(flag);
      }
    }
    return List.copyOf(byPrimary.values());
  }

  @Test
  void aFlagTheProgramDoesNotHaveIsAnError() {
    assertThat(errors(rc -> rc.getSpec().arms.get(0).frontend.args.put("polcy", "random"))).extracting(Problem::describe)
        .singleElement().asString().startsWith("spec.arms[0].frontend.args.polcy: --polcy is not a flag of sgl-router: check the spelling; "
            + "a flag of another version of the program needs a line in srt-operator's flag vocabulary");
    assertThat(errors(rc -> rc.getSpec().arms.get(1).frontend.args.put("router-mod", "kv"))).as("argparse would expand it: a warning")
        .isEmpty();
  }

  @Test
  void aFlagValueThatAProgramWouldReadAsAnOptionIsRefused() {
    assertThat(errors(rc -> rc.getSpec().backend.args.put("cuda-graph-bs", List.of(1, 2, "--output-file=/home/bench/.bashrc"))))
        .extracting(Problem::describe)
        .containsExactly("spec.backend.args.cuda-graph-bs[2]: must not start with '-': the program would read it as an option, not as the flag's value");
    assertThat(errors(rc -> rc.getSpec().workload.args.put("dataset-path", "--"))).extracting(Problem::path)
        .containsExactly("spec.workload.args.dataset-path");
    assertThat(errors(rc -> rc.getSpec().backend.args.put("random-seed", "-1"))).isEmpty();
  }
}
