package dev.srt.operator.host;

import java.io.ByteArrayOutputStream;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;

/**
 * Collects a command's output up to a limit. JSch's session thread writes into it, so it must
 * never block; bytes past the limit are counted and dropped, and the caller reports the overflow.
 */
final class BoundedBuffer extends OutputStream {
  private final ByteArrayOutputStream bytes = new ByteArrayOutputStream();
  private final long limit;
  private long dropped;

  BoundedBuffer(long limit) {
    this.limit = limit;
  }

  @Override
  public synchronized void write(int b) {
    if (bytes.size() < limit) {
      bytes.write(b);
    } else {
      dropped++;
    }
  }

  @Override
  public synchronized void write(byte[] b, int off, int len) {
    int room = (int) Math.max(0, Math.min(len, limit - bytes.size()));
    bytes.write(b, off, room);
    dropped += len - room;
  }

  synchronized boolean overflowed() {
    return dropped > 0;
  }

  synchronized String text() {
    return bytes.toString(StandardCharsets.UTF_8);
  }
}
