package dev.srt.operator.results;

import static dev.srt.operator.results.ResultFixtures.scrape;
import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The parser's schema checks (issue 8, finding 8 "Forged results"; the command that fetches the
 * files is host/ForgedResultsTest's): a file that is not what its tool writes gives no results and
 * a reason that names the file and where in it, never what it says there.
 */
class ResultsParserTest {
  static List<Object[]> malformed() {
    String tenThousandFields = IntStream.range(0, 10_000).mapToObj(i -> "\"f" + i + "\":" + i)
        .collect(Collectors.joining(",", "{", "}"));
    String deep = "{\"x\":" + "[".repeat(200) + "]".repeat(200) + ",\"completed\":1}";
    String bench = "results/" + ResultFile.BENCH_SERVING.path + ": ";
    String aiperf = "results/" + ResultFile.AIPERF.path + ": ";
    String after = "results/" + ResultFile.METRICS_AFTER.path + ": ";
    return List.of(
        new Object[] {ResultFile.BENCH_SERVING, "EVIL not json", bench + "the last row is not valid JSON (line 1, column 6)"},
        new Object[] {ResultFile.BENCH_SERVING, "[1, 2]", bench + "the last row is not a JSON object"},
        new Object[] {ResultFile.BENCH_SERVING, "{\"completed\": \"256\"}", bench + "completed is not a number"},
        new Object[] {ResultFile.BENCH_SERVING, "{\"completed\": true}", bench + "completed is not a number"},
        new Object[] {ResultFile.BENCH_SERVING, "{\"completed\": -1}", bench + "completed is out of range (0 to 1e15)"},
        new Object[] {ResultFile.BENCH_SERVING, "{\"duration\": 1e300}", bench + "duration is out of range (0 to 1e15)"},
        new Object[] {ResultFile.BENCH_SERVING, "{\"completed\": 1, \"completed\": 2}", bench + "the last row is not valid JSON (line 1, column 29)"},
        new Object[] {ResultFile.BENCH_SERVING, tenThousandFields, bench + "the last row has more than 1000 fields"},
        new Object[] {ResultFile.BENCH_SERVING, deep, bench + "the last row is beyond the reader's limits (nesting depth, number or string length)"},
        new Object[] {ResultFile.BENCH_SERVING, "{\"completed\": 1} {\"EVIL\": 2}", bench + "the last row is not one JSON object"},
        new Object[] {ResultFile.AIPERF, "{\"time_to_first_token\": 5}", aiperf + "time_to_first_token is not an object of statistics"},
        new Object[] {ResultFile.AIPERF, "{\"time_to_first_token\": {\"p99\": \"EVIL\"}}", aiperf + "time_to_first_token.p99 is not a number"},
        new Object[] {ResultFile.METRICS_AFTER, "# srt-scrape http://w\nsglang:prompt_tokens_total -5", after
            + "sglang:prompt_tokens_total has a value that is not a finite non-negative number"},
        new Object[] {ResultFile.METRICS_AFTER, "# srt-scrape http://w\nsglang:num_requests_total{} NaN", after
            + "sglang:num_requests_total has a value that is not a finite non-negative number"},
        new Object[] {ResultFile.METRICS_AFTER, "# srt-scrape \nsglang:num_requests_total 1", after
            + "a scrape header without a URL (or with one over 2048 characters)"},
        new Object[] {ResultFile.METRICS_AFTER, "# srt-scrape http://w\n\u00ff\u00feEVIL", after + "not UTF-8 text"});
  }

  @ParameterizedTest
  @MethodSource("malformed")
  void malformedResultFilesGiveNoResultsAndAReason(ResultFile file, String content, String reason) {
    Map<ResultFile, byte[]> files = new EnumMap<>(ResultFile.class);
    // valid companions, so that only the file under test can be the reason
    files.put(ResultFile.METRICS_BEFORE, scrape(0, 0, 0, 0, 0, 0).getBytes(StandardCharsets.UTF_8));
    files.put(ResultFile.METRICS_AFTER, scrape(10, 5, 1, 10, 5, 1).getBytes(StandardCharsets.UTF_8));
    byte[] bytes = content.getBytes(StandardCharsets.UTF_8);
    if (reason.endsWith("not UTF-8 text")) {
      bytes = content.getBytes(StandardCharsets.ISO_8859_1);
    }
    files.put(file, bytes);

    RunResults results = ResultsParser.parse(files);

    assertThat(results.metrics()).isEmpty();
    assertThat(results.problem()).isEqualTo(reason).doesNotContain("EVIL");
  }

  @Test
  void aNonFiniteNumberIsNoValueAndExponentsBecomePlainDecimals() {
    RunResults results = ResultsParser.parse(Map.of(ResultFile.BENCH_SERVING,
        "{\"completed\": 1E+3, \"mean_itl_ms\": NaN, \"p99_itl_ms\": Infinity, \"duration\": 1e-5, \"mean_ttft_ms\": null}"
            .getBytes(StandardCharsets.UTF_8)));

    assertThat(results.problem()).isNull();
    assertThat(results.byKey()).containsExactly(Map.entry("completed", "1000"), Map.entry("duration", "0.00001"));
  }

  @Test
  void noFilesNoResults() {
    assertThat(ResultsParser.parse(Map.of()).problem()).isEqualTo("no headline numbers in the run's result files "
        + "(results/bench-serving.jsonl, results/aiperf/*_aiperf.json, results/metrics-before.txt and results/metrics-after.txt)");
    // an idle worker makes max/min unbounded: left out, as is everything a scrape without SGLang gives;
    // max/mean says that one of two workers took every request
    RunResults idle = ResultsParser.parse(Map.of(ResultFile.METRICS_BEFORE, scrape(0, 0, 0, 0, 0, 0).getBytes(StandardCharsets.UTF_8),
        ResultFile.METRICS_AFTER, scrape(1000, 250, 10, 0, 0, 0).getBytes(StandardCharsets.UTF_8)));
    assertThat(idle.byKey()).containsExactly(Map.entry("engine_cache_hit_rate", "0.2500"), Map.entry("worker_requests_max_over_mean", "2.000"));
  }
}
