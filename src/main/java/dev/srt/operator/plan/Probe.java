package dev.srt.operator.plan;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonValue;

/**
 * One readiness check. Kinds: {@code http-status} (GET url answers {@code status}), {@code
 * dynamo-instances} (GET url is Dynamo /health JSON with at least {@code count} generate
 * instances outside the prefill component), {@code dynamo-prefill-instances} (the same, counting
 * the prefill component's), {@code json-true} (GET url is JSON whose field {@code field} is true), {@code chat}
 * (a one-off chat completion to url for {@code model} returns text), {@code tcp} (port accepts).
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public record Probe(Kind kind, String url, Integer status, Integer count, String field, String model) {
  /** What a probe checks; its wire name is the plan's {@code kind} and the bash library's {@code srt_wait} argument. */
  public enum Kind {
    HTTP_STATUS("http-status"), DYNAMO_INSTANCES("dynamo-instances"), DYNAMO_PREFILL_INSTANCES("dynamo-prefill-instances"), JSON_TRUE("json-true"), CHAT("chat"), TCP("tcp");

    private final String wire;

    Kind(String wire) {
      this.wire = wire;
    }

    @JsonValue
    public String wire() {
      return wire;
    }
  }

  public static Probe httpStatus(String url, int status) {
    return new Probe(Kind.HTTP_STATUS, url, status, null, null, null);
  }

  public static Probe dynamoInstances(String url, int count) {
    return new Probe(Kind.DYNAMO_INSTANCES, url, null, count, null, null);
  }

  public static Probe dynamoPrefillInstances(String url, int count) {
    return new Probe(Kind.DYNAMO_PREFILL_INSTANCES, url, null, count, null, null);
  }

  public static Probe jsonTrue(String url, String field) {
    return new Probe(Kind.JSON_TRUE, url, null, null, field, null);
  }

  public static Probe chat(String url, String model) {
    return new Probe(Kind.CHAT, url, null, null, null, model);
  }

  public static Probe tcp(String hostPort) {
    return new Probe(Kind.TCP, hostPort, null, null, null, null);
  }
}
