package dev.srt.operator.api;

/** How a GpuCluster runs an arm's processes: on the host (none), in a pyxis container of a Slurm step (pyxis), or with docker run on a direct host (docker). */
public enum ContainerRuntime implements ApiEnum {
  NONE, PYXIS, DOCKER
}
