package dev.srt.operator.host;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.UnaryOperator;

/** Wraps a transport, recording every command line it runs (and optionally rewriting it). */
final class CountingTransport implements Transport {
  private final Transport delegate;
  private final UnaryOperator<String> rewrite;
  final List<String> commands = new CopyOnWriteArrayList<>();

  CountingTransport(Transport delegate) {
    this(delegate, UnaryOperator.identity());
  }

  CountingTransport(Transport delegate, UnaryOperator<String> rewrite) {
    this.delegate = delegate;
    this.rewrite = rewrite;
  }

  int execCount() {
    return commands.size();
  }

  @Override
  public ExecResult exec(String commandLine, byte[] stdin, Duration timeout) throws HostException {
    commands.add(commandLine);
    return delegate.exec(rewrite.apply(commandLine), stdin, timeout);
  }

  @Override
  public String describe() {
    return "counting " + delegate.describe();
  }

  @Override
  public void close() {
    delegate.close();
  }
}
