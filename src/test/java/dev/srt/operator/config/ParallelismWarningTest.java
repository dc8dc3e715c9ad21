package dev.srt.operator.config;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The engine's tensor x pipeline parallel degrees against the GPUs each worker is given: a warning, with its line. */
class ParallelismWarningTest {
  static final String ARGS = "args: {tensor-parallel-size: 4, page-size: 64, enable-metrics: true}";

  private static List<Problem> problems(String args) throws Exception {
    String yaml = Files.readString(Path.of("examples/router-comparison.yaml"));
    assertThat(yaml).contains(ARGS);
    return LoadedResources.parse("cmp.yaml", yaml.replace(ARGS, args)).problems();
  }

  @Test
  void aTensorParallelSizeThatLeavesGpusIdleIsAWarningAtItsKey() throws Exception {
    List<Problem> p = problems("args: {tensor-parallel-size: 2, page-size: 64}");
    assertThat(p).singleElement().satisfies(w -> {
      assertThat(w.isError()).isFalse();
      assertThat(w.path()).isEqualTo("spec.backend.args.tensor-parallel-size");
      assertThat(w.message()).isEqualTo("tensor x pipeline parallel = 2 x 1 = 2 GPUs, but each worker is given 4 (spec.resources): "
          + "the engine would leave GPUs idle");
      assertThat(w.location().line()).isEqualTo(15);
    });
  }

  @Test
  void aliasesAndPipelineParallelismCount() throws Exception {
    assertThat(problems("args: {tp_size: 2, pp-size: 2}")).isEmpty();
    assertThat(problems("args: {tp-size: 8}")).singleElement()
        .satisfies(w -> assertThat(w.message()).endsWith("= 8 GPUs, but each worker is given 4 (spec.resources): the engine would need more GPUs than it has"));
  }

  @Test
  void noDegreeAtAllMeansOneGpu() throws Exception {
    assertThat(problems("args: {page-size: 64}")).singleElement()
        .satisfies(w -> assertThat(w.path()).isEqualTo("spec.backend.args"));
  }

  @Test
  void dataParallelismIsLeftToTheUser() throws Exception {
    assertThat(problems("args: {tensor-parallel-size: 4, data-parallel-size: 2, enable-dp-attention: true}")).isEmpty();
  }
}
