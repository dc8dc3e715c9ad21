package dev.srt.operator.cli;

import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.binder.jvm.ClassLoaderMetrics;
import io.micrometer.core.instrument.binder.jvm.JvmGcMetrics;
import io.micrometer.core.instrument.binder.jvm.JvmMemoryMetrics;
import io.micrometer.core.instrument.binder.jvm.JvmThreadMetrics;
import io.micrometer.core.instrument.binder.system.FileDescriptorMetrics;
import io.micrometer.core.instrument.binder.system.ProcessorMetrics;
import io.micrometer.core.instrument.binder.system.UptimeMetrics;

/**
 * The operator process's own health on {@code /metrics}: heap and non-heap memory, GC pauses,
 * threads, loaded classes, CPU, open file descriptors and uptime, so that a leak or a crash loop
 * shows next to the reconcile metrics.
 */
final class ProcessMeters {
  private ProcessMeters() {
  }

  /** Binds for the process's lifetime (the GC binder listens to GC notifications until exit). */
  @SuppressWarnings("resource")
  static void bindTo(MeterRegistry registry) {
    new JvmMemoryMetrics().bindTo(registry);
    new JvmGcMetrics().bindTo(registry);
    new JvmThreadMetrics().bindTo(registry);
    new ClassLoaderMetrics().bindTo(registry);
    new ProcessorMetrics().bindTo(registry);
    new UptimeMetrics().bindTo(registry);
    new FileDescriptorMetrics().bindTo(registry);
  }
}
