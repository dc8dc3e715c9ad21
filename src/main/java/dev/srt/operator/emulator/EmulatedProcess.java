package dev.srt.operator.emulator;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;

/**
 * One emulated program. Tests drive it in-process ({@code start}, {@code close}); the CLI runs it
 * through {@link ProcessLifecycle}, which maps SIGTERM to {@code close} and a clean exit.
 */
public interface EmulatedProcess extends AutoCloseable {
  void start() throws Exception;

  /** Blocks until the program ends by itself and returns its exit code; servers never do. */
  int awaitExit() throws InterruptedException;

  /** The exit code a program's exit future completes with; a failed future is exit code 1. */
  static int exitCodeOf(CompletableFuture<Integer> exit) throws InterruptedException {
    try {
      return exit.get();
    } catch (ExecutionException e) {
      return 1;
    }
  }

  /** Stops serving and releases what the program registered; safe to call more than once. */
  @Override
  void close();
}
