package dev.srt.operator.api;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.databind.JsonNode;
import io.fabric8.crd.generator.annotation.SchemaFrom;
import io.fabric8.generator.annotation.Required;
import io.fabric8.generator.annotation.Size;
import io.fabric8.generator.annotation.ValidationRule;
import java.util.LinkedHashMap;
import java.util.Map;

@JsonInclude(JsonInclude.Include.NON_NULL)
@ValidationRule(value = "!(has(self.binary) && has(self.source))", message = "set at most one of binary and source", fieldPath = ".source")
@ValidationRule(value = "self.type in " + FrontendType.CEL_ROUTER_BUILD + " || (!has(self.binary) && !has(self.source))",
    message = "binary and source are only for a frontend.type in " + FrontendType.CEL_ROUTER_BUILD, fieldPath = ".type")
@ValidationRule(value = "!has(self.binary) || self.binary.startsWith('/')", message = "must be an absolute host path", fieldPath = ".binary")
@ValidationRule(value = "!has(self.source) || self.source.startsWith('/')", message = "must be an absolute host path", fieldPath = ".source")
/*
 * No CEL rule may read args: a schema without a type (x-kubernetes-preserve-unknown-fields) is
 * invisible to CEL on the API server, so "self.args" does not compile there and the CRD would be
 * rejected. The managed-flag rules for args stay in Validator.
 */
public class FrontendSpec {
  /**
   * Router kind: sgl-router (SGLang's experimental Rust router over static workers), dynamo
   * (python -m dynamo.frontend) or sgl-model-gateway (the SGLang Model Gateway, python -m
   * sglang_router.launch_router, over the same static workers; srtctl's frontend.type: sglang).
   */
  @Required
  @Size(max = Limits.MAX_WORD)
  @OneOf(FrontendType.class)
  public String type;

  /**
   * sgl-router only: absolute host path of the experimental/sgl-router crate; built with cargo
   * build --release before the router starts.
   */
  @Size(max = Limits.MAX_PATH)
  public String source;

  /** sgl-router only: absolute host path of a prebuilt sgl-router executable. */
  @Size(max = Limits.MAX_PATH)
  public String binary;

  /**
   * Router flags: key -> --key value; true -> --key; false -> omitted. An explicit model-id,
   * tokenizer-path or router-policy-config wins over the derived value.
   */
  @SchemaFrom(type = JsonNode.class)
  @Size(max = Limits.MAX_FLAGS)
  public Map<String, Object> args = new LinkedHashMap<>();

  /** Environment of the router process. */
  @Size(max = Limits.MAX_ENV)
  @ValidationRule(value = Limits.KEYS_BOUNDED, message = Limits.KEYS_BOUNDED_MESSAGE)
  public Map<String, @Size(max = Limits.MAX_TEXT) String> env = new LinkedHashMap<>();
}
