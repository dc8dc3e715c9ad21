package dev.srt.operator.config;

import static org.assertj.core.api.Assertions.assertThat;

import dev.srt.operator.api.GpuCluster;
import dev.srt.operator.api.SlurmSpec;
import dev.srt.operator.plan.Examples;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.BiConsumer;
import org.junit.jupiter.api.Test;

/**
 * Issue 23, hole 6, "Slurm options bypass the reserved names and managed paths":
 * {@code sbatchDirectives.export: "ALL,BASH_ENV=/tmp/evil.sh"}, {@code output: /home/bench/.bashrc}
 * (after srt-operator's own {@code --output}, so it won) and {@code srunOptions.export:
 * "ALL,LD_PRELOAD=..."} validated and rendered. The options srt-operator sets itself, and those that
 * would take the run's environment, files or programs out of the spec's rules, are refused by name
 * and by any prefix getopt_long would expand; values follow the reserved-name and path rules.
 */
class SlurmOptionsBypassTest {
  private static final BiConsumer<GpuCluster, Map.Entry<String, String>> SBATCH =
      (c, e) -> c.getSpec().slurm.sbatchDirectives.put(e.getKey(), e.getValue());
  private static final BiConsumer<GpuCluster, Map.Entry<String, String>> SRUN =
      (c, e) -> c.getSpec().slurm.srunOptions.put(e.getKey(), e.getValue());

  private static List<Problem> errors(BiConsumer<GpuCluster, Map.Entry<String, String>> where, String key, String value) {
    GpuCluster c = Examples.cluster(Examples.SLURM_CLUSTER);
    if (c.getSpec().slurm == null) {
      c.getSpec().slurm = new SlurmSpec();
    }
    where.accept(c, Map.entry(key, value));
    return Validator.validate(c).stream().filter(Problem::isError).toList();
  }

  @Test
  void theIssuesReproIsRefusedAtEachOption() {
    assertThat(errors(SBATCH, "export", "ALL,BASH_ENV=/tmp/evil.sh")).extracting(Problem::describe).containsExactly(
        "spec.slurm.sbatchDirectives.export: --export is not for the spec to set: the processes' environment comes from env and "
            + "secretEnv, whose names are checked (an export list could set BASH_ENV or LD_PRELOAD)");
    assertThat(errors(SBATCH, "output", "/home/bench/.bashrc")).extracting(Problem::describe).containsExactly(
        "spec.slurm.sbatchDirectives.output: --output is not for the spec to set: srt-operator writes the job's output to "
            + "logs/script.log in the run directory and each process's to its own log there");
    assertThat(errors(SRUN, "export", "ALL,LD_PRELOAD=/tmp/x.so")).extracting(Problem::path)
        .containsExactly("spec.slurm.srunOptions.export");
    for (String managed : List.of("error", "chdir", "job-name")) {
      assertThat(errors(SBATCH, managed, "x")).as(managed).extracting(Problem::path).containsExactly("spec.slurm.sbatchDirectives." + managed);
      assertThat(errors(SRUN, managed, "x")).as(managed).extracting(Problem::path).containsExactly("spec.slurm.srunOptions." + managed);
    }
  }

  /**
   * Every prefix of every managed option, in both maps: refused, naming the option (and the real
   * getopt_long of util-linux's getopt(1), given sbatch's and srun's options, takes each prefix it
   * accepts for that managed option, or for none).
   */
  @Test
  void everyPrefixOfAManagedOptionIsRefused() throws Exception {
    int checked = 0;
    for (var program : List.of(Map.entry(SlurmOptionRules.SBATCH, SBATCH), Map.entry(SlurmOptionRules.SRUN, SRUN))) {
      Map<String, String> managed = program.getKey().equals(SlurmOptionRules.SBATCH) ? SlurmOptionRules.SBATCH_MANAGED
          : SlurmOptionRules.SRUN_MANAGED;
      List<String> longOptions = new ArrayList<>(FlagVocabulary.flags(program.getKey()).stream().map(f -> f.substring(2) + ":").toList());
      managed.keySet().stream().filter(m -> !FlagVocabulary.knows(program.getKey(), "--" + m)).forEach(m -> longOptions.add(m + ":"));
      List<String> keys = new ArrayList<>();
      for (String option : managed.keySet()) {
        for (int n = 1; n <= option.length(); n++) {
          String key = option.substring(0, n);
          if (!keys.contains(key) && (managed.containsKey(key) || !FlagVocabulary.knows(program.getKey(), "--" + key))) {
            keys.add(key); // (an option of its own by that whole name, such as ntasks, is taken as itself)
          }
        }
      }
      Map<String, String> taken = getopt(longOptions, keys);
      for (String key : keys) {
        String path = "spec.slurm." + (program.getKey().equals(SlurmOptionRules.SBATCH) ? "sbatchDirectives." : "srunOptions.") + key;
        assertThat(errors(program.getValue(), key, "x")).as("%s --%s", program.getKey(), key).anySatisfy(p -> {
          assertThat(p.path()).isEqualTo(path);
          assertThat(p.message()).matches("(--" + key + " is a prefix of --" + key + "[a-z-]*, .*; )?--" + key + "[a-z-]* is not for the spec to set: .*");
        });
        assertThat(managed.containsKey(taken.get(key)) || taken.get(key).equals("-")).as("getopt takes --%s for --%s", key, taken.get(key)).isTrue();
        checked++;
      }
    }
    assertThat(checked).isGreaterThan(200);
  }

  /** For each key, the option getopt_long takes {@code --key=x} for, or "-" when it refuses it (unknown or ambiguous). */
  private static Map<String, String> getopt(List<String> longOptions, List<String> keys) throws Exception {
    List<String> command = new ArrayList<>(List.of("bash", "-c", """
        options=$1; shift
        for key; do
          if out=$(getopt -o '' -l "$options" -- "--$key=x" 2>/dev/null); then set -- $out; echo "$key ${1#--}"; else echo "$key -"; fi
        done
        """, "getopt-each", String.join(",", longOptions)));
    command.addAll(keys);
    Process p = new ProcessBuilder(command).redirectError(ProcessBuilder.Redirect.DISCARD).start();
    String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    assertThat(p.waitFor()).isZero();
    Map<String, String> taken = new java.util.HashMap<>();
    out.lines().forEach(l -> taken.put(l.split(" ")[0], l.split(" ")[1]));
    assertThat(taken.keySet()).containsAll(keys);
    return taken;
  }

  @Test
  void optionsOfTheirOwnAndOrdinaryValuesStayAllowed() {
    for (var ok : List.of(Map.entry("constraint", "a100&ib"), Map.entry("nodelist", "node[01-04]"), Map.entry("exclusive", ""),
        Map.entry("mail-user", "bench@example.com"), Map.entry("ntasks", "16"), Map.entry("gres-flags", "enforce-binding"),
        Map.entry("nodefile", "/etc/slurm/nodes.txt"), Map.entry("my-spank-option", "on"))) {
      assertThat(errors(SBATCH, ok.getKey(), ok.getValue())).as("%s", ok).isEmpty();
    }
    for (var ok : List.of(Map.entry("mpi", "pmix"), Map.entry("container-env", "HF_HOME,{{run_dir}}"), Map.entry("cpu-bind", "none"))) {
      assertThat(errors(SRUN, ok.getKey(), ok.getValue())).as("%s", ok).isEmpty();
    }
  }

  @Test
  void valuesFollowTheReservedNameAndPathRules() {
    assertThat(errors(SRUN, "container-env", "HF_HOME,LD_PRELOAD")).extracting(Problem::describe).containsExactly(
        "spec.slurm.srunOptions.container-env: names LD_PRELOAD, which is reserved: " + ReservedEnvNames.reason("LD_PRELOAD"));
    assertThat(errors(SBATCH, "comment", "X=1,BASH_ENV=/tmp/e")).extracting(Problem::path).containsExactly("spec.slurm.sbatchDirectives.comment");
    for (String path : List.of("../secrets", "relative/file", "/srv/../etc/passwd")) {
      assertThat(errors(SBATCH, "nodefile", path)).as(path).extracting(Problem::describe)
          .containsExactly("spec.slurm.sbatchDirectives.nodefile: a path in an option must be absolute, without '..'");
    }
  }
}
