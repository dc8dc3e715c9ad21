package dev.srt.operator.render;

import dev.srt.operator.base.Shell;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.srt.operator.api.GpuCluster;
import dev.srt.operator.api.GpuClusterSpec;
import dev.srt.operator.api.RouterComparison;
import dev.srt.operator.api.RouterComparisonSpec;
import dev.srt.operator.config.FieldPath;
import dev.srt.operator.base.Mappers;
import dev.srt.operator.config.Problem;
import dev.srt.operator.config.Validator;
import dev.srt.operator.api.Mode;
import dev.srt.operator.plan.Planner;
import dev.srt.operator.plan.RunPlan;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Deque;
import java.util.EnumMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue 8: a spec runs nothing it did not declare. Shell payloads (command substitutions, quotes,
 * separators, newlines, globs, option words, control and bidi characters, placeholders combined
 * with quotes, ...) are written into every string of a RouterComparison and a GpuCluster: every
 * string field (found by walking the api classes, so a new field is fuzzed without a change here),
 * every map key and value, every list item, and a new entry of every map and list. Each generated
 * spec is either rejected by the validator with a problem at the mutated field, or rendered in both
 * modes and run with recording stand-ins for every program a script may start. Accepted payloads
 * are run many per spec (fields that do not interfere), so every one of them runs, in a bounded
 * time. A payload that ran would leave a marker file; every recorded command line must be one
 * the plan declared, and every process must get the environment the plan gave it.
 */
class ShellInjectionPropertyIT {
  /**
   * A new seed each run (it picks the random payloads and how payloads share specs), printed with
   * the result and in every failure: {@code -DshellInjection.seed=N} repeats a run.
   */
  private static final long SEED = Long.getLong("shellInjection.seed", new java.security.SecureRandom().nextLong());
  /**
   * Accepted payloads written together into one place, places changed in one run spec, and
   * parallel runs (the scripts mostly wait on their stand-ins).
   */
  private static final int PAYLOADS_PER_PLACE = 8;
  private static final int PLACES_PER_SPEC = 200;
  private static final int LANES = 6;
  /** The custom workload's command is the author's own program; it is gated by the cluster, not by quoting. */
  private static final Set<String> NOT_FUZZED = Set.of("spec.workload.command");

  @TempDir Path dir;

  private StandIns standIns;
  private final ConcurrentLinkedQueue<String> violations = new ConcurrentLinkedQueue<>();
  private final AtomicInteger scripts = new AtomicInteger();
  private final AtomicLong commands = new AtomicLong();
  private final ConcurrentLinkedQueue<String> failedRuns = new ConcurrentLinkedQueue<>();

  /** {@code %M} is replaced by the marker file of the mutation: it exists only if the payload ran. */
  static final List<String> PAYLOADS = List.of(
      "$(touch %M)",
      "`touch %M`",
      ";touch %M;",
      "';touch %M;'",
      "\";touch %M;\"",
      "\ntouch %M\n",
      "\\';touch %M;#",
      "${IFS}touch${IFS}%M",
      "|touch %M",
      "&touch %M&",
      ">%M",
      "<(touch %M)",
      "$(touch${IFS}%M)",
      "-oProxyCommand=touch %M",
      "--output=%M",
      "#$(touch %M)",
      "*?[a-z]{x,y}~root/$(touch %M)",
      "\t\r\u001b[31m\u0007$(touch %M)",
      "é漢🙂\u202e\u200f$(touch %M)",
      "{{run_dir}}'$(touch %M)'",
      "{{run_id}}\";touch %M;\"",
      "{{node:0}}$(touch %M)",
      "{{host_tag}}`touch %M`",
      "{{run_dir}}\"'\"'$(touch %M)",
      "$'\\x27'$(touch %M)",
      "!touch %M",
      "a[$(touch %M)]",
      "%s%n%x$(touch %M)",
      "=touch %M",
      "x\\",
      "'",
      "-",
      "--",
      "-o");
  /** For the keys and values of sbatchDirectives and srunOptions (issue 23, hole 6). */
  static final List<String> SLURM_PAYLOADS = List.of("output", "outp", "error", "export", "exp", "export-file", "chdir", "ch",
      "job-name", "input", "prolog", "task-prolog", "bcast", "wrap", "container-mounts", "get-user-env",
      "ALL,BASH_ENV=%M", "ALL,LD_PRELOAD=%M", "X=1,PS4=$(touch %M)", "../%M", "%M/../../x", "NONE", "/home/bench/.bashrc");
  /** Random strings of quoting-relevant characters (seeded), each with a command after it. */
  private static final String ALPHABET = "ab Z09'\"$()`;\n\t*?[]\\!{}|&<>#~=%^,.:/-_é漢🙂";

  record Variant(String name, ObjectNode rc, Map<Mode, ObjectNode> clusters) {}

  /** One payload written into one place (over its value, or after it). */
  record Mutation(int id, Variant variant, SpecSlots.Slot slot, boolean onCluster, String payload, boolean append) {}

  /** Accepted payloads of one place, written one after another into it: each keeps its own marker. */
  record Change(List<Mutation> parts) {
    Mutation first() {
      return parts.get(0);
    }
  }

  /**
   * Every string of every spec, plus (issue 23) the managed Slurm option names, their prefixes and
   * environment and path values in the Slurm options: rejected at the field, or run clean.
   */
  @Test
  void noPayloadInAnyStringRunsAnUndeclaredCommand() throws Exception {
    long started = System.nanoTime();
    standIns = StandIns.install(dir);
    List<Variant> variants = Variants.all(dir);
    Random random = new Random(SEED);

    // Every string-bearing field of both kinds is reached by some variant.
    Set<String> reached = new LinkedHashSet<>();
    for (Variant v : variants) {
      SpecSlots.of(v.rc(), RouterComparisonSpec.class, NOT_FUZZED).forEach(s -> reached.add(s.pattern()));
      v.clusters().values().forEach(c -> SpecSlots.of(c, GpuClusterSpec.class, Set.of()).forEach(s -> reached.add(s.pattern())));
    }
    Set<String> all = new LinkedHashSet<>(SpecSlots.patterns(RouterComparisonSpec.class));
    all.addAll(SpecSlots.patterns(GpuClusterSpec.class));
    all.removeAll(NOT_FUZZED);
    assertThat(reached).as("string fields no variant reaches: add them to Variants").containsAll(all);
    for (Variant v : variants) {
      assertThat(errors(v, List.of())).as("variant %s is valid", v.name()).isEmpty();
    }

    // Generate: every place x every payload, written over the value or after it.
    List<Mutation> mutations = new ArrayList<>();
    for (Variant v : variants) {
      List<SpecSlots.Slot> rcSlots = SpecSlots.of(v.rc(), RouterComparisonSpec.class, NOT_FUZZED);
      Map<String, SpecSlots.Slot> clusterSlots = new LinkedHashMap<>();
      v.clusters().values().forEach(c -> SpecSlots.of(c, GpuClusterSpec.class, Set.of())
          .forEach(s -> clusterSlots.putIfAbsent(s.kind() + " " + s.path() + " " + s.name(), s)));
      List<String> payloads = new ArrayList<>(PAYLOADS);
      for (int i = 0; i < 4; i++) {
        payloads.add(randomString(random) + "$(touch %M)");
      }
      for (String payload : payloads) {
        for (SpecSlots.Slot s : rcSlots) {
          mutations.add(new Mutation(mutations.size(), v, s, false, payload, random.nextBoolean()));
        }
        for (SpecSlots.Slot s : clusterSlots.values()) {
          mutations.add(new Mutation(mutations.size(), v, s, true, payload, random.nextBoolean()));
        }
      }
      // The Slurm options also get the option names srt-operator manages (and their prefixes, which
      // getopt expands), environment assignments and paths out of the run: as keys and as values.
      for (String payload : SLURM_PAYLOADS) {
        for (SpecSlots.Slot s : clusterSlots.values()) {
          if (s.path().startsWith("spec.slurm.sbatchDirectives") || s.path().startsWith("spec.slurm.srunOptions")) {
            mutations.add(new Mutation(mutations.size(), v, s, true, payload, false));
          }
        }
      }
    }

    // Validate each alone: rejected with a problem at the mutated field, or accepted.
    int rejected = 0;
    Map<String, List<Mutation>> acceptedByPlace = new LinkedHashMap<>();
    for (Mutation m : mutations) {
      List<Problem> errors = errors(m.variant(), List.of(new Change(List.of(m))));
      if (errors.isEmpty()) {
        String place = m.variant().name() + " " + m.onCluster() + " " + m.slot() + " " + m.append();
        acceptedByPlace.computeIfAbsent(place, k -> new ArrayList<>()).add(m);
      } else {
        rejected++;
        if (errors.stream().noneMatch(e -> m.slot().covers(e.path()))) {
          violations.add("rejected without a problem at " + m.slot().path() + " (" + m.slot().kind() + ", " + printable(payload(m))
              + "): " + errors.stream().map(Problem::describe).toList());
        }
      }
    }
    int accepted = acceptedByPlace.values().stream().mapToInt(List::size).sum();

    // Run every accepted payload: a few per place, many places per spec (split again where the validator objects).
    Map<Variant, List<Change>> changes = new LinkedHashMap<>();
    acceptedByPlace.values().forEach(list -> {
      List<Mutation> shuffled = new ArrayList<>(list);
      Collections.shuffle(shuffled, random);
      for (int i = 0; i < shuffled.size(); i += PAYLOADS_PER_PLACE) {
        changes.computeIfAbsent(shuffled.get(0).variant(), k -> new ArrayList<>())
            .add(new Change(shuffled.subList(i, Math.min(i + PAYLOADS_PER_PLACE, shuffled.size()))));
      }
    });
    List<List<Change>> specs = new ArrayList<>();
    specs.add(List.of());
    changes.values().forEach(list -> {
      Collections.shuffle(list, random);
      specs.addAll(batch(list));
    });
    // For working on the test itself: -DshellInjection.maxSpecs=N runs only the first N specs.
    int max = Integer.getInteger("shellInjection.maxSpecs", Integer.MAX_VALUE);
    if (specs.size() > max) {
      specs.subList(max, specs.size()).clear();
    }
    int payloadsRun = specs.stream().flatMap(List::stream).mapToInt(c -> c.parts().size()).sum();
    List<ServerSocket> grpc = grpcListeners();
    ExecutorService pool = Executors.newFixedThreadPool(LANES);
    try {
      List<Future<?>> futures = new ArrayList<>();
      AtomicInteger lanes = new AtomicInteger();
      ThreadLocal<Integer> lane = ThreadLocal.withInitial(lanes::getAndIncrement);
      for (int b = 0; b < specs.size(); b++) {
        int index = b;
        List<Change> spec = specs.get(b);
        Variant v = spec.isEmpty() ? variants.get(0) : spec.get(0).first().variant();
        futures.add(pool.submit(() -> {
          runSpec(index, v, spec, lane.get());
          return null;
        }));
      }
      // The other variants run unmutated too.
      for (Variant v : variants.subList(1, variants.size())) {
        futures.add(pool.submit(() -> {
          runSpec(-variants.indexOf(v), v, List.of(), lane.get());
          return null;
        }));
      }
      for (Future<?> f : futures) {
        f.get();
      }
    } finally {
      pool.shutdownNow();
      for (ServerSocket s : grpc) {
        s.close();
      }
    }

    String repeat = " (seed " + SEED + ": -DshellInjection.seed=" + SEED + " repeats this run)";
    assertThat(standIns.markerNames().stream().map(name -> {
      Mutation m = mutations.get(Integer.parseInt(name.replaceAll("^m([0-9]+).*", "$1")));
      return m.variant().name() + " " + m.slot().path() + " (" + m.slot().kind() + (m.append() ? ", appended" : "") + "): "
          + printable(payload(m));
    })).as("payloads that ran (their marker files exist)" + repeat).isEmpty();
    assertThat(violations).as("violations" + repeat).isEmpty();
    // A few runs may fail because of a payload itself (e.g. a path the test cannot create); never many.
    // (out of every script the specs render, the ones not run again because no payload changed them included)
    assertThat(failedRuns.size()).as("failed runs" + repeat + ": %s", failedRuns).isLessThanOrEqualTo((scripts.get() + unchanged.get()) / 20);
    System.out.printf("ShellInjectionPropertyIT, seed " + SEED + ": %,d specs (%,d rejected with the mutated field's path, %,d accepted); "
            + "the accepted payloads run in %,d specs, both modes, every arm: %,d scripts, %,d commands recorded, "
            + "0 undeclared commands, 0 payloads ran (%d failed runs, %,d scripts no payload changed not run again, %d s)%n", mutations.size(),
        rejected, accepted, specs.size(), scripts.get(), commands.get(), failedRuns.size(), unchanged.get(),
        (System.nanoTime() - started) / 1_000_000_000L);
    // Why runs failed (a payload the test cannot give the run, e.g. a binary outside its directory).
    // (the first few, shortened: the field list of a spec is long and the reasons repeat)
    failedRuns.stream().limit(3).forEach(f -> System.out.println("  failed run: "
        + String.join(" | ", f.replaceAll("(?s)^.*?\\]\\) ", "").lines().limit(6).toList()).replaceAll("^(.{400}).+$", "$1...")));
    assertThat(payloadsRun).as("every accepted payload ran").isEqualTo(max == Integer.MAX_VALUE ? accepted : payloadsRun);
  }

  private String payload(Mutation m) {
    return m.payload().replace("%M", standIns.markers.resolve("m" + m.id()).toString());
  }

  /** Each lane's sidecar gRPC ports, listened on here: the stand-in engines need not bind them. */
  private static List<ServerSocket> grpcListeners() throws IOException {
    List<ServerSocket> out = new ArrayList<>();
    for (int lane = 0; lane < LANES; lane++) {
      for (int i = 0; i < 4; i++) {
        ServerSocket s = new ServerSocket();
        s.setReuseAddress(true);
        try {
          s.bind(new InetSocketAddress("127.0.0.1", grpcBase(lane) + i), 64);
        } catch (IOException e) {
          s.close();
          continue;
        }
        out.add(s);
        Thread t = new Thread(() -> {
          while (!s.isClosed()) {
            try {
              s.accept().close();
            } catch (IOException e) {
              return;
            }
          }
        }, "grpc-" + s.getLocalPort());
        t.setDaemon(true);
        t.start();
      }
    }
    return out;
  }

  private static int grpcBase(int lane) {
    return 21000 + 100 * lane;
  }

  /**
   * Groups changes of unrelated places, first fit: a change joins the first spec it is unrelated
   * to and that the validator still accepts with it (two places can be valid apart and not
   * together), else starts a spec. A change whose payloads are rejected together at its place (the
   * string grows past its limit) is halved first.
   */
  private List<List<Change>> batch(List<Change> changes) {
    List<List<Change>> out = new ArrayList<>();
    Deque<Change> todo = new ArrayDeque<>(changes);
    while (!todo.isEmpty()) {
      Change c = todo.poll();
      Variant v = c.first().variant();
      if (c.parts().size() > 1 && !errors(v, List.of(c)).isEmpty()) {
        List<Mutation> parts = c.parts();
        todo.addFirst(new Change(parts.subList(parts.size() / 2, parts.size())));
        todo.addFirst(new Change(parts.subList(0, parts.size() / 2)));
        continue;
      }
      List<Change> home = null;
      for (List<Change> spec : out) {
        if (spec.size() < PLACES_PER_SPEC && spec.stream().noneMatch(g -> related(g.first(), c.first()))) {
          List<Change> with = new ArrayList<>(spec);
          with.add(c);
          if (errors(v, with).isEmpty()) {
            home = spec;
            break;
          }
        }
      }
      if (home == null) {
        home = new ArrayList<>();
        out.add(home);
      }
      home.add(c);
    }
    return out;
  }

  /** Two changes that cannot go into one spec: the same place, or a key renamed under the other's path. */
  private static boolean related(Mutation a, Mutation b) {
    if (a.onCluster() != b.onCluster()) {
      return false;
    }
    return a.slot().equals(b.slot()) || renames(a.slot(), b.slot()) || renames(b.slot(), a.slot());
  }

  private static boolean renames(SpecSlots.Slot key, SpecSlots.Slot other) {
    if (key.kind() != SpecSlots.Kind.KEY) {
      return false;
    }
    String entry = FieldPath.field(key.path(), key.name());
    return other.path().equals(entry) || other.path().startsWith(entry + ".") || other.path().startsWith(entry + "[");
  }

  /** The documents of {@code v} with {@code changes} applied. */
  private record Documents(ObjectNode rc, Map<Mode, ObjectNode> clusters) {}

  private Documents apply(Variant v, List<Change> changes) {
    ObjectNode rc = v.rc().deepCopy();
    Map<Mode, ObjectNode> clusters = new EnumMap<>(Mode.class);
    v.clusters().forEach((mode, c) -> clusters.put(mode, c.deepCopy()));
    for (Change c : changes) {
      Mutation m = c.first();
      String value = String.join("", c.parts().stream().map(this::payload).toList());
      boolean applied = m.onCluster()
          ? clusters.values().stream().map(doc -> m.slot().apply(doc, value, m.append())).toList().contains(true)
          : m.slot().apply(rc, value, m.append());
      if (!applied) {
        throw new AssertionError("cannot write into " + m.slot() + " of " + v.name());
      }
    }
    return new Documents(rc, clusters);
  }

  private List<Problem> errors(Variant v, List<Change> changes) {
    Documents d = apply(v, changes);
    List<Problem> out = new ArrayList<>();
    try {
      RouterComparison rc = Mappers.json().treeToValue(d.rc(), RouterComparison.class);
      for (Map.Entry<Mode, ObjectNode> c : d.clusters().entrySet()) {
        GpuCluster cluster = Mappers.json().treeToValue(c.getValue(), GpuCluster.class);
        out.addAll(Validator.validate(cluster));
        out.addAll(Validator.validate(rc, cluster, c.getKey()));
      }
    } catch (IOException e) {
      throw new AssertionError(e);
    }
    return out.stream().filter(Problem::isError).distinct().toList();
  }

  private void runSpec(int index, Variant v, List<Change> spec, int lane) throws Exception {
    String what = "spec " + index + " (" + v.name() + ": " + spec.stream().map(c -> c.first().slot().path()).toList() + ")";
    Rendered mutated = rendered(apply(v, spec), lane, what);
    Rendered unmutated = spec.isEmpty() ? null : rendered(apply(v, List.of()), lane, what);
    for (Map.Entry<String, Script> run : mutated.scripts().entrySet()) {
      // Time goes to distinct cases: a script (and plan) that no payload changed is the unmutated
      // variant's, which runs on its own; every script a payload reached runs.
      Script before = unmutated == null ? null : unmutated.scripts().get(run.getKey());
      if (before != null && before.sameAs(run.getValue())) {
        unchanged.incrementAndGet();
        continue;
      }
      runOne(what + " arm " + run.getKey(), run.getValue().plan(), run.getValue().text(), mutated.rc(), lane);
    }
  }

  /** Scripts not run because no payload changed them or their plan. */
  private final AtomicInteger unchanged = new AtomicInteger();

  /** One arm's plan and script in one mode. */
  record Script(RunPlan plan, String text) {
    /** A plan can change where its script does not (secretEnv names, inputs): both must be the same. */
    boolean sameAs(Script other) {
      return text.equals(other.text) && plan.json().equals(other.plan.json());
    }
  }

  /** A spec as the runs see it, and every arm's script in every mode ("ARM MODE"). */
  record Rendered(RouterComparison rc, Map<String, Script> scripts) {}

  /** {@code d} with the lane's sidecar gRPC ports (listened on by grpcListeners), rendered; what does not render is a violation. */
  private Rendered rendered(Documents d, int lane, String what) throws Exception {
    if (d.rc().path("spec").path("dynamo").isObject()) {
      ((ObjectNode) d.rc().path("spec").path("dynamo")).put("sidecarPort", grpcBase(lane));
    }
    RouterComparison rc = Mappers.json().treeToValue(d.rc(), RouterComparison.class);
    Map<String, Script> out = new LinkedHashMap<>();
    for (Map.Entry<Mode, ObjectNode> c : d.clusters().entrySet()) {
      GpuCluster cluster = Mappers.json().treeToValue(c.getValue(), GpuCluster.class);
      for (var arm : rc.getSpec().arms) {
        try {
          RunPlan plan = Planner.plan(rc, cluster, arm.name, c.getKey());
          out.put(arm.name + " " + c.getKey().id(), new Script(plan, Scripts.render(plan)));
        } catch (RuntimeException e) {
          violations.add(what + ": an accepted spec does not render in " + c.getKey().id() + " mode: " + e);
        }
      }
    }
    return new Rendered(rc, out);
  }

  private void runOne(String what, RunPlan plan, String script, RouterComparison rc, int lane) throws Exception {
    Path runDir = Files.createDirectories(dir.resolve("runs").resolve("l" + lane).resolve(String.valueOf(scripts.incrementAndGet())));
    Path file = runDir.resolve(Scripts.fileName(plan));
    Files.writeString(file, script);
    Path extraBin = Files.createDirectories(runDir.resolve(".bin"));
    DeclaredCommands declared = new DeclaredCommands(plan, runDir.toString(), standIns.hostTag(plan));
    prepareInputs(plan, rc, runDir, extraBin, declared);
    // What a submission writes for secretEnv (host/SecretEnvWriter): the script sources it.
    StringBuilder secrets = new StringBuilder();
    plan.secretEnv().forEach(name -> secrets.append("export ").append(name).append("=fuzz-secret-value\n"));
    if (secrets.length() > 0) {
      Files.writeString(runDir.resolve("secret.env"), secrets);
    }
    StandIns.Run run = standIns.run(file, runDir, plan.mode(), extraBin, runDir.resolve(".tree"), 120);
    commands.addAndGet(run.invocations().size());
    Set<List<String>> ran = new LinkedHashSet<>();
    for (StandIns.Invocation inv : run.invocations()) {
      List<String> match = declared.match(inv);
      if (match == null) {
        violations.add(what + ": undeclared command " + printable(String.join(" ", inv.argv())));
        continue;
      }
      ran.add(match);
      Map<String, String> env = declared.envOf(match);
      if (env != null) {
        env.forEach((k, val) -> {
          if (!val.equals(inv.env().get(k))) {
            violations.add(what + ": " + inv.program() + " got " + k + "=" + printable(String.valueOf(inv.env().get(k))) + ", declared "
                + printable(val));
          }
        });
      }
    }
    if (!"succeeded".equals(run.finished())) {
      StringBuilder logs = new StringBuilder();
      try (var files = Files.list(runDir.resolve("logs"))) {
        for (Path log : files.filter(f -> f.getFileName().toString().contains("build") || f.getFileName().toString().contains("install")).toList()) {
          logs.append("\n--- ").append(log.getFileName()).append('\n').append(tail(Files.readString(log)));
        }
      } catch (IOException e) {
        logs.append("\n(no logs)");
      }
      failedRuns.add(what + ": " + run.finished() + "\n" + tail(run.output()) + logs);
    } else {
      for (List<String> program : declared.programs()) {
        if (standsIn(program.get(0), extraBin) && !ran.contains(program)) {
          violations.add(what + ": the plan's process never ran: " + printable(String.join(" ", program)));
        }
      }
      deleteTree(runDir);
    }
  }

  /** Whether a stand-in answers for {@code program}: an absolute path under the test's directory, or a name on PATH. */
  private boolean standsIn(String program, Path extraBin) {
    return program.startsWith(dir.toString()) || StandIns.PROGRAMS.contains(program) || Files.exists(extraBin.resolve(program));
  }

  /**
   * What the run reads from the host: the interpreter and router binary the spec names (stand-ins),
   * the local policy catalog, and the files the stand-in git leaves in a checkout.
   */
  private void prepareInputs(RunPlan plan, RouterComparison rc, Path runDir, Path extraBin, DeclaredCommands declared) throws IOException {
    String python = plan.settings().python();
    if (!python.contains("/") && !StandIns.PROGRAMS.contains(python) && !python.equals(".") && !python.equals("..")) {
      StandIns.executable(extraBin.resolve(python));
    } else if (python.startsWith("/")) {
      createUnderRoot(python, true);
    }
    var arm = rc.getSpec().arms.stream().filter(a -> a.name.equals(plan.arm())).findFirst().orElseThrow();
    if (arm.frontend.binary != null) {
      createUnderRoot(declared.resolve(arm.frontend.binary), true);
    }
    List<String> tree = new ArrayList<>(List.of("lib/bindings/python/Cargo.toml"));
    var catalog = arm.dynamo == null ? null : arm.dynamo.policyCatalog;
    if (catalog != null) {
      // As the script resolves them: a placeholder in any of these is a word of the script too.
      String crate = catalog.crateSubdir == null ? "" : declared.resolve(catalog.crateSubdir) + "/";
      String config = declared.resolve(catalog.config == null ? "worker-selection.yaml" : catalog.config);
      tree.add(crate + "Cargo.toml");
      tree.add(crate + config);
      if (catalog.path != null) {
        createUnderRoot(declared.resolve(catalog.path) + "/" + crate + "Cargo.toml", false);
        createUnderRoot(declared.resolve(catalog.path) + "/" + crate + config, false);
      }
    }
    Files.writeString(runDir.resolve(".tree"), String.join("\0", tree) + "\0", StandardCharsets.UTF_8);
  }

  private void createUnderRoot(String path, boolean executable) throws IOException {
    Path p;
    try {
      p = Path.of(path).normalize();
    } catch (java.nio.file.InvalidPathException e) {
      return;
    }
    if (!p.startsWith(dir) || p.equals(dir) || Files.isDirectory(p)) {
      return;
    }
    for (Path up = p.getParent(); up != null && up.startsWith(dir) && !up.equals(dir); up = up.getParent()) {
      if (Files.isRegularFile(up)) {
        // Another spec's input file sits where this one needs a directory (a payload appended
        // to its path): this run reads a path that cannot exist here, as on a real host.
        return;
      }
    }
    if (executable) {
      StandIns.executable(p);
    } else {
      Files.createDirectories(p.getParent());
      Files.writeString(p, "standin\n");
    }
  }

  private static void deleteTree(Path p) throws IOException {
    try (var walk = Files.walk(p)) {
      for (Path f : walk.sorted(java.util.Comparator.reverseOrder()).toList()) {
        Files.deleteIfExists(f);
      }
    }
  }

  private static String tail(String output) {
    List<String> lines = output.lines().toList();
    return String.join("\n", lines.subList(Math.max(0, lines.size() - 15), lines.size()));
  }

  private static String randomString(Random random) {
    int[] points = ALPHABET.codePoints().toArray();
    StringBuilder sb = new StringBuilder();
    int n = 1 + random.nextInt(24);
    for (int i = 0; i < n; i++) {
      sb.appendCodePoint(points[random.nextInt(points.length)]);
    }
    return sb.toString();
  }

  /** Control characters shown escaped, so a report stays readable. */
  static String printable(String s) {
    StringBuilder out = new StringBuilder();
    s.codePoints().forEach(cp -> {
      if (cp < 0x20 || cp == 0x7f || (cp >= 0x200e && cp <= 0x202e)) {
        out.append(String.format("\\u%04x", cp));
      } else {
        out.appendCodePoint(cp);
      }
    });
    return out.toString();
  }

  /** The specs payloads are written into: together they reach every string field of both kinds. */
  static final class Variants {
    private Variants() {}

    static List<Variant> all(Path root) throws IOException {
      String r = root.toString();
      List<Variant> out = new ArrayList<>();
      out.add(variant("source-builds", SOURCE_BUILDS, r, CLUSTER + SLURM, CLUSTER));
      out.add(variant("containers", CONTAINERS, r, CLUSTER + SLURM + PYXIS, CLUSTER + DOCKER));
      out.add(variant("released-dynamo", RELEASED, r, CLUSTER + SLURM, CLUSTER));
      out.add(variant("dynamo-wheel", WHEEL, r, CLUSTER + SLURM, CLUSTER));
      // A prebuilt router is for Slurm only: a direct host builds it from source.
      out.add(variant("prebuilt-router", PREBUILT, r, CLUSTER + SLURM + PYXIS, null));
      return out;
    }

    private static Variant variant(String name, String rc, String root, String slurm, String direct) throws IOException {
      Map<Mode, ObjectNode> clusters = new EnumMap<>(Mode.class);
      clusters.put(Mode.SLURM, (ObjectNode) yaml(slurm.replace("%MODE%", "slurm"), root));
      if (direct != null) {
        clusters.put(Mode.DIRECT, (ObjectNode) yaml(direct.replace("%MODE%", "direct"), root));
      }
      return new Variant(name, (ObjectNode) yaml(rc, root), clusters);
    }

    private static JsonNode yaml(String text, String root) throws IOException {
      return Mappers.yaml().readTree(text.replace("%ROOT%", root));
    }

    private static final String HEAD = """
        apiVersion: srt.dev/v1alpha1
        kind: RouterComparison
        metadata: {name: fuzz, namespace: team-a}
        spec:
          clusterRef: {name: box}
          resources: {aggNodes: 1, aggWorkers: 2, gpusPerWorker: 4}
          healthCheck: {timeout: 60s, interval: 1s}
          observability: {enabled: true}
          execution: {order: declared}
        """;

    static final String SOURCE_BUILDS = HEAD + """
          model: {path: /models/Qwen3-32B-FP8, servedModelName: Qwen/Qwen3-32B-FP8, tokenizerPath: /models/Qwen3-32B-FP8/tokenizer.json}
          backend:
            type: sglang
            args: {tensor-parallel-size: 4, page-size: 64, enable-metrics: true, cuda-graph-bs: [1, 2, 4]}
            env: {FUZZ_BACKEND: plain}
            kvEvents: {publisher: zmq, topic: kv-events, enabled: true}
          dynamo:
            hash: 4dca1626b2708383514fcd65ac816ba7429c05a4
            source: {git: https://github.com/ai-dynamo/dynamo}
            discovery: etcd
            eventPlane: zmq
            requestPlane: tcp
            sidecarStartupTimeout: 30s
          workload:
            tool: bench-serving
            args: {backend: sglang-oai-chat, dataset-name: generated-shared-prefix, num-prompts: 16}
            env: {FUZZ_WORKLOAD: plain}
            seed: 7
          arms:
          - name: router
            frontend: {type: sgl-router, source: %ROOT%/src/sgl-router, args: {policy: cache_aware}, env: {FUZZ_ROUTER: plain}}
          - name: kv
            frontend: {type: dynamo, args: {router-mode: kv}, env: {FUZZ_FRONTEND: plain}}
            dynamo: {sidecar: {enabled: true, args: [--grpc-connections, "2"]}}
          - name: policy
            frontend: {type: dynamo, args: {router-mode: kv}}
            dynamo:
              sidecar: {enabled: true}
              policyCatalog:
                git: https://github.com/ishandhanani/router-sandbox
                rev: 411b4648e7fd50c776f0c787f1abb2592eeef41b
                crateSubdir: crates/sgl-router-cache-aware
                package: sgl-router-cache-aware-dynamo-policy
                config: worker-selection.yaml
                features: [custom-policy]
        """;

    static final String CONTAINERS = HEAD + """
          model: {path: /models/Qwen3-32B-FP8}
          backend: {args: {tensor-parallel-size: 4}, env: {FUZZ_BACKEND: plain}}
          dynamo: {hash: 4dca1626b2708383514fcd65ac816ba7429c05a4}
          workload:
            tool: aiperf
            env: {FUZZ_WORKLOAD: plain}
            load: {mode: request-rate, levels: [2, 4], durationPerLevel: 2s, drainBetweenLevels: 1s}
          arms:
          - name: router
            frontend: {type: sgl-router, source: %ROOT%/src/sgl-router, env: {FUZZ_ROUTER: plain}}
          - name: policy
            frontend: {type: dynamo, args: {router-mode: kv}}
            dynamo:
              policyCatalog: {path: %ROOT%/catalog, crateSubdir: crates/x, config: conf/worker-selection.yaml, package: x-policy}
        """;

    static final String PREBUILT = HEAD + """
          model: {path: /models/m}
          backend: {args: {tensor-parallel-size: 4}}
          workload: {tool: bench-serving}
          arms:
          - name: router
            frontend: {type: sgl-router, binary: %ROOT%/prebuilt/sgl-router, env: {FUZZ_ROUTER: plain}}
        """;

    static final String RELEASED = HEAD + """
          model: {path: /models/m}
          backend: {args: {tensor-parallel-size: 4}}
          dynamo: {version: 0.6.1, eventPlane: nats, requestPlane: nats}
          workload: {tool: custom, command: "true", env: {FUZZ_WORKLOAD: plain}}
          arms:
          - name: router
            frontend: {type: sgl-router, source: %ROOT%/src/sgl-router}
          - name: kv
            frontend: {type: dynamo}
        """;

    /** A Dynamo-only comparison, so also a prefill/decode topology with per-role engine flags. */
    static final String WHEEL = HEAD.replace("resources: {aggNodes: 1, aggWorkers: 2, gpusPerWorker: 4}",
        "resources: {prefillWorkers: 1, decodeWorkers: 1, gpusPerPrefill: 4, gpusPerDecode: 4}") + """
          model: {path: /models/m}
          secretEnv: [{name: FUZZ_TOKEN, secretKeyRef: {name: fuzz-secret, key: token}}]
          backend:
            args: {tensor-parallel-size: 4}
            prefillArgs: {chunked-prefill-size: 8192}
            decodeArgs: {disaggregation-transfer-backend: nixl}
          dynamo: {wheel: /wheels/ai_dynamo-0.6.1-py3-none-any.whl}
          workload: {tool: bench-serving}
          arms:
          - name: kv
            frontend: {type: dynamo}
            dynamo: {sidecar: {enabled: true}}
        """;

    static final String CLUSTER = """
        apiVersion: srt.dev/v1alpha1
        kind: GpuCluster
        metadata: {name: box}
        spec:
          mode: %MODE%
          transport: ssh
          ssh:
            host: gpu-01.example.internal
            port: 22
            user: bench
            privateKeySecretRef: {name: box-ssh, key: id_ed25519}
            privateKeyPassphraseSecretRef: {name: box-ssh, key: passphrase}
            knownHostsSecretRef: {name: box-ssh, key: known_hosts}
            privateKeyFile: /keys/id_ed25519
            privateKeyPassphraseEnv: SRT_SSH_PASSPHRASE
            knownHostsFile: /keys/known_hosts
            connectTimeout: 10s
            proxyJump:
            - host: bastion.example.org
              port: 2222
              user: jump
              privateKeySecretRef: {name: bastion-ssh, key: id_ed25519}
              privateKeyPassphraseSecretRef: {name: bastion-ssh, key: passphrase}
              knownHostsSecretRef: {name: bastion-ssh, key: known_hosts}
              privateKeyFile: /keys/id_bastion
              privateKeyPassphraseEnv: SRT_BASTION_PASSPHRASE
              knownHostsFile: /keys/known_hosts_bastion
          workDir: %ROOT%/work
          gpusPerNode: 8
          gpuType: h100
          python: python3
          path: [/opt/fuzz/bin]
          env: {HF_HOME: /scratch/hf, SRT_PORT_WAIT: "2"}
          pollInterval: 5s
          infra: {etcd: etcd, natsServer: nats-server}
        """;

    static final String SLURM = """
          slurm:
            partition: batch
            account: llm
            timeLimit: "01:00:00"
            sbatchDirectives: {exclusive: "", comment: fuzz}
            srunOptions: {mpi: pmix}
            gres: true
        """;

    static final String PYXIS = """
          container: {runtime: pyxis, image: "lmsysorg/sglang:dev", mounts: ["/data:/data"]}
        """;

    static final String DOCKER = """
          container: {runtime: docker, image: "lmsysorg/sglang:dev", mounts: ["/data:/data"]}
        """;
  }
}
