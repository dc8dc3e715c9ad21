package dev.srt.operator.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.attribute.BasicFileAttributes;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue 41, finding 8: {@code report --html FILE} wrote through a symbolic link (overwriting its
 * target) and blocked on a FIFO, and so did the other writers of named files ({@code render
 * --out-dir}, {@code import --out-file}, {@code --cluster-out}). Now a target that exists and is
 * not a regular file is refused with what it is, and a regular file is replaced atomically: a
 * temporary file in the same directory, renamed into place.
 */
class OutputFilesTest {
  static final String COMPARISON = "examples/router-comparison.yaml";
  static final String GATEWAY = "examples/srtctl/gateway-vs-dynamo/gateway.yaml";
  static final String DYNAMO = "examples/srtctl/gateway-vs-dynamo/dynamo-kv.yaml";
  static final Duration NO_BLOCKING = Duration.ofSeconds(30);

  @TempDir Path tmp;

  /** A file outside the output's directory that a planted link points at. */
  Path victim() throws IOException {
    Path victim = Files.writeString(Files.createDirectories(tmp.resolve("elsewhere")).resolve("victim.txt"), "keep me\n");
    Files.setPosixFilePermissions(victim, PosixFilePermissions.fromString("rw-------"));
    return victim;
  }

  static Path fifo(Path at) throws Exception {
    assumeTrue(Files.isExecutable(Path.of("/usr/bin/mkfifo")), "mkfifo is not installed");
    assertThat(new ProcessBuilder("mkfifo", at.toString()).inheritIO().start().waitFor()).isZero();
    return at;
  }

  static ValidateCommandTest.Run run(String... argv) {
    return assertTimeoutPreemptively(NO_BLOCKING, () -> ValidateCommandTest.run(argv), "the command must not block");
  }

  static List<String> leftovers(Path dir) throws IOException {
    try (Stream<Path> files = Files.list(dir)) {
      return files.map(p -> p.getFileName().toString()).filter(n -> n.endsWith(".tmp")).toList();
    }
  }

  // ---------------------------------------------------------------------------------------------
  // report --html

  @Test
  void reportHtmlRefusesASymbolicLinkAndLeavesItsTargetAlone() throws Exception {
    RecordedRuns runs = RecordedRuns.of("router-capacity.yaml", tmp);
    Path victim = victim();
    Path page = Files.createSymbolicLink(tmp.resolve("report.html"), victim);
    ValidateCommandTest.Run r = run("report", "-f", runs.comparison().toString(), "--cluster", runs.cluster().toString(),
        "--html", page.toString());
    assertThat(r.code()).as(r.toString()).isEqualTo(1);
    assertThat(r.err()).contains("report: " + page + " is a symbolic link: not written");
    assertThat(Files.readString(victim)).isEqualTo("keep me\n");
    assertThat(Files.isSymbolicLink(page)).isTrue();
    assertThat(leftovers(tmp)).isEmpty();
  }

  @Test
  void reportHtmlRefusesAFifoWithoutBlocking() throws Exception {
    RecordedRuns runs = RecordedRuns.of("router-capacity.yaml", tmp);
    Path page = fifo(tmp.resolve("report.html"));
    ValidateCommandTest.Run r = run("report", "-f", runs.comparison().toString(), "--cluster", runs.cluster().toString(),
        "--html", page.toString());
    assertThat(r.code()).as(r.toString()).isEqualTo(1);
    assertThat(r.err()).contains("report: " + page + " is a FIFO: not written");
  }

  @Test
  void reportHtmlReplacesARegularFileAtomicallyKeepingItsMode() throws Exception {
    RecordedRuns runs = RecordedRuns.of("router-capacity.yaml", tmp);
    Path page = Files.writeString(tmp.resolve("report.html"), "old\n");
    Files.setPosixFilePermissions(page, PosixFilePermissions.fromString("rw-r-----"));
    Object before = Files.readAttributes(page, BasicFileAttributes.class).fileKey();
    ValidateCommandTest.Run r = run("report", "-f", runs.comparison().toString(), "--cluster", runs.cluster().toString(),
        "--html", page.toString());
    assertThat(r.code()).as(r.toString()).isZero();
    assertThat(Files.readString(page)).startsWith("<!DOCTYPE html>");
    assertThat(Files.readAttributes(page, BasicFileAttributes.class).fileKey()).as("a new file renamed into place, not rewritten")
        .isNotEqualTo(before);
    assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(page))).isEqualTo("rw-r-----");
    assertThat(leftovers(tmp)).isEmpty();
  }

  // ---------------------------------------------------------------------------------------------
  // render --out-dir

  @Test
  void renderRefusesALinkedScriptAndALinkedArmDirectory() throws Exception {
    Path victim = victim();
    Path out = Files.createDirectories(tmp.resolve("out"));
    Files.createDirectories(out.resolve("sgl-router"));
    Path script = Files.createSymbolicLink(out.resolve("sgl-router/job.sbatch"), victim);
    ValidateCommandTest.Run r = run("render", "-f", COMPARISON, "--arm", "sgl-router", "--out-dir", out.toString());
    assertThat(r.code()).as(r.toString()).isEqualTo(1);
    assertThat(r.err()).contains("render: " + script + " is a symbolic link: not written");
    assertThat(Files.readString(victim)).isEqualTo("keep me\n");
    assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(victim))).as("not made executable").isEqualTo("rw-------");

    Path arm = Files.createSymbolicLink(out.resolve("dynamo-kv"), victim.getParent());
    r = run("render", "-f", COMPARISON, "--arm", "dynamo-kv", "--out-dir", out.toString());
    assertThat(r.code()).as(r.toString()).isEqualTo(1);
    assertThat(r.err()).contains("render: " + arm + " is a symbolic link: not written");
    try (Stream<Path> files = Files.list(victim.getParent())) {
      assertThat(files.map(p -> p.getFileName().toString())).containsExactly("victim.txt");
    }
  }

  @Test
  void renderRefusesAFifoAndWritesRegularScriptsExecutable() throws Exception {
    Path out = Files.createDirectories(tmp.resolve("out"));
    Files.createDirectories(out.resolve("sgl-router"));
    Path script = fifo(out.resolve("sgl-router/job.sbatch"));
    ValidateCommandTest.Run r = run("render", "-f", COMPARISON, "--arm", "sgl-router", "--out-dir", out.toString());
    assertThat(r.code()).as(r.toString()).isEqualTo(1);
    assertThat(r.err()).contains("render: " + script + " is a FIFO: not written");

    Files.delete(script);
    Files.writeString(script, "old");
    r = run("render", "-f", COMPARISON, "--out-dir", out.toString());
    assertThat(r.code()).as(r.toString()).isZero();
    for (String arm : List.of("sgl-router", "dynamo-kv", "dynamo-kv-policy")) {
      Path written = out.resolve(arm).resolve("job.sbatch");
      assertThat(Files.readString(written)).startsWith("#!/bin/bash");
      assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(written))).isEqualTo("rwxr-xr-x");
      assertThat(leftovers(out.resolve(arm))).isEmpty();
    }
  }

  @Test
  void renderRefusesAnOutDirThatIsAFile() throws Exception {
    Path out = Files.writeString(tmp.resolve("out"), "a file");
    ValidateCommandTest.Run r = run("render", "-f", COMPARISON, "--out-dir", out.toString());
    assertThat(r.code()).as(r.toString()).isEqualTo(1);
    assertThat(r.err()).contains("render: " + out + " is a file: not written").doesNotContain("Exception");
    assertThat(Files.readString(out)).isEqualTo("a file");
  }

  // ---------------------------------------------------------------------------------------------
  // import --out-file, --cluster-out

  @Test
  void importRefusesLinksAndFifosForBothFiles() throws Exception {
    Path victim = victim();
    Path out = Files.createSymbolicLink(tmp.resolve("comparison.yaml"), victim);
    ValidateCommandTest.Run r = run("import", GATEWAY, DYNAMO, "--name", "gw", "--out-file", out.toString());
    assertThat(r.code()).as(r.toString()).isEqualTo(1);
    assertThat(r.err()).contains("cannot write: " + out + " is a symbolic link: not written");
    assertThat(Files.readString(victim)).isEqualTo("keep me\n");

    Path regular = tmp.resolve("gw.yaml");
    Path cluster = fifo(tmp.resolve("cluster.yaml"));
    r = run("import", GATEWAY, DYNAMO, "--name", "gw", "--out-file", regular.toString(), "--cluster-out", cluster.toString());
    assertThat(r.code()).as(r.toString()).isEqualTo(1);
    assertThat(r.err()).contains("cannot write: " + cluster + " is a FIFO: not written");

    Path dir = Files.createDirectories(tmp.resolve("a-directory"));
    r = run("import", GATEWAY, DYNAMO, "--name", "gw", "--out-file", dir.toString());
    assertThat(r.code()).as(r.toString()).isEqualTo(1);
    assertThat(r.err()).contains("cannot write: " + dir + " is a directory: not written");
    assertThat(leftovers(tmp)).isEmpty();
  }

  // ---------------------------------------------------------------------------------------------
  // the helper

  @Test
  void aFailedWriteLeavesTheOldFileAndNoTemporaryFile() throws Exception {
    assertThatThrownBy(() -> OutputFiles.write(tmp.resolve("missing/f.txt"), "new\n")).isInstanceOf(IOException.class)
        .hasMessageContaining("no such directory");
    assertThat(leftovers(tmp)).isEmpty();
    Path dir = Files.createDirectories(tmp.resolve("ro"));
    Path file = Files.writeString(dir.resolve("f.txt"), "old\n");
    Files.setPosixFilePermissions(dir, PosixFilePermissions.fromString("r-xr-xr-x"));
    try {
      assumeTrue(!Files.isWritable(dir), "running as root: a read-only directory is writable");
      assertThatThrownBy(() -> OutputFiles.write(file, "new\n")).isInstanceOf(IOException.class);
      assertThat(Files.readString(file)).isEqualTo("old\n");
      assertThat(leftovers(dir)).isEmpty();
    } finally {
      Files.setPosixFilePermissions(dir, PosixFilePermissions.fromString("rwxr-xr-x"));
    }
  }

  @Test
  void aDanglingLinkIsRefusedToo() throws Exception {
    Path link = Files.createSymbolicLink(tmp.resolve("dangling.html"), tmp.resolve("does-not-exist"));
    assertThatThrownBy(() -> OutputFiles.write(link, "x")).isInstanceOf(OutputFiles.Refused.class)
        .hasMessage(link + " is a symbolic link: not written");
    assertThat(tmp.resolve("does-not-exist")).doesNotExist();
    assertThat(Files.exists(link, LinkOption.NOFOLLOW_LINKS)).isTrue();
  }
}
