package dev.srt.operator.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.srt.operator.host.ExecResult;
import dev.srt.operator.host.SshTransport;
import dev.srt.operator.testinfra.SshAgent;
import dev.srt.operator.testinfra.TestCluster;
import dev.srt.operator.testinfra.TestComparison;
import dev.srt.operator.testinfra.TestHosts;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code srt-operator check} and {@code apply}, as the packaged jar run by a user, through the
 * test bastion to the test sshd that only the bastion resolves ({@code srt-login}), on this
 * machine as an emulated direct host: a passphrase-protected key whose passphrase is in an
 * environment variable, an ssh-agent, a wrong passphrase; and {@code check} on a host without
 * cargo (the bastion itself, whose sessions have a stock PATH).
 */
class JumpHostCliIT {
  private static final Path JAR = Path.of("target/srt-operator.jar").toAbsolutePath();
  private static final String PASSPHRASE_VAR = "SRT_TEST_KEY_PASSPHRASE";
  private static final Pattern RUN_ID = Pattern.compile("submitted run (r[0-9a-f]{8}) ");

  private static TestHosts.SshTarget ssh;
  private static TestHosts.Bastion bastion;
  private static SshEmulatedHost host;
  private static Path bin;
  private static Path rustBin;
  private static Path comparison;

  record Result(int code, String out, String err) {
    @Override
    public String toString() {
      return "exit " + code + "\n" + out + err;
    }
  }

  @BeforeAll
  static void emulatedHost() throws Exception {
    ssh = TestHosts.ssh();
    bastion = TestHosts.bastion();
    host = SshEmulatedHost.install("srt-jump-");
    bin = host.base().resolve("emulator/bin");
    // cargo and rustc apart, so that a cluster can be a host without Rust.
    rustBin = Files.createDirectories(host.base().resolve("rust/bin"));
    for (String tool : List.of("cargo", "rustc")) {
      Files.move(bin.resolve(tool), rustBin.resolve(tool));
    }
    comparison = host.base().resolve("comparison.yaml");
    Files.writeString(comparison, TestComparison.oneRouterArm("through-the-bastion", "behind-bastion"));
  }

  @AfterAll
  static void removeHost() throws IOException {
    SshEmulatedHost.remove(host);
  }

  /** The test sshd as the bastion knows it, with {@code key}. */
  private static TestHosts.SshTarget behindBastion(Path key) {
    return new TestHosts.SshTarget(bastion.target(), ssh.port(), ssh.user(), key, bastion.knownHostsFile());
  }

  private static Path cluster(TestCluster cluster, String name) throws IOException {
    Path file = host.base().resolve(name + ".yaml");
    Files.writeString(file, cluster.workDir(host.base().resolve("work")).mode("direct").yaml());
    return file;
  }

  private static Result cli(Map<String, String> env, String... args) throws Exception {
    List<String> command = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(), "-jar",
        JAR.toString()));
    command.addAll(List.of(args));
    ProcessBuilder pb = new ProcessBuilder(command);
    pb.environment().remove("JAVA_TOOL_OPTIONS");
    pb.environment().remove("SSH_AUTH_SOCK");
    pb.environment().putAll(env);
    Process p = pb.redirectInput(ProcessBuilder.Redirect.from(new java.io.File("/dev/null"))).start();
    var err = java.util.concurrent.CompletableFuture.supplyAsync(() -> read(p.getErrorStream()));
    String out = read(p.getInputStream());
    assertThat(p.waitFor(3, TimeUnit.MINUTES)).as("srt-operator %s ended", args[0]).isTrue();
    return new Result(p.exitValue(), out, err.get());
  }

  private static String read(java.io.InputStream in) {
    try {
      return new String(in.readAllBytes(), StandardCharsets.UTF_8);
    } catch (IOException e) {
      throw new java.io.UncheckedIOException(e);
    }
  }

  @Test
  void checkAndApplyThroughTheBastionWithAPassphraseProtectedKey() throws Exception {
    Path file = cluster(TestCluster.named("behind-bastion", behindBastion(bastion.passphraseKey()))
        .path(List.of(bin, rustBin)).passphraseFromEnv(PASSPHRASE_VAR).jump(bastion.host(), bastion.port()), "passphrase");
    Map<String, String> env = Map.of(PASSPHRASE_VAR, bastion.passphrase());
    String via = "ssh://root@" + bastion.target() + ":" + ssh.port() + " via ssh://root@" + bastion.host() + ":" + bastion.port();

    Result check = cli(env, "check", "-f", comparison.toString(), "--cluster", file.toString());
    assertThat(check.code()).as(check.toString()).isZero();
    assertThat(check.out()).contains("(direct mode, " + via + "): sgl-router")
        .containsPattern("python3: import sglang +sglang [^ ]+ +yes")
        .containsPattern("cargo \\(on PATH\\) +" + Pattern.quote(rustBin.resolve("cargo").toString()) + " +yes")
        .containsPattern("all \\d+ requirements met");

    Result apply = cli(env, "apply", "-f", comparison.toString(), "--cluster", file.toString());
    assertThat(apply.code()).as(apply.toString()).isZero();
    assertThat(apply.out()).contains("applying RouterComparison through-the-bastion on GpuCluster behind-bastion (direct mode, " + via)
        .contains("1/1 arms succeeded");
    Matcher run = RUN_ID.matcher(apply.out());
    assertThat(run.find()).as(apply.out()).isTrue();
    Path runDir = host.base().resolve("work/default/through-the-bastion/sgl-router/" + run.group(1));
    assertThat(runDir.resolve("results/bench-serving.jsonl")).isNotEmptyFile();
    await().atMost(Duration.ofSeconds(30)).untilAsserted(() ->
        assertThat(ApplyCommandIT.Processes.withRunId(run.group(1))).as("processes of the run").isEmpty());
    for (Result r : List.of(check, apply)) {
      assertThat(r.out() + r.err()).doesNotContain(bastion.passphrase());
    }
  }

  @Test
  void anSshAgentLogsInOnTheBastionAndTheTarget(@TempDir Path dir) throws Exception {
    Path file = cluster(TestCluster.named("behind-bastion", behindBastion(ssh.keyFile())).keyFromAgent()
        .path(List.of(bin, rustBin)).jump(bastion.host(), bastion.port()), "agent");
    try (SshAgent agent = SshAgent.start(dir)) {
      agent.add(ssh.keyFile());
      Result check = cli(Map.of("SSH_AUTH_SOCK", agent.socket().toString()), "check", "-f", comparison.toString(),
          "--cluster", file.toString());
      assertThat(check.code()).as(check.toString()).isZero();
      assertThat(check.out()).containsPattern("all \\d+ requirements met");
    }
    Result noAgent = cli(Map.of(), "check", "-f", comparison.toString(), "--cluster", file.toString());
    assertThat(noAgent.code()).isEqualTo(1);
    assertThat(noAgent.err()).contains("spec.ssh names no privateKeyFile and no ssh-agent is running (SSH_AUTH_SOCK is not set)");
  }

  @Test
  void aWrongPassphraseIsAnAuthFailureNamingTheKey() throws Exception {
    Path file = cluster(TestCluster.named("behind-bastion", behindBastion(bastion.passphraseKey()))
        .path(List.of(bin, rustBin)).passphraseFromEnv(PASSPHRASE_VAR).jump(bastion.host(), bastion.port()), "wrong");
    String wrong = "not-" + bastion.passphrase();
    Result check = cli(Map.of(PASSPHRASE_VAR, wrong), "check", "-f", comparison.toString(), "--cluster", file.toString());
    assertThat(check.code()).isEqualTo(1);
    // (the example's own validation warnings come first)
    assertThat(check.err()).endsWith("\ncheck: GpuCluster behind-bastion: jump host ssh://root@" + bastion.host() + ":" + bastion.port()
        + ": wrong passphrase for the private key " + bastion.passphraseKey() + "\n");
    assertThat(check.out() + check.err()).doesNotContain(wrong).doesNotContain("Exception");
  }

  @Test
  void checkOnAHostWithoutCargoNamesIt() throws Exception {
    // The bastion itself as the host: its sessions' PATH is Debian's stock one, without Rust.
    TestHosts.SshTarget onBastion = new TestHosts.SshTarget(bastion.host(), bastion.port(), ssh.user(), ssh.keyFile(),
        bastion.knownHostsFile());
    try (SshTransport t = new SshTransport(onBastion.sshConfig())) {
      ExecResult cargo = t.exec("type -P cargo rustc", Duration.ofSeconds(30));
      TestHosts.require(cargo.stdout().isBlank() ? null : "the bastion's stock PATH has cargo or rustc: " + cargo.stdout().strip(),
          "this test needs a host without Rust on its system PATH");
    }
    Path file = cluster(TestCluster.named("behind-bastion", onBastion).path(List.of(bin)), "no-cargo");
    Result check = cli(Map.of(), "check", "-f", comparison.toString(), "--cluster", file.toString());
    assertThat(check.code()).as(check.toString()).isEqualTo(1);
    assertThat(check.out()).containsPattern("cargo \\(on PATH\\) +not found on PATH +NO")
        .containsPattern("rustc \\(on PATH\\) +not found on PATH +NO")
        .containsPattern("python3: import sglang +sglang [^ ]+ +yes")
        .contains("2 requirement(s) missing:")
        .contains("  cargo (on PATH) (needed by sgl-router): not found on PATH\n    fix: install Rust on the host (rustup), "
            + "or put its bin directory (e.g. ~/.cargo/bin) on the GpuCluster's spec.path");
  }
}
