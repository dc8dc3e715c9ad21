package dev.srt.operator.run;

import dev.srt.operator.api.ArmStatus;
import dev.srt.operator.api.EndpointStatus;
import dev.srt.operator.plan.Gate;
import dev.srt.operator.plan.Gates;
import dev.srt.operator.base.Mode;
import dev.srt.operator.plan.ProcessSpec;
import dev.srt.operator.plan.Role;
import dev.srt.operator.plan.RunPlan;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

/**
 * What was submitted for one run, fixed at submission: its identity on the host, the hashes of its
 * spec and script, and the endpoints and gates its plan declared. A run is observed against its
 * record (kept in the arm's status, and as {@code plan.json} in its run directory), never against
 * the spec as it is today, which may have changed or lost the arm since.
 *
 * @param workers the planned workers, in gate order; {@code url} is null until known (Slurm)
 * @param routerUrl the router's URL when known at submission (direct), else null
 * @param foundExisting the submission found the run's job already there (a repeated submit)
 */
public record RunRecord(String arm, String runId, String jobId, String runDir, String scriptHash, String specHash,
    Instant submittedAt, List<Endpoint> workers, String routerUrl, List<String> gates, boolean foundExisting) {

  /** A planned worker endpoint; {@code role} is prefill or decode in a prefill/decode topology, else null. */
  public record Endpoint(String name, int node, int port, String url, Integer grpcPort, String role) {}

  public RunRecord {
    workers = List.copyOf(workers);
    gates = List.copyOf(gates);
  }

  public RunRecord(String arm, String runId, String jobId, String runDir, String scriptHash, String specHash,
      Instant submittedAt, List<Endpoint> workers, String routerUrl, List<String> gates) {
    this(arm, runId, jobId, runDir, scriptHash, specHash, submittedAt, workers, routerUrl, gates, false);
  }

  RunRecord foundExisting(boolean found) {
    return new RunRecord(arm, runId, jobId, runDir, scriptHash, specHash, submittedAt, workers, routerUrl, gates, found);
  }

  /** The record of a run of {@code plan} submitted now. */
  public static RunRecord of(RunPlan plan, String runId, String jobId, String runDir, String scriptHash, String specHash,
      Instant submittedAt) {
    String host = plan.mode() == Mode.DIRECT ? "127.0.0.1" : null;
    List<Endpoint> workers = new ArrayList<>();
    Gate health = plan.gates().stream().filter(g -> g.name().equals(Gates.WORKERS_HEALTH)).findFirst().orElseThrow();
    for (Gate.Check c : health.checks()) {
      ProcessSpec engine = plan.processes().stream()
          .filter(p -> (p.role() == Role.WORKER && p.name().equals(c.target())) || (p.role() == Role.ENGINE && c.target().equals(p.group())))
          .findFirst().orElseThrow(() -> new IllegalArgumentException("no engine for worker " + c.target()));
      int port = engine.ports().get("http");
      String role = plan.topology().workers().stream().filter(w -> w.name().equals(c.target()) && w.role() != null)
          .map(w -> w.role().id()).findFirst().orElse(null);
      workers.add(new Endpoint(c.target(), engine.node(), port, host == null ? null : "http://" + host + ":" + port,
          engine.ports().get("grpc"), role));
    }
    String router = plan.processes().stream().filter(p -> p.role() == Role.ROUTER).findFirst()
        .map(p -> host == null ? null : "http://" + host + ":" + p.ports().get("http")).orElse(null);
    return new RunRecord(plan.arm(), runId, jobId, runDir, scriptHash, specHash, submittedAt, workers, router,
        plan.gates().stream().map(Gate::name).toList());
  }

  /**
   * The record kept in an arm's status (what {@link RunTracker#submitted(RunRecord)} wrote). A URL
   * learnt from the run since (Slurm) stays: replaying the run's events learns the same one.
   */
  public static RunRecord of(ArmStatus s) {
    List<Endpoint> workers = new ArrayList<>();
    for (EndpointStatus e : s.endpoints == null ? List.<EndpointStatus>of() : s.endpoints) {
      workers.add(new Endpoint(e.name, e.node == null ? 0 : e.node, e.port == null ? 0 : e.port, e.url, e.grpcPort, e.role));
    }
    return new RunRecord(s.name, s.runId, s.jobId, s.runDir, s.scriptHash, s.specHash,
        s.startedAt == null ? Instant.EPOCH : Instant.parse(s.startedAt), workers, s.router == null ? null : s.router.url,
        s.gates == null ? List.of() : s.gates);
  }
}
