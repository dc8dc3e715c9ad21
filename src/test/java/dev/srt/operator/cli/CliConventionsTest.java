package dev.srt.operator.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.srt.operator.base.Mappers;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/**
 * The command line's conventions, as kubectl has them: {@code -o json|yaml|wide|markdown} where a
 * command prints data, {@code --out-dir}/{@code --out-file} where it writes files, shell
 * completion, kubectl-style bundles, {@code version}, whole-sentence help, and errors of the API
 * server that name their cause.
 */
class CliConventionsTest {
  static final String COMPARISON = "examples/router-comparison.yaml";
  static final String SLURM = "examples/gpu-cluster-slurm.yaml";

  @TempDir Path dir;

  private static ValidateCommandTest.Run run(String... args) {
    return ValidateCommandTest.run(args);
  }

  @Test
  void planPrintsJsonOrYamlOfTheSamePlansAndRefusesOtherFormats() throws Exception {
    ValidateCommandTest.Run json = run("plan", "-f", COMPARISON, "-f", SLURM, "-o", "json");
    ValidateCommandTest.Run yaml = run("plan", "-f", COMPARISON, "-f", SLURM, "--output", "yaml");
    ValidateCommandTest.Run plain = run("plan", "-f", COMPARISON, "-f", SLURM);
    assertThat(json.code()).as(json.err()).isZero();
    JsonNode fromJson = Mappers.json().readTree(json.out());
    assertThat(fromJson.isArray()).isTrue();
    assertThat(fromJson).hasSize(3);
    assertThat(Mappers.yaml().readTree(yaml.out())).isEqualTo(fromJson);
    assertThat(Mappers.json().readTree(plain.out())).as("JSON is plan's default").isEqualTo(fromJson);

    ValidateCommandTest.Run wide = run("plan", "-f", COMPARISON, "-o", "markdown");
    assertThat(wide.code()).isEqualTo(2);
    assertThat(wide.err()).contains("plan: -o markdown is not available; use json, yaml");
  }

  @Test
  void planAndRenderWithoutAClusterSayWhichDefaultsTheyUsed() {
    ValidateCommandTest.Run plan = run("plan", "-f", COMPARISON, "--arm", "sgl-router");
    assertThat(plan.code()).isZero();
    assertThat(plan.err()).contains("note: GpuCluster h100-box is not in the files (--cluster FILE); using defaults: 8 GPUs per node, python3",
        "mode slurm");
    ValidateCommandTest.Run render = run("render", "-f", COMPARISON, "--out-dir", dir.toString());
    assertThat(render.code()).as(render.err()).isZero();
    assertThat(render.err()).contains("using defaults: 8 GPUs per node");
    assertThat(dir.resolve("sgl-router/job.sbatch")).exists();
    assertThat(run("render", "-f", COMPARISON, "-o", dir.toString()).code()).as("-o names a format, not a directory").isEqualTo(2);
  }

  @Test
  void validatePrintsDataSkipsOtherKindsOfABundleWithOneNoteAndChecksAgainstAGivenCluster() throws Exception {
    Path bundle = dir.resolve("bundle.yaml");
    Files.writeString(bundle, """
        apiVersion: v1
        kind: Namespace
        metadata: {name: bench}
        ---
        apiVersion: v1
        kind: Secret
        metadata: {name: h100-box-ssh, namespace: bench}
        stringData: {id_ed25519: not-a-key}
        ---
        """ + Files.readString(Path.of(COMPARISON)) + "\n---\n" + Files.readString(Path.of(SLURM)));
    ValidateCommandTest.Run text = run("validate", "-f", bundle.toString());
    assertThat(text.code()).as(text.out() + text.err()).isZero();
    assertThat(text.err().lines().filter(l -> l.startsWith("note:"))).singleElement().asString()
        .isEqualTo("note: skipped 2 objects srt-operator does not read: Namespace bench (" + bundle + ":1), Secret h100-box-ssh (" + bundle + ":5)");
    assertThat(text.out()).contains("valid: RouterComparison qwen3-32b-routers (3 arms, on GpuCluster h100-box)");

    JsonNode data = Mappers.json().readTree(run("validate", "-f", bundle.toString(), "-o", "json").out());
    assertThat(data.path("valid").asBoolean()).isTrue();
    assertThat(data.path("resources")).extracting(r -> r.path("kind").asText() + "/" + r.path("name").asText())
        .containsExactly("RouterComparison/qwen3-32b-routers", "GpuCluster/h100-box");
    assertThat(data.path("skipped")).hasSize(2);
    assertThat(Mappers.yaml().readTree(run("validate", "-f", bundle.toString(), "-o", "yaml").out())).isEqualTo(data);

    // An srt.dev kind it does not know is still an error.
    Path unknown = dir.resolve("unknown.yaml");
    Files.writeString(unknown, "apiVersion: srt.dev/v1alpha1\nkind: RouterComparisn\nmetadata: {name: x}\n");
    assertThat(run("validate", "-f", unknown.toString()).out()).contains("unknown kind RouterComparisn");

    // --cluster: the comparison's two TP4 workers do not fit a host of 4 GPUs.
    Path small = dir.resolve("small.yaml");
    Files.writeString(small, Files.readString(Path.of(SLURM)).replaceFirst("gpusPerNode: 8", "gpusPerNode: 4"));
    assertThat(Files.readString(small)).contains("gpusPerNode: 4");
    ValidateCommandTest.Run onSmall = run("validate", "-f", COMPARISON, "--cluster", small.toString(), "-o", "json");
    assertThat(onSmall.code()).isEqualTo(1);
    assertThat(Mappers.json().readTree(onSmall.out()).path("problems")).anySatisfy(p ->
        assertThat(p.path("path").asText()).isEqualTo("spec.resources"));
  }

  @Test
  void twoGpuClustersOfOneNameAreAnErrorNamingBothFiles() throws Exception {
    Path other = dir.resolve("other-cluster.yaml");
    Files.writeString(other, Files.readString(Path.of(SLURM)));
    ValidateCommandTest.Run r = run("validate", "-f", COMPARISON, "-f", SLURM, "-f", other.toString());
    assertThat(r.code()).isEqualTo(1);
    assertThat(r.out()).contains("GpuCluster h100-box is defined twice: in " + SLURM + ":").contains(" and in " + other + ":");
    // the same file named twice (-f and --cluster) is one cluster
    assertThat(run("validate", "-f", COMPARISON, "-f", SLURM, "--cluster", SLURM).code()).isZero();
  }

  @Test
  void versionPrintsTheBuildsCommitAndTimeTheJdkAndTheApiVersion() throws Exception {
    ValidateCommandTest.Run text = run("version");
    assertThat(text.code()).isZero();
    assertThat(text.out()).containsPattern("(?m)^version: +\\S+$").containsPattern("(?m)^gitCommit: +([0-9a-f]{12}(-dirty)?|unknown)$")
        .containsPattern("(?m)^buildTime: +\\d{4}-\\d\\d-\\d\\dT\\d\\d:\\d\\d:\\d\\dZ$")
        .contains("jdk:        " + System.getProperty("java.version")).contains("apiVersion: srt.dev/v1alpha1");
    JsonNode json = Mappers.json().readTree(run("version", "-o", "json").out());
    assertThat(json.path("gitCommit").asText()).matches("[0-9a-f]{12}(-dirty)?");
    assertThat(json.path("apiVersion").asText()).isEqualTo("srt.dev/v1alpha1");
  }

  @Test
  void everyHelpSummaryIsAWholeSentenceAndTheRootHelpShowsItWhole() {
    String root = run("--help").out().replaceAll("\\s+", " ");
    for (CommandLine sub : Main.fullCommandLine().getSubcommands().values()) {
      String summary = sub.getCommandSpec().usageMessage().description()[0];
      assertThat(summary).as(sub.getCommandName()).matches("[A-Z].*\\.").doesNotEndWith(",.").doesNotContain("  ");
      assertThat(root).as("root --help shows %s's summary whole", sub.getCommandName()).contains(sub.getCommandName() + " " + summary);
    }
  }

  @Test
  void everyCommandOnOneComparisonNamesItsFilesClusterAndArmAlike() {
    java.util.Map<String, java.util.Set<String>> described = new java.util.TreeMap<>();
    for (CommandLine sub : Main.fullCommandLine().getSubcommands().values()) {
      if (sub.getCommandName().equals("validate")) {
        continue; // many comparisons, each against --cluster: its options say so
      }
      for (String name : List.of("--filename", "--cluster", "--arm")) {
        var option = sub.getCommandSpec().findOption(name);
        // report's -f is optional and logs' --arm required: their own words
        if (option != null && !(name.equals("--filename") && !option.required()) && !(name.equals("--arm") && option.required())) {
          described.computeIfAbsent(name, n -> new java.util.TreeSet<>()).add(String.join(" ", option.description()));
        }
      }
    }
    // One text each: the options come from one place (ComparisonOptions, ArmOption), not a copy per command.
    assertThat(described.keySet()).containsExactly("--arm", "--cluster", "--filename");
    described.forEach((name, texts) -> assertThat(texts).as(name).hasSize(1));
  }

  @Test
  void theCompletionScriptLoadsInBashAndCompletesSubcommandsAndFormats() throws Exception {
    ValidateCommandTest.Run r = run("completion", "bash");
    assertThat(r.code()).isZero();
    assertThat(run("completion", "zsh").out()).isEqualTo(r.out()).contains("ZSH_VERSION");
    Path script = dir.resolve("srt-operator.bash");
    Files.writeString(script, r.out());
    String probe = "source " + script + " && complete -p srt-operator"
        + " && COMP_WORDS=(srt-operator val) COMP_CWORD=1 && _complete_srt-operator && echo \"sub:${COMPREPLY[*]}\""
        + " && COMP_WORDS=(srt-operator report -o '') COMP_CWORD=3 && _complete_srt-operator 2>/dev/null; echo \"fmt:${COMPREPLY[*]}\"";
    Process p = new ProcessBuilder("bash", "--norc", "--noprofile", "-c", probe).redirectErrorStream(true).start();
    String out = new String(p.getInputStream().readAllBytes());
    assertThat(p.waitFor(30, TimeUnit.SECONDS)).isTrue();
    assertThat(out).contains("complete -o default -F _complete_srt-operator srt-operator", "sub:validate", "fmt:json yaml wide markdown");
  }

  @Test
  void anUnreachableApiServerIsNamedAsTheCauseWithoutALibrarysLogLines() throws Exception {
    int port;
    try (ServerSocket s = new ServerSocket(0)) {
      port = s.getLocalPort();
    }
    Path kubeconfig = dir.resolve("kubeconfig");
    Files.writeString(kubeconfig, """
        apiVersion: v1
        kind: Config
        clusters: [{name: c, cluster: {server: "http://127.0.0.1:%d"}}]
        users: [{name: u, user: {token: t}}]
        contexts: [{name: x, context: {cluster: c, user: u, namespace: bench}}]
        current-context: x
        """.formatted(port));
    ValidateCommandTest.Run r = run("report", "--kube", "qwen3-32b-routers", "--kubeconfig", kubeconfig.toString());
    assertThat(r.code()).isEqualTo(1);
    assertThat(r.err().lines()).singleElement().asString().startsWith("report: cannot reach the API server: connect");
    assertThat(r.out()).isEmpty();
  }

  @Test
  void theApiServersRefusalsNameRbacAndMissingObjects() {
    var forbidden = new io.fabric8.kubernetes.client.KubernetesClientException(new io.fabric8.kubernetes.api.model.StatusBuilder().withCode(403)
        .withMessage("routercomparisons.srt.dev \"x\" is forbidden: User \"dev\" cannot get resource \"routercomparisons\"").build());
    assertThat(KubeErrors.describe(forbidden, "RouterComparison x")).startsWith("forbidden by RBAC: routercomparisons.srt.dev \"x\" is forbidden: User \"dev\"");
    var missing = new io.fabric8.kubernetes.client.KubernetesClientException(new io.fabric8.kubernetes.api.model.StatusBuilder().withCode(404)
        .withMessage("the server could not find the requested resource").build());
    assertThat(KubeErrors.describe(missing, "RouterComparison x")).startsWith("not found: RouterComparison x").contains("is the CRD installed?");
  }

  @Test
  void renderAndImportNameTheFilesTheyWriteWithOutDirAndOutFile() {
    List<String> renderOptions = Main.fullCommandLine().getSubcommands().get("render").getCommandSpec().options().stream()
        .flatMap(o -> List.of(o.names()).stream()).toList();
    assertThat(renderOptions).contains("--out-dir").doesNotContain("-o", "--output");
    List<String> importOptions = Main.fullCommandLine().getSubcommands().get("import").getCommandSpec().options().stream()
        .flatMap(o -> List.of(o.names()).stream()).toList();
    assertThat(importOptions).contains("--out-file").doesNotContain("-o", "--output");
  }
}
