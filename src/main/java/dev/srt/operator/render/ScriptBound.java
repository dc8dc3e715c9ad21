package dev.srt.operator.render;

import dev.srt.operator.plan.RunPlan;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.lang.reflect.RecordComponent;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

/**
 * A cheap upper bound of a plan's script size, so that the exact measure ({@link Scripts#bytes}, a
 * counting render) is needed only for a spec that might come near {@link ScriptText}'s bound. The
 * script is the shared library and a few fixed lines, and lines made of the plan's text: every
 * string of the plan (found by walking its records, so a new field is counted without a change
 * here) is counted twice, each byte at most four when quoted ({@code '} is written {@code '\''}),
 * and every line repeats the launcher's words (srun options, the container's image and mounts, the
 * exported names), counted eight times over. {@code ScriptBoundTest} checks it against real scripts.
 */
final class ScriptBound {
  /** Bytes of the fixed text around the library: headers, settings, the Slurm node lookup. */
  private static final long FIXED = 16 * 1024;
  /** The words a line adds itself: the library function, the launcher's own options, separators. */
  private static final long PER_LINE = 2048;
  private static final long LIBRARY = ScriptText.utf8Length(BashLibrary.text()) + ScriptText.utf8Length(BashLibrary.sidecarSupervisor());

  /** Each record class's component accessors, looked up once. */
  private static final ClassValue<List<Method>> ACCESSORS = new ClassValue<>() {
    @Override
    protected List<Method> computeValue(Class<?> type) {
      return Stream.of(type.getRecordComponents()).map(RecordComponent::getAccessor).toList();
    }
  };

  private ScriptBound() {}

  static long of(RunPlan plan) {
    long lines = 16 + plan.processes().size() + plan.preflight().size();
    for (var stage : plan.builds()) {
      lines += stage.steps().size() + 4;
    }
    for (var gate : plan.gates()) {
      lines += gate.checks().size() + 3;
    }
    long launcher = text(plan.slurm()) + text(plan.container()) + text(plan.env()) + text(plan.secretEnv()) + text(plan.settings());
    return FIXED + LIBRARY + 8 * text(plan) + lines * (8 * launcher + PER_LINE);
  }

  /** The UTF-8 bytes of every string reachable from {@code o} (records, collections, maps), and a word's worth for anything else. */
  static long text(Object o) {
    if (o == null) {
      return 0;
    }
    if (o instanceof String s) {
      return ScriptText.utf8Length(s);
    }
    if (o instanceof Collection<?> c) {
      long n = 0;
      for (Object item : c) {
        n += text(item) + 1;
      }
      return n;
    }
    if (o instanceof Map<?, ?> m) {
      long n = 0;
      for (Map.Entry<?, ?> e : m.entrySet()) {
        n += text(e.getKey()) + text(e.getValue()) + 2;
      }
      return n;
    }
    if (o instanceof Record r) {
      long n = 0;
      for (Method accessor : ACCESSORS.get(r.getClass())) {
        try {
          n += text(accessor.invoke(r));
        } catch (IllegalAccessException | InvocationTargetException e) {
          throw new IllegalStateException(e);
        }
      }
      return n;
    }
    return 24; // a number, an enum, a boolean
  }
}
