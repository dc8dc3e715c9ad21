package dev.srt.operator.api;

import com.fasterxml.jackson.annotation.JsonInclude;

/** One fact of a run (see RunFacts). */
@JsonInclude(JsonInclude.Include.NON_NULL)
public class RunFact {
  /**
   * What the fact is: its subject then what of it, e.g. "model tokenizer.json sha256",
   * "node 0 GPU driver", "engine worker-0 server_args.tp_size", "router binary sha256".
   */
  public String name;

  /** routing, held-constant or recorded (see RunFacts). */
  public String kind;

  /** Its value as the run found it (a hash, a version, a server argument as JSON text); absent when unknown. */
  public String value;

  /** Why the run could not find it out; absent when it has a value. */
  public String unknown;

  public RunFact() {}

  public RunFact(String name, String kind, String value, String unknown) {
    this.name = name;
    this.kind = kind;
    this.value = value;
    this.unknown = unknown;
  }
}
