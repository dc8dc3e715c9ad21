package dev.srt.operator.cli;

import dev.srt.operator.config.Echo;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.BasicFileAttributes;
import java.nio.file.attribute.PosixFilePermission;
import java.security.SecureRandom;
import java.util.HexFormat;
import java.util.Set;

/**
 * How the CLI writes the files it is told to ({@code report --html FILE}, {@code render --out-dir
 * DIR}, {@code import --out-file FILE} and {@code --cluster-out FILE}): a path that exists and is
 * not a regular file (a symbolic link, a FIFO, a directory, a device, a socket) is refused, never
 * written through or blocked on; the content goes to a new temporary file in the same directory
 * (created exclusively, so not through a link either) and is renamed over the target, so a reader
 * sees the old file or the whole new one, and a failed write leaves the old one as it was.
 */
final class OutputFiles {
  private static final SecureRandom RANDOM = new SecureRandom();

  private OutputFiles() {}

  /** A target that is not a regular file, or a directory on the way that is not a directory: nothing was written. */
  static final class Refused extends IOException {
    private static final long serialVersionUID = 1L;

    Refused(String message) {
      super(message);
    }
  }

  /** Writes {@code text} (UTF-8) to {@code target}, atomically; the new file's mode comes from the umask. */
  static void write(Path target, String text) throws IOException {
    write(target, text.getBytes(StandardCharsets.UTF_8), null);
  }

  /** Writes {@code content} to {@code target}, atomically, with {@code permissions} when not null. */
  static void write(Path target, byte[] content, Set<PosixFilePermission> permissions) throws IOException {
    Path file = target.toAbsolutePath();
    Path dir = file.getParent();
    BasicFileAttributes existing = refuseUnlessRegular(target, file);
    if (permissions == null && existing != null) {
      permissions = keptPermissions(file);
    }
    Path tmp = dir.resolve("." + file.getFileName() + "." + HexFormat.of().formatHex(nonce()) + ".tmp");
    boolean moved = false;
    try {
      // CREATE_NEW: O_EXCL, which neither follows nor reuses anything already at tmp's name.
      try (OutputStream out = Files.newOutputStream(tmp, StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE)) {
        out.write(content);
      }
      if (permissions != null) {
        Files.setPosixFilePermissions(tmp, permissions);
      }
      // Checked again just before the rename; rename(2) replaces a link itself, never its target.
      refuseUnlessRegular(target, file);
      try {
        Files.move(tmp, file, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
      } catch (AtomicMoveNotSupportedException e) {
        throw new IOException(Echo.escape(target.toString()) + ": cannot be replaced atomically: not written", e);
      }
      moved = true;
    } catch (NoSuchFileException e) {
      throw new IOException(Echo.escape(String.valueOf(dir)) + ": no such directory: " + Echo.escape(target.toString())
          + " not written", e);
    } catch (FileAlreadyExistsException e) {
      throw new IOException(Echo.escape(target.toString()) + ": a file of the temporary name exists: not written", e);
    } finally {
      if (!moved) {
        Files.deleteIfExists(tmp);
      }
    }
  }

  /**
   * Creates {@code dir} and its missing parents as {@link Files#createDirectories} does, but
   * refuses {@code dir} when it exists and is not a directory itself (a symbolic link to one
   * included): the files written into it would land where the link points.
   */
  static Path directory(Path dir) throws IOException {
    BasicFileAttributes a = attributes(dir.toAbsolutePath());
    if (a == null) {
      return Files.createDirectories(dir);
    }
    if (!a.isDirectory()) {
      throw new Refused(Echo.escape(dir.toString()) + " is " + (a.isRegularFile() ? "a file" : what(dir.toAbsolutePath(), a))
          + ": not written");
    }
    return dir;
  }

  /** The attributes of the regular file at {@code file} (null: nothing there); anything else is refused. */
  private static BasicFileAttributes refuseUnlessRegular(Path shown, Path file) throws IOException {
    BasicFileAttributes a = attributes(file);
    if (a != null && !a.isRegularFile()) {
      throw new Refused(Echo.escape(shown.toString()) + " is " + what(file, a) + ": not written");
    }
    return a;
  }

  /** A file that is replaced keeps its mode, as it did when it was written in place (null: no POSIX view). */
  private static Set<PosixFilePermission> keptPermissions(Path file) {
    try {
      return Files.getPosixFilePermissions(file, LinkOption.NOFOLLOW_LINKS);
    } catch (IOException | UnsupportedOperationException e) {
      return null;
    }
  }

  /** The attributes of the path itself (a link is not followed), or null when nothing is there. */
  private static BasicFileAttributes attributes(Path path) throws IOException {
    try {
      return Files.readAttributes(path, BasicFileAttributes.class, LinkOption.NOFOLLOW_LINKS);
    } catch (NoSuchFileException e) {
      return null;
    }
  }

  /** What a path that is not a regular file is, for the refusal. */
  static String what(Path path, BasicFileAttributes a) {
    if (a.isSymbolicLink()) {
      return "a symbolic link";
    }
    if (a.isDirectory()) {
      return "a directory";
    }
    try {
      int type = (Integer) Files.getAttribute(path, "unix:mode", LinkOption.NOFOLLOW_LINKS) & 0170000;
      switch (type) {
        case 0010000:
          return "a FIFO";
        case 0020000:
          return "a character device";
        case 0060000:
          return "a block device";
        case 0140000:
          return "a socket";
        default:
          break;
      }
    } catch (IOException | UnsupportedOperationException | IllegalArgumentException | ClassCastException e) {
      // no unix view: say what is certain
    }
    return "not a regular file";
  }

  private static byte[] nonce() {
    byte[] b = new byte[8];
    RANDOM.nextBytes(b);
    return b;
  }
}
