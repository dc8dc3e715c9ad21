package dev.srt.operator.reconcile;

import java.time.Duration;

/**
 * The histogram buckets of {@code srt_host_exec_seconds}: from a poll on loopback (tens of
 * milliseconds) to a submit over SSH that builds a run directory (seconds) and a command that runs
 * into its timeout (a minute and more), few enough that every operation and outcome stays cheap.
 */
final class HostExecBuckets {
  static final Duration[] BOUNDS = {
      Duration.ofMillis(50), Duration.ofMillis(100), Duration.ofMillis(250), Duration.ofMillis(500), Duration.ofSeconds(1),
      Duration.ofMillis(2500), Duration.ofSeconds(5), Duration.ofSeconds(10), Duration.ofSeconds(30), Duration.ofSeconds(60),
      Duration.ofSeconds(120)};

  private HostExecBuckets() {}
}
