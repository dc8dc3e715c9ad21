package dev.srt.operator.host;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.srt.operator.base.Shell;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The backends' remote commands, run by bash on this machine with hostile names. Fake
 * sbatch/squeue/scancel record the exact argv they receive, so any quoting mistake shows up as a
 * wrong argument (or as a file created by injected code).
 */
class BackendCommandQuotingTest {
  private static final String HOSTILE_ARM = "x'; touch pwned; echo \"$(touch pwned2)\" `touch pwned3` \\";

  @TempDir Path tmp;
  private Path bin;
  private Path argvLog;
  private String workDir;
  private RunRef run;
  private CountingTransport transport;

  @BeforeEach
  void fakeSlurm() throws Exception {
    bin = Files.createDirectories(tmp.resolve("bin"));
    argvLog = tmp.resolve("argv");
    fake("sbatch", "printf '%s\\0' sbatch \"$@\" >>" + Shell.quote(argvLog.toString())
        + "; printf 'SRT_RUN_ID=%s\\0' \"$SRT_RUN_ID\" >>" + Shell.quote(argvLog.toString()) + "; echo '4242;cluster'");
    fake("scancel", "printf '%s\\0' scancel \"$@\" >>" + Shell.quote(argvLog.toString()));
    workDir = Files.createDirectories(tmp.resolve("work dir $(touch pwned) 'q'")).toString();
    run = new RunRef("default", "cmp", HOSTILE_ARM, "r1a2b3c4d");
    transport = new CountingTransport(new LocalTransport(),
        cmd -> "PATH=" + Shell.quote(bin.toString()) + ":\"$PATH\"\n" + cmd);
  }

  private void fake(String name, String body) throws Exception {
    Path file = bin.resolve(name);
    Files.writeString(file, "#!/bin/bash\n" + body + "\n");
    Files.setPosixFilePermissions(file, PosixFilePermissions.fromString("rwxr-xr-x"));
  }

  private List<String> recordedArgv() throws Exception {
    String all = Files.readString(argvLog);
    return Arrays.asList(all.substring(0, all.length() - 1).split("\0", -1));
  }

  @Test
  void slurmSubmitPassesEveryValueAsOneArgument() throws Exception {
    fake("squeue", "exit 0");
    SlurmBackend slurm = new SlurmBackend(transport, workDir);
    RunDirectory dir = slurm.runDirectory(run);

    Submission first = slurm.submit(run, "#!/bin/bash\necho 'job'\n");

    assertThat(first).isEqualTo(new Submission("4242", false));
    assertThat(recordedArgv()).containsExactly("sbatch", "--parsable", "--no-requeue",
        "--job-name=" + run.jobName(), "--comment=" + run.marker(), "--chdir=" + dir.path(),
        "--output=" + dir.scriptLog(), dir.script(), "SRT_RUN_ID=r1a2b3c4d");
    assertThat(Files.readString(Path.of(dir.script()))).isEqualTo("#!/bin/bash\necho 'job'\n");
    assertThat(Files.readString(Path.of(dir.jobId()))).isEqualTo("4242\n");
    assertThat(Path.of(dir.logs())).isDirectory();
    assertThat(Path.of(dir.results())).isDirectory();

    Submission again = slurm.submit(run, "#!/bin/bash\necho 'other'\n");
    assertThat(again).isEqualTo(new Submission("4242", true));
    assertThat(Files.readString(Path.of(dir.script()))).contains("job");
    ClusterObserverTest.assertNothingInjected(tmp);
  }

  /** secret.env, plan.json and the script travel on one stdin; each file gets exactly its own bytes. */
  @Test
  void slurmSubmitSplitsOneStdinIntoTheRunsFiles() throws Exception {
    fake("squeue", "exit 0");
    SlurmBackend slurm = new SlurmBackend(transport, workDir);
    RunDirectory dir = slurm.runDirectory(run);
    SecretEnvFile secrets = SecretEnvFile.of(java.util.Map.of("TOKEN", "t\u00e9\nx"));
    String plan = "{\"arm\":\"\u00e9\"}\n";
    String script = "#!/bin/bash\necho 'job \u00e9'\n";

    assertThat(slurm.submit(run, new RunFiles(script, plan, secrets))).isEqualTo(new Submission("4242", false));

    assertThat(Files.readAllBytes(Path.of(dir.secretEnv()))).isEqualTo(secrets.content());
    assertThat(Files.readString(Path.of(dir.plan()))).isEqualTo(plan);
    assertThat(Files.readString(Path.of(dir.script()))).isEqualTo(script);
    assertThat(Files.getPosixFilePermissions(Path.of(dir.secretEnv()))).isEqualTo(PosixFilePermissions.fromString("rw-------"));
    assertThat(transport.execCount()).isEqualTo(1);
  }

  @Test
  void slurmSubmitFindsAJobByNameAndMarkerWhenJobIdWasNotWritten() throws Exception {
    fake("squeue", "printf '%s\\n' '900|RUNNING|None|" + run.jobName() + "|srt-operator:someone/else/x/r1' "
        + Shell.quote("901|PENDING|Priority|" + run.jobName() + "|" + run.marker()));
    // A crash between sbatch and writing job-id: the script is in place, job-id is not.
    SlurmBackend slurm = new SlurmBackend(transport, workDir);
    Files.createDirectories(Path.of(slurm.runDirectory(run).path()));
    Files.writeString(Path.of(slurm.runDirectory(run).script()), "#!/bin/bash\n");
    Submission found = slurm.submit(run, "#!/bin/bash\n");
    assertThat(found).isEqualTo(new Submission("901", true));
    assertThat(argvLog).doesNotExist();
  }

  /** bash takes SSH_CLIENT for "started by sshd" and then reads ~/.bashrc in the job's bash -c processes. */
  @Test
  void runsDoNotInheritTheSubmittingSshSession() throws Exception {
    fake("squeue", "exit 0");
    fake("sbatch", "printf '%s\\n' \"client=${SSH_CLIENT-unset} connection=${SSH_CONNECTION-unset}\" >"
        + Shell.quote(tmp.resolve("sbatch-env").toString()) + "; echo 4242");
    CountingTransport fromSsh = new CountingTransport(new LocalTransport(), cmd -> "export SSH_CLIENT='10.0.0.1 50000 22' "
        + "SSH_CONNECTION='10.0.0.1 50000 10.0.0.2 22'\nPATH=" + Shell.quote(bin.toString()) + ":\"$PATH\"\n" + cmd);
    new SlurmBackend(fromSsh, workDir).submit(run, "#!/bin/bash\n");
    assertThat(tmp.resolve("sbatch-env")).hasContent("client=unset connection=unset");

    DirectBackend direct = new DirectBackend(fromSsh, workDir, Duration.ofSeconds(2));
    RunRef other = new RunRef("default", "cmp", "direct-env", "r2b3c4d5e");
    direct.submit(other, "#!/bin/bash\nprintf '%s\\n' \"client=${SSH_CLIENT-unset}\" >results/env\n");
    Path env = Path.of(direct.runDirectory(other).results(), "env");
    Awaitility.await().atMost(Duration.ofSeconds(10)).until(() -> Files.exists(env));
    assertThat(env).hasContent("client=unset");
  }

  @Test
  void slurmOutputPathEscapesPercentForSbatch() {
    SlurmBackend slurm = new SlurmBackend(transport, "/w/100%");
    assertThat(slurm.submitCommand(run, 0, -1, -1)).contains(Shell.quote("--output=/w/100%%/default/cmp/"));
  }

  @Test
  void aRunAfterAnotherCarriesItsDependencyOrItsRunDirectoryQuoted() {
    RunRef before = new RunRef("default", "cmp", "arm", "r0000000a");
    SlurmBackend slurm = new SlurmBackend(transport, "/w/it's");
    assertThat(slurm.submitCommand(run, 0, -1, -1, new RunFiles.After(before, "4242"))).contains(" --dependency=afterany:4242 ");
    assertThat(slurm.submitCommand(run, 0, -1, -1)).doesNotContain("--dependency");
    DirectBackend direct = new DirectBackend(transport, "/w/it's");
    assertThat(direct.startCommand(run, new RunFiles.After(before, "77")))
        .contains(Shell.quote("SRT_AFTER_RUN_DIR=" + direct.runDirectory(before).path()));
    assertThat(direct.startCommand(run)).doesNotContain("SRT_AFTER_RUN_DIR=");
    org.assertj.core.api.Assertions.assertThatThrownBy(() -> new RunFiles.After(before, "1; rm -rf /"))
        .isInstanceOf(IllegalArgumentException.class);
  }

  @Test
  void slurmCancelCancelsOnlyAJobThatCarriesTheRunsMarker() throws Exception {
    fake("squeue", "echo " + Shell.quote("4242|" + run.marker()));
    SlurmBackend slurm = new SlurmBackend(transport, workDir);
    slurm.cancel(run, "4242");
    assertThat(recordedArgv()).containsExactly("scancel", "4242");

    Files.delete(argvLog);
    fake("squeue", "echo '4242|srt-operator:other/run/a/r2'");
    assertThatThrownBy(() -> slurm.cancel(run, "4242"))
        .isInstanceOfSatisfying(HostException.class,
            e -> assertThat(e.kind()).isEqualTo(HostException.Kind.COMMAND_FAILED));
    assertThat(argvLog).doesNotExist();

    fake("squeue", "echo 'slurm_load_jobs error: Invalid job id specified' >&2; exit 1");
    slurm.cancel(run, "4242");
    assertThat(argvLog).doesNotExist();

    // Without an id, the job is found by name and marker, as a repeated submit would.
    fake("squeue", "case \"$*\" in *--name=*) echo " + Shell.quote("77|RUNNING|None|" + run.jobName() + "|" + run.marker())
        + " ;; *) echo " + Shell.quote("77|" + run.marker()) + " ;; esac");
    slurm.cancel(run, null);
    assertThat(recordedArgv()).containsExactly("scancel", "77");
    assertThatThrownBy(() -> slurm.cancel(run, "42; reboot")).isInstanceOf(IllegalArgumentException.class);
  }

  @Test
  void directStartAndCancelWorkInAHostileDirectory() throws Exception {
    DirectBackend direct = new DirectBackend(transport, workDir, Duration.ofSeconds(2));
    RunDirectory dir = direct.runDirectory(run);
    String script = "#!/bin/bash\nprintf '%s\\n' \"$SRT_RUN_ID\" >results/id\nexec sleep 300\n";

    Submission started = direct.submit(run, script);

    assertThat(started.alreadyExisted()).isFalse();
    assertThat(Files.readString(Path.of(dir.pid())).strip()).isEqualTo(started.jobId());
    Awaitility.await().atMost(Duration.ofSeconds(10)).until(() -> Files.exists(Path.of(dir.results(), "id")));
    assertThat(Files.readString(Path.of(dir.results(), "id"))).isEqualTo("r1a2b3c4d\n");
    assertThat(direct.submit(run, script)).isEqualTo(new Submission(started.jobId(), true));

    direct.cancel(run, started.jobId());
    assertThat(direct.status(run, started.jobId()).state()).isEqualTo(JobState.CANCELLED);
    assertThat(Processes.running(Long.parseLong(started.jobId()))).isFalse();
    assertThat(Processes.withRunId(run.runId())).isEmpty();
    ClusterObserverTest.assertNothingInjected(tmp);
  }

  @Test
  void writeFileQuotesThePath() throws Exception {
    Path target = Path.of(workDir, "a'b", "$(touch pwned)");
    transport.writeFile(target.toString(), "x".getBytes(StandardCharsets.UTF_8), 0644, Duration.ofSeconds(10));
    assertThat(Files.readString(target)).isEqualTo("x");
    ClusterObserverTest.assertNothingInjected(tmp);
  }
}
