package dev.srt.operator.api;

import com.fasterxml.jackson.annotation.JsonInclude;

@JsonInclude(JsonInclude.Include.NON_NULL)
public class EndpointStatus {
  /** Worker process name, e.g. worker-0. */
  public String name;

  /**
   * Base URL of the worker's HTTP server (the engine's, which the router sends requests to). On
   * Slurm it is known once the worker is ready, from the node it runs on.
   */
  public String url;

  /** prefill or decode in a prefill/decode topology; absent for an aggregated worker. */
  public String role;

  /** Index of the node (of the run's allocation) the worker runs on; 0 on a direct host. */
  public Integer node;

  /** Port of the worker's HTTP server, as planned. */
  public Integer port;

  /** Path of the worker's health check, as planned (e.g. /health). */
  public String healthPath;

  /** Port of the worker's Prometheus metrics when it is not port, as planned. */
  public Integer metricsPort;

  /** Path of the worker's Prometheus metrics, as planned; absent when it serves none. */
  public String metricsPath;

  /** URL of the worker's Prometheus metrics (its declared metrics port and path), once url is known. */
  public String metricsUrl;

  /** Port of the engine's native gRPC server (arms whose engines are coupled to Dynamo sidecars). */
  public Integer grpcPort;

  /** Whether the worker's /health answered 200. */
  public boolean ready;

  /** When ready last changed. */
  public String since;
}
