package dev.srt.operator.api;

/** The life of one run of an arm, as shown in {@code status.arms[].phase}. */
public enum ArmPhase {
  Pending,
  Submitted,
  /** Waiting for the direct host's lease while another run holds it. */
  Queued,
  Building,
  Starting,
  Ready,
  Benchmarking,
  Succeeded,
  Failed,
  Cancelled;

  public boolean terminal() {
    return this == Succeeded || this == Failed || this == Cancelled;
  }

  /** Submitted and not yet ended: a job exists on the host. */
  public boolean inFlight() {
    return this == Submitted || this == Queued || this == Building || this == Starting || this == Ready || this == Benchmarking;
  }

  /** All workers healthy and the router ready. */
  public boolean serving() {
    return this == Ready || this == Benchmarking;
  }

  /**
   * The phase named {@code text}; an arm without one yet is Pending. An unknown name is an error,
   * not Pending: treating a run the operator cannot read as not started would start it again.
   */
  public static ArmPhase of(String text) {
    if (text == null) {
      return Pending;
    }
    try {
      return valueOf(text);
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException("unknown arm phase " + text.replaceAll("\\p{Cntrl}", "?"), e);
    }
  }
}
