package dev.srt.operator.api;

/** The inference engine of the workers. */
public enum BackendType implements ApiEnum {
  SGLANG
}
