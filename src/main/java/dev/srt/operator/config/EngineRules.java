package dev.srt.operator.config;

import dev.srt.operator.api.BackendSpec;
import java.util.List;
import java.util.Map;

/**
 * The rules of {@code spec.backend}: the engine, its flags (shared and per role) and its
 * environment.
 */
final class EngineRules {
  private EngineRules() {}

  static void check(List<Problem> out, BackendSpec b, boolean disaggregated) {
    if (b == null) {
      return;
    }
    engineFlags(out, "spec.backend.args", b.args);
    roleFlags(out, "spec.backend.prefillArgs", b.prefillArgs, disaggregated);
    roleFlags(out, "spec.backend.decodeArgs", b.decodeArgs, disaggregated);
    Rules.env(out, "spec.backend.env", b.env);
  }

  /** One role's engine flags (prefillArgs, decodeArgs): only a prefill/decode topology has the role. */
  private static void roleFlags(List<Problem> out, String p, Map<String, Object> args, boolean disaggregated) {
    if (args == null) {
      return;
    }
    if (!disaggregated) {
      out.add(Problem.error(p, "only for a prefill/decode topology (spec.resources.prefillWorkers and decodeWorkers); "
          + "with aggregated workers put the flags in spec.backend.args"));
    }
    engineFlags(out, p, args);
  }

  /** An engine flag map: flag names, the engine's vocabulary, and no flag srt-operator sets itself. */
  private static void engineFlags(List<Problem> out, String p, Map<String, Object> args) {
    Rules.flags(out, p, args);
    FlagVocabulary.check(out, FlagVocabulary.SGLANG_SERVER, p, args, Validator.MANAGED_ENGINE_ARGS, "for the engine");
  }
}
