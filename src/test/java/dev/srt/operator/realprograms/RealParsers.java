package dev.srt.operator.realprograms;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.srt.operator.testinfra.RealProgramsEnv;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * The real programs' own parsers, in the pinned environment: {@code real-programs/flags.py}
 * asks the Python ones (one process per program for all its command lines) and dry-starts the
 * sidecar, whose parser is clap inside Rust.
 */
final class RealParsers {
  static final Path SCRIPT = Path.of("src/test/resources/real-programs/flags.py").toAbsolutePath();
  private static final ObjectMapper JSON = new ObjectMapper();
  /** What the sidecar's runtime logs once clap has parsed its command line (ai-dynamo-runtime 1.6.1). */
  private static final java.util.regex.Pattern PARSED =
      java.util.regex.Pattern.compile("Initializing KV store discovery backend|not reachable yet; retrying startup connection");

  /** What the real parser said of one command line; {@code flag} is the option its refusal names. */
  record Verdict(boolean accepted, int status, String flag, String message) {}

  private RealParsers() {}

  /** The verdicts of a Python program on each command line, in order, from one process started in {@code dir}. */
  static List<Verdict> verdicts(String program, List<List<String>> argvs, List<Map<String, String>> envs, Path dir) {
    StringBuilder in = new StringBuilder();
    for (int i = 0; i < argvs.size(); i++) {
      com.fasterxml.jackson.databind.node.ObjectNode request = JSON.createObjectNode();
      request.set("argv", JSON.valueToTree(argvs.get(i)));
      request.set("env", JSON.valueToTree(envs.get(i)));
      in.append(request).append('\n');
    }
    List<Verdict> out = new ArrayList<>();
    for (String line : python(dir, in.toString(), "verdicts", program)) {
      try {
        JsonNode v = JSON.readTree(line);
        out.add(new Verdict(v.path("accepted").asBoolean(), v.path("status").asInt(), v.path("flag").isNull() ? null : v.path("flag").asText(),
            v.path("message").asText()));
      } catch (IOException e) {
        throw new AssertionError("not a verdict: " + line, e);
      }
    }
    if (out.size() != argvs.size()) {
      throw new AssertionError(program + ": " + out.size() + " verdicts for " + argvs.size() + " command lines");
    }
    return out;
  }

  /** The program's vocabulary as its own parser declares it ({@code flags.py dump}). */
  static List<String> dump(String program, Path dir) {
    return python(dir, "", "dump", program);
  }

  private static List<String> python(Path dir, String stdin, String... args) {
    List<String> command = new ArrayList<>(List.of(RealProgramsEnv.bin("python"), SCRIPT.toString()));
    command.addAll(List.of(args));
    try {
      Path err = Files.createTempFile(dir, "flags-", ".err");
      ProcessBuilder pb = new ProcessBuilder(command).directory(dir.toFile()).redirectError(err.toFile());
      pb.environment().put("PYTHONUNBUFFERED", "1");
      Process p = pb.start();
      try {
        p.getOutputStream().write(stdin.getBytes(StandardCharsets.UTF_8));
        p.getOutputStream().close();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        if (!p.waitFor(120, TimeUnit.SECONDS) || p.exitValue() != 0) {
          throw new AssertionError("flags.py " + String.join(" ", args) + " failed: " + Files.readString(err));
        }
        return out.lines().filter(l -> !l.isBlank()).toList();
      } finally {
        Processes.destroyTree(p);
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new AssertionError(e);
    }
  }

  /**
   * Starts the real sidecar ({@code python -m dynamo.sglang.sidecar ARGS}) and waits until clap
   * either refused the command line (exit 2 with {@code error:}) or let it through (the runtime
   * starts connecting to NATS or etcd, which it does only after parsing); then kills it. Its etcd and
   * NATS are free ports nobody listens on, so it touches no server of anyone else's.
   */
  static Verdict dryStartSidecar(List<String> args, Map<String, String> env, Path dir) {
    List<String> command = new ArrayList<>(List.of(RealProgramsEnv.bin("python"), "-m", "dynamo.sglang.sidecar"));
    command.addAll(args);
    try {
      Path log = Files.createTempFile(dir, "sidecar-", ".log");
      ProcessBuilder pb = new ProcessBuilder(command).directory(dir.toFile()).redirectErrorStream(true).redirectOutput(log.toFile());
      Map<String, String> e = pb.environment();
      e.keySet().removeIf(k -> k.startsWith("DYN_") || k.startsWith("ETCD_") || k.startsWith("NATS_") || k.startsWith("SGLANG_"));
      e.putAll(env);
      e.put("ETCD_ENDPOINTS", "http://127.0.0.1:" + freePort());
      e.put("NATS_SERVER", "nats://127.0.0.1:" + freePort());
      e.remove("DYN_SYSTEM_PORT");
      Process p = pb.start();
      try {
        org.awaitility.Awaitility.await().atMost(Duration.ofSeconds(30)).pollInterval(Duration.ofMillis(50))
            .until(() -> !p.isAlive() || PARSED.matcher(Files.readString(log)).find());
        String text = Files.readString(log);
        if (!p.isAlive() && p.exitValue() == 2 && text.contains("error:")) {
          String first = text.lines().filter(l -> l.startsWith("error:")).findFirst().orElse(text);
          java.util.regex.Matcher m = java.util.regex.Pattern.compile("'(--[\\w-]+)").matcher(first);
          return new Verdict(false, 2, m.find() ? m.group(1) : null, text.strip());
        }
        return new Verdict(true, p.isAlive() ? 0 : p.exitValue(), null, text.strip());
      } finally {
        Processes.destroyTree(p);
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  static int freePort() {
    try (ServerSocket s = new ServerSocket(0)) {
      return s.getLocalPort();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** {@code env} without what only the host needs (PYTHONPATH is read when python starts, not by a parser). */
  static Map<String, String> parserEnv(Map<String, String> env) {
    Map<String, String> out = new LinkedHashMap<>(env);
    out.remove("PYTHONPATH");
    return out;
  }
}
