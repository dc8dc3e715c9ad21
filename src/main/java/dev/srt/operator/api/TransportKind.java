package dev.srt.operator.api;

/** How the operator and the CLI reach a GpuCluster's host: over SSH, or in their own process (local). */
public enum TransportKind implements ApiEnum {
  SSH, LOCAL
}
