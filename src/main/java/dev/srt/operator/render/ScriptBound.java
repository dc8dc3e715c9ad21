package dev.srt.operator.render;

import dev.srt.operator.api.GpuCluster;
import dev.srt.operator.api.ResourcesSpec;
import dev.srt.operator.api.RouterComparison;
import dev.srt.operator.api.RouterComparisonSpec;
import dev.srt.operator.config.WorkerFit;
import dev.srt.operator.plan.RunPlan;
import java.lang.reflect.Field;
import java.lang.reflect.Modifier;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.lang.reflect.RecordComponent;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

/**
 * Cheap upper bounds of a script's size, so that planning and the exact measure ({@link
 * Scripts#bytes}, a counting render) are needed only for a spec that might come near {@link
 * ScriptText}'s bound: a loose one from the spec ({@link #of(RouterComparison, GpuCluster)}), and one
 * from the plan ({@link #of(RunPlan)}). The
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

  private static final String API = RouterComparisonSpec.class.getPackageName();
  /** Each api class's public instance fields (its spec fields), looked up once. */
  private static final ClassValue<List<Field>> FIELDS = new ClassValue<>() {
    @Override
    protected List<Field> computeValue(Class<?> type) {
      return Stream.of(type.getFields()).filter(f -> !Modifier.isStatic(f.getModifiers())).toList();
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

  /**
   * A cheaper and looser bound, from the spec without planning it: any line may hold all the text of
   * the comparison and the cluster three times (a worker's line has the model's path in its flags and
   * twice in a container mount), each byte quoted at most four; a line per process (an engine per node of a
   * worker, a sidecar, the router, the benchmark, etcd and NATS), two per worker for its gates, and
   * the build steps. Enough to pass an ordinary spec without planning it.
   */
  static long of(RouterComparison rc, GpuCluster cluster) {
    ResourcesSpec r = rc.getSpec() == null ? null : rc.getSpec().resources;
    long workers = r == null ? 1 : Math.max(1, WorkerFit.totalWorkers(r));
    long nodes = r == null ? 1 : r.disaggregated() ? count(r.prefillNodes) + count(r.decodeNodes) : count(r.aggNodes);
    long lines = 5 * workers + 2 * nodes + 96;
    long text = text(rc.getSpec()) + (cluster == null ? 0 : text(cluster.getSpec())) + 1024;
    return FIXED + LIBRARY + 12 * text * lines;
  }

  private static long count(Integer n) {
    return n == null ? 1 : Math.max(1, n);
  }

  /**
   * The UTF-8 bytes of every string reachable from {@code o} (records, the api's objects through
   * their public fields, collections, maps), and a word's worth for anything else.
   */
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
    if (o.getClass().getPackageName().equals(API)) {
      long n = 0;
      for (Field f : FIELDS.get(o.getClass())) {
        try {
          n += text(f.get(o)) + 8;
        } catch (IllegalAccessException e) {
          throw new IllegalStateException(e);
        }
      }
      return n;
    }
    return 24; // a number, an enum, a boolean
  }
}
