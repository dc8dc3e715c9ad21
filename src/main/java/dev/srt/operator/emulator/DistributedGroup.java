package dev.srt.operator.emulator;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The ranks of a multi-node engine ({@code --nnodes N --node-rank R --dist-init-addr HOST:PORT})
 * meeting at the leader, as torch.distributed does: the leader (rank 0) listens on the rendezvous
 * port and is {@link #joined} once all {@code N-1} followers connected; a follower connects (and
 * retries until the leader listens) and holds the connection. Either side losing the other ends
 * the group ({@link #broken}), as an NCCL communicator does.
 */
final class DistributedGroup implements AutoCloseable {
  private final int ranks;
  private final int rank;
  private final CompletableFuture<Void> joined = new CompletableFuture<>();
  private final CompletableFuture<String> broken = new CompletableFuture<>();
  private final Set<Socket> sockets = ConcurrentHashMap.newKeySet();
  private volatile ServerSocket server;
  private volatile boolean closed;

  private DistributedGroup(int ranks, int rank) {
    this.ranks = ranks;
    this.rank = rank;
  }

  /** Starts rank {@code rank} of {@code ranks}; {@code address} is the leader's {@code host:port}. */
  static DistributedGroup start(int ranks, int rank, String address, Duration joinTimeout) throws IOException {
    DistributedGroup g = new DistributedGroup(ranks, rank);
    int colon = address.lastIndexOf(':');
    if (colon < 0) {
      throw new IllegalArgumentException("--dist-init-addr must be host:port, got " + address);
    }
    int port = Integer.parseInt(address.substring(colon + 1));
    if (rank == 0) {
      g.lead(port);
    } else {
      Thread t = new Thread(() -> g.follow(address.substring(0, colon), port, joinTimeout), "dist-follower");
      t.setDaemon(true);
      t.start();
    }
    return g;
  }

  CompletableFuture<Void> joined() {
    return joined;
  }

  /** Completes with the reason when a member of a formed (or forming) group is lost. */
  CompletableFuture<String> broken() {
    return broken;
  }

  private void lead(int port) throws IOException {
    ServerSocket s = new ServerSocket();
    s.setReuseAddress(true);
    s.bind(new InetSocketAddress(ListenAddress.current().bindAddress(), port), 16);
    server = s;
    Thread t = new Thread(() -> {
      Set<String> members = ConcurrentHashMap.newKeySet();
      while (!s.isClosed() && members.size() < ranks - 1) {
        try {
          Socket c = s.accept();
          sockets.add(c);
          BufferedReader in = new BufferedReader(new InputStreamReader(c.getInputStream(), StandardCharsets.UTF_8));
          String hello = in.readLine();
          if (hello == null || !hello.startsWith("rank ")) {
            c.close();
            continue;
          }
          members.add(hello.substring(5));
          // the peer's address shows from which node the rank came
          System.err.printf("sglang.launch_server (emulated): rank %s joined from %s (%d/%d)%n", hello.substring(5),
              c.getInetAddress().getHostAddress(), members.size() + 1, ranks);
          watch(c, "rank " + hello.substring(5) + " left the group");
        } catch (IOException e) {
          return;
        }
      }
      joined.complete(null);
    }, "dist-leader");
    t.setDaemon(true);
    t.start();
  }

  private void follow(String host, int port, Duration timeout) {
    long deadline = System.nanoTime() + timeout.toNanos();
    while (!closed) {
      try {
        Socket c = new Socket();
        c.connect(new InetSocketAddress(host, port), 1000);
        sockets.add(c);
        OutputStream out = c.getOutputStream();
        out.write(("rank " + rank + "\n").getBytes(StandardCharsets.UTF_8));
        out.flush();
        System.err.printf("sglang.launch_server (emulated): rank %d joined the leader at %s:%d%n", rank, host, port);
        joined.complete(null);
        watch(c, "the leader at " + host + ":" + port + " left the group");
        return;
      } catch (IOException e) {
        if (System.nanoTime() > deadline) {
          broken.complete("no leader at " + host + ":" + port + " within " + timeout.toSeconds() + " s");
          return;
        }
        try {
          Thread.sleep(200);
        } catch (InterruptedException ie) {
          Thread.currentThread().interrupt();
          return;
        }
      }
    }
  }

  /** Reads until the peer goes away, then breaks the group. */
  private void watch(Socket c, String reason) {
    Thread t = new Thread(() -> {
      try (c) {
        while (c.getInputStream().read() >= 0) {
          // the channel carries nothing else
        }
      } catch (IOException e) {
        // same as end of stream
      }
      if (!closed) {
        broken.complete(reason);
      }
    }, "dist-watch");
    t.setDaemon(true);
    t.start();
  }

  @Override
  public void close() {
    closed = true;
    ServerSocket s = server;
    try {
      if (s != null) {
        s.close();
      }
    } catch (IOException e) {
      // closing anyway
    }
    for (Socket c : sockets) {
      try {
        c.close();
      } catch (IOException e) {
        // closing anyway
      }
    }
  }
}
