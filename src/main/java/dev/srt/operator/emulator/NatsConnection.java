package dev.srt.operator.emulator;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.io.PrintStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Map;

/**
 * Dynamo's runtime connects to {@code NATS_SERVER} when it starts, if set (a plane uses NATS), and
 * fails to start without it. The emulated processes do the same handshake ({@code INFO},
 * {@code CONNECT}, {@code PING}/{@code PONG}) and then let the connection go: nothing of theirs
 * travels over NATS, but a server that a node cannot reach fails the process as it would fail
 * Dynamo's.
 */
final class NatsConnection {
  static final String VAR = "NATS_SERVER";
  /** How long a process waits for NATS at start-up, as for etcd ({@link EtcdDiscovery#CONNECT_TIMEOUT}). */
  static final Duration CONNECT_TIMEOUT = EtcdDiscovery.CONNECT_TIMEOUT;

  private NatsConnection() {}

  /** Connects to the first server of {@code NATS_SERVER} when it is set; throws as Dynamo's runtime fails. */
  static void check(Map<String, String> env, String process, PrintStream err) throws IOException {
    check(env, process, err, CONNECT_TIMEOUT);
  }

  static void check(Map<String, String> env, String process, PrintStream err, Duration timeout) throws IOException {
    String servers = env.get(VAR);
    if (servers == null || servers.isBlank()) {
      return;
    }
    URI server = URI.create(servers.split(",")[0].trim());
    if (server.getHost() == null || server.getPort() < 0) {
      throw new IllegalArgumentException(VAR + " must be nats://HOST:PORT, got " + servers);
    }
    String host = ListenAddress.current().connectHost(server.getHost());
    long deadline = System.nanoTime() + timeout.toNanos();
    while (true) {
      try {
        handshake(host, server.getPort());
        err.printf("%s (emulated): connected to NATS at %s:%d%n", process, server.getHost(), server.getPort());
        return;
      } catch (IOException e) {
        if (System.nanoTime() >= deadline) {
          throw new IOException("Unable to create DistributedRuntime: failed to connect to NATS at " + servers + " within "
              + timeout.toMillis() + " ms: " + e.getMessage(), e);
        }
        try {
          Thread.sleep(200);
        } catch (InterruptedException ie) {
          Thread.currentThread().interrupt();
          throw new IOException("interrupted", ie);
        }
      }
    }
  }

  private static void handshake(String host, int port) throws IOException {
    try (Socket s = new Socket()) {
      s.connect(new InetSocketAddress(host, port), 2000);
      s.setSoTimeout(5000);
      BufferedReader in = new BufferedReader(new InputStreamReader(s.getInputStream(), StandardCharsets.UTF_8));
      String info = in.readLine();
      if (info == null || !info.startsWith("INFO ")) {
        throw new IOException("no INFO from the server (got " + info + ")");
      }
      OutputStream out = s.getOutputStream();
      out.write("CONNECT {\"verbose\":false,\"pedantic\":false,\"name\":\"dynamo\"}\r\nPING\r\n".getBytes(StandardCharsets.UTF_8));
      out.flush();
      for (String line; (line = in.readLine()) != null; ) {
        if (line.startsWith("PONG")) {
          return;
        }
        if (line.startsWith("-ERR")) {
          throw new IOException("the server answered " + line);
        }
      }
      throw new IOException("the server closed the connection before PONG");
    }
  }
}
