package dev.srt.operator.cli;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.stream.Stream;

/**
 * The recorded corpus (src/test/resources/corpus/v1, its README says how it was recorded): run
 * directories of real emulated runs, copied to a directory of the test's own, and a GpuCluster
 * whose work directory is that copy, so that {@code report} reads them as a host's.
 */
record RecordedRuns(Path comparison, Path cluster, Path workDir) {
  static final Path CORPUS = Path.of("src/test/resources/corpus/v1");

  /** {@code comparisonFile} (a file of the corpus) over a copy of the corpus's runs under {@code tmp}. */
  static RecordedRuns of(String comparisonFile, Path tmp) {
    try {
      Path workDir = tmp.resolve("host");
      copy(CORPUS.resolve("host"), workDir);
      Path cluster = tmp.resolve("cluster.yaml");
      String yaml = Files.readString(Path.of("examples/local-emulated-cluster.yaml"));
      if (!yaml.contains("workDir: /tmp/srt-emulated-host")) {
        throw new IllegalStateException("examples/local-emulated-cluster.yaml no longer has the work directory this copies over");
      }
      Files.writeString(cluster, yaml.replace("workDir: /tmp/srt-emulated-host", "workDir: " + workDir));
      return new RecordedRuns(CORPUS.resolve(comparisonFile), cluster, workDir);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  private static void copy(Path from, Path to) throws IOException {
    try (Stream<Path> all = Files.walk(from)) {
      for (Path p : (Iterable<Path>) all::iterator) {
        Path target = to.resolve(from.relativize(p).toString());
        if (Files.isDirectory(p)) {
          Files.createDirectories(target);
        } else {
          Files.copy(p, target);
        }
      }
    }
  }
}
