package dev.srt.operator.emulator;

import static dev.srt.operator.emulator.HttpTestClient.chat;
import static dev.srt.operator.emulator.HttpTestClient.get;
import static dev.srt.operator.emulator.HttpTestClient.post;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import dev.srt.operator.testinfra.RealProgramsEnv;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.net.ServerSocket;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The emulated engine's KV events as SGLang 0.5.21 publishes them, read by the real programs'
 * pyzmq and msgpack and checked against block hashes Python computes from the prompt's token ids.
 */
class SglangKvEventsIT {
  private static final String MODEL = "emulated/kv-model";
  private static final String TOPIC = "kv";
  private static final int PAGE = 16;

  @TempDir Path tmp;
  private SglangWorker worker;
  private KvEventSubscriber events;

  @BeforeEach
  void start() throws Exception {
    RealProgramsEnv.require();
    int kvPort;
    try (ServerSocket free = new ServerSocket(0)) {
      kvPort = free.getLocalPort();
    }
    // four pages of cache: the third two-page prompt evicts the first
    List<String> args = List.of("--model-path", "/models/kv-model", "--served-model-name", MODEL, "--port", "0",
        "--page-size", String.valueOf(PAGE), "--max-total-tokens", String.valueOf(4 * PAGE),
        "--kv-events-config", "{\"publisher\":\"zmq\",\"topic\":\"" + TOPIC + "\",\"endpoint\":\"tcp://*:" + kvPort + "\"}");
    worker = new SglangWorker(SglangWorker.Options.parse(args, Map.of("SRT_EMULATOR_STARTUP_DELAY_MS", "0"),
        new PrintStream(new ByteArrayOutputStream())));
    worker.start();
    await().atMost(Duration.ofSeconds(10)).until(() -> get(url() + "/health").status() == 200);
    events = new KvEventSubscriber("tcp://127.0.0.1:" + kvPort, TOPIC, tmp);
    // a PUB socket drops what it sends before the subscription arrives: flush until a clear comes
    // through, one flush at a time, so that no earlier flush's clear is still on its way after this
    await().atMost(Duration.ofSeconds(30)).pollInterval(Duration.ZERO)
        .until(() -> post(url() + "/flush_cache", "").status() == 200 && events.sawCleared());
  }

  @AfterEach
  void stop() {
    if (events != null) {
      events.close();
    }
    if (worker != null) {
      worker.close();
    }
  }

  private String url() {
    return "http://127.0.0.1:" + worker.port();
  }

  @Test
  void storedPagesCarrySglangsHashChainOverThePromptsTokenIdsLinkedToTheirParent() throws Exception {
    String first = words(0, 40);
    int[] ids = send(first);
    JsonNode m = events.next();
    assertThat(m.path("topic").asText()).isEqualTo(TOPIC);
    long seq = m.path("seq").asLong();
    JsonNode batch = m.path("batch");
    assertThat(batch.size()).isEqualTo(3);
    assertThat(batch.get(0).isDouble()).isTrue();
    assertThat(batch.get(2).asInt()).isZero();
    assertThat(batch.get(1).size()).isEqualTo(1);
    JsonNode stored = batch.get(1).get(0);
    List<Long> expected = KvEventSubscriber.pythonChain(ids, PAGE, tmp);
    assertThat(expected).hasSize(2); // 42 prompt tokens: two whole pages, the partial third is not cached
    assertThat(stored.path("type").asText()).isEqualTo("BlockStored");
    assertThat(longs(stored.path("block_hashes"))).isEqualTo(expected);
    assertThat(stored.path("parent_block_hash").isNull()).isTrue();
    assertThat(ints(stored.path("token_ids"))).containsExactly(Arrays.copyOf(ids, 2 * PAGE));
    assertThat(stored.path("block_size").asInt()).isEqualTo(PAGE);
    assertThat(stored.path("lora_id").isNull()).isTrue();
    assertThat(stored.path("medium").asText()).isEqualTo("GPU");

    // the same first page, then another text: only the new page is stored, linked to the shared one
    String second = first.substring(0, first.indexOf(" " + WHOLE_WORDS.get(15) + " ") + 1) + words(100, 30);
    int[] ids2 = send(second);
    List<Long> expected2 = KvEventSubscriber.pythonChain(ids2, PAGE, tmp);
    assertThat(expected2.get(0)).isEqualTo(expected.get(0));
    JsonNode m2 = events.next();
    assertThat(m2.path("seq").asLong()).isEqualTo(seq + 1);
    JsonNode stored2 = m2.path("batch").get(1).get(0);
    assertThat(longs(stored2.path("block_hashes"))).isEqualTo(expected2.subList(1, expected2.size()));
    assertThat(stored2.path("parent_block_hash").asLong()).isEqualTo(expected.get(0));
    assertThat(ints(stored2.path("token_ids"))).containsExactly(Arrays.copyOfRange(ids2, PAGE, expected2.size() * PAGE));
  }

  @Test
  void evictedPagesAreRemovedAndAFlushClearsAll() throws Exception {
    List<Long> a = KvEventSubscriber.pythonChain(send(words(0, 40)), PAGE, tmp);
    events.next();
    send(words(40, 40));
    events.next();
    send(words(80, 40));
    JsonNode batch = events.next().path("batch").path(1);
    assertThat(batch.get(0).path("type").asText()).isEqualTo("BlockStored");
    assertThat(batch.get(1).path("type").asText()).isEqualTo("BlockRemoved");
    assertThat(longs(batch.get(1).path("block_hashes"))).isEqualTo(a);
    assertThat(batch.get(1).path("medium").asText()).isEqualTo("GPU");

    assertThat(post(url() + "/flush_cache", "").status()).isEqualTo(200);
    JsonNode cleared = events.next().path("batch").path(1);
    assertThat(cleared.size()).isEqualTo(1);
    assertThat(cleared.get(0).toString()).isEqualTo("{\"type\":\"AllBlocksCleared\"}");
  }

  /** Sends the text as the one user message; returns the prompt's token ids as the engine sees them. */
  private int[] send(String text) {
    assertThat(post(url() + "/v1/chat/completions", chat(MODEL, text, 2, false)).status()).isEqualTo(200);
    JsonNode messages = Json.parse(chat(MODEL, text, 2, false)).path("messages");
    return PromptTokenIds.of(ChatPrompt.tokens(messages));
  }

  /**
   * {@code n} words of the emulated vocabulary, one token each, from the {@code from}-th on: each
   * prompt's own words, so that prompts share pages only where the test makes them.
   */
  private static String words(int from, int n) {
    assertThat(WHOLE_WORDS.size()).isGreaterThanOrEqualTo(from + n);
    return String.join(" ", WHOLE_WORDS.subList(from, from + n));
  }

  private static final List<String> WHOLE_WORDS =
      EmulatedVocabulary.tokens().stream().filter(t -> t.matches("[a-z]{2,}")).distinct().toList();

  private static List<Long> longs(JsonNode array) {
    List<Long> out = new ArrayList<>();
    array.forEach(n -> out.add(n.asLong()));
    return out;
  }

  private static int[] ints(JsonNode array) {
    int[] out = new int[array.size()];
    for (int i = 0; i < out.length; i++) {
      out[i] = array.get(i).asInt();
    }
    return out;
  }
}
