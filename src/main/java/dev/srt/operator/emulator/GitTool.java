package dev.srt.operator.emulator;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.stream.Stream;

/**
 * The network half of git, offline: {@code clone}, {@code fetch} and {@code checkout} create
 * emulated checkouts (marked by {@code .git/srt-emulator.json}) whose files depend on the URL;
 * {@code rev-parse} answers for them. Any other command, or any command outside an emulated
 * checkout, runs the real git found when the shims were installed ({@code SRT_EMULATOR_REAL_GIT}).
 */
final class GitTool {
  static final String MARKER = ".git/srt-emulator.json";
  private static final List<String> GLOBAL_WITH_VALUE = List.of("-c", "--git-dir", "--work-tree");

  private final BuildTools.Context ctx;

  GitTool(BuildTools.Context ctx) {
    this.ctx = ctx;
  }

  int run(List<String> argv) throws BuildTools.ToolFailure, IOException, InterruptedException {
    Path dir = ctx.cwd();
    int i = 0;
    while (i < argv.size() && argv.get(i).startsWith("-")) {
      String opt = argv.get(i++);
      if (opt.equals("-C") && i < argv.size()) {
        dir = dir.resolve(argv.get(i++)).normalize();
      } else if (GLOBAL_WITH_VALUE.contains(opt)) {
        i++;
      } else if (opt.equals("--version")) {
        return realGit(argv, ctx.cwd(), "git version 2.39.5 (emulated by srt-operator)");
      }
    }
    if (i >= argv.size()) {
      return realGit(argv, ctx.cwd(), null);
    }
    String command = argv.get(i);
    List<String> args = argv.subList(i + 1, argv.size());
    if (command.equals("clone")) {
      return cloneRepo(dir, args);
    }
    Path repo = findRepo(dir);
    if (repo == null) {
      return realGit(argv, ctx.cwd(), null);
    }
    return switch (command) {
      case "fetch" -> fetch(repo, args);
      case "checkout", "switch" -> checkout(repo, args);
      case "rev-parse" -> revParse(repo, args);
      default -> {
        ctx.err().println("git (emulated): `git " + command + "` is not emulated in " + repo + "; nothing done");
        yield 0;
      }
    };
  }

  private int cloneRepo(Path dir, List<String> args) throws BuildTools.ToolFailure, IOException {
    ArgParser.Parsed a = new ArgParser("git clone").withPositionals()
        .flag("--no-checkout", "-n").value("--depth").value("--branch", "-b").value("--filter").value("--origin", "-o")
        .value("--reference").value("--separate-git-dir").value("--jobs", "-j").value("--config", "-c")
        .parse(args);
    List<String> positional = a.positional();
    if (positional.isEmpty()) {
      throw new BuildTools.ToolFailure(129, "fatal: You must specify a repository to clone.");
    }
    String url = positional.get(0);
    String name = url.replaceAll("/+$", "").replaceAll("\\.git$", "");
    Path target = dir.resolve(positional.size() > 1 ? positional.get(1) : name.substring(name.lastIndexOf('/') + 1)).normalize();
    if (Files.exists(target) && (!Files.isDirectory(target) || !isEmpty(target))) {
      throw new BuildTools.ToolFailure(128, "fatal: destination path '" + target + "' already exists and is not an empty directory.");
    }
    ctx.err().println("Cloning into '" + target + "'...");
    ObjectNode state = Json.object().put("url", url);
    state.putNull("head");
    state.putNull("fetch_head");
    Files.createDirectories(target.resolve(".git"));
    if (!a.flag("--no-checkout")) {
      String rev = resolveRev(url, a.get("--branch", "HEAD"));
      FakeCheckouts.materialize(url, rev, target);
      state.put("head", rev);
    }
    save(target, state);
    return 0;
  }

  private int fetch(Path repo, List<String> args) throws IOException {
    ObjectNode state = load(repo);
    List<String> positional = new ArgParser("git fetch").withPositionals().value("--depth").value("--deepen")
        .parse(args).positional();
    String ref = positional.size() > 1 ? positional.get(positional.size() - 1) : "HEAD";
    state.put("fetch_head", resolveRev(state.path("url").asText(), ref));
    save(repo, state);
    ctx.err().println("From " + state.path("url").asText() + "\n * branch            " + ref + " -> FETCH_HEAD");
    return 0;
  }

  private int checkout(Path repo, List<String> args) throws BuildTools.ToolFailure, IOException {
    ObjectNode state = load(repo);
    List<String> targets = args.stream().filter(s -> !s.startsWith("-")).toList();
    if (targets.isEmpty()) {
      throw new BuildTools.ToolFailure(1, "git (emulated): checkout needs a revision");
    }
    String url = state.path("url").asText();
    String target = targets.get(0);
    String rev;
    if (target.equals("FETCH_HEAD")) {
      if (state.path("fetch_head").isNull()) {
        throw new BuildTools.ToolFailure(128, "fatal: invalid reference: FETCH_HEAD");
      }
      rev = state.get("fetch_head").asText();
    } else {
      rev = resolveRev(url, target);
    }
    FakeCheckouts.materialize(url, rev, repo);
    state.put("head", rev);
    save(repo, state);
    ctx.err().println("HEAD is now at " + rev.substring(0, 7) + " (emulated checkout of " + url + ")");
    return 0;
  }

  private int revParse(Path repo, List<String> args) throws BuildTools.ToolFailure, IOException {
    JsonNode state = load(repo);
    boolean shortForm = args.contains("--short");
    for (String a : args) {
      if (a.startsWith("-")) {
        continue;
      }
      JsonNode rev = a.equals("FETCH_HEAD") ? state.path("fetch_head") : state.path("head");
      if (rev.isNull() || rev.isMissingNode()) {
        throw new BuildTools.ToolFailure(128, "fatal: ambiguous argument '" + a + "': unknown revision");
      }
      ctx.out().println(shortForm ? rev.asText().substring(0, 7) : rev.asText());
    }
    return 0;
  }

  /** A full commit id stays as given; a branch or tag name maps to a stable fake commit. */
  static String resolveRev(String url, String ref) {
    if (ref.matches("[0-9a-f]{40}")) {
      return ref;
    }
    try {
      byte[] d = MessageDigest.getInstance("SHA-1").digest((url + "#" + ref).getBytes(StandardCharsets.UTF_8));
      return HexFormat.of().formatHex(d);
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException(e);
    }
  }

  private static Path findRepo(Path dir) {
    for (Path d = dir; d != null; d = d.getParent()) {
      if (Files.isRegularFile(d.resolve(MARKER))) {
        return d;
      }
    }
    return null;
  }

  private static boolean isEmpty(Path dir) throws IOException {
    try (Stream<Path> s = Files.list(dir)) {
      return s.findAny().isEmpty();
    }
  }

  private static ObjectNode load(Path repo) throws IOException {
    return (ObjectNode) Json.parse(Files.readAllBytes(repo.resolve(MARKER)));
  }

  private static void save(Path repo, ObjectNode state) throws IOException {
    Files.writeString(repo.resolve(MARKER), Json.write(state) + "\n");
  }

  /** Runs the real git with the same arguments, or answers {@code fallback} when there is none. */
  private int realGit(List<String> argv, Path cwd, String fallback) throws BuildTools.ToolFailure, IOException, InterruptedException {
    String git = ctx.env().get("SRT_EMULATOR_REAL_GIT");
    if (git == null || git.isBlank() || !Files.isExecutable(Path.of(git))) {
      if (fallback != null) {
        ctx.out().println(fallback);
        return 0;
      }
      throw new BuildTools.ToolFailure(1, "git (emulated): `git " + String.join(" ", argv)
          + "` is outside an emulated checkout and no real git was found when the shims were installed");
    }
    List<String> cmd = new ArrayList<>();
    cmd.add(git);
    cmd.addAll(argv);
    ProcessBuilder pb = new ProcessBuilder(cmd).directory(cwd.toFile()).inheritIO();
    pb.environment().clear();
    pb.environment().putAll(ctx.env());
    return pb.start().waitFor();
  }
}
