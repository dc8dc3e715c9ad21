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
  SGL_MODEL_GATEWAY
}
