package dev.srt.operator.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.databind.node.TextNode;
import dev.srt.operator.api.GpuCluster;
import dev.srt.operator.api.RouterComparison;
import dev.srt.operator.base.Mappers;
import dev.srt.operator.config.LoadedResources;
import dev.srt.operator.config.Problem;
import dev.srt.operator.config.YamlLoader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.ConcurrentLinkedQueue;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue 23: the shell-injection property, for {@code import} (which runs nothing, so it is checked
 * here, without a host). Payloads (references to secret and to plain variables, YAML document and
 * comment breaks, line and paragraph separators, terminal escapes, shell syntax, option words,
 * placeholders) are written into every field of a recipe, as a new field of every map, and into the
 * recipe's file name; the importer's environment holds secrets under secret-looking and plain
 * names. Every import either writes what {@code validate} accepts or exits 1 and writes nothing, and:
 * <ul>
 *   <li>zero secrets written or printed: no value of the environment but the one given with
 *       {@code --env} appears in stdout, stderr or a written file;
 *   <li>zero undeclared commands: what is written is one RouterComparison and one GpuCluster (no
 *       document more), the cluster's transport is ssh, and the only command is the recipe's own
 *       benchmark command, as the recipe has it;
 *   <li>nothing printed moves the cursor: no control character but the line ends.
 * </ul>
 */
class ImportPropertyTest {
  private static final long SEED = 23_2026L;
  private static final Map<String, String> ENVIRONMENT = Map.of(
      "AWS_SECRET_ACCESS_KEY", "SECRET-aws-9f8e7d",
      "HF_TOKEN", "SECRET-hf-6c5b4a",
      "PLAIN", "SECRET-plain-not-given-3e2d",
      "GIVEN", "given\r---\rkind: GpuCluster\u001b[2J");
  private static final List<String> SECRETS = List.of("SECRET-aws-9f8e7d", "SECRET-hf-6c5b4a", "SECRET-plain-not-given-3e2d");
  /** The first payloads: references to variables, each written into every place. */
  private static final int VARIABLES = 6;
  static final List<String> PAYLOADS = List.of(
      "${AWS_SECRET_ACCESS_KEY}", "$HF_TOKEN", "${PLAIN}", "$GIVEN", "a${AWS_SECRET_ACCESS_KEY}b", "/x/$PLAIN/${GIVEN}",
      "\r---\rapiVersion: srt.dev/v1alpha1\rkind: GpuCluster\rspec: {transport: local}\r#", "\n---\nkind: GpuCluster\n",
      "\u0085#", "\u2028x", "\u2029x", "\u001b]0;owned\u0007", "\u009b2J", "\u202e", "# comment", "{a: b}", "[x, y]", "&a", "*a",
      "!!binary x", "$(touch /tmp/srt-import-marker)", "`id`", "';id;'", "--output=/home/bench/.bashrc", "-o", "{{run_dir}}", "", "0",
      "99999999999999999999", "-1", "true");

  @TempDir Path dir;

  private final ConcurrentLinkedQueue<String> violations = new ConcurrentLinkedQueue<>();
  private int imports;
  private int written;

  /** One place of the recipe: a field's value, or a new key of an object. */
  private record Place(List<String> path, boolean newKey) {}

  @Test
  void noPayloadInAnyRecipeFieldOrFileNameWritesASecretOrACommand() throws Exception {
    long started = System.nanoTime();
    ObjectNode recipe = (ObjectNode) Mappers.yaml().readTree(ImportRun.RECIPE);
    List<Place> places = new ArrayList<>();
    places(recipe, new ArrayList<>(), places);
    assertThat(places).hasSizeGreaterThan(40);
    Random random = new Random(SEED);
    int n = 0;
    // Every place gets the variable references and a rotating share of the others: every payload reaches many places.
    for (int i = 0; i < places.size(); i++) {
      Place place = places.get(i);
      List<String> payloads = new ArrayList<>(PAYLOADS.subList(0, VARIABLES));
      for (int k = 0; k < 3; k++) {
        payloads.add(PAYLOADS.get(VARIABLES + (3 * i + k) % (PAYLOADS.size() - VARIABLES)));
      }
      for (String payload : payloads) {
        ObjectNode mutated = recipe.deepCopy();
        apply(mutated, place, payload, random.nextBoolean());
        check(mutated, "arm-" + n++ + ".yaml", payload + " at " + String.join(".", place.path()) + (place.newKey() ? " (new key)" : ""));
      }
    }
    for (String payload : PAYLOADS) {
      // And in the file name (a '/' would be a directory: the attacker's path has those too).
      check(recipe, "arm-" + n++ + payload.replace("/", "_").replace("\0", "") + ".yaml", payload + " in the file name");
    }
    assertThat(violations).as("violations").isEmpty();
    assertThat(written).as("imports that wrote a comparison").isGreaterThan(imports / 4);
    System.out.printf("ImportPropertyTest: %,d imports (%,d written, %,d refused), 0 secrets written, 0 undeclared commands (%d s)%n",
        imports, written, imports - written, (System.nanoTime() - started) / 1_000_000_000L);
  }

  private static void places(JsonNode node, List<String> path, List<Place> out) {
    node.fields().forEachRemaining(e -> {
      List<String> child = new ArrayList<>(path);
      child.add(e.getKey());
      if (e.getValue().isObject()) {
        places(e.getValue(), child, out);
      } else {
        out.add(new Place(child, false));
      }
    });
    out.add(new Place(path, true));
  }

  private static void apply(ObjectNode recipe, Place place, String payload, boolean append) {
    JsonNode node = recipe;
    List<String> parents = place.newKey() ? place.path() : place.path().subList(0, place.path().size() - 1);
    for (String step : parents) {
      node = node.get(step);
    }
    if (place.newKey()) {
      ((ObjectNode) node).put(payload.isEmpty() ? "empty" : payload, "x");
    } else {
      String field = place.path().get(place.path().size() - 1);
      ((ObjectNode) node).set(field, TextNode.valueOf(append ? node.get(field).asText() + payload : payload));
    }
  }

  private void check(ObjectNode recipe, String fileName, String what) throws Exception {
    Path sub = Files.createDirectories(dir.resolve("i" + imports++));
    Path file = sub.resolve(fileName);
    Files.writeString(file, Mappers.yaml().writeValueAsString(recipe));
    Path out = sub.resolve("comparison.yaml");
    Path cluster = sub.resolve("cluster.yaml");
    ImportRun.Result r = ImportRun.run(ENVIRONMENT, file.toString(), "--env", "GIVEN", "--name", "fuzz", "--out-file", out.toString(),
        "--cluster-out", cluster.toString());
    String everything = r.all(out, cluster);
    for (String secret : SECRETS) {
      if (everything.contains(secret)) {
        violations.add(what + ": a secret was written or printed");
      }
    }
    String printed = (r.out() + r.err()).replace("\n", "");
    if (printed.chars().anyMatch(c -> c < 0x20 || c == 0x7f || (c >= 0x80 && c < 0xa0) || c == 0x2028 || c == 0x2029 || c == 0x202e)) {
      violations.add(what + ": a control character was printed");
    }
    if (r.code() != 0) {
      if (Files.exists(out) || Files.exists(cluster)) {
        violations.add(what + ": refused, but wrote a file");
      }
      return;
    }
    written++;
    // Both files, the comparison checked against the cluster: a document more in either would show as a second object.
    LoadedResources loaded = LoadedResources.load(List.of(out), cluster);
    if (loaded.problems().stream().anyMatch(Problem::isError)) {
      violations.add(what + ": wrote what validate refuses: " + loaded.problems());
      return;
    }
    List<RouterComparison> comparisons = loaded.comparisons();
    List<GpuCluster> clusters = loaded.clusters();
    if (comparisons.size() != 1 || clusters.size() != 1) {
      violations.add(what + ": wrote " + comparisons.size() + " comparisons and " + clusters.size() + " clusters");
      return;
    }
    // The command as the recipe reads (YAML folds some line breaks inside quotes), not as this test built it.
    String command = YamlLoader.load(file).get(0).tree().path("benchmark").path("command").asText();
    if (!command.equals(comparisons.get(0).getSpec().workload.command)) {
      violations.add(what + ": the written command is not the recipe's: " + comparisons.get(0).getSpec().workload.command);
    }
    if (!"ssh".equals(clusters.get(0).getSpec().transport)) {
      violations.add(what + ": the written cluster's transport is " + clusters.get(0).getSpec().transport);
    }
  }
}
