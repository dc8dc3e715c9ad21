package dev.srt.operator.cli;

import io.micrometer.core.instrument.Meter;
import io.micrometer.core.instrument.Tags;
import io.micrometer.core.instrument.config.MeterFilter;
import io.micrometer.core.instrument.config.MeterFilterReply;
import java.util.List;
import java.util.Map;

/**
 * Keeps {@code /metrics} within Prometheus' conventions ({@code promtool check metrics}) where
 * libraries do not: JOSDK registers its meters without help text, so each gets one here; and two
 * of Micrometer's process meters are left out, {@code process_cpu_time_ns_total} (nanoseconds:
 * {@code process_cpu_usage} says the same) and {@code system_cpu_count} (a gauge named like a
 * histogram's count).
 */
final class MeterConventions implements MeterFilter {
  private static final List<String> LEFT_OUT = List.of("process.cpu.time", "system.cpu.count");
  /** Help text of JOSDK's meters by name prefix, most specific first. */
  private static final Map<String, String> JOSDK_HELP = Map.of(
      "operator.sdk.controllers.execution.", "JOSDK: the controller's reconcile and cleanup executions, by outcome",
      "operator.sdk.events.received", "JOSDK: events received by the controllers",
      "operator.sdk.reconciliations.executions.", "JOSDK: reconciles of the controller executing now",
      "operator.sdk.reconciliations.queue.size.", "JOSDK: resources of the controller waiting for a reconcile",
      "operator.sdk.reconciliations.", "JOSDK: reconciliations by outcome (started, success, failed, retries)");

  @Override
  public MeterFilterReply accept(Meter.Id id) {
    return LEFT_OUT.contains(id.getName()) ? MeterFilterReply.DENY : MeterFilterReply.NEUTRAL;
  }

  @Override
  public Meter.Id map(Meter.Id id) {
    if (id.getDescription() != null && !id.getDescription().isBlank() || !id.getName().startsWith("operator.sdk.")) {
      return id;
    }
    String help = JOSDK_HELP.entrySet().stream().filter(e -> id.getName().startsWith(e.getKey()))
        .max((a, b) -> Integer.compare(a.getKey().length(), b.getKey().length())).map(Map.Entry::getValue)
        .orElse("JOSDK: " + id.getName());
    return new Meter.Id(id.getName(), Tags.of(id.getTags()), id.getBaseUnit(), help, id.getType());
  }
}
