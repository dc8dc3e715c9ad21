package dev.srt.operator.api;

import io.fabric8.crd.generator.annotation.AdditionalPrinterColumn;
import io.fabric8.generator.annotation.ValidationRule;
import io.fabric8.kubernetes.api.model.Namespaced;
import io.fabric8.kubernetes.client.CustomResource;
import io.fabric8.kubernetes.model.annotation.Categories;
import io.fabric8.kubernetes.model.annotation.Group;
import io.fabric8.kubernetes.model.annotation.Kind;
import io.fabric8.kubernetes.model.annotation.Plural;
import io.fabric8.kubernetes.model.annotation.ShortNames;
import io.fabric8.kubernetes.model.annotation.Version;

/**
 * A fair comparison of LLM request routers: the same model, on the same GPU workers, under the
 * same workload, with arms that differ only in routing. The operator runs the arms one after
 * another (each spec.execution.repetitions times) on the GpuCluster that spec.clusterRef names,
 * and reports each arm's readiness, runs and results, and the verdicts against the baseline, in
 * status. Complete=True once every run of every arm succeeded for the current spec (kubectl wait
 * --for=condition=Complete); Ready=True while the arm in flight serves.
 */
@Group(Api.GROUP)
@Version(Api.VERSION)
@Kind("RouterComparison")
@Plural("routercomparisons")
@ShortNames("rcmp")
@Categories(Api.CATEGORY)
@AdditionalPrinterColumn(name = "Cluster", jsonPath = ".spec.clusterRef.name", type = AdditionalPrinterColumn.Type.STRING)
@AdditionalPrinterColumn(name = "Phase", jsonPath = ".status.phase", type = AdditionalPrinterColumn.Type.STRING)
@AdditionalPrinterColumn(name = "Arms", jsonPath = ".status.armsSummary", type = AdditionalPrinterColumn.Type.STRING)
@AdditionalPrinterColumn(name = "Runs", jsonPath = ".status.runsSummary", type = AdditionalPrinterColumn.Type.STRING)
@AdditionalPrinterColumn(name = "Current", jsonPath = ".status.currentArm", type = AdditionalPrinterColumn.Type.STRING)
@AdditionalPrinterColumn(name = "Capacity", jsonPath = ".status.capacitySummary", type = AdditionalPrinterColumn.Type.STRING)
@AdditionalPrinterColumn(name = "Ready", jsonPath = ".status.conditions[?(@.type==\"Ready\")].status", type = AdditionalPrinterColumn.Type.STRING)
@AdditionalPrinterColumn(name = "Age", jsonPath = ".metadata.creationTimestamp", type = AdditionalPrinterColumn.Type.DATE)
@AdditionalPrinterColumn(name = "Message", jsonPath = ".status.message", type = AdditionalPrinterColumn.Type.STRING, priority = 1)
// No fieldPath: the API server accepts only paths declared in the schema, and metadata is not.
@ValidationRule(value = "size(self.metadata.name) <= 63 && self.metadata.name.matches('^[a-z0-9]([-a-z0-9]*[a-z0-9])?$')",
    message = "metadata.name must be a DNS label (lower-case letters, digits, '-'; at most 63 characters): it names jobs and run directories")
public class RouterComparison extends CustomResource<RouterComparisonSpec, RouterComparisonStatus> implements Namespaced {
  // Overridden only to document spec and status in the generated schema.
  /**
   * What is held constant (model, topology, engine, workload) and the arms that differ only in
   * routing.
   */
  @Override
  public RouterComparisonSpec getSpec() {
    return super.getSpec();
  }

  /** Progress of the arms and their results; written by the operator only. */
  @Override
  public RouterComparisonStatus getStatus() {
    return super.getStatus();
  }
}
