package dev.srt.operator.testinfra;

import static org.junit.jupiter.api.Assertions.assertDoesNotThrow;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.srt.operator.testinfra.TestHosts.SshTarget;
import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.opentest4j.AssertionFailedError;
import org.opentest4j.TestAbortedException;

class TestHostsTest {

  @TempDir Path dir;

  @Test
  void parsesTheFileTheScriptsWrite() throws IOException {
    Path env = dir.resolve("env");
    Files.writeString(env, """
        SRT_TEST_SLURM=1
        SRT_TEST_SLURM_PARTITION=debug
        SRT_TEST_SLURM_MULTINODE_PARTITION=multinode
        SRT_TEST_SLURM_MULTINODE_NODES=2
        SRT_TEST_SSH_HOST=127.0.0.1
        SRT_TEST_SSH_PORT=2222
        SRT_TEST_SSH_USER=root
        SRT_TEST_SSH_KEY=/root/.srt-test/id_ed25519
        SRT_TEST_SSH_KNOWN_HOSTS=/root/.srt-test/known_hosts
        """);

    Map<String, String> values = TestHosts.load(env);

    assertEquals(
        Optional.of(new SshTarget("127.0.0.1", 2222, "root",
            Path.of("/root/.srt-test/id_ed25519"), Path.of("/root/.srt-test/known_hosts"))),
        TestHosts.sshTarget(values));
    assertNull(TestHosts.slurmProblem(values));
    assertEquals("debug", values.get("SRT_TEST_SLURM_PARTITION"));
    assertEquals(Optional.of(new TestHosts.MultiNodePartition("multinode", 2)), TestHosts.multiNode(values));
  }

  @Test
  void toleratesCommentsQuotesExportAndCrlf() throws IOException {
    Path env = dir.resolve("env");
    Files.writeString(env, "# comment\r\n\r\nexport A=\"x y\"\r\nB='z'\r\nnot a line\r\n=v\r\n"
        + "C=a=b\r\nA=later\r\n");

    Map<String, String> values = TestHosts.load(env);

    assertEquals(Map.of("A", "later", "B", "z", "C", "a=b"), values);
  }

  @Test
  void missingFileOrKeysMeanNotAvailable() {
    assertEquals(Map.of(), TestHosts.load(dir.resolve("absent")));
    assertTrue(TestHosts.sshTarget(Map.of("SRT_TEST_SSH_HOST", "127.0.0.1")).isEmpty());
    assertTrue(TestHosts.sshTarget(Map.of(
        "SRT_TEST_SSH_HOST", "h", "SRT_TEST_SSH_PORT", "ssh", "SRT_TEST_SSH_USER", "u",
        "SRT_TEST_SSH_KEY", "/k", "SRT_TEST_SSH_KNOWN_HOSTS", "/kh")).isEmpty());
    assertTrue(TestHosts.sshProblem(Map.of()).startsWith("no SSH test host configured"));
    assertNotNull(TestHosts.slurmProblem(Map.of("SRT_TEST_SLURM", "0")));
    assertTrue(TestHosts.multiNode(Map.of("SRT_TEST_SLURM_MULTINODE_PARTITION", "multinode")).isEmpty());
    assertTrue(TestHosts.multiNode(Map.of("SRT_TEST_SLURM_MULTINODE_PARTITION", "multinode",
        "SRT_TEST_SLURM_MULTINODE_NODES", "1")).isEmpty());
  }

  @Test
  void sshNeedsReadableFilesAndAListeningPort() throws IOException {
    Path key = Files.writeString(dir.resolve("id"), "k");
    Path knownHosts = Files.writeString(dir.resolve("kh"), "h");
    try (ServerSocket server = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
      Map<String, String> values = Map.of(
          "SRT_TEST_SSH_HOST", "127.0.0.1", "SRT_TEST_SSH_PORT", String.valueOf(server.getLocalPort()),
          "SRT_TEST_SSH_USER", "root", "SRT_TEST_SSH_KEY", key.toString(),
          "SRT_TEST_SSH_KNOWN_HOSTS", knownHosts.toString());
      assertNull(TestHosts.sshProblem(values));

      Map<String, String> noKey = new HashMap<>(values);
      noKey.put("SRT_TEST_SSH_KEY", dir.resolve("absent").toString());
      assertTrue(TestHosts.sshProblem(noKey).contains("not readable"));
    }
  }

  @Test
  void skipsLocallyButFailsWhenRequired() {
    assertDoesNotThrow(() -> TestHosts.require(null, "hint", "1"));
    TestAbortedException skipped =
        assertThrows(TestAbortedException.class, () -> TestHosts.require("down", "run it", null));
    assertTrue(skipped.getMessage().contains("down: run it"));
    assertThrows(TestAbortedException.class, () -> TestHosts.require("down", "run it", "0"));
    AssertionFailedError failed =
        assertThrows(AssertionFailedError.class, () -> TestHosts.require("down", "run it", "1"));
    assertFalse(failed.getMessage().isEmpty());
  }
}
