package dev.srt.operator.reconcile;

import io.fabric8.kubernetes.api.model.HasMetadata;
import io.javaoperatorsdk.operator.api.monitoring.Metrics;
import io.javaoperatorsdk.operator.api.reconciler.RetryInfo;
import io.javaoperatorsdk.operator.processing.Controller;
import io.javaoperatorsdk.operator.processing.event.Event;
import io.javaoperatorsdk.operator.processing.event.ResourceID;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import java.util.List;
import java.util.Map;

/**
 * JOSDK's own metrics ({@code operator_sdk_*}, per controller), plus the operator's count of
 * reconciles that threw, {@code srt_reconcile_errors_total{kind}}: the failures JOSDK retries with
 * backoff (and {@code updateErrorStatus} shows as {@code Degraded}, reason {@code ReconcileError}).
 * Both kinds' counters and {@code srt_reconciles_total} exist from the start at 0, so an alert on
 * their increase has a series to look at before the first error.
 */
final class ReconcileMetrics implements Metrics {
  static final String RECONCILES = "srt_reconciles_total";
  static final String ERRORS = "srt_reconcile_errors_total";
  static final List<String> KINDS = List.of("RouterComparison", "GpuCluster");

  private final Metrics josdk;
  private final MeterRegistry registry;

  ReconcileMetrics(Metrics josdk, MeterRegistry registry) {
    this.josdk = josdk;
    this.registry = registry;
    for (String kind : KINDS) {
      Counter.builder(RECONCILES).description("Reconciles started, by kind").tag("kind", kind).register(registry);
      errors(kind);
    }
  }

  private Counter errors(String kind) {
    return Counter.builder(ERRORS).description("Reconciles that threw (retried with backoff)").tag("kind", kind).register(registry);
  }

  @Override
  public void failedReconciliation(HasMetadata resource, Exception exception, Map<String, Object> metadata) {
    errors(resource.getKind()).increment();
    josdk.failedReconciliation(resource, exception, metadata);
  }

  @Override
  public void controllerRegistered(Controller<? extends HasMetadata> controller) {
    josdk.controllerRegistered(controller);
  }

  @Override
  public void receivedEvent(Event event, Map<String, Object> metadata) {
    josdk.receivedEvent(event, metadata);
  }

  @Override
  public void reconcileCustomResource(HasMetadata resource, RetryInfo retryInfo, Map<String, Object> metadata) {
    josdk.reconcileCustomResource(resource, retryInfo, metadata);
  }

  @Override
  public void reconciliationExecutionStarted(HasMetadata resource, Map<String, Object> metadata) {
    josdk.reconciliationExecutionStarted(resource, metadata);
  }

  @Override
  public void reconciliationExecutionFinished(HasMetadata resource, Map<String, Object> metadata) {
    josdk.reconciliationExecutionFinished(resource, metadata);
  }

  @Override
  public void cleanupDoneFor(ResourceID resourceID, Map<String, Object> metadata) {
    josdk.cleanupDoneFor(resourceID, metadata);
  }

  @Override
  public void finishedReconciliation(HasMetadata resource, Map<String, Object> metadata) {
    josdk.finishedReconciliation(resource, metadata);
  }

  @Override
  public <T> T timeControllerExecution(ControllerExecution<T> execution) throws Exception {
    return josdk.timeControllerExecution(execution);
  }

  @Override
  public <T extends Map<?, ?>> T monitorSizeOf(T map, String name) {
    return josdk.monitorSizeOf(map, name);
  }
}
