package dev.srt.operator.plan.frontends;

import java.util.List;

/** The registry of router kinds. */
public final class Frontends {
  private static final List<Frontend> ALL = List.of(new SglRouterFrontend(), new DynamoFrontend());

  private Frontends() {}

  public static Frontend of(String type) {
    return ALL.stream().filter(f -> f.type().equals(type)).findFirst()
        .orElseThrow(() -> new IllegalArgumentException("unknown frontend type " + type));
  }
}
