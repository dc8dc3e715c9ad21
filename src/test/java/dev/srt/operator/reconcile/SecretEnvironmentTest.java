package dev.srt.operator.reconcile;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.srt.operator.api.GpuCluster;
import dev.srt.operator.api.RouterComparison;
import dev.srt.operator.api.RouterComparisonStatus;
import dev.srt.operator.api.SecretEnvVar;
import dev.srt.operator.api.SecretKeyRef;
import dev.srt.operator.api.SlurmSpec;
import dev.srt.operator.base.Mappers;
import dev.srt.operator.config.Problem;
import dev.srt.operator.config.Validator;
import dev.srt.operator.host.DirectBackend;
import dev.srt.operator.host.ExecResult;
import dev.srt.operator.host.HostException;
import dev.srt.operator.host.RunRef;
import dev.srt.operator.host.SecretEnvFile;
import dev.srt.operator.host.SlurmBackend;
import dev.srt.operator.host.Submission;
import dev.srt.operator.host.Transport;
import dev.srt.operator.plan.Examples;
import dev.srt.operator.api.Mode;
import dev.srt.operator.plan.Planner;
import dev.srt.operator.plan.RunPlan;
import dev.srt.operator.render.Scripts;
import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.Event;
import io.fabric8.kubernetes.api.model.SecretBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;
import java.util.stream.IntStream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Finding 9 of issue 8, "No secret environment": a token such as HF_TOKEN is declared in
 * {@code spec.secretEnv} by name and Secret reference only; the plan and the scripts carry the
 * name, never the value; the script sources the run directory's {@code secret.env}, which the host
 * layer writes from a command's stdin; the operator resolves the Secret when it submits, and a
 * missing one submits nothing and says so. {@code SecretEnvironmentIT} runs it on a real host.
 */
class SecretEnvironmentTest {
  static final String TOKEN = "hf_s3cr3t-'$(touch /tmp/pwned)'\"x\"\nline two";

  static SecretEnvVar secret(String name, String secretName, String key) {
    SecretEnvVar v = new SecretEnvVar();
    v.name = name;
    v.secretKeyRef = new SecretKeyRef();
    v.secretKeyRef.name = secretName;
    v.secretKeyRef.key = key;
    return v;
  }

  static List<String> errors(List<Problem> problems) {
    return problems.stream().filter(Problem::isError).map(Problem::describe).toList();
  }

  @Nested
  class Validation {
    RouterComparison rc = Examples.comparison();
    GpuCluster cluster = Examples.cluster(Examples.DIRECT_CLUSTER);

    @Test
    void secretVariablesOnBothObjectsAreValid() {
      cluster.getSpec().secretEnv = List.of(secret("WANDB_API_KEY", "bench-tokens", "wandb"));
      rc.getSpec().secretEnv = List.of(secret("HF_TOKEN", "hf-token", "token"), secret("OPENAI_API_KEY", "bench-tokens", "openai"));
      assertThat(errors(Validator.validate(cluster))).isEmpty();
      assertThat(errors(Validator.validate(rc, cluster))).isEmpty();
    }

    @ParameterizedTest
    @ValueSource(strings = {"BASH_ENV", "ENV", "IFS", "PATH", "RUN_DIR", "LD_PRELOAD", "LD_LIBRARY_PATH", "SRT_RUN_ID", "SRT_X"})
    void reservedNamesAreRejectedWithTheirFieldPath(String name) {
      rc.getSpec().secretEnv = List.of(secret("HF_TOKEN", "hf-token", "token"), secret(name, "hf-token", "token"));
      assertThat(errors(Validator.validate(rc, cluster))).singleElement().asString().startsWith("spec.secretEnv[1].name: is reserved");
      cluster.getSpec().secretEnv = List.of(secret(name, "hf-token", "token"));
      assertThat(errors(Validator.validate(cluster))).singleElement().asString().startsWith("spec.secretEnv[0].name: is reserved");
    }

    @ParameterizedTest
    @ValueSource(strings = {"HF-TOKEN", "1TOKEN", "HF TOKEN", "X=Y", "$(id)", ""})
    void namesThatAreNotVariablesAreRejected(String name) {
      rc.getSpec().secretEnv = List.of(secret(name, "hf-token", "token"));
      assertThat(errors(Validator.validate(rc, cluster))).singleElement().asString()
          .startsWith("spec.secretEnv[0].name: ").containsAnyOf("is not a valid environment variable name", "is required");
    }

    @Test
    void aNameIsDeclaredOnceAcrossBothObjects() {
      rc.getSpec().secretEnv = List.of(secret("HF_TOKEN", "hf-token", "token"), secret("HF_TOKEN", "other", "token"));
      assertThat(errors(Validator.validate(rc, cluster)))
          .containsExactly("spec.secretEnv[1].name: duplicate secretEnv name HF_TOKEN (also spec.secretEnv[0])");

      rc.getSpec().secretEnv = List.of(secret("HF_TOKEN", "hf-token", "token"));
      cluster.getSpec().secretEnv = List.of(secret("HF_TOKEN", "cluster-token", "token"));
      assertThat(errors(Validator.validate(rc, cluster)))
          .containsExactly("spec.secretEnv[0].name: duplicate secretEnv name HF_TOKEN: also in the GpuCluster h100-box's spec.secretEnv");
    }

    @Test
    void aSecretNameIsNotAlsoAPlainVariable() {
      rc.getSpec().secretEnv = List.of(secret("HF_TOKEN", "hf-token", "token"));
      rc.getSpec().workload.env.put("HF_TOKEN", "plain");
      assertThat(errors(Validator.validate(rc, cluster)))
          .containsExactly("spec.secretEnv[0].name: HF_TOKEN is also set in spec.workload.env; give it one value");

      rc.getSpec().workload.env.clear();
      rc.getSpec().arms.get(2).frontend.env.put("HF_TOKEN", "plain");
      assertThat(errors(Validator.validate(rc, cluster)))
          .containsExactly("spec.secretEnv[0].name: HF_TOKEN is also set in spec.arms[2].frontend.env; give it one value");

      rc.getSpec().arms.get(2).frontend.env.clear();
      cluster.getSpec().env.put("HF_TOKEN", "plain");
      assertThat(errors(Validator.validate(rc, cluster)))
          .containsExactly("spec.secretEnv[0].name: HF_TOKEN is also set in the GpuCluster h100-box's spec.env; give it one value");

      cluster.getSpec().secretEnv = List.of(secret("HF_TOKEN", "hf-token", "token"));
      assertThat(errors(Validator.validate(cluster)))
          .containsExactly("spec.secretEnv[0].name: HF_TOKEN is also set in spec.env; give it one value");

      // The cluster's secret against the comparison's plain maps, reported where the comparison sets it.
      cluster.getSpec().env.clear();
      rc.getSpec().secretEnv = null;
      rc.getSpec().backend.env.put("HF_TOKEN", "plain");
      assertThat(errors(Validator.validate(rc, cluster)))
          .containsExactly("spec.backend.env.HF_TOKEN: is also a secretEnv of the GpuCluster h100-box; give it one value");
    }

    @Test
    void theSecretReferenceIsANameAndAKey() {
      SecretEnvVar noRef = secret("A", "x", "y");
      noRef.secretKeyRef = null;
      rc.getSpec().secretEnv = List.of(noRef, secret("B", "Not_A_Secret", "token"), secret("C", "hf-token", ""), secret("D", "hf-token", "a/b"));
      assertThat(errors(Validator.validate(rc, cluster))).containsExactly(
          "spec.secretEnv[0].secretKeyRef: is required: the Secret and key that hold the value",
          "spec.secretEnv[1].secretKeyRef.name: is not a Secret name (lower-case letters, digits, '-' and '.'; at most 253 characters)",
          "spec.secretEnv[2].secretKeyRef.key: is required",
          "spec.secretEnv[3].secretKeyRef.key: is not a Secret key (letters, digits, '-', '_' and '.'; at most 253 characters)");
    }

    @Test
    void atMost32Variables() {
      rc.getSpec().secretEnv = IntStream.range(0, 33).mapToObj(i -> secret("T" + i, "hf-token", "token")).toList();
      assertThat(errors(Validator.validate(rc, cluster))).containsExactly("spec.secretEnv: at most 32 entries; found 33");
    }

    /** The steps get the secret variables from the script's environment: Slurm's export is srt-operator's, never the spec's. */
    @Test
    void slurmExportsTheEnvironmentToTheStepsAndNoSpecChangesThat() {
      GpuCluster slurm = Examples.cluster(Examples.SLURM_CLUSTER);
      slurm.getSpec().slurm = slurm.getSpec().slurm == null ? new SlurmSpec() : slurm.getSpec().slurm;
      slurm.getSpec().secretEnv = List.of(secret("WANDB_API_KEY", "bench-tokens", "wandb"));
      for (String value : List.of("NONE", "ALL", "ALL,EXTRA=1")) {
        slurm.getSpec().slurm.srunOptions.put("export", value);
        assertThat(errors(Validator.validate(slurm))).as(value).singleElement().asString()
            .startsWith("spec.slurm.srunOptions.export: --export is not for the spec to set: the processes' environment comes from env and secretEnv");
      }
      slurm.getSpec().slurm.srunOptions.remove("export");
      assertThat(errors(Validator.validate(slurm))).isEmpty();
      rc.getSpec().secretEnv = List.of(secret("HF_TOKEN", "hf-token", "token"));
      slurm.getSpec().secretEnv = null;
      assertThat(errors(Validator.validate(rc, slurm))).isEmpty();
    }
  }

  @Nested
  class PlanAndScripts {
    RouterComparison rc = Examples.comparison();

    RunPlan plan(Mode mode, Consumer<GpuCluster> edit, String arm) {
      GpuCluster cluster = Examples.cluster(mode == Mode.SLURM ? Examples.SLURM_CLUSTER : Examples.DIRECT_CLUSTER);
      cluster.getSpec().secretEnv = List.of(secret("WANDB_API_KEY", "bench-tokens", "wandb"));
      edit.accept(cluster);
      rc.getSpec().secretEnv = List.of(secret("HF_TOKEN", "hf-token", "token"));
      assertThat(errors(Validator.validate(rc, cluster, mode))).isEmpty();
      return Planner.plan(rc, cluster, arm, mode);
    }

    @Test
    void thePlanCarriesTheNamesOnly() throws Exception {
      RunPlan plan = plan(Mode.DIRECT, c -> {}, "dynamo-kv");
      assertThat(plan.secretEnv()).containsExactly("WANDB_API_KEY", "HF_TOKEN");
      String json = Mappers.json().writeValueAsString(plan);
      assertThat(json).contains("\"secretEnv\":[\"WANDB_API_KEY\",\"HF_TOKEN\"]")
          .doesNotContain("hf-token", "bench-tokens", "secretKeyRef");
      assertThat(plan.env()).doesNotContainKeys("HF_TOKEN", "WANDB_API_KEY");
      plan.processes().forEach(p -> assertThat(p.env()).as(p.name()).doesNotContainKeys("HF_TOKEN", "WANDB_API_KEY"));
    }

    @ParameterizedTest
    @EnumSource(Mode.class)
    void theScriptSourcesSecretEnvBeforeAnythingStartsAndHoldsNoValue(Mode mode) {
      for (String arm : List.of("sgl-router", "dynamo-kv", "dynamo-kv-policy")) {
        String script = Scripts.render(plan(mode, c -> {}, arm));
        List<String> lines = script.lines().toList();
        int cd = lines.indexOf("cd \"$RUN_DIR\"");
        int source = lines.indexOf("if [ -f secret.env ]; then set -a; . ./secret.env; set +a; fi");
        int begin = lines.indexOf("srt_begin");
        int firstStart = IntStream.range(0, lines.size())
            .filter(i -> lines.get(i).startsWith("srt_start ") || lines.get(i).startsWith("srt_stage ")).findFirst().orElseThrow();
        assertThat(cd).as(arm).isNotNegative();
        assertThat(source).as("%s: sourced after cd \"$RUN_DIR\", before srt_begin and any process", arm)
            .isGreaterThan(cd).isLessThan(begin).isLessThan(firstStart);
        assertThat(lines.subList(begin, firstStart)).as(arm).contains(
            "[ -n \"${WANDB_API_KEY+x}\" ] || srt_fail SecretEnvMissing "
                + "'WANDB_API_KEY is not set: no secret.env in the run directory and not in the environment'",
            "[ -n \"${HF_TOKEN+x}\" ] || srt_fail SecretEnvMissing "
                + "'HF_TOKEN is not set: no secret.env in the run directory and not in the environment'");
        assertThat(script).as(arm).doesNotContain("HF_TOKEN=", "WANDB_API_KEY=", "hf-token");
      }
    }

    @Test
    void dockerPassesEachSecretVariableByNameOnly() {
      RunPlan plan = plan(Mode.DIRECT, c -> {
        c.getSpec().container = new dev.srt.operator.api.ContainerSpec();
        c.getSpec().container.runtime = "docker";
        c.getSpec().container.image = "lmsysorg/sglang:dev";
      }, "dynamo-kv");
      List<String> dockerRuns = Scripts.render(plan).lines().filter(l -> l.contains("docker run --rm --name")).toList();
      assertThat(dockerRuns).hasSizeGreaterThan(2)
          .allSatisfy(l -> assertThat(l).contains(" --env WANDB_API_KEY ", " --env HF_TOKEN ").doesNotContain("HF_TOKEN="));
    }

    @Test
    void withoutSecretVariablesTheScriptIsUnchanged() {
      rc.getSpec().secretEnv = null;
      RunPlan plan = Planner.plan(rc, Examples.cluster(Examples.DIRECT_CLUSTER), "sgl-router", Mode.DIRECT);
      assertThat(plan.secretEnv()).isEmpty();
      assertThat(Scripts.render(plan)).doesNotContain("secret.env", "SecretEnvMissing");
    }
  }

  @Nested
  class HostLayer {
    final RunRef run = new RunRef("bench", "cmp", "arm", "r0000abcd");
    final List<String> commands = new ArrayList<>();
    final List<byte[]> stdins = new ArrayList<>();
    String lookupAnswer = "";
    String sbatchAnswer = "4242\n";

    /** Records every command line and its stdin; answers the lookup with {@link #lookupAnswer}. */
    final Transport transport = new Transport() {
      @Override
      public ExecResult exec(String commandLine, byte[] stdin, Duration timeout) {
        if (commandLine.contains("head -c \"$clen\"")) {
          return batch(stdin, timeout);
        }
        commands.add(commandLine);
        stdins.add(stdin);
        if (commandLine.contains("sbatch")) {
          return new ExecResult(0, sbatchAnswer, "");
        }
        if (commandLine.contains("setsid")) {
          return new ExecResult(0, "pid=777\n", "");
        }
        return new ExecResult(0, commandLine.contains("secret.env") ? "" : lookupAnswer, "");
      }

      /** A batch of commands (the Slurm backend's submissions): each recorded and answered as if run alone. */
      private ExecResult batch(byte[] in, Duration timeout) {
        StringBuilder answers = new StringBuilder();
        int at = 0;
        for (int i = 0; at < in.length; i++) {
          int eol = at;
          while (in[eol] != '\n') {
            eol++;
          }
          String[] lengths = new String(in, at, eol - at, StandardCharsets.US_ASCII).split(" ");
          int commandEnd = eol + 1 + Integer.parseInt(lengths[0]);
          int stdinEnd = commandEnd + Integer.parseInt(lengths[1]);
          ExecResult r = exec(new String(in, eol + 1, commandEnd - eol - 1, StandardCharsets.UTF_8),
              java.util.Arrays.copyOfRange(in, commandEnd, stdinEnd), timeout);
          java.util.Base64.Encoder b64 = java.util.Base64.getEncoder();
          answers.append("R ").append(i).append(' ').append(r.exitCode()).append(" o")
              .append(b64.encodeToString(r.stdout().getBytes(StandardCharsets.UTF_8))).append(" e")
              .append(b64.encodeToString(r.stderr().getBytes(StandardCharsets.UTF_8))).append('\n');
          at = stdinEnd;
        }
        return new ExecResult(0, answers + "END\n", "");
      }

      @Override
      public String describe() {
        return "recording";
      }

      @Override
      public void close() {}
    };

    final SecretEnvFile secrets = SecretEnvFile.of(new LinkedHashMap<>(Map.of("HF_TOKEN", TOKEN)));

    @Test
    void theFileHoldsOneQuotedExportPerVariableAndItsNameIsAllThatIsShown() {
      Map<String, String> values = new LinkedHashMap<>();
      values.put("HF_TOKEN", TOKEN);
      values.put("EMPTY", "");
      SecretEnvFile file = SecretEnvFile.of(values);
      assertThat(new String(file.content(), StandardCharsets.UTF_8)).isEqualTo(
          "export HF_TOKEN='hf_s3cr3t-'\\''$(touch /tmp/pwned)'\\''\"x\"\nline two'\nexport EMPTY=''\n");
      assertThat(file).hasToString("SecretEnvFile[HF_TOKEN, EMPTY]");
      assertThatThrownBy(() -> SecretEnvFile.of(Map.of("X", "a\0b"))).hasMessageContaining("X").hasMessageNotContaining("a\0b");
      assertThatThrownBy(() -> SecretEnvFile.of(Map.of("X;id", "v"))).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void directWritesTheFileFromStdinBeforeTheScriptStarts() throws HostException {
      new DirectBackend(transport, "/work").submit(run, "#!/bin/bash\n", secrets);
      assertWrittenThenStarted("setsid");
    }

    /** One command: the lookup, then secret.env from the head of stdin, then the script, then sbatch. */
    @Test
    void slurmWritesTheFileFromStdinBeforeSbatch() throws HostException {
      new SlurmBackend(transport, "/work").submit(run, "#!/bin/bash\n", secrets);
      assertThat(commands).hasSize(1);
      String submit = commands.get(0);
      assertThat(submit).contains("umask 077", "mkdir -p -m 0700 -- /work/bench/cmp/arm/r0000abcd",
          "chmod 0700 -- /work/bench/cmp/arm/r0000abcd", "chmod 0600 \"$tmp\"",
          "head -c " + secrets.content().length + " >\"$tmp\"", "mv -f -- \"$tmp\" /work/bench/cmp/arm/r0000abcd/secret.env")
          .doesNotContain("s3cr3t", "0755");
      assertThat(submit.indexOf("existing")).isLessThan(submit.indexOf("secret.env"));
      assertThat(submit.indexOf("secret.env")).isLessThan(submit.indexOf("mv -f -- \"$tmp\" /work/bench/cmp/arm/r0000abcd/job.sbatch"))
          .isLessThan(submit.indexOf("sbatch --parsable"));
      byte[] in = stdins.get(0);
      assertThat(java.util.Arrays.copyOf(in, secrets.content().length)).isEqualTo(secrets.content());
      assertThat(new String(in, StandardCharsets.UTF_8)).endsWith("#!/bin/bash\n");
    }

    private void assertWrittenThenStarted(String starter) {
      assertThat(commands).hasSize(3);
      String write = commands.get(1);
      assertThat(write).contains("umask 077", "mkdir -p -m 0700 -- /work/bench/cmp/arm/r0000abcd",
          "chmod 0700 -- /work/bench/cmp/arm/r0000abcd", "chmod 0600 \"$tmp\"",
          "mv -f -- \"$tmp\" /work/bench/cmp/arm/r0000abcd/secret.env");
      assertThat(stdins.get(1)).isEqualTo(secrets.content());
      assertThat(commands.get(2)).contains(starter, "mkdir -p -m 0700 -- ", "chmod 0600 \"$tmp\"").doesNotContain("0755");
      assertThat(commands).as("no command line carries the value").noneMatch(c -> c.contains("s3cr3t"));
      assertThat(new String(stdins.get(2), StandardCharsets.UTF_8)).doesNotContain("s3cr3t");
    }

    @Test
    void aRunThatWasAlreadyStartedGetsNothingWritten() throws HostException {
      lookupAnswer = "777";
      assertThat(new DirectBackend(transport, "/work").submit(run, "#!/bin/bash\n", secrets).alreadyExisted()).isTrue();
      assertThat(commands).hasSize(1).noneMatch(c -> c.contains("secret.env"));
      // Slurm: the lookup and the writes are one command, which ends at the lookup (see slurmWritesTheFileFromStdinBeforeSbatch).
      sbatchAnswer = "existing 4242\n";
      assertThat(new SlurmBackend(transport, "/work").submit(run, "#!/bin/bash\n", secrets)).isEqualTo(new Submission("4242", true));
    }

    @Test
    void withoutSecretsNoFileIsWritten() throws HostException {
      new DirectBackend(transport, "/work").submit(run, "#!/bin/bash\n");
      assertThat(commands).hasSize(2).noneMatch(c -> c.contains("secret.env"));
    }
  }

  /** The operator: reconcile() against the CRUD mock API server and a fake host. */
  @Nested
  class Operator {
    static final String NS = "bench";
    MockApiServer api;
    KubernetesClient client;
    FakeHosts.State host;
    RouterComparisonReconciler reconciler;
    RouterComparison rc;
    GpuCluster cluster;

    @BeforeEach
    void setUp() {
      api = new MockApiServer();
      client = api.client;
      host = new FakeHosts.State();
      reconciler = new RouterComparisonReconciler(client, new FakeHosts(host), new ClusterPolicy(true), new EventRecorder(client), Clock.systemUTC(),
          Duration.ofMillis(200), new SimpleMeterRegistry(), Runnable::run) {
        @Override
        protected void writeStatus(RouterComparison target, io.javaoperatorsdk.operator.api.reconciler.Context<RouterComparison> context,
            RouterComparisonStatus status) {
          target.setStatus(Mappers.json().convertValue(status, RouterComparisonStatus.class));
        }
      };
      cluster = Examples.parse("""
          apiVersion: srt.dev/v1alpha1
          kind: GpuCluster
          metadata: {name: h100-box}
          spec: {mode: slurm, transport: local, workDir: /work, gpusPerNode: 8}
          """).clusters().get(0);
      cluster.getMetadata().setNamespace(NS);
      rc = Examples.comparison();
      rc.getMetadata().setNamespace(NS);
      rc.getMetadata().setUid("uid-1");
      rc.getMetadata().setGeneration(1L);
      rc.getSpec().secretEnv = List.of(secret("HF_TOKEN", "hf-token", "token"));
    }

    @AfterEach
    void tearDown() {
      reconciler.close();
      api.close();
    }

    void createCluster() {
      client.resource(cluster).create();
    }

    /** A Secret made for secret variables: labelled srt.dev/secret-env: "true". */
    void createSecret(String name, String key, String value) {
      createSecret(name, key, value, Map.of(SecretEnvResolver.LABEL, "true"));
    }

    void createSecret(String name, String key, String value, Map<String, String> labels) {
      client.secrets().inNamespace(NS).resource(new SecretBuilder().withNewMetadata().withName(name).withNamespace(NS)
          .withLabels(labels).endMetadata()
          .withData(Map.of(key, Base64.getEncoder().encodeToString(value.getBytes(StandardCharsets.UTF_8)))).build()).create();
    }

    /** The Degraded condition's message once a submit was refused: nothing submitted, no script stored. */
    String refusal() {
      reconcile();
      reconcile();
      reconcile();
      assertThat(host.submitCalls.get()).as("nothing submitted").isZero();
      assertThat(client.configMaps().inNamespace(NS).list().getItems()).as("no script stored").isEmpty();
      var degraded = Conditions.find(rc.getStatus().conditions, StatusAggregator.DEGRADED);
      assertThat(degraded.getStatus()).isEqualTo("True");
      assertThat(degraded.getReason()).isEqualTo("SecretEnvMissing");
      assertThat(rc.getStatus().phase).isEqualTo("Pending");
      return degraded.getMessage();
    }

    /** The Secrets the operator's client asked the API server for, by name. */
    List<String> secretsRead() throws InterruptedException {
      List<String> names = new ArrayList<>();
      for (var r = api.server.takeRequest(10, java.util.concurrent.TimeUnit.MILLISECONDS); r != null;
          r = api.server.takeRequest(10, java.util.concurrent.TimeUnit.MILLISECONDS)) {
        String path = r.getPath();
        if (r.getMethod().equals("GET") && path.contains("/secrets/")) {
          names.add(path.substring(path.indexOf("/secrets/") + "/secrets/".length()).replaceAll("\\?.*", ""));
        }
      }
      return names;
    }

    void reconcile() {
      reconciler.reconcile(rc, null);
    }

    String everythingTheApiServerHolds() throws Exception {
      List<ConfigMap> cms = client.configMaps().inNamespace(NS).list().getItems();
      List<Event> events = client.v1().events().inNamespace(NS).list().getItems();
      return Mappers.json().writeValueAsString(List.of(cms, events, rc));
    }

    @Test
    void theSecretIsResolvedAtSubmissionAndReachesOnlyTheHost() throws Exception {
      cluster.getSpec().secretEnv = List.of(secret("WANDB_API_KEY", "bench-tokens", "wandb"));
      createCluster();
      createSecret("hf-token", "token", TOKEN);
      createSecret("bench-tokens", "wandb", "wandb-v4lue");
      reconcile();
      reconcile();
      RunRef run = host.runOf("sgl-router");
      assertThat(run).isNotNull();
      SecretEnvFile sent = host.secretEnv.get(run);
      assertThat(sent.names()).containsExactly("WANDB_API_KEY", "HF_TOKEN");
      assertThat(new String(sent.content(), StandardCharsets.UTF_8)).contains("export WANDB_API_KEY=wandb-v4lue\n", "s3cr3t");
      assertThat(host.scripts.get(run)).contains(". ./secret.env").doesNotContain("s3cr3t", "wandb-v4lue");
      assertThat(client.configMaps().inNamespace(NS).list().getItems()).hasSize(1);
      assertThat(everythingTheApiServerHolds()).doesNotContain("s3cr3t", "wandb-v4lue");
    }

    @Test
    void aMissingSecretSubmitsNothingAndSaysWhichOne() throws Exception {
      createCluster();
      reconcile();
      reconcile();
      reconcile();
      assertThat(host.submitCalls.get()).isZero();
      assertThat(client.configMaps().inNamespace(NS).list().getItems()).as("no script stored").isEmpty();
      var degraded = Conditions.find(rc.getStatus().conditions, StatusAggregator.DEGRADED);
      assertThat(degraded.getStatus()).isEqualTo("True");
      assertThat(degraded.getReason()).isEqualTo("SecretEnvMissing");
      assertThat(degraded.getMessage()).contains("Secret hf-token not found in namespace bench", "spec.secretEnv[0], HF_TOKEN");
      assertThat(rc.getStatus().phase).isEqualTo("Pending");
      assertThat(rc.getStatus().message).startsWith("waiting for secretEnv: Secret hf-token not found");
      List<Event> warnings = client.v1().events().inNamespace(NS).list().getItems().stream()
          .filter(e -> "SecretEnvMissing".equals(e.getReason())).toList();
      assertThat(warnings).singleElement().satisfies(e -> {
        assertThat(e.getType()).isEqualTo("Warning");
        assertThat(e.getMessage()).contains("Secret hf-token not found in namespace bench");
        assertThat(e.getCount()).as("one event, not one per retry").isEqualTo(1);
      });

      createSecret("hf-token", "token", TOKEN);
      reconcile();
      assertThat(host.submitCalls.get()).isEqualTo(1);
      assertThat(Conditions.find(rc.getStatus().conditions, StatusAggregator.DEGRADED).getReason()).isNotEqualTo("SecretEnvMissing");
      assertThat(everythingTheApiServerHolds()).doesNotContain("s3cr3t");
    }

    /**
     * Issue 41, finding 4: a Secret is a secret variable only by its owner's consent, the label
     * srt.dev/secret-env: "true". Without it, creating a comparison would let its author make the
     * operator copy any Secret of the namespace onto the GPU host, where every process reads it.
     */
    @Test
    void aSecretWithoutTheLabelIsNotResolved() throws Exception {
      createCluster();
      createSecret("hf-token", "token", TOKEN, Map.of());
      assertThat(refusal()).contains("Secret hf-token is not labelled srt.dev/secret-env: \"true\": the operator resolves "
          + "spec.secretEnv only from Secrets made for it (spec.secretEnv[0], HF_TOKEN)").doesNotContain("s3cr3t");
      assertThat(rc.getStatus().message).startsWith("waiting for secretEnv: Secret hf-token is not labelled");
      assertThat(client.v1().events().inNamespace(NS).list().getItems()).filteredOn(e -> "SecretEnvMissing".equals(e.getReason()))
          .singleElement().satisfies(e -> assertThat(e.getMessage()).contains("is not labelled srt.dev/secret-env"));
      assertThat(everythingTheApiServerHolds()).doesNotContain("s3cr3t");
    }

    @ParameterizedTest
    @ValueSource(strings = {"false", "True", "yes", ""})
    void onlyTheLabelValueTrueConsents(String value) {
      createCluster();
      createSecret("hf-token", "token", TOKEN, Map.of(SecretEnvResolver.LABEL, value));
      assertThat(refusal()).contains("Secret hf-token is not labelled srt.dev/secret-env: \"true\"");
    }

    @Test
    void theGpuClustersOwnSecretVariablesNeedTheLabelToo() {
      cluster.getSpec().secretEnv = List.of(secret("WANDB_API_KEY", "bench-tokens", "wandb"));
      createCluster();
      createSecret("hf-token", "token", TOKEN);
      createSecret("bench-tokens", "wandb", "wandb-v4lue", Map.of("app", "bench"));
      assertThat(refusal()).contains("Secret bench-tokens is not labelled srt.dev/secret-env: \"true\": the operator resolves "
          + "spec.secretEnv only from Secrets made for it (GpuCluster h100-box spec.secretEnv[0], WANDB_API_KEY)")
          .doesNotContain("hf-token", "wandb-v4lue");
    }

    /** The Secret a GpuCluster logs in with is never a secret variable, labelled or not, and is not even read for it. */
    @Test
    void theSshKeyOfTheComparisonsGpuClusterIsRefusedEvenIfLabelled() throws Exception {
      cluster.getSpec().ssh = Examples.parse("""
          apiVersion: srt.dev/v1alpha1
          kind: GpuCluster
          metadata: {name: x}
          spec:
            mode: slurm
            workDir: /work
            ssh:
              host: login-01.example.internal
              user: bench
              privateKeySecretRef: {name: h100-box-ssh, key: id_ed25519}
              knownHostsSecretRef: {name: h100-box-ssh, key: known_hosts}
          """).clusters().get(0).getSpec().ssh;
      createCluster();
      createSecret("h100-box-ssh", "id_ed25519", "-----BEGIN OPENSSH PRIVATE KEY-----k3y");
      rc.getSpec().secretEnv = List.of(secret("LEAK", "h100-box-ssh", "id_ed25519"));
      secretsRead();
      assertThat(refusal()).contains("Secret h100-box-ssh is the SSH key of GpuCluster h100-box: never a secret variable "
          + "(spec.secretEnv[0], LEAK)").doesNotContain("k3y");
      assertThat(secretsRead()).as("the key is not read for a secret variable").doesNotContain("h100-box-ssh");
      assertThat(host.secretEnv).isEmpty();
      assertThat(everythingTheApiServerHolds()).doesNotContain("k3y");
    }

    /** Any GpuCluster of the namespace, and every Secret of its ssh block: passphrase, known_hosts, jump hosts'. */
    @ParameterizedTest
    @ValueSource(strings = {"privateKeySecretRef", "privateKeyPassphraseSecretRef", "knownHostsSecretRef",
        "proxyJump[0].privateKeySecretRef", "proxyJump[1].privateKeyPassphraseSecretRef", "proxyJump[1].knownHostsSecretRef"})
    void everySshSecretOfEveryGpuClusterOfTheNamespaceIsRefused(String field) {
      createCluster();
      StringBuilder ssh = new StringBuilder("""
          apiVersion: srt.dev/v1alpha1
          kind: GpuCluster
          metadata: {name: other-box}
          spec:
            mode: direct
            workDir: /work
            ssh:
              host: gpu-01.example.internal
              user: bench
              privateKeySecretRef: {name: other-key, key: id_ed25519}
              knownHostsSecretRef: {name: other-key, key: known_hosts}
              proxyJump:
              - host: bastion.example.org
                privateKeySecretRef: {name: jump-0, key: id_ed25519}
              - host: gateway.example.org
                privateKeySecretRef: {name: jump-1, key: id_ed25519}
          """);
      GpuCluster other = Examples.parse(ssh.toString()).clusters().get(0);
      other.getMetadata().setNamespace(NS);
      var s = other.getSpec().ssh;
      dev.srt.operator.api.SecretKeyRef ref = new dev.srt.operator.api.SecretKeyRef();
      ref.name = "named-by-" + field.replaceAll("[^a-zA-Z0-9]", "-").toLowerCase();
      ref.key = "k";
      switch (field) {
        case "privateKeySecretRef" -> s.privateKeySecretRef = ref;
        case "privateKeyPassphraseSecretRef" -> s.privateKeyPassphraseSecretRef = ref;
        case "knownHostsSecretRef" -> s.knownHostsSecretRef = ref;
        case "proxyJump[0].privateKeySecretRef" -> s.proxyJump.get(0).privateKeySecretRef = ref;
        case "proxyJump[1].privateKeyPassphraseSecretRef" -> s.proxyJump.get(1).privateKeyPassphraseSecretRef = ref;
        case "proxyJump[1].knownHostsSecretRef" -> s.proxyJump.get(1).knownHostsSecretRef = ref;
        default -> throw new IllegalArgumentException(field);
      }
      client.resource(other).create();
      createSecret("hf-token", "token", TOKEN);
      createSecret(ref.name, "k", "login-m4terial");
      rc.getSpec().secretEnv = List.of(secret("HF_TOKEN", "hf-token", "token"), secret("LEAK", ref.name, "k"));
      assertThat(refusal()).contains("Secret " + ref.name + " is the SSH key of GpuCluster other-box: never a secret variable "
          + "(spec.secretEnv[1], LEAK)").doesNotContain("login-m4terial", "s3cr3t");
    }

    @Test
    void aMissingKeyIsNamedAndTheGpuClustersSecretsComeFromItsNamespace() {
      cluster.getSpec().secretEnv = List.of(secret("WANDB_API_KEY", "bench-tokens", "wandb"));
      createCluster();
      createSecret("hf-token", "token", TOKEN);
      createSecret("bench-tokens", "openai", "sk-other");
      reconcile();
      reconcile();
      assertThat(host.submitCalls.get()).isZero();
      assertThat(Conditions.find(rc.getStatus().conditions, StatusAggregator.DEGRADED).getMessage())
          .contains("Secret bench-tokens in namespace bench has no key wandb (GpuCluster h100-box spec.secretEnv[0], WANDB_API_KEY)")
          .doesNotContain("sk-other", "s3cr3t");
    }
  }
}
