package dev.srt.operator.api;

import com.fasterxml.jackson.databind.JsonNode;
import com.google.common.collect.ImmutableCollection;
import com.google.common.collect.ImmutableList;
import dev.cel.bundle.Cel;
import dev.cel.bundle.CelFactory;
import dev.cel.common.CelAbstractSyntaxTree;
import dev.cel.common.CelOptions;
import dev.cel.common.CelValidationException;
import dev.cel.common.CelValidationResult;
import dev.cel.common.types.CelType;
import dev.cel.common.types.CelTypeProvider;
import dev.cel.common.types.SimpleType;
import dev.cel.extensions.CelExtensions;
import dev.cel.parser.CelStandardMacro;
import dev.cel.runtime.CelEvaluationException;
import dev.cel.runtime.CelRuntime;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.IdentityHashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * The x-kubernetes-validations rules of one CRD, compiled with {@code dev.cel} the way the API
 * server compiles them at CRD install time ({@code self} typed from the schema, the strings
 * extension, homogeneous literals, partial regex matches), and evaluated on documents the way it
 * evaluates them on create: each rule once per value at its schema node, never on absent values.
 */
final class CelRules {
  /** A rule that returned false (or failed to evaluate) on one value. */
  record Failure(CrdSchema.Rule rule, String path, String message) {
    /** {@code path: message}, as in a {@code # cel:} line of a fixture. */
    String describe() {
      return path + ": " + message;
    }
  }

  /** What evaluating every rule on one document found. */
  record Evaluation(List<Failure> failures, Set<CrdSchema.Rule> evaluated, boolean blocked) {}

  private final CrdSchema crd;
  private final List<CrdSchema.Rule> rules;
  private final Map<CrdSchema.Rule, CelRuntime.Program> programs = new LinkedHashMap<>();
  private final Map<CrdSchema.Rule, String> compileErrors = new LinkedHashMap<>();
  private final Map<CrdSchema.Rule, CelAbstractSyntaxTree> asts = new LinkedHashMap<>();
  private final Map<JsonNode, List<CrdSchema.Rule>> rulesAt = new IdentityHashMap<>();

  CelRules(CrdSchema crd) {
    this.crd = crd;
    this.rules = crd.rules();
    Map<String, CelType> structs = new HashMap<>();
    Map<JsonNode, Optional<CelType>> selfTypes = new IdentityHashMap<>();
    crd.forEachNode((path, node) -> selfTypes.put(node, crd.celType(path, node, path.isEmpty(), structs)));
    CelTypeProvider provider = new CelTypeProvider() {
      @Override
      public ImmutableCollection<CelType> types() {
        return ImmutableList.copyOf(structs.values());
      }

      @Override
      public Optional<CelType> findType(String name) {
        return Optional.ofNullable(structs.get(name));
      }
    };
    Map<JsonNode, Cel> envs = new IdentityHashMap<>();
    for (CrdSchema.Rule rule : rules) {
      rulesAt.computeIfAbsent(rule.schema(), n -> new ArrayList<>()).add(rule);
      Optional<CelType> self = selfTypes.get(rule.schema());
      if (self.isEmpty()) {
        compileErrors.put(rule, "the node it sits on is not visible to CEL (no type)");
        continue;
      }
      Cel cel = envs.computeIfAbsent(rule.schema(), n -> environment(provider, self.get()));
      CelValidationResult result = cel.compile(rule.rule());
      if (result.hasError()) {
        compileErrors.put(rule, result.getErrorString());
        continue;
      }
      try {
        asts.put(rule, result.getAst());
        programs.put(rule, cel.createProgram(result.getAst()));
      } catch (Exception e) {
        compileErrors.put(rule, e.getMessage());
      }
    }
  }

  /** Compiles an expression as if it were a rule at the schema node of {@code path}; the error, if any. */
  Optional<String> compileAt(String path, String expression) {
    CelValidationResult result = checkAt(path, expression);
    return result == null ? Optional.of("not visible to CEL") : result.hasError() ? Optional.of(result.getErrorString()) : Optional.empty();
  }

  /** The checked syntax tree of an expression compiled as a rule at the schema node of {@code path}. */
  CelAbstractSyntaxTree astAt(String path, String expression) {
    CelValidationResult result = checkAt(path, expression);
    if (result == null || result.hasError()) {
      throw new IllegalArgumentException(expression + " does not compile at " + path);
    }
    try {
      return result.getAst();
    } catch (CelValidationException e) {
      throw new IllegalArgumentException(e);
    }
  }

  private CelValidationResult checkAt(String path, String expression) {
    JsonNode[] node = new JsonNode[1];
    crd.forEachNode((p, n) -> {
      if (p.equals(path)) {
        node[0] = n;
      }
    });
    if (node[0] == null) {
      throw new IllegalArgumentException("no schema node at " + path);
    }
    Map<String, CelType> structs = new HashMap<>();
    crd.forEachNode((p, n) -> crd.celType(p, n, p.isEmpty(), structs));
    Optional<CelType> self = crd.celType(path, node[0], path.isEmpty(), new HashMap<>());
    if (self.isEmpty()) {
      return null;
    }
    CelTypeProvider provider = new CelTypeProvider() {
      @Override
      public ImmutableCollection<CelType> types() {
        return ImmutableList.copyOf(structs.values());
      }

      @Override
      public Optional<CelType> findType(String name) {
        return Optional.ofNullable(structs.get(name));
      }
    };
    return environment(provider, self.get()).compile(expression);
  }

  private static Cel environment(CelTypeProvider provider, CelType self) {
    return CelFactory.standardCelBuilder()
        .setOptions(CelOptions.current().enableHomogeneousLiterals(true).enableRegexPartialMatch(true).build())
        .setStandardMacros(CelStandardMacro.STANDARD_MACROS)
        .setTypeProvider(provider)
        .addVar("self", self)
        .addCompilerLibraries(CelExtensions.strings())
        .addRuntimeLibraries(CelExtensions.strings())
        .setResultType(SimpleType.BOOL)
        .build();
  }

  List<CrdSchema.Rule> rules() {
    return rules;
  }

  /** The checked syntax tree of every rule that compiles. */
  Map<CrdSchema.Rule, CelAbstractSyntaxTree> asts() {
    return asts;
  }

  /** Rules that do not compile, with the compiler's message: the API server would reject the CRD. */
  Map<CrdSchema.Rule, String> compileErrors() {
    return compileErrors;
  }

  /**
   * Runs every rule on every value of the document at the rule's node. Like the API server, runs
   * no rule when the structural schema found a value of the wrong type.
   */
  Evaluation evaluate(JsonNode doc) {
    List<Failure> failures = new ArrayList<>();
    Set<CrdSchema.Rule> evaluated = new LinkedHashSet<>();
    if (crd.structuralProblems(doc).stream().anyMatch(p -> p.endsWith(": type"))) {
      return new Evaluation(failures, evaluated, true);
    }
    for (CrdSchema.Instance at : crd.instances(doc)) {
      List<CrdSchema.Rule> here = rulesAt.getOrDefault(at.schema(), List.of());
      if (here.isEmpty()) {
        continue;
      }
      Object self = crd.celValue(at.schema(), at.value(), at.path().isEmpty());
      for (CrdSchema.Rule rule : here) {
        CelRuntime.Program program = programs.get(rule);
        if (program == null) {
          continue;
        }
        evaluated.add(rule);
        String path = errorPath(at.path(), rule.fieldPath());
        try {
          Object result = program.eval(Map.of("self", self));
          if (!Boolean.TRUE.equals(result)) {
            failures.add(new Failure(rule, path, rule.message()));
          }
        } catch (CelEvaluationException e) {
          // The API server reports these too (e.g. "no such key" for a missing required field).
          failures.add(new Failure(rule, path, rule.message() + " (evaluation error)"));
        }
      }
    }
    return new Evaluation(failures, evaluated, false);
  }

  /** Where the API server reports a failed rule: the value's path plus the rule's fieldPath. */
  static String errorPath(String at, String fieldPath) {
    if (fieldPath == null || fieldPath.isEmpty()) {
      return at.isEmpty() ? "<root>" : at;
    }
    return at.isEmpty() ? fieldPath.substring(1) : at + fieldPath;
  }
}
