package dev.srt.operator.host;

import java.time.Duration;

/** A transport whose answers a test scripts. */
final class FakeTransport implements Transport {
  interface Answer {
    ExecResult answer(String commandLine, byte[] stdin) throws HostException;
  }

  private final Answer answer;

  FakeTransport(Answer answer) {
    this.answer = answer;
  }

  @Override
  public ExecResult exec(String commandLine, byte[] stdin, Duration timeout) throws HostException {
    return answer.answer(commandLine, stdin);
  }

  @Override
  public String describe() {
    return "fake";
  }

  @Override
  public void close() {}
}
