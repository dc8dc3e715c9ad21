package dev.srt.operator.testinfra;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;

/** Symbolic links a test planted in its temporary directory. */
public final class Links {
  private Links() {}

  /**
   * Removes every symbolic link under {@code dir} (the links, never what they point to), so that
   * JUnit's clean-up of a {@code @TempDir} has none left to warn about on the test output.
   */
  public static void removeAll(Path dir) {
    if (!Files.isDirectory(dir)) {
      return;
    }
    List<Path> links;
    try (Stream<Path> all = Files.walk(dir)) {
      links = all.filter(Files::isSymbolicLink).toList();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    for (Path link : links) {
      try {
        Files.deleteIfExists(link);
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
    }
  }
}
