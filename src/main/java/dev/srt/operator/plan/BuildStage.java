package dev.srt.operator.plan;

import com.fasterxml.jackson.annotation.JsonInclude;
import java.util.List;
import java.util.Map;

/**
 * A build or install step that runs before any process starts. With a {@code cacheDir}, the steps
 * run under an exclusive lock on {@code <cacheDir>.lock} only when {@code <cacheDir>/.complete} is
 * missing, and the marker is written when they all succeed; so concurrent runs build once and a
 * failed build is retried. A {@code stamp} is a command whose output identifies inputs the cache
 * key cannot see (the content of a local source tree): the cache counts only while it prints what
 * it printed when the cache was built. Each step is an argv; a step whose first word starts with
 * {@code srt_} is a function of the shared bash library.
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public record BuildStage(String name, String cacheDir, List<String> stamp, List<List<String>> steps, Map<String, String> env) {
  public BuildStage {
    stamp = stamp == null ? null : List.copyOf(stamp);
    steps = steps.stream().map(List::copyOf).toList();
    env = java.util.Collections.unmodifiableMap(new java.util.LinkedHashMap<>(env));
  }

  public BuildStage(String name, String cacheDir, List<List<String>> steps, Map<String, String> env) {
    this(name, cacheDir, null, steps, env);
  }
}
