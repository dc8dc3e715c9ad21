package dev.srt.operator.plan.frontends;

import dev.srt.operator.config.FrontendRules;

/**
 * The registry of router kinds: the classes listed in
 * {@code META-INF/services/dev.srt.operator.config.FrontendRules}, the one place a router kind is
 * registered, for its rules (the validator) and its plan alike.
 */
public final class Frontends {
  private Frontends() {}

  public static Frontend of(String type) {
    if (FrontendRules.all().get(type) instanceof Frontend f) {
      return f;
    }
    throw new IllegalArgumentException("unknown frontend type " + type);
  }
}
