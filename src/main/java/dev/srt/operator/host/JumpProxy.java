package dev.srt.operator.host;

import com.jcraft.jsch.Channel;
import com.jcraft.jsch.Proxy;
import com.jcraft.jsch.Session;
import com.jcraft.jsch.SocketFactory;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.time.Duration;

/**
 * The way to the next server of a jump chain: a {@code direct-tcpip} channel of the jump host's
 * session, which is what OpenSSH's ProxyJump ({@code ssh -W host:port}) opens. The jump host
 * resolves the name and connects, so a target whose name only resolves behind the bastion is
 * reached as with OpenSSH.
 *
 * <p>There is no socket, so JSch cannot time out a read: the stream of the channel does it
 * instead, after the connect timeout while the session is being set up and after the keepalive
 * interval once it is ({@link #connected()}). That is what lets JSch's keepalives notice a target
 * that stopped answering behind a jump host that still does.
 */
final class JumpProxy implements Proxy {
  /** What the jump host's session may have buffered for a reader that fell behind, before it waits. */
  private static final int MAX_BUFFERED = 64 * 1024 * 1024;

  private final Session via;
  private final Duration keepaliveInterval;
  private final Pipe pipe;
  private Channel channel;
  private OutputStream out;

  JumpProxy(Session via, Duration connectTimeout, Duration keepaliveInterval) {
    this.via = via;
    this.keepaliveInterval = keepaliveInterval;
    this.pipe = new Pipe(connectTimeout.toMillis());
  }

  @Override
  public void connect(SocketFactory socketFactory, String host, int port, int timeout) throws Exception {
    channel = via.getStreamForwarder(host, port);
    channel.setOutputStream(pipe.sink());
    out = channel.getOutputStream();
    channel.connect(timeout);
  }

  /** The session over this channel is set up: from now on a read waits one keepalive interval. */
  void connected() {
    pipe.timeoutMillis = keepaliveInterval.toMillis();
  }

  @Override
  public InputStream getInputStream() {
    return pipe.source();
  }

  @Override
  public OutputStream getOutputStream() {
    return out;
  }

  @Override
  public Socket getSocket() {
    return null;
  }

  @Override
  public void close() {
    if (channel != null) {
      channel.disconnect();
    }
    pipe.close();
  }

  /**
   * Bytes from the jump host's session thread (the sink) to the target's session thread (the
   * source). The sink grows instead of blocking (up to {@link #MAX_BUFFERED}), so the jump host's
   * thread never waits for a reader that is itself waiting for the jump host.
   */
  private static final class Pipe {
    private byte[] buffer = new byte[64 * 1024];
    private int start;
    private int length;
    private boolean closed;
    private volatile long timeoutMillis;

    Pipe(long timeoutMillis) {
      this.timeoutMillis = Math.max(1, timeoutMillis);
    }

    synchronized void close() {
      closed = true;
      notifyAll();
    }

    OutputStream sink() {
      return new OutputStream() {
        @Override
        public void write(int b) throws IOException {
          write(new byte[] {(byte) b}, 0, 1);
        }

        @Override
        public void write(byte[] b, int off, int len) throws IOException {
          put(b, off, len);
        }

        @Override
        public void close() {
          Pipe.this.close();
        }
      };
    }

    InputStream source() {
      return new InputStream() {
        @Override
        public int read() throws IOException {
          byte[] one = new byte[1];
          int n = read(one, 0, 1);
          return n < 0 ? -1 : one[0] & 0xff;
        }

        @Override
        public int read(byte[] b, int off, int len) throws IOException {
          return take(b, off, len);
        }

        @Override
        public synchronized int available() {
          return Pipe.this.available();
        }

        @Override
        public void close() {
          Pipe.this.close();
        }
      };
    }

    private synchronized int available() {
      return length;
    }

    private synchronized void put(byte[] b, int off, int len) throws IOException {
      while (!closed && length + len > MAX_BUFFERED) {
        waitUninterruptibly(0);
      }
      if (closed) {
        throw new IOException("the connection through the jump host is closed");
      }
      if (length + len > buffer.length) {
        byte[] bigger = new byte[Math.max(buffer.length * 2, length + len)];
        copyOut(bigger, 0, length);
        buffer = bigger;
        start = 0;
      }
      int end = (start + length) % buffer.length;
      int first = Math.min(len, buffer.length - end);
      System.arraycopy(b, off, buffer, end, first);
      System.arraycopy(b, off + first, buffer, 0, len - first);
      length += len;
      notifyAll();
    }

    private synchronized int take(byte[] b, int off, int len) throws IOException {
      if (len == 0) {
        return 0;
      }
      long deadline = System.nanoTime() + timeoutMillis * 1_000_000L;
      while (length == 0 && !closed) {
        long left = (deadline - System.nanoTime()) / 1_000_000L;
        if (left <= 0) {
          throw new SocketTimeoutException("no data through the jump host for " + timeoutMillis + " ms");
        }
        waitUninterruptibly(left);
      }
      if (length == 0) {
        return -1;
      }
      int n = Math.min(len, length);
      copyOut(b, off, n);
      start = (start + n) % buffer.length;
      length -= n;
      notifyAll();
      return n;
    }

    private void copyOut(byte[] to, int off, int n) {
      int first = Math.min(n, buffer.length - start);
      System.arraycopy(buffer, start, to, off, first);
      System.arraycopy(buffer, 0, to, off + first, n - first);
    }

    private void waitUninterruptibly(long millis) throws IOException {
      try {
        wait(millis);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new IOException("interrupted while reading through the jump host", e);
      }
    }
  }
}
