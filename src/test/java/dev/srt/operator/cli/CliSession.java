package dev.srt.operator.cli;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.junit.jupiter.api.extension.TestWatcher;

/**
 * Commands of srt-operator run in this JVM as a user would type them, with what they printed kept
 * as a transcript (printed only when the test fails: register the session as an extension) and
 * the ids of the runs they submitted (for the test's cleanup checks).
 */
final class CliSession implements TestWatcher {
  private static final Pattern RUN_ID = Pattern.compile("submitted run (r[0-9a-f]{8}) ");

  record Result(int code, String out, String err) {}

  private final StringBuilder transcript = new StringBuilder();
  private final List<String> runIds = new ArrayList<>();

  Result run(String command, String... args) {
    PrintStream out = System.out;
    PrintStream err = System.err;
    ByteArrayOutputStream outBytes = new ByteArrayOutputStream();
    ByteArrayOutputStream errBytes = new ByteArrayOutputStream();
    int code;
    try {
      System.setOut(new PrintStream(outBytes, true, StandardCharsets.UTF_8));
      System.setErr(new PrintStream(errBytes, true, StandardCharsets.UTF_8));
      List<String> argv = new ArrayList<>(List.of(command));
      argv.addAll(List.of(args));
      code = Main.run(argv.toArray(String[]::new));
    } finally {
      System.setOut(out);
      System.setErr(err);
    }
    Result r = new Result(code, outBytes.toString(StandardCharsets.UTF_8), errBytes.toString(StandardCharsets.UTF_8));
    Matcher m = RUN_ID.matcher(r.out());
    while (m.find()) {
      runIds.add(m.group(1));
    }
    transcript.append("$ srt-operator ").append(command).append(' ').append(String.join(" ", args)).append('\n')
        .append(r.out()).append(r.err());
    return r;
  }

  /** The runs the commands submitted, in order. */
  List<String> runIds() {
    return List.copyOf(runIds);
  }

  @Override
  public void testFailed(ExtensionContext context, Throwable cause) {
    System.out.println(transcript);
  }
}
