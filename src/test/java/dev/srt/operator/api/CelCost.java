package dev.srt.operator.api;

import com.fasterxml.jackson.databind.JsonNode;
import dev.cel.common.CelAbstractSyntaxTree;
import dev.cel.common.ast.CelConstant;
import dev.cel.common.ast.CelExpr;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * An upper bound of the cost of one x-kubernetes-validations rule, in the units of cel-go's cost
 * model, which the API server uses to accept a CRD (at most 10,000,000 per rule times the number of
 * values it runs on, 100,000,000 per CRD) and to stop a rule at run time (1,000,000 per call).
 * cel-java has no cost estimator, so this walks the checked syntax tree with the sizes the schema
 * declares: maxLength of strings, maxItems of lists, maxProperties of maps.
 *
 * <p>It errs high (every branch of {@code &&}/{@code ||} is counted, string comparisons traverse
 * the longer string), and it records every operation whose cost grows with an input that has no
 * declared bound: the API server would estimate such an input at the largest request (3 MiB), and
 * that is what made it reject CRDs whose rules iterate unbounded lists. An unknown function fails
 * loudly, so that a new rule cannot slip past the estimate.
 */
final class CelCost {
  /** What the API server assumes for an input without a bound: the largest request body. */
  static final long UNBOUNDED = 3L * 1024 * 1024;
  /** cel-go: the cost of traversing one character of a string. */
  private static final double TRAVERSAL = 0.1;
  /** cel-go: the cost factor of one character of a regular expression. */
  private static final double REGEX = 0.25;
  /** cel-go: the base cost of creating a list. */
  private static final long LIST_CREATE = 10;

  /** The estimate: {@code cost} of one evaluation; {@code unbounded} names the unbounded inputs used. */
  record Estimate(long cost, List<String> unbounded) {}

  /** What a subexpression can be: its kind, its largest size (characters or elements), its element and schema. */
  private record Shape(String kind, long size, boolean bounded, Shape element, JsonNode schema, String what) {
    static Shape scalar(String kind) {
      return new Shape(kind, 1, true, null, null, kind);
    }

    static Shape string(long size, boolean bounded, String what) {
      return new Shape("string", size, bounded, null, null, what);
    }
  }

  private final List<String> unbounded = new ArrayList<>();

  private CelCost() {}

  /** Estimates {@code ast}, a rule whose {@code self} is the schema node {@code self}. */
  static Estimate of(CelAbstractSyntaxTree ast, JsonNode self, boolean resourceRoot, String selfPath) {
    CelCost c = new CelCost();
    Map<String, Shape> vars = new HashMap<>();
    vars.put("self", resourceRoot ? root(self) : shape(self, selfPath));
    long cost = c.cost(ast.getExpr(), vars).cost;
    return new Estimate(cost, List.copyOf(c.unbounded));
  }

  /** The resource root: its schema plus metadata.name and metadata.generateName (DNS subdomains). */
  private static Shape root(JsonNode schema) {
    return new Shape("root", 1, true, null, schema, "self");
  }

  private static Shape shape(JsonNode schema, String what) {
    switch (schema.path("type").asText("")) {
      case "string" -> {
        return Shape.string(schema.path("maxLength").asLong(UNBOUNDED), schema.has("maxLength"), what);
      }
      case "array" -> {
        return new Shape("list", schema.path("maxItems").asLong(UNBOUNDED), schema.has("maxItems"),
            shape(schema.path("items"), what + "[*]"), schema, what);
      }
      case "object" -> {
        if (schema.path("additionalProperties").isObject()) {
          // Iterating a map yields its keys: strings no schema keyword bounds.
          return new Shape("map", schema.path("maxProperties").asLong(UNBOUNDED), schema.has("maxProperties"),
              Shape.string(UNBOUNDED, false, what + " keys"), schema, what);
        }
        return new Shape("object", 1, true, null, schema, what);
      }
      case "integer" -> {
        return Shape.scalar("int");
      }
      case "boolean" -> {
        return Shape.scalar("bool");
      }
      default -> {
        return new Shape("dyn", UNBOUNDED, false, null, schema, what);
      }
    }
  }

  private record Cost(long cost, Shape shape) {}

  private Cost cost(CelExpr e, Map<String, Shape> vars) {
    switch (e.getKind()) {
      case CONSTANT -> {
        CelConstant k = e.constant();
        return new Cost(0, k.getKind() == CelConstant.Kind.STRING_VALUE
            ? Shape.string(k.stringValue().length(), true, "a literal") : Shape.scalar("literal"));
      }
      case IDENT -> {
        Shape s = vars.get(e.ident().name());
        if (s == null) {
          throw new IllegalArgumentException("unknown variable " + e.ident().name());
        }
        return new Cost(1, s);
      }
      case SELECT -> {
        Cost operand = cost(e.select().operand(), vars);
        if (e.select().testOnly()) {
          return new Cost(operand.cost + 1, Shape.scalar("bool"));
        }
        return new Cost(operand.cost + 1, field(operand.shape, e.select().field()));
      }
      case LIST -> {
        long sum = LIST_CREATE;
        Shape element = null;
        for (CelExpr x : e.list().elements()) {
          Cost c = cost(x, vars);
          sum += c.cost;
          element = element == null || c.shape.size > element.size ? c.shape : element;
        }
        return new Cost(sum, new Shape("list", e.list().elements().size(), true, element, null, "a list literal"));
      }
      case COMPREHENSION -> {
        return comprehension(e.comprehension(), vars);
      }
      case CALL -> {
        return call(e.call(), vars);
      }
      default -> throw new IllegalArgumentException("no estimate for " + e.getKind() + ": " + e);
    }
  }

  private static Shape field(Shape operand, String field) {
    if (operand.kind.equals("root") && field.equals("metadata")) {
      return new Shape("metadata", 1, true, null, null, "metadata");
    }
    if (operand.kind.equals("metadata")) {
      return Shape.string(253, true, "metadata." + field);
    }
    if (operand.schema == null) {
      throw new IllegalArgumentException("no schema for ." + field + " of " + operand.what);
    }
    for (var it = operand.schema.path("properties").fields(); it.hasNext(); ) {
      var p = it.next();
      if (field.equals(CrdSchema.escape(p.getKey()))) {
        return shape(p.getValue(), operand.what + "." + p.getKey());
      }
    }
    throw new IllegalArgumentException("no property " + field + " in " + operand.what);
  }

  private Cost comprehension(CelExpr.CelComprehension c, Map<String, Shape> vars) {
    Cost range = cost(c.iterRange(), vars);
    long n = sized(range.shape, "iterating");
    Map<String, Shape> inner = new HashMap<>(vars);
    inner.put(c.iterVar(), range.shape.element != null ? range.shape.element : Shape.scalar("dyn"));
    Cost init = cost(c.accuInit(), inner);
    // The accumulator of filter/map grows to the size of the range.
    Shape accu = init.shape.kind.equals("list") ? new Shape("list", n, true, range.shape.element, null, "the result") : init.shape;
    inner.put(c.accuVar(), accu);
    Cost condition = cost(c.loopCondition(), inner);
    Cost step = cost(c.loopStep(), inner);
    Cost result = cost(c.result(), inner);
    return new Cost(range.cost + init.cost + n * (condition.cost + step.cost) + result.cost, result.shape);
  }

  private Cost call(CelExpr.CelCall call, Map<String, Shape> vars) {
    List<Cost> args = new ArrayList<>();
    call.target().ifPresent(t -> args.add(cost(t, vars)));
    for (CelExpr a : call.args()) {
      args.add(cost(a, vars));
    }
    long sum = args.stream().mapToLong(Cost::cost).sum();
    Shape bool = Shape.scalar("bool");
    switch (call.function()) {
      case "_&&_", "_||_", "!_", "@not_strictly_false", "_<_", "_<=_", "_>_", "_>=_" -> {
        return new Cost(sum + 1, bool);
      }
      case "_-_", "-_" -> {
        return new Cost(sum + 1, Shape.scalar("int"));
      }
      case "_[_]" -> {
        Shape container = args.get(0).shape;
        Shape element = container.kind.equals("map") ? shape(container.schema.path("additionalProperties"), container.what + "[*]")
            : container.element;
        return new Cost(sum + 1, element == null ? Shape.scalar("dyn") : element);
      }
      case "_?_:_" -> {
        return new Cost(args.get(0).cost + Math.max(args.get(1).cost, args.get(2).cost) + 1,
            args.get(1).shape.size >= args.get(2).shape.size ? args.get(1).shape : args.get(2).shape);
      }
      case "size" -> {
        return new Cost(sum + 1, Shape.scalar("int"));
      }
      case "_==_", "_!=_" -> {
        long longest = Math.max(traversed(args.get(0).shape), traversed(args.get(1).shape));
        return new Cost(sum + 1 + longest, bool);
      }
      case "_+_" -> {
        Shape a = args.get(0).shape;
        if (a.kind.equals("list")) {
          Shape b = args.get(1).shape;
          return new Cost(sum + LIST_CREATE + a.size + b.size, new Shape("list", a.size + b.size, true, a.element, null, "a concatenation"));
        }
        return new Cost(sum + 1, a.kind.equals("string")
            ? Shape.string(a.size + args.get(1).shape.size, a.bounded && args.get(1).shape.bounded, "a concatenation") : a);
      }
      case "startsWith", "endsWith", "contains" -> {
        return new Cost(sum + 1 + traversed(args.get(0).shape), bool);
      }
      case "trim", "lowerAscii", "upperAscii" -> {
        return new Cost(sum + 1 + traversed(args.get(0).shape), args.get(0).shape);
      }
      case "matches" -> {
        long text = traversed(args.get(0).shape);
        long regex = (long) Math.ceil(sized(args.get(1).shape, "a regular expression") * REGEX);
        return new Cost(sum + 1 + Math.max(1, text) * Math.max(1, regex), bool);
      }
      case "@in" -> {
        Shape list = args.get(1).shape;
        long each = 1 + traversed(args.get(0).shape);
        return new Cost(sum + sized(list, "searching") * each, bool);
      }
      default -> throw new IllegalArgumentException("no cost model for " + call.function() + "; add it to CelCost");
    }
  }

  /** The traversal cost of a string (0 for other values); an unbounded string is recorded. */
  private long traversed(Shape s) {
    if (!s.kind.equals("string")) {
      return 0;
    }
    return (long) Math.ceil(sized(s, "reading") * TRAVERSAL);
  }

  private long sized(Shape s, String doing) {
    if (!s.bounded) {
      unbounded.add(doing + " " + s.what + " (no maxLength/maxItems/maxProperties)");
    }
    return s.size;
  }
}
