package dev.srt.operator.results;

import static dev.srt.operator.results.ResultFixtures.FACTS;
import static org.assertj.core.api.Assertions.assertThat;

import dev.srt.operator.api.RunFacts;
import java.nio.charset.StandardCharsets;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * A run's facts.json is read like its result files: by the same one command, cut at its limit on
 * the host, schema-checked here, kinds and digests computed here; a file that breaks a rule gives
 * no facts and says why without quoting it, and never spoils the run's numbers (the one command:
 * host/ForgedResultsTest).
 */
class FactsFileTest {
  static RunFacts parse(String text) {
    return FactsFile.parse(text.getBytes(StandardCharsets.UTF_8));
  }

  @Test
  void theFactsGetTheirKindsAndDigestsHereWhateverTheFileSays() {
    RunFacts f = parse(FACTS.replace("\"value\": \"4\"}", "\"value\": \"4\", \"kind\": \"routing\"}"));

    assertThat(f.unknown).isNull();
    assertThat(f.capturedAt).isEqualTo("2026-12-03T07:16:50Z");
    assertThat(f.count).isEqualTo(7);
    assertThat(f.unknownCount).isEqualTo(1);
    assertThat(f.facts).extracting(x -> x.name + "=" + x.kind).containsExactly("node 0 host=recorded", "node 0 GPU driver=held-constant",
        "node 0 CUDA version=held-constant", "engine worker-0 server_args.tp_size=held-constant", "engine worker-0 server_args.grpc_port=routing",
        "router binary sha256=routing", "model tokenizer.json sha256=held-constant");
    assertThat(f.facts.get(2).unknown).isEqualTo("nvidia-smi names no CUDA version");
    assertThat(f.heldConstantDigest).hasSize(16);
    assertThat(f.routingDigest).hasSize(16).isNotEqualTo(f.heldConstantDigest);
    // the digest is of the held-constant facts only: another host or router leaves it as it is
    RunFacts elsewhere = parse(FACTS.replace("gpu-01", "gpu-02").replace("907d092a", "00000000"));
    assertThat(elsewhere.heldConstantDigest).isEqualTo(f.heldConstantDigest);
    assertThat(elsewhere.routingDigest).isNotEqualTo(f.routingDigest);
    assertThat(parse(FACTS.replace("570.86.15", "535.104.05")).heldConstantDigest).isNotEqualTo(f.heldConstantDigest);
    // what a status keeps
    RunFacts compact = f.compact();
    assertThat(compact.facts).isNull();
    assertThat(compact.heldConstantDigest).isEqualTo(f.heldConstantDigest);
  }

  static Stream<Arguments> malformed() {
    String fact = "{\"name\": \"node 0 kernel\", \"value\": \"6.1\"}";
    return Stream.of(
        Arguments.of("[]", "facts.json is malformed: not a JSON object"),
        Arguments.of("{\"facts\": {}}", "facts.json is malformed: facts is not a list"),
        Arguments.of("{\"facts\": [" + fact + "]} {}", "facts.json is malformed: more than one JSON value"),
        Arguments.of("{\"facts\": [" + fact + ", " + fact + "]}", "facts.json is malformed: facts[1].name is not unique"),
        Arguments.of("{\"facts\": [{\"name\": \"x EVIL\", \"value\": \"1\", \"unknown\": \"2\"}]}", "facts.json is malformed: facts[0] needs exactly one of value and unknown"),
        Arguments.of("{\"facts\": [{\"name\": \"x\"}]}", "facts.json is malformed: facts[0] needs exactly one of value and unknown"),
        Arguments.of("{\"facts\": [{\"name\": 7, \"value\": \"1\"}]}", "facts.json is malformed: facts[0].name is not text"),
        Arguments.of("{\"facts\": [{\"name\": \"x\", \"value\": 1}]}", "facts.json is malformed: facts[0].value is not text"),
        Arguments.of("{\"facts\": [{\"name\": \"\", \"value\": \"1\"}]}", "facts.json is malformed: facts[0].name is empty"),
        Arguments.of("{\"facts\": [{\"name\": \"x\", \"value\": \"EVIL\\u001b[2J\"}]}", "facts.json is malformed: facts[0].value has control characters"),
        Arguments.of("{\"facts\": [{\"name\": \"x\", \"value\": \"EVIL\\u202e\"}]}", "facts.json is malformed: facts[0].value has control characters"),
        Arguments.of("{\"facts\": [{\"name\": \"x\", \"value\": \"" + "E".repeat(513) + "\"}]}", "facts.json is malformed: facts[0].value is longer than 512 characters"),
        Arguments.of("{\"facts\": [{\"name\": \"" + "E".repeat(201) + "\", \"value\": \"1\"}]}", "facts.json is malformed: facts[0].name is longer than 200 characters"),
        Arguments.of("{\"capturedAt\": \"EVIL\", \"facts\": []}", "facts.json is malformed: capturedAt is not a UTC time"),
        Arguments.of("{\"facts\": [], \"facts\": []}", "facts.json is malformed: a key appears twice in one object"),
        Arguments.of("{\"facts\": [" + "[".repeat(20) + "]}", "facts.json is malformed: nested deeper than the facts program writes"),
        Arguments.of("{\"facts\": [" + String.join(",", java.util.Collections.nCopies(20_001, fact)) + "]}", "facts.json is malformed: more than 20000 facts"),
        Arguments.of("EVIL", "facts.json is malformed: not JSON"));
  }

  @ParameterizedTest
  @MethodSource("malformed")
  void aFileThatBreaksARuleGivesNoFactsAndSaysWhyWithoutQuotingIt(String content, String reason) {
    RunFacts f = parse(content);

    assertThat(f.facts).isNull();
    assertThat(f.unknown).isEqualTo(reason).doesNotContain("EVIL");
  }

  @Test
  void noFileAndAnOversizedOneGiveNoFacts() {
    assertThat(FactsFile.parse(null).unknown).startsWith("the run wrote no facts.json");
    assertThat(FactsFile.parse(new byte[FactsFile.MAX_BYTES + 1]).unknown).isEqualTo("facts.json is larger than 4 MiB");
  }
}
