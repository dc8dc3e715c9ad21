package dev.srt.operator.host;

import dev.srt.operator.base.Shell;
import java.time.Duration;

/** A fresh /tmp/srt-host-it-XXXXXX on the host behind a transport, removed again by close(). */
final class RemoteWorkDir implements AutoCloseable {
  private static final Duration T = Duration.ofSeconds(30);
  private final Transport transport;
  final String path;

  RemoteWorkDir(Transport transport) throws HostException {
    this.transport = transport;
    this.path = transport.exec("mktemp -d /tmp/srt-host-it-XXXXXX", T).orThrow("mktemp").stdout().strip();
  }

  @Override
  public void close() throws HostException {
    transport.exec("rm -rf -- " + Shell.quote(path), T).orThrow("rm -rf " + path);
  }
}
