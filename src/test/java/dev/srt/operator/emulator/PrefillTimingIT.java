package dev.srt.operator.emulator;

import static dev.srt.operator.emulator.EmulatedFleet.MODEL;
import static dev.srt.operator.emulator.EmulatedFleet.url;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.BufferedReader;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** The engine's time to first token follows the prompt tokens its prefix cache did not serve. */
class PrefillTimingIT {
  private static final Map<String, String> NO_NOISE = Map.of("SRT_EMULATOR_STARTUP_DELAY_MS", "0", "SRT_EMULATOR_NOISE", "0");
  private static final HttpClient CLIENT = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();
  private final EmulatedFleet fleet = new EmulatedFleet();

  @AfterEach
  void stop() {
    fleet.close();
  }

  /** TTFT in ms and the cached tokens the usage block reports. */
  record Timed(double ttftMs, int cachedTokens) {}

  private static Timed stream(SglangWorker w, String prompt) throws Exception {
    HttpRequest req = HttpRequest.newBuilder(URI.create(url(w) + "/v1/chat/completions"))
        .POST(HttpRequest.BodyPublishers.ofString(HttpTestClient.chat(MODEL, prompt, 4, true))).build();
    long start = System.nanoTime();
    HttpResponse<InputStream> resp = CLIENT.send(req, HttpResponse.BodyHandlers.ofInputStream());
    double ttft = -1;
    int cached = -1;
    try (BufferedReader in = new BufferedReader(new InputStreamReader(resp.body(), StandardCharsets.UTF_8))) {
      for (String line; (line = in.readLine()) != null; ) {
        if (!line.startsWith("data: {")) {
          continue;
        }
        JsonNode chunk = Json.parse(line.substring(6));
        if (ttft < 0 && !chunk.path("choices").path(0).path("delta").path("content").asText("").isEmpty()) {
          ttft = (System.nanoTime() - start) / 1e6;
        }
        if (chunk.path("usage").isObject()) {
          cached = chunk.path("usage").path("prompt_tokens_details").path("cached_tokens").asInt();
        }
      }
    }
    return new Timed(ttft, cached);
  }

  /** {@code n} tokens: a word of the emulated vocabulary, repeated (a word outside it would be several tokens). */
  private static String words(String word, int n) {
    assertThat(EmulatedTokenizer.count(word)).isEqualTo(1);
    return (word + " ").repeat(n);
  }

  @Test
  void ttftGrowsWithTheUncachedTokens() throws Exception {
    SglangWorker w = fleet.worker(NO_NOISE);
    await().atMost(Duration.ofSeconds(5)).until(w::isReady);
    String system = words("alpha", 2000);
    Timed cold = stream(w, system + "first question");
    Timed warm = stream(w, system + "second question");
    Timed halfCold = stream(w, words("alpha", 1000) + words("bravo", 1000));

    // 2000+ uncached tokens take at least their 0.15 ms each; a warm prompt pays for its ~20 new ones
    assertThat(cold.cachedTokens()).isZero();
    assertThat(cold.ttftMs()).isGreaterThanOrEqualTo(2000 * 0.15);
    assertThat(warm.cachedTokens()).isGreaterThanOrEqualTo(1984);
    assertThat(warm.ttftMs()).isLessThan(cold.ttftMs() / 3);
    assertThat(halfCold.cachedTokens()).isBetween(976, 1000);
    assertThat(halfCold.ttftMs()).isGreaterThanOrEqualTo(1000 * 0.15).isLessThan(cold.ttftMs());
  }

  @Test
  void aRequestQueuedBehindItsPrefixFindsItCachedAndWaitsItsTurn() throws Exception {
    SglangWorker w = fleet.worker(NO_NOISE);
    await().atMost(Duration.ofSeconds(5)).until(w::isReady);
    String system = words("shared", 3000);
    CompletableFuture<Timed> first = CompletableFuture.supplyAsync(() -> call(w, system + "one"));
    await().atMost(Duration.ofSeconds(5)).until(() -> HttpTestClient.metric(HttpTestClient.get(url(w) + "/metrics").body(),
        "sglang:num_running_reqs{model_name=\"" + MODEL + "\"}") >= 1);
    Timed second = stream(w, system + "two");
    // scheduled after the first one's prefill, it matched the prefix then, and its TTFT includes the queueing
    assertThat(second.cachedTokens()).isGreaterThanOrEqualTo(2992);
    assertThat(first.get().cachedTokens()).isZero();
    assertThat(second.ttftMs()).isGreaterThan(100);
  }

  private static Timed call(SglangWorker w, String prompt) {
    try {
      return stream(w, prompt);
    } catch (Exception e) {
      throw new IllegalStateException(e);
    }
  }
}
