package dev.srt.operator.host;

import dev.srt.operator.base.Shell;
import dev.srt.operator.plan.Prerequisites;
import dev.srt.operator.plan.Requirement;
import dev.srt.operator.render.BashLibrary;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;

/**
 * Looks for a plan's {@link Requirement}s on the host in one remote execution, with the cluster's
 * {@code path} first on PATH and its {@code env} exported, as the runs will have them. The script
 * only gathers facts, one {@code @<index> <what> <text>} line each; whether a requirement is met
 * is decided here, from those lines ({@link #judge}).
 *
 * <p>On the emulated host (its shim {@value #EMULATED_HOST} on PATH) a model directory needs no
 * files: the emulated engines read no weights. Everything else is looked for as on any host, and
 * the emulator's programs answer as the real ones would.
 */
public final class HostCheck {
  /** The emulator's shim that says this host is an emulated one. */
  public static final String EMULATED_HOST = "srt-emulated-host";
  static final Duration DEFAULT_TIMEOUT = Duration.ofMinutes(3);
  /** Longest found text kept per requirement: host output, shown in a table and in status. */
  static final int MAX_FOUND = 200;

  /** One requirement and what the host said about it. */
  public record Finding(Prerequisites.Needed needed, boolean ok, String found) {
    public Requirement requirement() {
      return needed.requirement();
    }
  }

  /** Every requirement's finding, in the order they were asked for. */
  public record Report(List<Finding> findings) {
    /** Nothing required (optional ones aside) is missing. */
    public boolean met() {
      return missing().isEmpty();
    }

    /** The required ones that are missing. */
    public List<Finding> missing() {
      return findings.stream().filter(f -> !f.ok() && !f.requirement().optional()).toList();
    }

    /** "cargo (on PATH): not found on PATH; ..." for a condition message. */
    public String summary() {
      return missing().stream().map(f -> f.requirement().label() + ": " + f.found()).collect(Collectors.joining("; "));
    }
  }

  private HostCheck() {}

  /** Runs the check of {@code needed} on the host of {@code transport}. */
  public static Report run(Transport transport, List<Prerequisites.Needed> needed, List<String> path, Map<String, String> env)
      throws HostException {
    ExecResult r = transport.exec(script(needed, path, env), null, DEFAULT_TIMEOUT);
    if (r.exitCode() != 0) {
      throw new HostException(HostException.Kind.COMMAND_FAILED, transport.describe() + ": the prerequisite check failed (exit "
          + r.exitCode() + "): " + ExecResult.abbreviate(r.stderr().strip(), 500));
    }
    return parse(needed, r.stdout());
  }

  /** The check's bash: one snippet per requirement, each printing its facts. */
  static String script(List<Prerequisites.Needed> needed, List<String> path, Map<String, String> env) {
    StringBuilder s = new StringBuilder();
    if (path != null && !path.isEmpty()) {
      s.append("export PATH=").append(path.stream().map(Shell::quote).collect(Collectors.joining(":"))).append(":\"$PATH\"\n");
    }
    if (env != null) {
      env.forEach((k, v) -> s.append("export ").append(k).append('=').append(Shell.quote(v)).append('\n'));
    }
    // The run's own probe helper: ports are looked at as the run's srt_wait_ports_free does.
    s.append(BashLibrary.probeDefinition());
    s.append("""
        f() { local i=$1 what=$2; shift 2; printf '@%s %s %s\\n' "$i" "$what" "$(printf '%s' "$*" | tr '\\n\\t' '  ' | cut -c1-400)"; }
        last() { printf '%s' "$1" | tail -n 1; }
        """);
    for (int i = 0; i < needed.size(); i++) {
      s.append(snippet(i, needed.get(i).requirement())).append('\n');
    }
    return s.toString();
  }

  private static String snippet(int i, Requirement r) {
    String q;
    if (r instanceof Requirement.Program p) {
      return program(i, p.name());
    }
    if (r instanceof Requirement.ContainerRuntime c) {
      return "pyxis".equals(c.runtime())
          ? "if srun --help 2>&1 | grep -q -- --container-image; then f " + i + " path pyxis; else f " + i + " absent; fi"
          : program(i, c.runtime());
    }
    if (r instanceof Requirement.Python p) {
      return output(i, Shell.join(List.of(p.python(), "--version")));
    }
    if (r instanceof Requirement.PythonImport p) {
      return output(i, Shell.join(List.of(p.python(), "-c",
          "import importlib, sys\nm = importlib.import_module(sys.argv[1])\nprint(getattr(m, '__version__', None) or '(no __version__)')",
          p.module())));
    }
    if (r instanceof Requirement.PythonTool p) {
      return output(i, Shell.join(List.of(p.python(), "-m", p.module(), "--version")));
    }
    if (r instanceof Requirement.SlurmPartition p) {
      return p.partition() == null
          ? "f " + i + " default \"$(sinfo -h -o '%P %a %D' 2>&1 | grep '^[^ ]*\\* ')\""
          : "f " + i + " partition \"$(" + Shell.join(List.of("sinfo", "-h", "-p", p.partition(), "-o", "%P %a %D")) + " 2>&1)\"";
    }
    if (r instanceof Requirement.SlurmJob j) {
      List<String> argv = new ArrayList<>(List.of("sbatch", "--test-only", "--job-name=srt-check"));
      argv.addAll(j.options());
      argv.addAll(List.of("--output=/dev/null", "--wrap", "true"));
      return output(i, Shell.join(argv));
    }
    if (r instanceof Requirement.Gpus g) {
      return g.slurm() ? sinfoLines(i, "node", "%N %G", g.partition()) : gpusByNvidiaSmi(i);
    }
    if (r instanceof Requirement.GpuType t) {
      return t.slurm() ? sinfoLines(i, "gres", "%G", t.partition()) : gpusByNvidiaSmi(i);
    }
    if (r instanceof Requirement.ModelDir m) {
      q = Shell.quote(m.path());
      StringBuilder b = new StringBuilder("if type -P " + EMULATED_HOST + " >/dev/null 2>&1; then f " + i + " emulated; ");
      b.append("elif [ -d ").append(q).append(" ]; then f ").append(i).append(" dir; ");
      for (String file : Requirement.ModelDir.FILES) {
        b.append("[ -f ").append(Shell.quote(m.path() + "/" + file)).append(" ] && f ").append(i).append(" file ").append(file).append("; ");
      }
      return b.append("else f ").append(i).append(" nodir; fi").toString();
    }
    if (r instanceof Requirement.FreeDisk d) {
      return "d=" + Shell.quote(d.dir()) + "; while [ ! -d \"$d\" ] && [ \"$d\" != / ]; do d=$(dirname -- \"$d\"); done; "
          + "f " + i + " df \"$(df -Pk -- \"$d\" 2>&1 | awk 'NR == 2 {print $4, $6}')\"";
    }
    Requirement.PortsFree p = (Requirement.PortsFree) r;
    q = Shell.quote(p.lease());
    return "if [ -e " + q + " ] && command -v flock >/dev/null 2>&1 && ! flock -n " + q + " true 2>/dev/null; then f " + i
        + " lease held; else f " + i + " busy \"$(" + Shell.join(List.of(p.python(), "-c")) + " \"$SRT_PROBE_PY\" ports-free "
        + p.ports().stream().map(String::valueOf).collect(Collectors.joining(" ")) + " 2>&1)\"; fi";
  }

  /** One line per node of {@code sinfo -N -o FORMAT} on the partition (null: the default one). */
  private static String sinfoLines(int i, String what, String format, String partition) {
    return "sinfo -h -N " + (partition == null ? "" : Shell.join(List.of("-p", partition)) + " ") + "-o " + Shell.quote(format)
        + " 2>/dev/null | sort -u | while read -r line; do f " + i + " " + what + " \"$line\"; done; f " + i + " done";
  }

  private static String program(int i, String name) {
    return "if p=$(type -P -- " + Shell.quote(name) + "); then f " + i + " path \"$p\"; else f " + i + " absent; fi";
  }

  /** A command's exit status and the last line of its output. */
  private static String output(int i, String command) {
    return "out=$(timeout 120 " + command + " 2>&1); f " + i + " rc $?; f " + i + " out \"$(last \"$out\")\"";
  }

  private static String gpusByNvidiaSmi(int i) {
    return "if type -P nvidia-smi >/dev/null 2>&1; then nvidia-smi -L 2>&1 | grep '^GPU ' | while read -r line; do f " + i
        + " gpu \"$line\"; done; f " + i + " done; else f " + i + " absent; fi";
  }

  /** The findings, from the script's output. */
  static Report parse(List<Prerequisites.Needed> needed, String stdout) {
    Map<Integer, List<String[]>> facts = new LinkedHashMap<>();
    for (String line : stdout.split("\n")) {
      if (!line.startsWith("@")) {
        continue;
      }
      String[] parts = line.substring(1).split(" ", 3);
      if (parts.length < 2 || !parts[0].matches("[0-9]{1,4}")) {
        continue;
      }
      facts.computeIfAbsent(Integer.parseInt(parts[0]), k -> new ArrayList<>())
          .add(new String[] {parts[1], parts.length > 2 ? parts[2].strip() : ""});
    }
    List<Finding> out = new ArrayList<>();
    for (int i = 0; i < needed.size(); i++) {
      out.add(judge(needed.get(i), facts.getOrDefault(i, List.of())));
    }
    return new Report(List.copyOf(out));
  }

  static Finding judge(Prerequisites.Needed n, List<String[]> facts) {
    if (facts.isEmpty()) {
      return new Finding(n, false, "no answer from the host");
    }
    Facts f = new Facts(facts);
    Requirement r = n.requirement();
    if (r instanceof Requirement.Program) {
      return f.has("path") ? found(n, true, f.first("path")) : found(n, false, "not found on PATH");
    }
    if (r instanceof Requirement.ContainerRuntime c) {
      return f.has("path") ? found(n, true, f.first("path"))
          : found(n, false, "pyxis".equals(c.runtime()) ? "srun has no --container-image" : "not found on PATH");
    }
    if (r instanceof Requirement.PythonImport p) {
      return f.ok() ? found(n, true, p.module() + " " + f.first("out")) : found(n, false, f.first("out"));
    }
    if (r instanceof Requirement.Python || r instanceof Requirement.PythonTool || r instanceof Requirement.SlurmJob) {
      return commandFinding(n, f);
    }
    if (r instanceof Requirement.SlurmPartition p) {
      String line = f.first(p.partition() == null ? "default" : "partition");
      return line.isEmpty() || line.contains("invalid") || line.startsWith("sinfo:")
          ? found(n, false, line.isEmpty() ? (p.partition() == null ? "no default partition" : "no such partition") : line)
          : found(n, true, partitionText(line));
    }
    if (r instanceof Requirement.Gpus g) {
      return g.slurm() ? slurmGpus(n, g, f.all("node")) : directGpus(n, g, f);
    }
    if (r instanceof Requirement.GpuType t) {
      return t.slurm() ? slurmGpuType(n, t, f.all("gres")) : directGpuType(n, t, f);
    }
    if (r instanceof Requirement.ModelDir) {
      return modelDir(n, f);
    }
    if (r instanceof Requirement.FreeDisk d) {
      return freeDisk(n, d, f.first("df"));
    }
    Requirement.PortsFree p = (Requirement.PortsFree) r;
    String busy = f.first("busy");
    return f.has("lease") ? found(n, true, "a run holds the host's lease (its ports are its own)")
        : busy.isEmpty() ? found(n, true, "all " + p.ports().size() + " free")
        : busy.matches("[0-9 ]+") ? found(n, false, "in use: " + String.join(", ", busy.split(" ")))
        : found(n, false, "cannot check: " + busy);
  }

  private static Finding commandFinding(Prerequisites.Needed n, Facts f) {
    String out = f.first("out");
    return f.ok() ? found(n, true, out.isEmpty() ? "exit 0" : out) : found(n, false, out.isEmpty() ? "exit " + f.first("rc") : out);
  }

  private static String partitionText(String line) {
    String[] w = line.split("\\s+");
    return w.length >= 3 ? w[0].replace("*", "") + ": " + w[1] + ", " + w[2] + " node(s)" : line;
  }

  private static Finding slurmGpus(Prerequisites.Needed n, Requirement.Gpus g, List<String> nodes) {
    int enough = 0;
    int most = 0;
    for (String node : nodes) {
      int count = gresGpus(node);
      most = Math.max(most, count);
      if (count >= g.perNode()) {
        enough++;
      }
    }
    String text = enough + " of " + nodes.size() + " node(s) with >= " + g.perNode() + " GPUs (most: " + most + ")";
    return found(n, enough >= g.nodes(), text);
  }

  /** The GPU count of one node's gres ({@code gpu:8}, {@code gpu:h100:8(S:0-1)}, {@code gpu:a:4,gpu:b:4}). */
  static int gresGpus(String gres) {
    int total = 0;
    for (String item : gres.split(",(?=gpu)")) {
      java.util.regex.Matcher m = java.util.regex.Pattern.compile("^(?:\\S+\\s+)?gpu(?::[^:(,\\s]+)?:(\\d+)").matcher(item.strip());
      if (m.find()) {
        total += Integer.parseInt(m.group(1));
      }
    }
    return total;
  }

  private static Finding directGpus(Prerequisites.Needed n, Requirement.Gpus g, Facts f) {
    if (f.has("absent")) {
      return found(n, false, "nvidia-smi not found on PATH");
    }
    int count = f.all("gpu").size();
    return found(n, count >= g.perNode(), count + " GPU(s)" + (count == 0 ? "" : ": " + gpuName(f.all("gpu").get(0))));
  }

  private static Finding directGpuType(Prerequisites.Needed n, Requirement.GpuType t, Facts f) {
    if (f.has("absent")) {
      return found(n, false, "nvidia-smi not found on PATH");
    }
    List<String> names = f.all("gpu").stream().map(HostCheck::gpuName).distinct().toList();
    boolean ok = !names.isEmpty() && names.stream().allMatch(name -> sameType(name, t.type()));
    return found(n, ok, names.isEmpty() ? "no GPU listed" : String.join(", ", names));
  }

  private static Finding slurmGpuType(Prerequisites.Needed n, Requirement.GpuType t, List<String> gres) {
    List<String> types = gres.stream().map(g -> g.replaceAll("\\(.*", ""))
        .filter(g -> g.matches("gpu:[^:]+:\\d+.*")).map(g -> g.split(":")[1]).distinct().toList();
    if (types.isEmpty()) {
      return found(n, true, "not reported (the partition's gres names no GPU type): not checked");
    }
    return found(n, types.stream().anyMatch(type -> sameType(type, t.type())), "gres types: " + String.join(", ", types));
  }

  /** "GPU 0: NVIDIA H100 80GB HBM3 (UUID: ...)" → "NVIDIA H100 80GB HBM3". */
  private static String gpuName(String line) {
    String name = line.replaceFirst("^GPU \\d+:\\s*", "");
    int uuid = name.indexOf(" (UUID");
    return uuid < 0 ? name : name.substring(0, uuid);
  }

  /** h100 matches "NVIDIA H100 80GB HBM3", "h100-sxm"; punctuation and case aside. */
  static boolean sameType(String name, String type) {
    String a = name.toLowerCase(java.util.Locale.ROOT).replaceAll("[^a-z0-9]", "");
    String b = type.toLowerCase(java.util.Locale.ROOT).replaceAll("[^a-z0-9]", "");
    return !b.isEmpty() && a.contains(b);
  }

  private static Finding modelDir(Prerequisites.Needed n, Facts f) {
    if (f.has("emulated")) {
      return found(n, true, "emulated host: the emulated engines read no weights");
    }
    if (!f.has("dir")) {
      return found(n, false, "no such directory");
    }
    List<String> missing = Requirement.ModelDir.FILES.stream().filter(file -> !f.all("file").contains(file)).toList();
    return missing.isEmpty() ? found(n, true, "found " + String.join(", ", Requirement.ModelDir.FILES))
        : found(n, false, "no " + String.join(", no ", missing));
  }

  private static Finding freeDisk(Prerequisites.Needed n, Requirement.FreeDisk d, String df) {
    String[] w = df.split("\\s+");
    if (w.length < 2 || !w[0].matches("\\d+")) {
      return found(n, false, "cannot tell: " + df);
    }
    long kib = Long.parseLong(w[0]);
    double gib = kib / (1024.0 * 1024.0);
    return found(n, kib >= d.gib() * 1024L * 1024L, String.format(java.util.Locale.ROOT, "%.1f GiB free on %s", gib, w[1]));
  }

  private static Finding found(Prerequisites.Needed n, boolean ok, String text) {
    String t = text.strip();
    return new Finding(n, ok, t.length() > MAX_FOUND ? t.substring(0, MAX_FOUND) + "..." : t);
  }

  /** The facts of one requirement, by what they say. */
  private record Facts(List<String[]> facts) {
    boolean has(String what) {
      return facts.stream().anyMatch(x -> x[0].equals(what));
    }

    String first(String what) {
      return facts.stream().filter(x -> x[0].equals(what)).map(x -> x[1]).findFirst().orElse("");
    }

    List<String> all(String what) {
      return facts.stream().filter(x -> x[0].equals(what)).map(x -> x[1]).toList();
    }

    boolean ok() {
      return "0".equals(first("rc"));
    }
  }
}
