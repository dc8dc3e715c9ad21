package dev.srt.operator.api;

/** The benchmark client: SGLang's bench_serving, AIPerf, or a command of the comparison's own (custom). */
public enum WorkloadTool implements ApiEnum {
  BENCH_SERVING, AIPERF, CUSTOM
}
