package dev.srt.operator.api;

import com.fasterxml.jackson.annotation.JsonInclude;
import java.util.ArrayList;
import java.util.List;

/**
 * What one run recorded about itself before its benchmark (its facts.json): the engines' effective
 * server arguments and versions, each node's GPUs, driver, CUDA and kernel, the router's binary,
 * wheels and policy catalog, the model files' hashes and the workload. A verdict compares runs
 * only when their held-constant facts are equal (spec.execution.requireFacts).
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public class RunFacts {
  /** Routing: the router's own identity (binary, wheels, packages, policy catalog); arms may differ in these. */
  public static final String ROUTING = "routing";
  /** Held constant: everything a verdict needs to be the same in every run it compares. */
  public static final String HELD_CONSTANT = "held-constant";
  /** Recorded: shown, never compared (host names, a seed an engine draws for itself). */
  public static final String RECORDED = "recorded";

  /** When the run captured its facts (UTC), as the run wrote it. */
  public String capturedAt;

  /**
   * Why the run has no facts: it wrote no facts.json (a run of an earlier version, or the
   * collector failed), or the file was too large or malformed. Absent when the run has them.
   */
  public String unknown;

  /** SHA-256 (16 hex digits) of the run's held-constant facts, names and values: equal digests, equal facts. */
  public String heldConstantDigest;

  /** SHA-256 (16 hex digits) of the run's routing facts. */
  public String routingDigest;

  /** How many facts the run recorded. */
  public Integer count;

  /** How many of them the run could not find out (each says why). */
  public Integer unknownCount;

  /**
   * Every fact, in the order the run wrote them. Absent in the compact form (digests and counts
   * only) that the operator's status keeps per run.
   */
  public List<RunFact> facts;

  /** The facts of a run that has none, and why. */
  public static RunFacts none(String why) {
    RunFacts f = new RunFacts();
    f.unknown = why;
    return f;
  }

  /** This run's digests and counts without the facts themselves: what a status keeps per run. */
  public RunFacts compact() {
    RunFacts c = new RunFacts();
    c.capturedAt = capturedAt;
    c.unknown = unknown;
    c.heldConstantDigest = heldConstantDigest;
    c.routingDigest = routingDigest;
    c.count = count;
    c.unknownCount = unknownCount;
    return c;
  }

  /** The facts, or none. */
  public List<RunFact> factList() {
    return facts == null ? new ArrayList<>() : facts;
  }
}
