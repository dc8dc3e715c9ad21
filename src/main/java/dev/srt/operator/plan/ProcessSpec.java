package dev.srt.operator.plan;

import com.fasterxml.jackson.annotation.JsonInclude;
import java.util.List;
import java.util.Map;

/**
 * One process of a run: exactly the argv that is executed, with its own environment (added to the
 * script's), on node {@code node} (0-based within the allocation). {@code group} couples processes
 * that live and die together (an engine and its sidecar); {@code startAfter} is the probe that must
 * pass before it starts (the sidecar waits for its engine's gRPC port); {@code afterGate} names the
 * gate that must have passed before the script starts it (Dynamo's processes wait for etcd and
 * NATS, sgl-router for its workers), null to start with the first processes. {@code endpoint} is
 * the server it offers, if any (engines, routers; not a sidecar or the benchmark).
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public record ProcessSpec(
    String name,
    Role role,
    int node,
    List<String> argv,
    Map<String, String> env,
    Map<String, Integer> ports,
    List<Integer> gpus,
    String log,
    Probe probe,
    String group,
    Probe startAfter,
    String afterGate,
    Endpoint endpoint) {

  /** A process started with the first ones. */
  public ProcessSpec(String name, Role role, int node, List<String> argv, Map<String, String> env, Map<String, Integer> ports,
      List<Integer> gpus, String log, Probe probe, String group, Probe startAfter) {
    this(name, role, node, argv, env, ports, gpus, log, probe, group, startAfter, null, null);
  }

  /** This process, started once gate {@code gate} has passed. */
  public ProcessSpec startingAfter(String gate) {
    return new ProcessSpec(name, role, node, argv, env, ports, gpus, log, probe, group, startAfter, gate, endpoint);
  }

  /** This process, offering {@code server}. */
  public ProcessSpec serving(Endpoint server) {
    return new ProcessSpec(name, role, node, argv, env, ports, gpus, log, probe, group, startAfter, afterGate, server);
  }

  public ProcessSpec {
    argv = List.copyOf(argv);
    env = java.util.Collections.unmodifiableMap(new java.util.LinkedHashMap<>(env));
    ports = java.util.Collections.unmodifiableMap(new java.util.LinkedHashMap<>(ports));
    gpus = gpus == null ? null : List.copyOf(gpus);
  }
}
