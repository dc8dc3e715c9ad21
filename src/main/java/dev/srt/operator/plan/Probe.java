package dev.srt.operator.plan;

import com.fasterxml.jackson.annotation.JsonInclude;

/**
 * One readiness check. Kinds: {@code http-status} (GET url answers {@code status}), {@code
 * dynamo-instances} (GET url is Dynamo /health JSON with at least {@code count} generate
 * instances), {@code json-true} (GET url is JSON whose field {@code field} is true), {@code chat}
 * (a one-off chat completion to url for {@code model} returns text), {@code tcp} (port accepts).
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public record Probe(String kind, String url, Integer status, Integer count, String field, String model) {
  public static Probe httpStatus(String url, int status) {
    return new Probe("http-status", url, status, null, null, null);
  }

  public static Probe dynamoInstances(String url, int count) {
    return new Probe("dynamo-instances", url, null, count, null, null);
  }

  public static Probe jsonTrue(String url, String field) {
    return new Probe("json-true", url, null, null, field, null);
  }

  public static Probe chat(String url, String model) {
    return new Probe("chat", url, null, null, null, model);
  }

  public static Probe tcp(String hostPort) {
    return new Probe("tcp", hostPort, null, null, null, null);
  }
}
