package dev.srt.operator.api;

import io.fabric8.generator.annotation.Default;
import com.fasterxml.jackson.annotation.JsonInclude;
import io.fabric8.generator.annotation.Size;
import io.fabric8.generator.annotation.ValidationRule;

@JsonInclude(JsonInclude.Include.NON_NULL)
@ValidationRule(value = "!has(self.timeout) || self.timeout.matches('^([0-9]+(ms|s|m|h))+$')", message = "must be a duration such as 30m or 1h30m", fieldPath = ".timeout")
@ValidationRule(value = "!has(self.interval) || self.interval.matches('^([0-9]+(ms|s|m|h))+$')", message = "must be a duration such as 10s", fieldPath = ".interval")
public class HealthCheckSpec {
  /**
   * Budget of each readiness gate of an arm (every worker healthy; router ready; canary). Default
   * 30m.
   */
  @Size(max = Limits.MAX_WORD)
  @Default("30m")
  public String timeout;

  /** Pause between readiness probes. Default 10s. */
  @Size(max = Limits.MAX_WORD)
  @Default("10s")
  public String interval;
}
