package dev.srt.operator.host;

import com.jcraft.jsch.ChannelExec;
import com.jcraft.jsch.Identity;
import com.jcraft.jsch.JSch;
import com.jcraft.jsch.JSchException;
import com.jcraft.jsch.JSchHostKeyException;
import com.jcraft.jsch.Session;
import java.io.ByteArrayInputStream;
import java.net.ConnectException;
import java.net.NoRouteToHostException;
import java.net.SocketTimeoutException;
import java.net.UnknownHostException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Arrays;
import java.util.Map;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A {@link Transport} over SSH (JSch). One session serves every call, each command gets its own
 * channel: a JSch connect costs a handshake (~0.1 s, ~1 s for the ssh CLI), a channel almost
 * nothing. Keepalives detect a dead connection; the next call then reconnects, retrying with
 * {@link Backoff} a bounded number of times so that no call hangs on an unreachable host.
 *
 * <p>Only connecting and opening a channel are retried, never a command that may have started:
 * a session that drops while a command runs is reported as {@link HostException.Kind#UNREACHABLE}
 * and the caller decides (the backends' operations are idempotent).
 */
public final class SshTransport implements Transport {
  private static final Logger log = LoggerFactory.getLogger(SshTransport.class);

  /** Connection attempts per call before giving up with UNREACHABLE. */
  static final int DEFAULT_MAX_ATTEMPTS = 3;
  /**
   * Commands in flight at once. OpenSSH allows 10 channels per connection by default (MaxSessions);
   * staying below keeps a busy operator from being refused channels.
   */
  static final int DEFAULT_MAX_CONCURRENT_COMMANDS = 6;
  /** Output per stream that one command may return; the observer's batched poll is the largest. */
  static final long MAX_OUTPUT_BYTES = 64L * 1024 * 1024;
  /** Unanswered keepalives before the session counts as dead. */
  private static final int KEEPALIVE_COUNT_MAX = 3;
  private static final String IDENTITY_NAME = "srt-operator";

  private static final Map<String, Integer> SIGNALS = Map.ofEntries(
      Map.entry("HUP", 1), Map.entry("INT", 2), Map.entry("QUIT", 3), Map.entry("ILL", 4),
      Map.entry("ABRT", 6), Map.entry("FPE", 8), Map.entry("KILL", 9), Map.entry("USR1", 10),
      Map.entry("SEGV", 11), Map.entry("USR2", 12), Map.entry("PIPE", 13), Map.entry("ALRM", 14),
      Map.entry("TERM", 15));

  private final String host;
  private final int port;
  private final String user;
  private final boolean insecure;
  private final Duration connectTimeout;
  private final Duration keepaliveInterval;
  private final JSch jsch;
  private final Backoff backoff;
  private final int maxAttempts;
  private final Semaphore commandSlots;
  private final AtomicInteger connections = new AtomicInteger();

  private final Object sessionLock = new Object();
  private Session session; // guarded by sessionLock
  private boolean closed; // guarded by sessionLock

  /**
   * Prepares the transport; the connection is made by the first call.
   *
   * @throws HostException {@link HostException.Kind#AUTH} if the private key cannot be used
   */
  public SshTransport(SshConfig config) throws HostException {
    this(config, Backoff.reconnectDefault(), DEFAULT_MAX_ATTEMPTS, DEFAULT_MAX_CONCURRENT_COMMANDS);
  }

  public SshTransport(SshConfig config, Backoff backoff, int maxAttempts, int maxConcurrentCommands)
      throws HostException {
    if (maxAttempts < 1 || maxConcurrentCommands < 1) {
      throw new IllegalArgumentException("maxAttempts and maxConcurrentCommands must be >= 1");
    }
    this.host = config.host();
    this.port = config.port();
    this.user = config.user();
    this.insecure = config.insecureSkipHostKeyVerification();
    this.connectTimeout = config.connectTimeout();
    this.keepaliveInterval = config.keepaliveInterval();
    this.backoff = backoff;
    this.maxAttempts = maxAttempts;
    this.commandSlots = new Semaphore(maxConcurrentCommands, true);
    this.jsch = new JSch();
    loadIdentity(config.privateKey());
    if (!insecure) {
      try {
        jsch.setKnownHosts(new ByteArrayInputStream(config.knownHosts()));
      } catch (JSchException e) {
        throw new HostException(HostException.Kind.HOST_KEY, describe() + ": known_hosts cannot be read: " + e.getMessage());
      }
    }
  }

  // JSch's messages about a bad key may quote parts of it, so they are not passed on.
  private void loadIdentity(byte[] privateKey) throws HostException {
    try {
      jsch.addIdentity(IDENTITY_NAME, privateKey, null, null);
      for (Identity identity : jsch.getIdentityRepository().getIdentities()) {
        if (identity.isEncrypted()) {
          throw new HostException(HostException.Kind.AUTH,
              describe() + ": the private key is passphrase-protected, which is not supported");
        }
      }
    } catch (JSchException e) {
      throw new HostException(HostException.Kind.AUTH, describe()
          + ": the private key cannot be read (expected an unencrypted OpenSSH or PEM key: ed25519, RSA or ECDSA)");
    } finally {
      Arrays.fill(privateKey, (byte) 0);
    }
  }

  @Override
  public ExecResult exec(String commandLine, byte[] stdin, Duration timeout) throws HostException {
    String wrapped = GuardedCommand.line(commandLine, timeout);
    long deadline = System.nanoTime() + timeout.toNanos();
    acquireSlot(timeout);
    try {
      BoundedBuffer out = new BoundedBuffer(MAX_OUTPUT_BYTES);
      BoundedBuffer err = new BoundedBuffer(MAX_OUTPUT_BYTES);
      OpenChannel open = openChannel(wrapped, stdin, out, err);
      try {
        int exitCode = awaitExit(open, deadline, timeout);
        if (out.overflowed() || err.overflowed()) {
          throw new HostException(HostException.Kind.IO,
              describe() + ": command output exceeded " + MAX_OUTPUT_BYTES + " bytes");
        }
        return new ExecResult(exitCode, out.text(), err.text());
      } finally {
        open.channel.disconnect();
      }
    } finally {
      commandSlots.release();
    }
  }

  /** Number of SSH sessions this transport has established (1 while the connection holds). */
  public int connectionCount() {
    return connections.get();
  }

  @Override
  public String describe() {
    return "ssh://" + user + "@" + host + ":" + port + (insecure ? " (host key not verified)" : "");
  }

  @Override
  public void close() {
    synchronized (sessionLock) {
      closed = true;
      if (session != null) {
        session.disconnect();
        session = null;
      }
    }
  }

  @Override
  public String toString() {
    return "SshTransport[" + describe() + "]";
  }

  private record OpenChannel(Session session, ChannelExec channel) {}

  private void acquireSlot(Duration timeout) throws HostException {
    try {
      if (!commandSlots.tryAcquire(timeout.toNanos(), TimeUnit.NANOSECONDS)) {
        throw new HostException(HostException.Kind.TIMEOUT,
            describe() + ": no free channel within " + timeout + " (too many commands in flight)");
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new HostException(HostException.Kind.IO, describe() + ": interrupted", e);
    }
  }

  /** Connects if needed and starts the command, retrying only failures that precede the command. */
  private OpenChannel openChannel(String command, byte[] stdin, BoundedBuffer out, BoundedBuffer err)
      throws HostException {
    for (int attempt = 0; ; attempt++) {
      Session s = null;
      try {
        s = connectedSession();
        ChannelExec channel = (ChannelExec) s.openChannel("exec");
        channel.setCommand(command.getBytes(StandardCharsets.UTF_8));
        // Always an input stream: JSch sends EOF when it is exhausted, so a command reading stdin ends.
        channel.setInputStream(new ByteArrayInputStream(stdin == null ? new byte[0] : stdin), false);
        channel.setOutputStream(out, true);
        channel.setErrStream(err, true);
        try {
          channel.connect(millis(connectTimeout));
        } catch (JSchException e) {
          channel.disconnect();
          throw e;
        }
        return new OpenChannel(s, channel);
      } catch (JSchException e) {
        boolean lastAttempt = attempt + 1 >= maxAttempts;
        // A connected session that still cannot open channels is probably half-dead: replace it.
        if (s != null && (!s.isConnected() || lastAttempt)) {
          dropSession(s);
        }
        if (lastAttempt) {
          throw new HostException(HostException.Kind.UNREACHABLE,
              describe() + ": cannot open a channel after " + maxAttempts + " attempt(s): " + e.getMessage());
        }
        log.info("{}: opening a channel failed ({}), retrying", describe(), e.getMessage());
      } catch (HostException e) {
        if (e.kind() != HostException.Kind.UNREACHABLE || attempt + 1 >= maxAttempts) {
          throw e;
        }
        log.info("{}; retrying", e.getMessage());
      }
      sleep(backoff.delay(attempt));
    }
  }

  private Session connectedSession() throws HostException {
    synchronized (sessionLock) {
      if (closed) {
        throw new HostException(HostException.Kind.IO, describe() + ": transport is closed");
      }
      if (session != null && session.isConnected()) {
        return session;
      }
      if (session != null) {
        log.info("{}: session lost, reconnecting", describe());
        session.disconnect();
        session = null;
      }
      try {
        Session s = jsch.getSession(user, host, port);
        s.setConfig("StrictHostKeyChecking", insecure ? "no" : "yes");
        s.setConfig("PreferredAuthentications", "publickey");
        s.setServerAliveInterval(millis(keepaliveInterval));
        s.setServerAliveCountMax(KEEPALIVE_COUNT_MAX);
        s.setDaemonThread(true);
        s.connect(millis(connectTimeout));
        session = s;
        int n = connections.incrementAndGet();
        log.info("{}: connected (session #{})", describe(), n);
        return s;
      } catch (JSchException e) {
        throw classify(e);
      }
    }
  }

  private void dropSession(Session s) {
    synchronized (sessionLock) {
      if (session == s) {
        session = null;
      }
    }
    s.disconnect();
  }

  private int awaitExit(OpenChannel open, long deadline, Duration timeout) throws HostException {
    ChannelExec channel = open.channel;
    long pauseMillis = 1;
    try {
      while (!channel.isClosed()) {
        if (System.nanoTime() - deadline >= 0) {
          kill(channel);
          throw new HostException(HostException.Kind.TIMEOUT,
              describe() + ": command did not finish within " + timeout + " and was killed");
        }
        Thread.sleep(pauseMillis);
        pauseMillis = Math.min(pauseMillis * 2, 20);
      }
    } catch (InterruptedException e) {
      kill(channel);
      Thread.currentThread().interrupt();
      throw new HostException(HostException.Kind.IO, describe() + ": interrupted while waiting for a command", e);
    }
    int status = channel.getExitStatus();
    if (status >= 0) {
      return status;
    }
    String signal = channel.getExitSignal();
    if (signal != null) {
      return 128 + SIGNALS.getOrDefault(signal, 0);
    }
    if (!open.session.isConnected()) {
      dropSession(open.session);
      throw new HostException(HostException.Kind.UNREACHABLE,
          describe() + ": connection lost while a command ran (it may or may not have completed)");
    }
    throw new HostException(HostException.Kind.IO, describe() + ": command ended without an exit status");
  }

  /**
   * OpenSSH delivers a channel's signal to the command's whole process group; servers that do not
   * are covered by the host-side timeout of {@link GuardedCommand}.
   */
  private static void kill(ChannelExec channel) {
    try {
      channel.sendSignal("KILL");
    } catch (Exception e) {
      log.debug("sending KILL to a timed-out command failed: {}", e.toString());
    }
    channel.disconnect();
  }

  private HostException classify(JSchException e) {
    if (e instanceof JSchHostKeyException) {
      return new HostException(HostException.Kind.HOST_KEY,
          describe() + ": host key rejected: " + e.getMessage()
              + " (check the known_hosts entry for this host and port)");
    }
    String message = String.valueOf(e.getMessage());
    if (message.startsWith("Auth fail") || message.startsWith("Auth cancel")) {
      return new HostException(HostException.Kind.AUTH,
          describe() + ": authentication failed: the host did not accept the private key for user " + user);
    }
    Throwable cause = e.getCause();
    if (cause instanceof UnknownHostException) {
      return new HostException(HostException.Kind.UNREACHABLE, describe() + ": unknown host " + host, e);
    }
    if (cause instanceof ConnectException || cause instanceof NoRouteToHostException
        || cause instanceof SocketTimeoutException || message.startsWith("timeout")) {
      return new HostException(HostException.Kind.UNREACHABLE,
          describe() + ": cannot connect: " + (cause != null ? cause.getMessage() : message), e);
    }
    return new HostException(HostException.Kind.UNREACHABLE, describe() + ": SSH connection failed: " + message, e);
  }

  private static void sleep(Duration d) throws HostException {
    try {
      Thread.sleep(d.toMillis());
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new HostException(HostException.Kind.IO, "interrupted while waiting to reconnect", e);
    }
  }

  private static int millis(Duration d) {
    return (int) Math.min(Integer.MAX_VALUE, d.toMillis());
  }
}
