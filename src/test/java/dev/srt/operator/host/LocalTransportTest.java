package dev.srt.operator.host;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class LocalTransportTest {
  private static final Duration T = Duration.ofSeconds(20);
  private final LocalTransport local = new LocalTransport();

  @Test
  void runsBashWithStdinAndReportsExitCodeAndStreams() throws Exception {
    ExecResult r = local.exec("tr a-z A-Z; echo oops >&2; exit 3", "hello".getBytes(StandardCharsets.UTF_8), T);
    assertThat(r).isEqualTo(new ExecResult(3, "HELLO", "oops\n"));
    assertThat(local.exec("[[ -t 0 ]] || cat; echo done", T).stdout()).isEqualTo("done\n");
  }

  @Test
  void aTimedOutCommandIsKilledWithItsChildren(@TempDir Path dir) throws Exception {
    Path pids = dir.resolve("pids");
    String command = "sleep 300 & echo $! >" + pids + "; echo $$ >>" + pids + "; wait";
    long start = System.nanoTime();
    assertThatThrownBy(() -> local.exec(command, Duration.ofSeconds(1)))
        .isInstanceOfSatisfying(HostException.class, e -> assertThat(e.kind()).isEqualTo(HostException.Kind.TIMEOUT));
    assertThat(Duration.ofNanos(System.nanoTime() - start)).isLessThan(Duration.ofSeconds(8));
    for (String pid : Files.readAllLines(pids)) {
      org.awaitility.Awaitility.await().atMost(Duration.ofSeconds(10))
          .until(() -> ProcessHandle.of(Long.parseLong(pid)).map(p -> !p.isAlive()).orElse(true));
    }
  }

  @Test
  void writeFileIsAtomicWithModeAndParents(@TempDir Path dir) throws Exception {
    Path target = dir.resolve("a b/it's $(nested)/run.sh");
    local.writeFile(target.toString(), "#!/bin/bash\necho hi\n".getBytes(StandardCharsets.UTF_8), 0750, T);
    assertThat(Files.readString(target)).isEqualTo("#!/bin/bash\necho hi\n");
    assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(target))).isEqualTo("rwxr-x---");
    local.writeFile(target.toString(), new byte[0], 0600, T);
    assertThat(Files.size(target)).isZero();
    try (var files = Files.list(target.getParent())) {
      assertThat(files).containsExactly(target);
    }
  }

  @Test
  void writeFileFailureIsACommandFailure(@TempDir Path dir) throws Exception {
    Files.writeString(dir.resolve("file"), "x");
    assertThatThrownBy(() -> local.writeFile(dir.resolve("file/child").toString(), new byte[1], 0644, T))
        .isInstanceOfSatisfying(HostException.class,
            e -> assertThat(e.kind()).isEqualTo(HostException.Kind.COMMAND_FAILED));
  }

  @Test
  void guardedCommandPutsAHostSideTimeoutAroundBash() {
    assertThat(GuardedCommand.argv("echo 'x'", Duration.ofMillis(1500)))
        .containsExactly("timeout", "-k", "5s", "4s", "bash", "-c", "echo 'x'");
    assertThat(GuardedCommand.line("echo 'x'", Duration.ofSeconds(10)))
        .isEqualTo("exec timeout -k 5s 12s bash -c 'echo '\\''x'\\'''");
  }
}
