package dev.srt.operator.emulator;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Stands in for the engine's native gRPC port ({@code --grpc-port}). It matters for two clients:
 * the sidecar supervisor's bash {@code /dev/tcp} probe (a connect is enough) and the Dynamo
 * sidecar, which learns the engine from the one JSON line written on every new connection
 * (the emulator's stand-in for SGLang's {@code GetServerInfo} RPC) and then holds the connection
 * open: when the engine dies the sidecar reads end-of-stream, as a real gRPC channel breaks.
 */
final class EngineRpcPort implements AutoCloseable {
  private final ServerSocket server;
  private final Set<Socket> clients = ConcurrentHashMap.newKeySet();
  private final byte[] handshake;

  EngineRpcPort(int port, String handshakeJson) throws IOException {
    this.handshake = (handshakeJson + "\n").getBytes(StandardCharsets.UTF_8);
    this.server = new ServerSocket();
    server.setReuseAddress(true);
    server.bind(new InetSocketAddress(ListenAddress.current().bindAddress(), port), 64);
    Thread acceptor = new Thread(this::acceptLoop, "engine-rpc-accept");
    acceptor.setDaemon(true);
    acceptor.start();
  }

  int port() {
    return server.getLocalPort();
  }

  private void acceptLoop() {
    while (!server.isClosed()) {
      try {
        Socket s = server.accept();
        clients.add(s);
        Thread t = new Thread(() -> serve(s), "engine-rpc-client");
        t.setDaemon(true);
        t.start();
      } catch (IOException e) {
        return; // closed
      }
    }
  }

  private void serve(Socket s) {
    try (s; OutputStream out = s.getOutputStream(); InputStream in = s.getInputStream()) {
      out.write(handshake);
      out.flush();
      while (in.read() >= 0) {
        // hold the channel open until the client goes away
      }
    } catch (IOException e) {
      // a probe that connected and left at once
    } finally {
      clients.remove(s);
    }
  }

  @Override
  public void close() {
    try {
      server.close();
    } catch (IOException e) {
      // already closed
    }
    for (Socket s : clients) {
      try {
        s.close();
      } catch (IOException e) {
        // already closed
      }
    }
  }
}
