package dev.srt.operator.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.srt.operator.api.RouterComparison;
import dev.srt.operator.cli.Main;
import dev.srt.operator.plan.Planner;
import dev.srt.operator.plan.RunPlan;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue 8, finding 10 "Bad input": empty files, aliases, merge keys, duplicate keys, unbounded
 * durations, oversized files and raw values in messages are all refused with a clear message,
 * by every command that reads files (they share {@link LoadedResources}).
 */
class BadInputTest {
  private static final Path EXAMPLE = Path.of("examples/router-comparison.yaml");
  private static final String TIMEOUT = "healthCheck: {timeout: 30m, interval: 10s}";
  private static final String MODEL_PATH = "path: /models/Qwen3-32B-FP8";

  @TempDir Path dir;

  /** Every command that reads spec files; apply prints its script rather than submitting it. */
  private List<List<String>> readers() {
    return List.of(List.of("validate"), List.of("plan"), render(), List.of("diff"), List.of("apply", "--bash"));
  }

  private List<String> render() {
    return List.of("render", "--out-dir", dir.resolve("out").toString());
  }

  record Run(int code, String out, String err) {}

  static Run cli(String... args) {
    PrintStream out = System.out;
    PrintStream err = System.err;
    ByteArrayOutputStream outBytes = new ByteArrayOutputStream();
    ByteArrayOutputStream errBytes = new ByteArrayOutputStream();
    int code;
    try {
      System.setOut(new PrintStream(outBytes, true, StandardCharsets.UTF_8));
      System.setErr(new PrintStream(errBytes, true, StandardCharsets.UTF_8));
      code = Main.run(args);
    } finally {
      System.setOut(out);
      System.setErr(err);
    }
    return new Run(code, outBytes.toString(StandardCharsets.UTF_8), errBytes.toString(StandardCharsets.UTF_8));
  }

  /** Runs {@code command -f file} and returns what it printed, after checking it failed without a stack trace. */
  private static String refusedBy(List<String> command, Path file) {
    List<String> args = new java.util.ArrayList<>(command);
    args.addAll(List.of("-f", file.toString()));
    Run r = cli(args.toArray(String[]::new));
    assertThat(r.code()).as("%s: %s", command, r).isEqualTo(1);
    String printed = r.out() + r.err();
    assertThat(printed).as(command.toString()).doesNotContain("Exception").doesNotContain("\tat ");
    return printed;
  }

  private Path write(String name, String text) throws IOException {
    return Files.writeString(dir.resolve(name), text);
  }

  private static String example() throws IOException {
    return Files.readString(EXAMPLE);
  }

  private static String replaced(String text, String old, String by) {
    assertThat(text).contains(old);
    return text.replace(old, by);
  }

  private static int lineOf(String text, String fragment) {
    int at = text.indexOf(fragment);
    assertThat(at).as(fragment).isNotNegative();
    return (int) text.substring(0, at).chars().filter(c -> c == '\n').count() + 1;
  }

  private static List<String> errors(LoadedResources r) {
    return r.problems().stream().filter(Problem::isError).map(Problem::toString).toList();
  }

  @Test
  void anEmptyFileIsAnErrorForEveryCommand() throws IOException {
    Path empty = write("empty.yaml", "");
    for (List<String> command : readers()) {
      assertThat(refusedBy(command, empty)).as(command.toString())
          .contains(empty + ":1: no Kubernetes object in this file (it is empty, or only comments and ---)");
    }
  }

  @Test
  void aFileWithOnlyDocumentMarkersAndCommentsIsAnError() throws IOException {
    Path markers = write("markers.yaml", "# nothing here yet\n---\n---\n# still nothing\n...\n");
    for (List<String> command : readers()) {
      assertThat(refusedBy(command, markers)).as(command.toString())
          .contains(markers + ":1: no Kubernetes object in this file");
    }
    // An empty document between objects is skipped, as kubectl does.
    assertThat(errors(LoadedResources.parse("two.yaml", "---\n---\n" + example()))).isEmpty();
  }

  /**
   * Numbers that are no numbers (issue 41, finding 9): YAML's .nan and .inf, a quoted word where a
   * number goes, and a number of 100,000 digits are each refused at their field, saying what was
   * found; before, .nan and .inf failed the whole file with Jackson's "Malformed numeric value" and
   * a word ended as "cannot read RouterComparison", neither naming the field.
   */
  @Test
  void aValueThatIsNoNumberIsRefusedAtItsFieldSayingWhatItIs() throws IOException {
    String resources = "resources: {aggNodes: 1, aggWorkers: 2, gpusPerWorker: 4}";
    String nan = replaced(example(), resources, "resources: {aggNodes: 1, aggWorkers: 2, gpusPerWorker: .nan}");
    assertThat(errors(LoadedResources.parse("nan.yaml", nan))).containsExactly("nan.yaml:" + lineOf(nan, "gpusPerWorker")
        + ": spec.resources.gpusPerWorker: .nan is not a finite number: write a number such as 0.5 (not-a-number and infinity are refused)");
    String inf = replaced(example(), resources, "resources: {aggNodes: 1, aggWorkers: 2, gpusPerWorker: -.inf}");
    assertThat(errors(LoadedResources.parse("inf.yaml", inf))).singleElement().asString()
        .contains(": spec.resources.gpusPerWorker: -.inf is not a finite number");
    String word = replaced(example(), resources, "resources: {aggNodes: 1, aggWorkers: '2x', gpusPerWorker: 4}");
    assertThat(errors(LoadedResources.parse("word.yaml", word))).singleElement().asString()
        .endsWith(": spec.resources.aggWorkers: must be an integer, not \"2x\"");
    String huge = replaced(example(), resources, "resources: {aggNodes: 1, aggWorkers: 2, gpusPerWorker: " + "9".repeat(100_000) + "}");
    assertThat(errors(LoadedResources.parse("huge.yaml", huge))).singleElement().asString()
        .contains(": spec.resources.gpusPerWorker: must be an integer, not \"999").doesNotContain("nested", "9".repeat(100));
  }

  @Test
  void anAliasIsRefusedAtItsLine() throws IOException {
    String text = replaced(replaced(example(), MODEL_PATH, "path: &model /models/Qwen3-32B-FP8"),
        "servedModelName: Qwen/Qwen3-32B-FP8", "servedModelName: *model");
    Path file = write("alias.yaml", text);
    // Before, the alias silently became the string "model".
    assertThat(errors(LoadedResources.load(List.of(file)))).containsExactly(file + ":" + lineOf(text, "*model")
        + ": spec.model.servedModelName: YAML anchors/aliases are not supported; write the value out (*model)");
    assertThat(refusedBy(List.of("plan"), file)).contains("YAML anchors/aliases are not supported");
  }

  @Test
  void aMergeKeyIsRefusedOnceAtItsLine() throws IOException {
    String text = replaced(example(), "  - name: dynamo-kv\n    frontend: {type: dynamo, args: {router-mode: kv}}\n",
        "  - name: dynamo-kv\n    frontend: &kv {type: dynamo, args: {router-mode: kv}}\n");
    text = replaced(text, "  - name: dynamo-kv-policy\n    frontend: {type: dynamo, args: {router-mode: kv}}\n",
        "  - name: dynamo-kv-policy\n    frontend:\n      <<: *kv\n");
    Path file = write("merge.yaml", text);
    // Before, the merge key was reported as an unknown field "<<" and type as missing.
    assertThat(errors(LoadedResources.load(List.of(file)))).containsExactly(file + ":" + lineOf(text, "<<: *kv")
        + ": spec.arms[2].frontend: YAML merge keys (<<) and anchors/aliases are not supported; write the fields out");
    assertThat(refusedBy(render(), file)).contains("YAML merge keys (<<)");
  }

  @Test
  void aDuplicateKeyIsRefusedWithItsLineAndPath() throws IOException {
    String text = replaced(example(), MODEL_PATH, MODEL_PATH + "\n    path: /models/other");
    Path file = write("duplicate.yaml", text);
    // Before, the last one silently won.
    assertThat(errors(LoadedResources.load(List.of(file)))).containsExactly(file + ":" + lineOf(text, "path: /models/other")
        + ": spec.model.path: duplicate key: already set at line " + lineOf(text, MODEL_PATH) + " (a key may appear only once in a map)");
    assertThat(refusedBy(List.of("diff"), file)).contains("spec.model.path: duplicate key");
  }

  @Test
  void aHugeDurationIsAFieldPathErrorOfValidate() throws IOException {
    String text = replaced(example(), TIMEOUT, "healthCheck: {timeout: 99999999999999999999h, interval: 10s}");
    Path file = write("huge.yaml", text);
    Run r = cli("validate", "-f", file.toString());
    assertThat(r.code()).isEqualTo(1);
    assertThat(r.out().lines()).containsExactly(file + ":" + lineOf(text, "99999999999999999999h")
        + ": spec.healthCheck.timeout: must be at most 168h (7 days), not 99999999999999999999h");

    assertThat(Durations.problem("168h")).isNull();
    assertThat(Durations.problem("167h59m60s")).isNull();
    assertThat(Durations.problem("168h1ms")).startsWith("must be at most 168h");
    assertThat(Durations.problem("9223372036854775807ms")).startsWith("must be at most 168h");
    assertThat(Durations.problem("100000h".repeat(1000))).startsWith("must be at most 168h");
    assertThat(Durations.problem("30 minutes")).startsWith("must be a duration such as 30m");
    assertThat(Durations.problem("1h" + "9".repeat(100_000))).startsWith("must be a duration such as 30m");
    assertThat(Durations.parse("1h30m500ms", null)).isEqualTo(Duration.ofMinutes(90).plusMillis(500));
    assertThat(Durations.parse("168h", null)).isEqualTo(Durations.MAX);
    assertThatThrownBy(() -> Durations.parse("99999999999999999999h", null))
        .isInstanceOf(IllegalArgumentException.class).hasMessageStartingWith("must be at most 168h");
  }

  @Test
  void aHugeDurationNeverReachesThePlanner() throws IOException {
    String text = replaced(example(), TIMEOUT, "healthCheck: {timeout: 99999999999999999999h, interval: 10s}");
    Path file = write("huge.yaml", text);
    for (List<String> command : readers()) {
      assertThat(refusedBy(command, file)).as(command.toString()).contains("spec.healthCheck.timeout: must be at most 168h");
    }
    // The operator validates the object it gets from the API server the same way before it plans.
    RouterComparison rc = LoadedResources.parse("ok.yaml", example()).comparisons().get(0);
    rc.getSpec().healthCheck.timeout = "99999999999999999999h";
    rc.getSpec().dynamo.sidecarStartupTimeout = "200h";
    assertThat(Validator.validate(rc, null)).filteredOn(Problem::isError).extracting(Problem::describe).containsExactlyInAnyOrder(
        "spec.healthCheck.timeout: must be at most 168h (7 days), not 99999999999999999999h",
        "spec.dynamo.sidecarStartupTimeout: must be at most 168h (7 days), not 200h");

    // The longest valid durations plan without trouble.
    rc.getSpec().healthCheck.timeout = "168h";
    rc.getSpec().healthCheck.interval = "167h59m59s1000ms";
    rc.getSpec().dynamo.sidecarStartupTimeout = null;
    assertThat(Validator.validate(rc, null)).filteredOn(Problem::isError).isEmpty();
    RunPlan.Settings settings = Planner.plan(rc, null, "dynamo-kv", null).settings();
    assertThat(settings.healthTimeoutSeconds()).isEqualTo(168 * 3600);
    assertThat(settings.healthIntervalSeconds()).isEqualTo(168 * 3600);
    assertThat(settings.sidecarStartupTimeoutSeconds()).isEqualTo(168 * 3600);
  }

  @Test
  void anOversizedFileIsRefusedBeforeItIsParsed() throws IOException {
    // A 10 MB scalar, and YAML that would be reported as broken if the parser ever saw it.
    String scalar = "x".repeat(10 * 1024 * 1024);
    String text = example() + "---\nkey: &a \"" + scalar + "\"\nother: *a\nbroken: [\n";
    Path file = write("big.yaml", text);
    long size = Files.size(file);
    assertThat(errors(LoadedResources.load(List.of(file)))).containsExactly(file + ":1: is " + size
        + " bytes, more than the limit of 1 MiB (1048576 bytes) for one file; it was not read");
    assertThat(refusedBy(List.of("plan"), file)).contains("more than the limit of 1 MiB");
    assertThat(errors(LoadedResources.parse("big.yaml", text))).singleElement().asString()
        .startsWith("big.yaml:1: is " + size + " bytes, more than the limit");

    // The limit is exact: 1 MiB of comments is read (and is empty), one byte more is not.
    String comments = "#" + "c".repeat(YamlLoader.MAX_BYTES - 2) + "\n";
    assertThat(errors(LoadedResources.parse("max.yaml", comments))).singleElement().asString().contains("no Kubernetes object");
    assertThat(errors(LoadedResources.parse("over.yaml", comments + "\n"))).singleElement().asString().contains("more than the limit");
  }

  @Test
  void valuesInMessagesAreEscapedAndTruncated() throws IOException {
    String raw = "models\n\u202Egnp.evil\u0007" + "y".repeat(500);
    String text = replaced(example(), MODEL_PATH, "path: \"models\\n\\u202Egnp.evil\\a" + "y".repeat(500) + "\"");
    text = replaced(text, "env: {}", "env: {\"A\\nB\": x}");
    Path file = write("escape.yaml", text);
    Run r = cli("validate", "-f", file.toString());
    assertThat(r.code()).isEqualTo(1);
    String shown = Echo.value(raw);
    assertThat(shown).startsWith("models\\u000A\\u202Egnp.evil\\u0007yyy").endsWith("y...").hasSize(Echo.MAX_CHARS + 3);
    assertThat(r.out().lines()).contains(
        file + ":" + lineOf(text, "path: \"models") + ": spec.model.path: must be an absolute host path, not " + shown,
        file + ":" + lineOf(text, "env: {") + ": spec.backend.env[\"A\\u000AB\"]: is not a valid environment variable name");
    assertThat(r.out() + r.err()).doesNotContain("\u202E", "\u0007");
    assertThat(r.out().chars().filter(c -> c < 0x20 && c != '\n')).isEmpty();

    assertThat(Echo.value(null)).isEqualTo("null");
    assertThat(Echo.value("plain")).isEqualTo("plain");
    assertThat(Echo.value("a\u200Fb\u2028c\tz\uD83D\uDE00")).isEqualTo("a\\u200Fb\\u2028c\\u0009z\uD83D\uDE00");
    assertThat(Echo.escape(Echo.escape("x\ny"))).isEqualTo("x\\u000Ay");
    assertThat(Problem.error("spec.x", "not \u202Eok\n").describe()).isEqualTo("spec.x: not \\u202Eok\\u000A");
  }
}
