package dev.srt.operator.api;

import com.fasterxml.jackson.annotation.JsonInclude;
import io.fabric8.generator.annotation.Required;
import io.fabric8.generator.annotation.Size;
import io.fabric8.generator.annotation.ValidationRule;
import java.util.ArrayList;
import java.util.List;

/**
 * Everything outside {@code arms} is shared by every arm; an arm may set only its name, its
 * frontend and the Dynamo routing fields, so only routing can differ between arms.
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
@ValidationRule(value = "self.arms.all(a, self.arms.filter(b, b.name == a.name).size() == 1)",
    message = "arm names must be unique", fieldPath = ".arms")
@ValidationRule(value = "self.arms.all(a, a.frontend.type != 'sgl-router' || !has(self.backend) || !has(self.backend.type) || self.backend.type == 'sglang')",
    message = "frontend.type: sgl-router needs backend.type: sglang", fieldPath = ".backend")
@ValidationRule(value = "self.arms.all(a, a.frontend.type in " + FrontendType.CEL_PREFILL_DECODE + ") || !(has(self.resources.prefillNodes) || has(self.resources.decodeNodes) || has(self.resources.prefillWorkers) || has(self.resources.decodeWorkers) || has(self.resources.gpusPerPrefill) || has(self.resources.gpusPerDecode))",
    message = "prefill/decode workers are routed by a frontend.type in " + FrontendType.CEL_PREFILL_DECODE
        + " only; remove the prefill/decode fields or the other arms", fieldPath = ".resources")
@ValidationRule(value = "self.arms.all(a, a.frontend.type != 'dynamo' || has(self.dynamo))",
    message = "an arm with frontend.type: dynamo needs spec.dynamo", fieldPath = ".dynamo")
@ValidationRule(value = "self.arms.all(a, !has(a.dynamo) || !has(a.dynamo.policyCatalog) || (has(self.dynamo) && has(self.dynamo.hash)))",
    message = "dynamo.policyCatalog requires a pinned source build: set spec.dynamo.hash", fieldPath = ".dynamo")
@ValidationRule(value = "!has(self.dynamo) || !has(self.dynamo.sidecarPort) || self.dynamo.sidecarPort + (has(self.resources.aggWorkers) ? self.resources.aggWorkers : (has(self.resources.prefillWorkers) ? self.resources.prefillWorkers : 0) + (has(self.resources.decodeWorkers) ? self.resources.decodeWorkers : 0)) - 1 <= 65535",
    message = "sidecar gRPC ports (sidecarPort + worker index) must be between 1 and 65535", fieldPath = ".dynamo.sidecarPort")
@ValidationRule(value = "!has(self.secretEnv) || self.secretEnv.all(a, self.secretEnv.exists_one(b, b.name == a.name))",
    message = "secretEnv names must be unique", fieldPath = ".secretEnv")
@ValidationRule(value = "!has(self.secretEnv) || self.secretEnv.all(s, (!has(self.backend) || !has(self.backend.env) || !(s.name in self.backend.env)) && (!has(self.workload.env) || !(s.name in self.workload.env)) && self.arms.all(a, !has(a.frontend.env) || !(s.name in a.frontend.env)))",
    message = "a secretEnv name must not also be set in backend.env, workload.env or an arm's frontend.env", fieldPath = ".secretEnv")
public class RouterComparisonSpec {
  /** The GpuCluster (same namespace) whose GPUs every arm runs on. */
  @Required
  public ClusterRef clusterRef;

  /** The model every arm serves. */
  @Required
  public ModelSpec model;

  /**
   * Worker topology shared by every arm: aggregated (aggNodes/aggWorkers/gpusPerWorker) or
   * prefill/decode.
   */
  @Required
  public ResourcesSpec resources;

  /** Inference engine, its flags, environment and KV-event wiring; identical in every arm. */
  public BackendSpec backend;

  /** Dynamo installation shared by the arms whose frontend is dynamo. */
  public DynamoSpec dynamo;

  /** Telemetry settings shared by every arm. */
  public ObservabilitySpec observability;

  /** How long and how often readiness is probed before an arm fails. */
  public HealthCheckSpec healthCheck;

  /** The benchmark run against the router of every arm, with identical arguments and seed. */
  @Required
  public WorkloadSpec workload;

  /**
   * The arms: 1 to 8 router set-ups that differ only in routing fields. They run one at a time on
   * the same GPUs.
   */
  @Required
  @Size(min = 1, max = Limits.MAX_ARMS)
  public List<ArmSpec> arms = new ArrayList<>();

  /**
   * Environment variables of every process of every arm whose values come from Secrets in the
   * comparison's namespace (e.g. HF_TOKEN for gated models). They are resolved when a run is
   * submitted and written to the run directory's secret.env (mode 0600), which the script sources:
   * the values never appear in the spec, the script, a ConfigMap, the status or a command line.
   * With the CLI, apply --secret-env NAME takes each value from its own environment.
   */
  @Size(max = 32)
  public List<SecretEnvVar> secretEnv;

  /**
   * The latency objective of a good request: goodput and goodput % per load level, and with
   * workload.load each arm's capacity at it.
   */
  public SloSpec slo;

  /** Order in which arms run. */
  public ExecutionSpec execution;

  /** true cancels any running arm and starts nothing until set back to false. */
  public Boolean suspend;

  public boolean suspended() {
    return Boolean.TRUE.equals(suspend);
  }
}
