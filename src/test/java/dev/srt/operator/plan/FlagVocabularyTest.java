package dev.srt.operator.plan;

import dev.srt.operator.api.Mode;
import static org.assertj.core.api.Assertions.assertThat;

import dev.srt.operator.config.FlagVocabulary;
import dev.srt.operator.config.LoadedResources;
import dev.srt.operator.config.Problem;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Every flag the renderer emits for a program is one of that program's real flags (the lists in
 * src/main/resources/dev/srt/operator/config/flags, taken from the programs' sources). User flags
 * are passed through; an unknown one is a warning from validate.
 */
class FlagVocabularyTest {
  /** The program a process runs, or null for commands without a flag list. */
  static String program(List<String> argv) {
    String joined = String.join(" ", argv);
    if (joined.contains("-m sglang.launch_server")) {
      return FlagVocabulary.SGLANG_SERVER;
    }
    if (joined.contains("-m dynamo.frontend")) {
      return FlagVocabulary.DYNAMO_FRONTEND;
    }
    if (joined.contains("-m dynamo.sglang.sidecar")) {
      return FlagVocabulary.DYNAMO_SIDECAR;
    }
    if (joined.contains("-m " + Workload.BENCH_SERVING_MODULE)) {
      return FlagVocabulary.BENCH_SERVING;
    }
    if (argv.get(0).endsWith("sgl-router")) {
      return FlagVocabulary.SGL_ROUTER;
    }
    if (argv.get(0).equals("aiperf")) {
      return FlagVocabulary.AIPERF;
    }
    return null;
  }

  static List<String> unknownFlags(RunPlan plan) {
    List<String> unknown = new ArrayList<>();
    for (ProcessSpec p : plan.processes()) {
      String program = program(p.argv());
      if (program == null) {
        continue;
      }
      for (String word : p.argv()) {
        if (word.startsWith("--") && !FlagVocabulary.knows(program, word)) {
          unknown.add(p.name() + " (" + program + "): " + word);
        }
      }
    }
    return unknown;
  }

  @Test
  void everyEmittedFlagExistsForItsProgram() {
    int checked = 0;
    for (String arm : List.of("sgl-router", "dynamo-kv", "dynamo-kv-policy")) {
      for (Mode mode : Mode.values()) {
        RunPlan plan = Examples.plan(arm, mode);
        assertThat(unknownFlags(plan)).as(arm + " " + mode.id()).isEmpty();
        checked += plan.processes().size();
      }
    }
    assertThat(checked).isGreaterThan(20);
  }

  @Test
  void aiperfWorkloadFlagsExistToo() {
    String yaml = Examples.exampleYaml().replace(
        "tool: bench-serving\n    args: {backend: sglang-oai-chat, dataset-name: generated-shared-prefix, num-prompts: 1024}",
        "tool: aiperf\n    args: {request-count: 100, concurrency: 8}");
    RunPlan plan = Planner.plan(Examples.parse(yaml).comparisons().get(0), null, "dynamo-kv", Mode.DIRECT);
    assertThat(plan.processes(Role.BENCHMARK).get(0).argv()).startsWith("aiperf", "profile");
    assertThat(unknownFlags(plan)).isEmpty();
  }

  @Test
  void anUnknownUserFlagIsAnError() {
    String yaml = Examples.exampleYaml().replace("page-size: 64", "page-size: 64, pagesize: 64");
    List<Problem> problems = LoadedResources.parse("typo.yaml", yaml).problems();
    assertThat(problems).filteredOn(Problem::isError).singleElement().satisfies(p -> {
      assertThat(p.path()).isEqualTo("spec.backend.args.pagesize");
      assertThat(p.message()).startsWith("--pagesize is not a flag of sglang-launch-server: check the spelling; a flag of another "
          + "version of the program needs a line in srt-operator's flag vocabulary");
    });
  }

  @Test
  void anAbbreviationIsReadAsTheProgramsParserReadsIt() {
    // argparse: a unique prefix is that flag (a warning: write it in full), several are refused; clap: whole names only.
    assertThat(FlagVocabulary.match(FlagVocabulary.SGLANG_SERVER, "--mem-fraction-stat"))
        .isEqualTo(new FlagVocabulary.Match("--mem-fraction-static", FlagVocabulary.Match.Kind.ABBREVIATION, java.util.Set.of("--mem-fraction-static")));
    assertThat(FlagVocabulary.match(FlagVocabulary.SGLANG_SERVER, "--enable").kind()).isEqualTo(FlagVocabulary.Match.Kind.AMBIGUOUS);
    assertThat(FlagVocabulary.match(FlagVocabulary.SGLANG_SERVER, "--model").option()).isEqualTo("--model-path");
    assertThat(FlagVocabulary.match(FlagVocabulary.SGL_ROUTER, "--polic").kind()).isEqualTo(FlagVocabulary.Match.Kind.UNKNOWN);
    assertThat(FlagVocabulary.match(FlagVocabulary.SGL_ROUTER, "--policy").kind()).isEqualTo(FlagVocabulary.Match.Kind.EXACT);
    String yaml = Examples.exampleYaml().replace("page-size: 64", "page-size: 64, mem-fraction-stat: 0.8");
    assertThat(LoadedResources.parse("abbrev.yaml", yaml).problems()).singleElement().satisfies(p -> {
      assertThat(p.isError()).isFalse();
      assertThat(p.path()).isEqualTo("spec.backend.args.mem-fraction-stat");
      assertThat(p.message()).startsWith("--mem-fraction-stat abbreviates --mem-fraction-static of sglang-launch-server: write it in full");
    });
  }
}
