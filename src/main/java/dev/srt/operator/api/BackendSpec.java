package dev.srt.operator.api;

import io.fabric8.generator.annotation.Default;
import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.databind.JsonNode;
import io.fabric8.crd.generator.annotation.SchemaFrom;
import io.fabric8.generator.annotation.Size;
import io.fabric8.generator.annotation.ValidationRule;
import java.util.LinkedHashMap;
import java.util.Map;

@JsonInclude(JsonInclude.Include.NON_NULL)
/*
 * args has no type (x-kubernetes-preserve-unknown-fields), so CEL on the API server cannot see it
 * ("self.args" does not compile there); the managed-flag rule for args stays in Validator.
 */
public class BackendSpec {
  /** Inference engine. Default and only value: sglang (python -m sglang.launch_server). */
  @Size(max = Limits.MAX_WORD)
  @OneOf(BackendType.class)
  @Default("sglang")
  public String type;

  /**
   * Engine flags, identical in every arm: key -> --key value; true -> --key; false -> omitted; a
   * list -> --key v1 v2. Rendered in key order.
   */
  @SchemaFrom(type = JsonNode.class)
  @Size(max = Limits.MAX_FLAGS)
  public Map<String, Object> args = new LinkedHashMap<>();

  /**
   * Engine flags of the prefill workers only (prefill/decode topology), merged over args: a key
   * here replaces the same key of args. Identical in every arm.
   */
  @SchemaFrom(type = JsonNode.class)
  @Size(max = Limits.MAX_FLAGS)
  public Map<String, Object> prefillArgs;

  /**
   * Engine flags of the decode workers only (prefill/decode topology), merged over args: a key here
   * replaces the same key of args. Identical in every arm.
   */
  @SchemaFrom(type = JsonNode.class)
  @Size(max = Limits.MAX_FLAGS)
  public Map<String, Object> decodeArgs;

  /** Environment of every worker process. */
  @Size(max = Limits.MAX_ENV)
  @ValidationRule(value = Limits.KEYS_BOUNDED, message = Limits.KEYS_BOUNDED_MESSAGE)
  public Map<String, @Size(max = Limits.MAX_TEXT) String> env = new LinkedHashMap<>();

  /**
   * The whole KV-event wiring: each worker publishes its KV cache events here, and each router
   * reads them.
   */
  public KvEventsSpec kvEvents;
}
