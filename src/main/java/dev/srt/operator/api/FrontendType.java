package dev.srt.operator.api;

/**
 * The router kinds an arm can run (spec.arms[].frontend.type): the CRD's {@code enum}. Each is
 * implemented once, by the class registered for it in
 * {@code META-INF/services/dev.srt.operator.config.FrontendRules} (its rules and its plan); a test
 * keeps the two lists equal.
 */
public enum FrontendType implements ApiEnum {
  /** SGLang's Rust sgl-router over a static pool of workers. */
  SGL_ROUTER,
  /** Dynamo's frontend (python -m dynamo.frontend) over engines that register themselves. */
  DYNAMO,
  /** The SGLang Model Gateway (python -m sglang_router.launch_router) over a static pool of workers. */
  SGL_MODEL_GATEWAY;

  /*
   * The kinds with each capability (config.FrontendRules.Capability), as the CEL lists of the
   * CRD's rules, which the API server checks before the operator does. They are constants because
   * annotations take nothing else; RouterKindsTest keeps each equal to the registry's kinds with
   * that capability.
   */

  /** The kinds that route prefill and decode workers. */
  public static final String CEL_PREFILL_DECODE = "['dynamo']";
  /** The kinds that load a policy catalog ({@code arms[].dynamo.policyCatalog}). */
  public static final String CEL_POLICY_CATALOG = "['dynamo']";
  /** The kinds whose engines run coupled to sidecars ({@code arms[].dynamo.sidecar}). */
  public static final String CEL_SIDECARS = "['dynamo']";
  /** The kinds whose router is a binary the arm names or builds ({@code frontend.binary}, {@code frontend.source}). */
  public static final String CEL_ROUTER_BUILD = "['sgl-router']";
}
