package dev.srt.operator.run;

import dev.srt.operator.api.ArmStatus;
import dev.srt.operator.api.EndpointStatus;
import dev.srt.operator.api.Measurement;
import dev.srt.operator.api.SloSpec;
import dev.srt.operator.plan.Ladder;
import dev.srt.operator.plan.Endpoint;
import dev.srt.operator.plan.Gate;
import dev.srt.operator.plan.Gates;
import dev.srt.operator.api.Mode;
import dev.srt.operator.plan.ProcessSpec;
import dev.srt.operator.plan.Role;
import dev.srt.operator.plan.RunPlan;
import java.net.URI;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

/**
 * What was submitted for one run, fixed at submission: its identity on the host, the hashes of its
 * spec and script, and the endpoints and gates its plan declared. A run is observed against its
 * record (kept in the arm's status, and as {@code plan.json} and {@code record.json} in its run
 * directory), never against the spec as it is today, which may have changed or lost the arm since.
 *
 * @param workers the planned workers, in gate order
 * @param routerUrl the router's URL when known at submission (direct), else null
 * @param foundExisting the submission found the run's job already there (a repeated submit)
 * @param ladder the load ladder the run climbs, or null for one measurement
 * @param slo what a good request of the run meets, or null
 */
public record RunRecord(String arm, String runId, String jobId, String runDir, String scriptHash, String specHash,
    Instant submittedAt, List<Worker> workers, String routerUrl, List<String> gates, boolean foundExisting, Ladder ladder,
    SloSpec slo) {

  /**
   * A planned worker: the endpoint its plan declared on node {@code node}; {@code host} is null
   * until known (a Slurm job's node address, which the run reports); {@code role} is prefill or
   * decode in a prefill/decode topology, else null.
   */
  public record Worker(String name, int node, String host, int port, String healthPath, Integer metricsPort, String metricsPath,
      Integer grpcPort, String role) {
    /** Its base URL, once its host is known. */
    public String url() {
      return host == null ? null : "http://" + host + ":" + port;
    }

    /** Its metrics URL, once its host is known and when it serves metrics. */
    public String metricsUrl() {
      return host == null || metricsPath == null ? null : "http://" + host + ":" + (metricsPort == null ? port : metricsPort) + metricsPath;
    }

    /** The same worker, known to be at {@code address}. */
    public Worker at(String address) {
      return new Worker(name, node, address, port, healthPath, metricsPort, metricsPath, grpcPort, role);
    }
  }

  public RunRecord {
    workers = List.copyOf(workers);
    gates = List.copyOf(gates);
  }

  public RunRecord(String arm, String runId, String jobId, String runDir, String scriptHash, String specHash,
      Instant submittedAt, List<Worker> workers, String routerUrl, List<String> gates) {
    this(arm, runId, jobId, runDir, scriptHash, specHash, submittedAt, workers, routerUrl, gates, false, null, null);
  }

  RunRecord foundExisting(boolean found) {
    return new RunRecord(arm, runId, jobId, runDir, scriptHash, specHash, submittedAt, workers, routerUrl, gates, found, ladder, slo);
  }

  /** The ladder and the SLO as kept in the arm's status; null when the run has neither. */
  public Measurement measurement() {
    if (ladder == null && slo == null) {
      return null;
    }
    Measurement m = new Measurement();
    if (ladder != null) {
      m.loadMode = ladder.mode();
      m.levels = ladder.levels().stream().map(Ladder.Level::load).toList();
      m.drainSeconds = ladder.drainSeconds();
    }
    if (slo != null) {
      m.keep(slo);
    }
    return m;
  }

  /** The ladder kept in a status's {@code measurement}, or null. */
  static Ladder ladder(Measurement m) {
    if (m == null || m.loadMode == null || m.levels == null || m.levels.isEmpty()) {
      return null;
    }
    List<Ladder.Level> levels = new ArrayList<>();
    for (int i = 0; i < m.levels.size(); i++) {
      levels.add(new Ladder.Level(i + 1, m.levels.get(i), Ladder.resultsDir(i + 1)));
    }
    return new Ladder(m.loadMode, levels, m.drainSeconds == null ? 0 : m.drainSeconds);
  }

  /** The record of a run of {@code plan} submitted now. */
  public static RunRecord of(RunPlan plan, String runId, String jobId, String runDir, String scriptHash, String specHash,
      Instant submittedAt) {
    boolean direct = plan.mode() == Mode.DIRECT;
    List<Worker> workers = new ArrayList<>();
    Gate health = plan.gates().stream().filter(g -> g.name().equals(Gates.WORKERS_HEALTH)).findFirst().orElseThrow();
    for (Gate.Check c : health.checks()) {
      ProcessSpec engine = plan.processes().stream()
          .filter(p -> (p.role() == Role.WORKER && p.name().equals(c.target())) || (p.role() == Role.ENGINE && c.target().equals(p.group())))
          .findFirst().orElseThrow(() -> new IllegalArgumentException("no engine for worker " + c.target()));
      Endpoint e = engine.endpoint();
      if (e == null) {
        throw new IllegalArgumentException("worker " + c.target() + " declares no endpoint");
      }
      String role = plan.topology().workers().stream().filter(w -> w.name().equals(c.target()) && w.role() != null)
          .map(w -> w.role().id()).findFirst().orElse(null);
      // A direct run's addresses are known at submission; a Slurm job's are its nodes', learnt from the run.
      workers.add(new Worker(c.target(), engine.node(), direct ? e.host() : null, e.port(), e.healthPath(), e.metricsPort(),
          e.metricsPath(), e.grpcPort(), role));
    }
    String router = direct ? plan.processes(Role.ROUTER).stream().findFirst().map(p -> p.endpoint().url()).orElse(null) : null;
    return new RunRecord(plan.arm(), runId, jobId, runDir, scriptHash, specHash, submittedAt, workers, router,
        plan.gates().stream().map(Gate::name).toList(), false, plan.ladder(), plan.slo());
  }

  /**
   * The record kept in an arm's status (what {@link RunTracker#submitted(RunRecord)} wrote). An
   * address learnt from the run since (Slurm) stays: replaying the run's events learns the same one.
   */
  public static RunRecord of(ArmStatus s) {
    List<Worker> workers = new ArrayList<>();
    for (EndpointStatus e : s.endpoints == null ? List.<EndpointStatus>of() : s.endpoints) {
      workers.add(new Worker(e.name, e.node == null ? 0 : e.node, host(e.url), e.port == null ? 0 : e.port, e.healthPath,
          e.metricsPort, e.metricsPath, e.grpcPort, e.role));
    }
    return new RunRecord(s.name, s.runId, s.jobId, s.runDir, s.scriptHash, s.specHash,
        s.startedAt == null ? Instant.EPOCH : Instant.parse(s.startedAt), workers, s.router == null ? null : s.router.url,
        s.gates == null ? List.of() : s.gates, false, ladder(s.measurement), s.measurement == null ? null : s.measurement.slo());
  }

  /** The host of a URL this code wrote ({@code http://host:port}), or null. */
  static String host(String url) {
    if (url == null) {
      return null;
    }
    try {
      return URI.create(url).getHost();
    } catch (IllegalArgumentException e) {
      return null;
    }
  }
}
