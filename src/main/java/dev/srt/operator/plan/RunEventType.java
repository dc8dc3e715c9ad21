package dev.srt.operator.plan;

import java.util.Arrays;
import java.util.Map;
import java.util.Optional;
import java.util.function.Function;
import java.util.stream.Collectors;

/**
 * The events a run writes to {@code events.jsonl} (docs/run-protocol.md): one vocabulary for the
 * scripts that write them (the bash library, {@code render.ScriptBody}) and the Java that reads them
 * ({@code EventVocabularyTest} checks both sides). Readers ignore names they do not know, which
 * newer scripts may write.
 */
public enum RunEventType {
  RUN_STARTED("run-started"),
  QUEUED("queued"),
  LEASE_ACQUIRED("lease-acquired"),
  PHASE("phase"),
  STAGE_STARTED("stage-started"),
  STAGE_FINISHED("stage-finished"),
  PROCESS_STARTED("process-started"),
  ENDPOINT_READY("endpoint-ready"),
  GATE_PASSED("gate-passed"),
  /** The run wrote {@code facts.json} (what it is: engines, nodes, router, model, workload). */
  FACTS("facts"),
  /** A level of the load ladder began: {@code level} (from 1), {@code of}, {@code load}, {@code label}. */
  LEVEL_STARTED("level-started"),
  /** A level of the load ladder was measured; its result files follow as {@code result} events. */
  LEVEL_FINISHED("level-finished"),
  RESULT("result"),
  PROCESS_EXITED("process-exited"),
  FAILED("failed"),
  FINISHED("finished");

  /** The {@code phase} values of {@link #PHASE} events, in the order a run goes through them. */
  public enum Phase {
    BUILDING, STARTING, READY, BENCHMARKING;

    public String wire() {
      return name().toLowerCase(java.util.Locale.ROOT);
    }

    public static Optional<Phase> of(String wire) {
      return Arrays.stream(values()).filter(p -> p.wire().equals(wire)).findFirst();
    }
  }

  private static final Map<String, RunEventType> BY_WIRE =
      Arrays.stream(values()).collect(Collectors.toUnmodifiableMap(RunEventType::wire, Function.identity()));

  private final String wire;

  RunEventType(String wire) {
    this.wire = wire;
  }

  /** The name as written in {@code events.jsonl}. */
  public String wire() {
    return wire;
  }

  /** The type of an event name, empty for one this reader does not know. */
  public static Optional<RunEventType> of(String wire) {
    return Optional.ofNullable(wire == null ? null : BY_WIRE.get(wire));
  }

  /** Whether the event named {@code event} is of this type. */
  public boolean is(String event) {
    return wire.equals(event);
  }
}
