package dev.srt.operator.emulator;

import java.util.concurrent.atomic.AtomicBoolean;

/**
 * Runs an {@link EmulatedProcess} as the whole JVM: SIGTERM or SIGINT close it and end the JVM
 * with status 0 (a clean shutdown, as the supervisor scripts expect); ending by itself returns its
 * own code to the caller, which exits with it.
 */
public final class ProcessLifecycle {
  private ProcessLifecycle() {}

  public static int run(String program, EmulatedProcess process) {
    AtomicBoolean endingByItself = new AtomicBoolean();
    Thread onSignal = new Thread(() -> {
      if (endingByItself.get()) {
        return;
      }
      process.close();
      System.out.flush();
      System.err.flush();
      // halt, not exit: we are inside the shutdown sequence and want status 0, not 143
      Runtime.getRuntime().halt(0);
    }, program + "-shutdown");
    Runtime.getRuntime().addShutdownHook(onSignal);
    try {
      process.start();
      return process.awaitExit();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return 1;
    } catch (DynamoInstall.NotInstalled e) {
      System.err.println(e.getMessage());
      return 1;
    } catch (Exception e) {
      System.err.println(program + ": error: " + (e.getMessage() == null ? e : e.getMessage()));
      return 1;
    } finally {
      endingByItself.set(true);
      process.close();
    }
  }
}
