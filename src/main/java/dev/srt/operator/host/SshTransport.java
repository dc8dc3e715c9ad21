package dev.srt.operator.host;

import dev.srt.operator.config.Echo;
import com.jcraft.jsch.AgentIdentityRepository;
import com.jcraft.jsch.AgentProxyException;
import com.jcraft.jsch.ChannelExec;
import com.jcraft.jsch.Identity;
import com.jcraft.jsch.IdentityRepository;
import com.jcraft.jsch.JSch;
import com.jcraft.jsch.JSchException;
import com.jcraft.jsch.JSchHostKeyException;
import com.jcraft.jsch.SSHAgentConnector;
import com.jcraft.jsch.Session;
import com.jcraft.jsch.UnixDomainSocketFactory;
import java.io.ByteArrayInputStream;
import java.net.ConnectException;
import java.net.NoRouteToHostException;
import java.net.SocketTimeoutException;
import java.net.UnknownHostException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
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
 * <p>Behind jump hosts ({@link SshConfig#jumps()}) the session is the last of a chain: each jump
 * host's session opens a {@code direct-tcpip} channel to the next server ({@link JumpProxy}), as
 * OpenSSH's ProxyJump does, so the chain is still one connection per cluster. When a link breaks,
 * it and the links after it are made again; the links before it are kept.
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

  private final SshConfig config;
  /** The jump hosts in order, then the target. */
  private final List<SshEndpoint> chain;
  /** One JSch per server of the chain: each has its own key and known_hosts. */
  private final List<JSch> jschs = new ArrayList<>();
  private final Duration connectTimeout;
  private final Duration keepaliveInterval;
  private final Backoff backoff;
  private final int maxAttempts;
  private final Semaphore commandSlots;
  private final AtomicInteger connections = new AtomicInteger();

  private final Object sessionLock = new Object();
  /** The sessions of {@link #chain}, the target's last; guarded by sessionLock. */
  private final Session[] sessions;
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
    this.config = config;
    List<SshEndpoint> servers = new ArrayList<>(config.jumps());
    servers.add(config.target());
    this.chain = List.copyOf(servers);
    this.sessions = new Session[chain.size()];
    this.connectTimeout = config.connectTimeout();
    this.keepaliveInterval = config.keepaliveInterval();
    this.backoff = backoff;
    this.maxAttempts = maxAttempts;
    this.commandSlots = new Semaphore(maxConcurrentCommands, true);
    for (int i = 0; i < chain.size(); i++) {
      SshEndpoint server = chain.get(i);
      JSch jsch = new JSch();
      loadIdentity(jsch, server.identity(), who(i));
      if (!server.insecureSkipHostKeyVerification()) {
        try {
          jsch.setKnownHosts(new ByteArrayInputStream(server.knownHosts()));
        } catch (JSchException e) {
          throw new HostException(HostException.Kind.HOST_KEY, who(i) + ": known_hosts cannot be read: " + e.getMessage());
        }
      }
      jschs.add(jsch);
    }
  }

  /**
   * Loads a key (decrypting it with its passphrase) or connects to the agent, so that a key that
   * cannot be used is reported now, naming where it came from. JSch's messages about a bad key
   * may quote parts of it, so they are not passed on.
   */
  private static void loadIdentity(JSch jsch, SshIdentity identity, String who) throws HostException {
    if (identity instanceof SshIdentity.Agent agent) {
      jsch.setIdentityRepository(agentKeys(agent, who));
      return;
    }
    SshIdentity.PrivateKey key = (SshIdentity.PrivateKey) identity;
    byte[] bytes = key.key();
    byte[] passphrase = key.passphrase();
    try {
      try {
        jsch.addIdentity(IDENTITY_NAME, bytes, null, null);
      } catch (JSchException e) {
        throw new HostException(HostException.Kind.AUTH, who + ": " + key.source()
            + " cannot be read (expected an OpenSSH or PEM key: ed25519, ECDSA or RSA)");
      }
      for (Identity loaded : jsch.getIdentityRepository().getIdentities()) {
        if (!loaded.isEncrypted()) {
          continue;
        }
        if (passphrase == null) {
          throw new HostException(HostException.Kind.AUTH, who + ": " + key.source()
              + " is passphrase-protected and no passphrase was given (privateKeyPassphraseSecretRef for the operator, "
              + "privateKeyPassphraseEnv for the CLI)");
        }
        if (!decrypt(loaded, passphrase)) {
          throw new HostException(HostException.Kind.AUTH, who + ": wrong passphrase for " + key.source());
        }
      }
    } finally {
      Arrays.fill(bytes, (byte) 0);
      if (passphrase != null) {
        Arrays.fill(passphrase, (byte) 0);
      }
    }
  }

  private static boolean decrypt(Identity identity, byte[] passphrase) {
    try {
      return identity.setPassphrase(passphrase.clone()) && !identity.isEncrypted();
    } catch (JSchException e) {
      return false;
    }
  }

  private static IdentityRepository agentKeys(SshIdentity.Agent agent, String who) throws HostException {
    try {
      SSHAgentConnector connector = new SSHAgentConnector(new UnixDomainSocketFactory(), agent.socket());
      AgentIdentityRepository keys = new AgentIdentityRepository(connector);
      if (!connector.isAvailable() || keys.getStatus() != IdentityRepository.RUNNING) {
        throw new HostException(HostException.Kind.AUTH, who + ": no ssh-agent answers at " + agent.socket());
      }
      if (keys.getIdentities().isEmpty()) {
        throw new HostException(HostException.Kind.AUTH, who + ": the ssh-agent at " + agent.socket() + " holds no key (add one with ssh-add)");
      }
      return keys;
    } catch (AgentProxyException | RuntimeException e) {
      throw new HostException(HostException.Kind.AUTH, who + ": cannot use the ssh-agent at " + agent.socket() + ": " + e.getMessage());
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
    SshEndpoint target = config.target();
    boolean insecure = chain.stream().anyMatch(SshEndpoint::insecureSkipHostKeyVerification);
    return target.address() + (config.jumps().isEmpty() ? "" : " via " + config.jumps().stream().map(SshEndpoint::address)
        .collect(Collectors.joining(", "))) + (insecure ? " (host key not verified)" : "");
  }

  /** The server at {@code index} of the chain, for messages: the whole description for the target. */
  private String who(int index) {
    return index == chain.size() - 1 ? describe() : "jump host " + chain.get(index).address();
  }

  @Override
  public void close() {
    synchronized (sessionLock) {
      closed = true;
      disconnectFrom(0);
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
      int last = sessions.length - 1;
      if (sessions[last] != null && sessions[last].isConnected()) {
        return sessions[last];
      }
      if (sessions[last] != null) {
        log.info("{}: session lost, reconnecting", describe());
      }
      // The first broken link, and everything that went through it, is made again.
      int first = 0;
      while (first < last && sessions[first] != null && sessions[first].isConnected()) {
        first++;
      }
      disconnectFrom(first);
      for (int i = first; i <= last; i++) {
        sessions[i] = connect(i);
      }
      int n = connections.incrementAndGet();
      log.info("{}: connected (session #{})", describe(), n);
      return sessions[last];
    }
  }

  /** Connects server {@code index} of the chain, through the session before it if there is one. */
  private Session connect(int index) throws HostException {
    SshEndpoint server = chain.get(index);
    Session s;
    try {
      s = jschs.get(index).getSession(server.user(), server.host(), server.port());
    } catch (JSchException e) {
      throw classify(e, index);
    }
    JumpProxy proxy = index == 0 ? null : new JumpProxy(sessions[index - 1], connectTimeout, keepaliveInterval);
    if (proxy != null) {
      s.setProxy(proxy);
    }
    s.setConfig("StrictHostKeyChecking", server.insecureSkipHostKeyVerification() ? "no" : "yes");
    s.setConfig("PreferredAuthentications", "publickey");
    s.setDaemonThread(true);
    try {
      s.setServerAliveInterval(millis(keepaliveInterval));
      s.setServerAliveCountMax(KEEPALIVE_COUNT_MAX);
      s.connect(millis(connectTimeout));
    } catch (JSchException e) {
      s.disconnect();
      throw classify(e, index);
    }
    if (proxy != null) {
      proxy.connected();
    }
    return s;
  }

  /** Disconnects the chain from {@code index} on (the target first). Caller holds sessionLock. */
  private void disconnectFrom(int index) {
    for (int i = sessions.length - 1; i >= index; i--) {
      if (sessions[i] != null) {
        sessions[i].disconnect();
        sessions[i] = null;
      }
    }
  }

  private void dropSession(Session s) {
    synchronized (sessionLock) {
      int last = sessions.length - 1;
      if (sessions[last] == s) {
        sessions[last] = null;
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

  private HostException classify(JSchException e, int index) {
    SshEndpoint server = chain.get(index);
    String who = who(index);
    if (e instanceof JSchHostKeyException) {
      return new HostException(HostException.Kind.HOST_KEY,
          who + ": host key rejected: " + Echo.escape(e.getMessage())
              + " (check the known_hosts entry for " + knownHostsName(server) + ")");
    }
    String message = String.valueOf(e.getMessage());
    if (message.startsWith("Auth fail") || message.startsWith("Auth cancel")) {
      return new HostException(HostException.Kind.AUTH, who + ": authentication failed: the host did not accept "
          + server.identity().source() + " for user " + Echo.escape(server.user()));
    }
    Throwable cause = e.getCause();
    if (cause instanceof UnknownHostException) {
      return new HostException(HostException.Kind.UNREACHABLE, who + ": unknown host " + Echo.escape(server.host()), e);
    }
    if (index > 0 && (message.contains("channel is not opened") || message.contains("failed to open channel")
        || (cause != null && String.valueOf(cause.getMessage()).contains("channel is not opened")))) {
      return new HostException(HostException.Kind.UNREACHABLE, who + ": jump host " + chain.get(index - 1).address()
          + " could not connect to " + Echo.escape(server.host()) + ":" + server.port()
          + " (the name does not resolve there, nothing listens, or the jump host forbids forwarding: AllowTcpForwarding)", e);
    }
    if (cause instanceof ConnectException || cause instanceof NoRouteToHostException
        || cause instanceof SocketTimeoutException || message.startsWith("timeout")) {
      return new HostException(HostException.Kind.UNREACHABLE,
          who + ": cannot connect: " + Echo.escape(cause != null ? cause.getMessage() : message), e);
    }
    return new HostException(HostException.Kind.UNREACHABLE, who + ": SSH connection failed: " + Echo.escape(message), e);
  }

  /** How known_hosts names the server: {@code host}, or {@code [host]:port} off port 22 (escaped: for messages). */
  private static String knownHostsName(SshEndpoint server) {
    return server.port() == 22 ? Echo.escape(server.host()) : "[" + Echo.escape(server.host()) + "]:" + server.port();
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
