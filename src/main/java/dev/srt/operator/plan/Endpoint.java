package dev.srt.operator.plan;

import com.fasterxml.jackson.annotation.JsonIgnore;
import com.fasterxml.jackson.annotation.JsonInclude;

/**
 * A server a process offers, as its plan declares it: where it listens, where it answers health
 * checks and Prometheus scrapes, and its gRPC port. Every URL of a run (the gates' probes, the
 * scrapes, the status) is read from here; none is built by rewriting another.
 *
 * @param host the address the first node reaches it at: {@code 127.0.0.1}, or {@code {{node:N}}}
 *     in a Slurm job, which the script resolves
 * @param port its HTTP port
 * @param healthPath the path of its health check
 * @param metricsPort the port of its Prometheus text when not {@code port}, else null
 * @param metricsPath the path of its Prometheus text, or null when it has none
 * @param grpcPort its native gRPC port (an SGLang engine coupled to a Dynamo sidecar), or null
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public record Endpoint(String host, int port, String healthPath, Integer metricsPort, String metricsPath, Integer grpcPort) {
  /** An HTTP server with {@code /health} and {@code /metrics} on one port. */
  public static Endpoint http(String host, int port) {
    return new Endpoint(host, port, "/health", null, "/metrics", null);
  }

  public Endpoint withGrpc(int grpc) {
    return new Endpoint(host, port, healthPath, metricsPort, metricsPath, grpc);
  }

  /** Prometheus text on another port of the same host. */
  public Endpoint withMetricsOn(int metricsPort) {
    return new Endpoint(host, port, healthPath, metricsPort, metricsPath, grpcPort);
  }

  @JsonIgnore
  public String url() {
    return "http://" + host + ":" + port;
  }

  @JsonIgnore
  public String healthUrl() {
    return url() + healthPath;
  }

  /** Null when it serves no metrics. */
  @JsonIgnore
  public String metricsUrl() {
    return metricsPath == null ? null : "http://" + host + ":" + (metricsPort == null ? port : metricsPort) + metricsPath;
  }
}
