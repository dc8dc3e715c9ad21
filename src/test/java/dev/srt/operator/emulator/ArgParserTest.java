package dev.srt.operator.emulator;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class ArgParserTest {
  private final ArgParser parser = new ArgParser("prog")
      .value("--model-path", "--model").value("--port").flag("--enable-metrics").list("--worker-urls")
      .value("--random-input-len").value("--random-output-len").value("--seed");

  @Test
  void skipsUnknownFlagsWithTheirValues() {
    ArgParser.Parsed a = parser.parse(List.of("--mem-fraction-static", "0.85", "--trust-remote-code", "--port", "6100",
        "--json-model-override-args", "{\"a\": 1}", "--enable-metrics", "--foo=bar"));
    assertThat(a.getInt("--port", 0)).isEqualTo(6100);
    assertThat(a.flag("--enable-metrics")).isTrue();
    assertThat(a.ignored()).containsExactly("--mem-fraction-static", "0.85", "--trust-remote-code",
        "--json-model-override-args", "{\"a\": 1}", "--foo=bar");
  }

  @Test
  void readsEqualsFormsAliasesAndLastOccurrenceWins() {
    ArgParser.Parsed a = parser.parse(List.of("--model=/m1", "--port", "1", "--model-path", "/m2", "--port=2"));
    assertThat(a.get("--model-path")).isEqualTo("/m2");
    assertThat(a.getInt("--port", 0)).isEqualTo(2);
  }

  @Test
  void listsStopAtTheNextOption() {
    ArgParser.Parsed a = parser.parse(List.of("--worker-urls", "http://a:1", "http://b:2", "--unknown", "x", "--port", "3"));
    assertThat(a.list("--worker-urls")).containsExactly("http://a:1", "http://b:2");
    assertThat(a.getInt("--port", 0)).isEqualTo(3);
  }

  @Test
  void acceptsUnambiguousPrefixesOnlyLikeArgparse() {
    assertThat(parser.parse(List.of("--random-input", "12")).getInt("--random-input-len", 0)).isEqualTo(12);
    ArgParser.Parsed ambiguous = parser.parse(List.of("--random", "5"));
    assertThat(ambiguous.has("--random-input-len")).isFalse();
    assertThat(ambiguous.has("--random-output-len")).isFalse();
  }

  @Test
  void negativeNumbersAreValuesNotOptions() {
    assertThat(parser.parse(List.of("--seed", "-1")).get("--seed")).isEqualTo("-1");
  }

  @Test
  void aMissingValueIsAnError() {
    assertThatThrownBy(() -> parser.parse(List.of("--port"))).hasMessageContaining("--port: expected one argument");
  }

  @Test
  void withPositionalsUnknownFlagsTakeNoValue() {
    ArgParser.Parsed a = new ArgParser("git clone").withPositionals().flag("--no-checkout")
        .parse(List.of("--quiet", "https://x/y.git", "--no-checkout", "dir"));
    assertThat(a.positional()).containsExactly("https://x/y.git", "dir");
    assertThat(a.flag("--no-checkout")).isTrue();
  }

  @Test
  void workerAcceptsTheRenderedArmCommandWithFlagsItDoesNotUse() {
    ByteArrayOutputStream err = new ByteArrayOutputStream();
    SglangWorker.Options o = SglangWorker.Options.parse(List.of(
        "--model-path", "/models/Qwen3-32B-FP8", "--served-model-name", "Qwen/Qwen3-32B-FP8", "--host", "0.0.0.0",
        "--port", "6100", "--nccl-port", "17500",
        "--kv-events-config", "{\"publisher\":\"zmq\",\"topic\":\"kv-events\",\"endpoint\":\"tcp://*:5200\"}",
        "--context-length", "40960", "--disable-piecewise-cuda-graph", "--enable-metrics", "--fp8-gemm-backend", "triton",
        "--max-running-requests", "64", "--mem-fraction-static", "0.85", "--page-size", "64", "--tensor-parallel-size", "4",
        "--trust-remote-code", "--grpc-port", "50051", "--incremental-streaming-output", "--dist-init-addr", "10.0.0.1:8300"),
        Map.of(), new PrintStream(err));
    assertThat(o.servedModelName()).isEqualTo("Qwen/Qwen3-32B-FP8");
    assertThat(o.port()).isEqualTo(6100);
    assertThat(o.grpcPort()).isEqualTo(50051);
    assertThat(o.pageSize()).isEqualTo(64);
    assertThat(o.tpSize()).isEqualTo(4);
    assertThat(o.maxRunningRequests()).isEqualTo(64);
    assertThat(o.enableMetrics()).isTrue();
    assertThat(o.kvEventsConfig().path("endpoint").asText()).isEqualTo("tcp://*:5200");
    assertThat(err.toString()).contains("--nccl-port 17500").contains("--incremental-streaming-output");
  }

  @Test
  void ignoredOptionsKeepTheirWordsForTheServerInfo() {
    ArgParser.Parsed a = new ArgParser("x").value("--port").parse(List.of("--mem-fraction-static", "0.85", "--trust-remote-code",
        "--port", "1", "--cuda-graph-bs", "1", "2", "4", "--attention-backend=fa3", "--mem-fraction-static", "0.9"));
    assertThat(a.ignoredOptions()).containsExactly(Map.entry("trust-remote-code", List.of()), Map.entry("cuda-graph-bs", List.of("1", "2", "4")),
        Map.entry("attention-backend", List.of("fa3")), Map.entry("mem-fraction-static", List.of("0.9")));
  }

  @Test
  void workerDefaultsTheServedNameToTheModelDirectory() {
    SglangWorker.Options o = SglangWorker.Options.parse(List.of("--model", "/models/Qwen3-0.6B/", "--tp", "2"), Map.of(),
        new PrintStream(new ByteArrayOutputStream()));
    assertThat(o.servedModelName()).isEqualTo("Qwen3-0.6B");
    assertThat(o.tpSize()).isEqualTo(2);
    assertThat(o.pageSize()).isEqualTo(16);
  }

  @Test
  void routerRequiresAModelIdLikeClap() {
    assertThatThrownBy(() -> SglRouter.Options.parse(List.of("--worker-urls", "http://a"), new PrintStream(new ByteArrayOutputStream())))
        .hasMessageContaining("--model-id");
  }
}
