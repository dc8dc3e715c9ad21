package dev.srt.operator.emulator;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import java.util.Map;
import org.assertj.core.api.ThrowableAssert.ThrowingCallable;
import org.junit.jupiter.api.Test;

/**
 * Strict parsers refuse what the real programs' parsers refuse, by the vocabularies generated from
 * them (RealFlagsIT checks the same refusals against the real programs themselves).
 */
class StrictArgParserTest {
  private static ArgParser gateway() {
    return ArgParser.strict("sglang_router.launch_router").list("--worker-urls").value("--port").value("--policy");
  }

  private static ArgParser frontend() {
    return ArgParser.strict("dynamo.frontend").value("--http-port").value("--router-mode");
  }

  private static ArgParser sidecar() {
    return ArgParser.strict("dynamo.sglang.sidecar").value("--grpc-endpoint").value("--namespace");
  }

  private static ArgParser aiperf() {
    return ArgParser.strict("aiperf").withPositionals().value("--model", "-m", "--model-names").value("--concurrency")
        .list("--extra-inputs").value("--endpoint-type").flag("--streaming");
  }

  private static void refused(ThrowingCallable parse, int status, String message) {
    assertThatThrownBy(parse).isInstanceOfSatisfying(ArgParser.UsageError.class, e -> {
      assertThat(e.status()).isEqualTo(status);
      assertThat(e.getMessage()).isEqualTo(message);
    });
  }

  @Test
  void argparseRefusesUnknownFlagsWithTheirWordsAfterEverythingElse() {
    refused(() -> gateway().parse(List.of("--worker-urls", "http://a:1", "--bogus", "1", "--port", "8000")), 2,
        "unrecognized arguments: --bogus 1");
  }

  @Test
  void argparseRefusesInvalidChoicesAndNumbers() {
    refused(() -> gateway().parse(List.of("--policy", "cache_aware_zmq")), 2,
        "argument --policy: invalid choice: 'cache_aware_zmq' (choose from 'random', 'round_robin', 'cache_aware', 'power_of_two', 'manual')");
    refused(() -> gateway().parse(List.of("--port", "80a")), 2, "argument --port: invalid int value: '80a'");
    refused(() -> gateway().parse(List.of("--port")), 2, "argument --port: expected one argument");
  }

  @Test
  void argparseTakesUnambiguousPrefixesAndRefusesAmbiguousOnes() {
    assertThat(gateway().parse(List.of("--worker-u", "http://a:1", "--pol=random")).get("--policy")).isEqualTo("random");
    assertThatThrownBy(() -> gateway().parse(List.of("--po", "1"))).isInstanceOf(ArgParser.UsageError.class)
        .hasMessageStartingWith("ambiguous option: --po could match --port, --policy, ");
  }

  @Test
  void realFlagsTheStandInDoesNotReadAreAcceptedAndReported() {
    ArgParser.Parsed a = gateway().parse(List.of("--worker-urls", "http://a:1", "--max-tree-size", "5", "--dp-aware"));
    assertThat(a.list("--worker-urls")).containsExactly("http://a:1");
    assertThat(a.ignored()).containsExactly("--max-tree-size", "5", "--dp-aware");
    refused(() -> gateway().parse(List.of("--dp-aware=yes")), 2, "argument --dp-aware: ignored explicit argument 'yes'");
  }

  @Test
  void dynamoFrontendRefusesLeftoversItselfWithStatusOne() {
    refused(() -> frontend().parse(List.of("--http-port", "8000", "--bogus", "1")), 1, "Unknown arguments specified: ['--bogus', '1']");
    refused(() -> frontend().parse(List.of("--router-mode", "cache_aware")), 2,
        "argument --router-mode: invalid choice: 'cache_aware' (choose from 'round-robin', 'random', 'power-of-two', 'kv', 'direct', "
            + "'least-loaded', 'device-aware-weighted')");
    assertThat(frontend().parse(List.of("--http-port", "8000", "--no-kserve-grpc-server")).getInt("--http-port", 0)).isEqualTo(8000);
  }

  @Test
  void clapTakesExactNamesOnceAndReadsItsEnvironment() {
    refused(() -> sidecar().parse(List.of("--grpc-endpoint", "127.0.0.1:1", "--bogus"), Map.of()), 2, "unexpected argument '--bogus' found");
    refused(() -> sidecar().parse(List.of("--grpc-end", "127.0.0.1:1"), Map.of()), 2, "unexpected argument '--grpc-end' found");
    refused(() -> sidecar().parse(List.of("--namespace", "a"), Map.of()), 2,
        "the following required arguments were not provided:\n  --grpc-endpoint <GRPC_ENDPOINT>");
    refused(() -> sidecar().parse(List.of("--grpc-endpoint", "a:1", "--grpc-endpoint", "b:1"), Map.of()), 2,
        "the argument '--grpc-endpoint <GRPC_ENDPOINT>' cannot be used multiple times");
    refused(() -> sidecar().parse(List.of("--grpc-endpoint", "a:1"), Map.of("DYN_EVENT_PLANE", "kafka")), 2,
        "invalid value 'kafka' for '--event-plane <EVENT_PLANE>'\n  [possible values: nats, zmq]");
    assertThat(sidecar().parse(List.of("--namespace", "dynamo"), Map.of("DYN_SIDECAR_GRPC_ENDPOINT", "a:1")).get("--namespace"))
        .isEqualTo("dynamo");
  }

  @Test
  void cycloptsRefusesWithStatusOneAndAccumulatesLists() {
    refused(() -> aiperf().parse(List.of("profile", "--model", "m", "--bogus", "1")), 1, "Unknown option: --bogus.");
    refused(() -> aiperf().parse(List.of("profile", "--concurrency", "1", "--concurrency", "2")), 1,
        "Parameter --concurrency specified multiple times.");
    refused(() -> aiperf().parse(List.of("profile", "--streaming=maybe")), 1,
        "Invalid value for --streaming: unable to convert \"maybe\" into bool.");
    ArgParser.Parsed a = aiperf().parse(List.of("profile", "-m", "m", "--endpoint-type", "CHAT", "--extra-inputs", "a:1",
        "--extra-inputs", "b:2"));
    assertThat(a.positional()).containsExactly("profile");
    assertThat(a.get("--model")).isEqualTo("m");
    assertThat(a.list("--extra-inputs")).containsExactly("a:1", "b:2");
    assertThatThrownBy(() -> aiperf().parse(List.of("profile", "--endpoint-type", "chatty"))).isInstanceOf(ArgParser.UsageError.class)
        .hasMessageStartingWith("Invalid value for --endpoint-type: input should be ");
  }

  @Test
  void aStandInNameTheRealProgramLacksIsNotAccepted() {
    ArgParser p = ArgParser.strict("dynamo.frontend").value("--router-mode", "--routing-mode");
    assertThat(p.namesNotInTheRealProgram()).containsExactly("--routing-mode");
    refused(() -> p.parse(List.of("--routing-mode", "kv")), 1, "Unknown arguments specified: ['--routing-mode', 'kv']");
  }

  @Test
  void pythonNumbersAreReadAsPythonReadsThem() {
    assertThat(StrictParse.PythonNumbers.parses("int", " 1_000 ")).isTrue();
    assertThat(StrictParse.PythonNumbers.parses("int", "1.5")).isFalse();
    assertThat(StrictParse.PythonNumbers.parses("float", "-inf")).isTrue();
    assertThat(StrictParse.PythonNumbers.parses("float", "1e-3")).isTrue();
    assertThat(StrictParse.PythonNumbers.parses("float", "0x10")).isFalse();
  }
}
