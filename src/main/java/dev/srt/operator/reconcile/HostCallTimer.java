package dev.srt.operator.reconcile;

import dev.srt.operator.host.HostException;
import dev.srt.operator.run.BackendRunHost;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import java.time.Duration;
import java.util.Locale;

/** Times every remote execution on a GPU host for /metrics: {@code srt_host_exec_seconds{operation, outcome}}. */
public final class HostCallTimer implements BackendRunHost.Calls {
  private final MeterRegistry metrics;

  public HostCallTimer(MeterRegistry metrics) {
    this.metrics = metrics;
  }

  @Override
  public void finished(String operation, HostException.Kind failure, Duration took) {
    Timer.builder("srt_host_exec_seconds").description("Remote executions on GPU hosts")
        .serviceLevelObjectives(HostExecBuckets.BOUNDS).tag("operation", operation)
        .tag("outcome", failure == null ? "ok" : failure.name().toLowerCase(Locale.ROOT))
        .register(metrics).record(took);
  }
}
