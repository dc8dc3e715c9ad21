package dev.srt.operator.emulator;

import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.UnknownHostException;

/**
 * Where the emulated servers listen, and the host they put in the URLs they hand out. By default
 * loopback only: an emulated host must never be reachable from the network. With
 * {@code SRT_EMULATOR_LISTEN=node} they listen on every address of their node, as the real servers
 * do with {@code --host 0.0.0.0}, and name themselves by the address their node's hostname
 * resolves to, so that the ranks, workers and routers of a multi-node job reach each other across
 * nodes. Only for nodes whose network is private to a test cluster: the test Slurm's multinode
 * partition, whose nodes are network namespaces on a bridge of their own (docs/testing.md).
 */
public final class ListenAddress {
  /** The environment variable: {@code loopback} (the default) or {@code node}. */
  public static final String VAR = "SRT_EMULATOR_LISTEN";

  private final boolean node;

  private ListenAddress(boolean node) {
    this.node = node;
  }

  /** The setting of this process ({@value #VAR}). */
  public static ListenAddress current() {
    return of(System.getenv(VAR));
  }

  /** The setting a value of {@value #VAR} stands for; null or empty is loopback. */
  static ListenAddress of(String value) {
    if (value == null || value.isEmpty() || value.equals("loopback")) {
      return new ListenAddress(false);
    }
    if (value.equals("node")) {
      return new ListenAddress(true);
    }
    throw new IllegalArgumentException(VAR + " must be loopback or node, not '" + value + "'");
  }

  /** The address servers bind: loopback, or the wildcard address on a node. */
  public InetAddress bindAddress() {
    if (!node) {
      return InetAddress.getLoopbackAddress();
    }
    try {
      return InetAddress.getByAddress(new byte[4]);
    } catch (UnknownHostException e) {
      throw new IllegalStateException("four bytes are an IPv4 address", e);
    }
  }

  /** The host of this process's URLs: {@code 127.0.0.1}, or the address of the node's hostname. */
  public String host() {
    if (!node) {
      return "127.0.0.1";
    }
    try {
      return InetAddress.getLocalHost().getHostAddress();
    } catch (UnknownHostException e) {
      throw new UncheckedIOException(VAR + "=node, but this node's hostname does not resolve (" + e.getMessage()
          + "); the test Slurm's nodes are in /etc/hosts", e);
    }
  }

  /**
   * The host to connect to for a server that another process named {@code host}: that host on a
   * node; loopback otherwise, where every emulated server listens whatever the router calls it.
   */
  public String connectHost(String host) {
    return node ? host : "127.0.0.1";
  }
}
