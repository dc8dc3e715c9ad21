package dev.srt.operator.emulator;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.sun.net.httpserver.HttpExchange;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;

/**
 * The engine's two text-in endpoints besides chat: SGLang's native {@code POST /generate} and the
 * OpenAI {@code POST /v1/completions}. The SGLang Model Gateway (sglang-router 0.3.2) relays both
 * to the worker's path of the same name, with its own body fields added (seen by running it over
 * the emulated engines: {@code "stream":false,"return_text_in_logprobs":false,...} for
 * {@code /generate}, {@code "echo":false,"ignore_eos":false,...} for {@code /v1/completions}).
 *
 * <p>Shapes, from sgl-project/sglang {@code python/sglang/srt/entrypoints/http_server.py} and
 * {@code entrypoints/openai/serving_completions.py}: {@code /generate} answers
 * {@code {"text","meta_info":{"id","finish_reason":{"type":"length","length":N}|{"type":"stop",...},
 * "prompt_tokens","completion_tokens","cached_tokens","e2e_latency",...}}}, and streams the same
 * object with the text so far (cumulative, SGLang's default without
 * {@code --incremental-streaming-output}) as SSE {@code data:} events ending in {@code data: [DONE]};
 * {@code /v1/completions} answers {@code object: "text_completion"} with {@code choices[].text} and
 * {@code usage} (with {@code prompt_tokens_details.cached_tokens}), and streams chunks of the same
 * object whose text is the delta, a usage chunk with {@code stream_options.include_usage}, then
 * {@code [DONE]}. Prompts are tokenized as plain text (no chat template), so a completion prompt
 * shares cache blocks with another only where its words do.
 */
final class TextCompletions {
  /** SGLang's {@code SamplingParams.max_new_tokens} default. */
  static final int GENERATE_DEFAULT_MAX_TOKENS = 128;
  /** SGLang's {@code CompletionRequest.max_tokens} default, as OpenAI's. */
  static final int COMPLETIONS_DEFAULT_MAX_TOKENS = 16;

  /** What the endpoints need of the engine that serves them. */
  interface Engine {
    boolean ready();

    String servedModelName();

    /** How many tokens share one streamed chunk of a reply of {@code n} tokens. */
    int tokensPerChunk(int n);

    /**
     * Runs one request through the engine as chat requests run: a running slot, the prefill lane
     * and prefix cache (returning the cached tokens to {@code reply}), the decode clock, and the
     * engine's counters.
     */
    void serve(List<String> prompt, DeterministicReply reply, Reply write) throws IOException;
  }

  /** Writes a reply once its prompt is prefilled; {@code decode} spends the decode time of n tokens. */
  interface Reply {
    void write(int cachedTokens, DecodeClock decode) throws IOException;
  }

  interface DecodeClock {
    void tokens(int n);
  }

  private final Engine engine;

  TextCompletions(Engine engine) {
    this.engine = engine;
  }

  void generate(HttpExchange ex) throws IOException {
    if (!admit(ex)) {
      return;
    }
    JsonNode req = Json.parse(Http.readBody(ex));
    String text = singlePrompt(req.get("text"), "text");
    JsonNode sampling = req.path("sampling_params");
    Request r = request(text, sampling.path("max_new_tokens").asInt(GENERATE_DEFAULT_MAX_TOKENS),
        sampling.path("ignore_eos").asBoolean(false));
    boolean stream = req.path("stream").asBoolean(false);
    long started = System.nanoTime();
    String id = UUID.randomUUID().toString().replace("-", "");
    engine.serve(r.prompt, r.reply, (cached, decode) -> {
      if (!stream) {
        decode.tokens(Math.max(0, r.reply.words().size() - 1));
        Http.sendJson(ex, 200, nativeOutput(id, r, r.reply.words().size(), cached, started));
        return;
      }
      openStream(ex);
      try (OutputStream out = ex.getResponseBody()) {
        streamChunks(r.reply, decode, to -> event(out, Json.write(nativeOutput(id, r, to, cached, started))));
        event(out, "[DONE]");
      }
    });
  }

  void completions(HttpExchange ex) throws IOException {
    if (!admit(ex)) {
      return;
    }
    JsonNode req = Json.parse(Http.readBody(ex));
    String text = singlePrompt(req.get("prompt"), "prompt");
    Request r = request(text, req.path("max_tokens").asInt(COMPLETIONS_DEFAULT_MAX_TOKENS), req.path("ignore_eos").asBoolean(false));
    boolean stream = req.path("stream").asBoolean(false);
    boolean includeUsage = req.path("stream_options").path("include_usage").asBoolean(false);
    Envelope env = new Envelope("cmpl-" + UUID.randomUUID().toString().replace("-", ""),
        System.currentTimeMillis() / 1000, req.path("model").asText(engine.servedModelName()));
    engine.serve(r.prompt, r.reply, (cached, decode) -> {
      ObjectNode usage = usage(r.prompt.size(), r.reply.words().size(), cached);
      if (!stream) {
        decode.tokens(Math.max(0, r.reply.words().size() - 1));
        ObjectNode body = env.object();
        body.putArray("choices").add(choice(r.reply.text(), r.reply.finishReason()));
        body.set("usage", usage);
        Http.sendJson(ex, 200, body);
        return;
      }
      openStream(ex);
      try (OutputStream out = ex.getResponseBody()) {
        int[] sent = {0};
        streamChunks(r.reply, decode, to -> {
          ObjectNode chunk = env.object();
          String delta = (sent[0] == 0 ? "" : " ") + String.join(" ", r.reply.words().subList(sent[0], to));
          sent[0] = to;
          chunk.putArray("choices").add(choice(delta, to == r.reply.words().size() ? r.reply.finishReason() : null));
          chunk.putNull("usage");
          event(out, Json.write(chunk));
        });
        if (includeUsage) {
          ObjectNode last = env.object();
          last.putArray("choices");
          last.set("usage", usage);
          event(out, Json.write(last));
        }
        event(out, "[DONE]");
      }
    });
  }

  private boolean admit(HttpExchange ex) throws IOException {
    if (!Http.require(ex, "POST")) {
      return false;
    }
    if (!engine.ready()) {
      Http.sendJson(ex, 503, Http.error("The server is starting up", "ServiceUnavailable", 503));
      return false;
    }
    return true;
  }

  /** One prompt: a string, or a one-element list of one (batches are not emulated). */
  static String singlePrompt(JsonNode field, String name) {
    if (field != null && field.isTextual() && !field.asText().isBlank()) {
      return field.asText();
    }
    if (field != null && field.isArray() && field.size() == 1 && field.get(0).isTextual()) {
      return field.get(0).asText();
    }
    throw new IllegalArgumentException(name + " must be one non-empty string (batches and token ids are not emulated)");
  }

  private record Request(List<String> prompt, DeterministicReply reply) {}

  private static Request request(String text, int maxTokens, boolean ignoreEos) {
    List<String> prompt = new ArrayList<>();
    ChatPrompt.words(text, prompt);
    return new Request(prompt, DeterministicReply.answer(text, prompt, maxTokens, ignoreEos));
  }

  private interface ChunkSink {
    void sendUpTo(int tokens) throws IOException;
  }

  /**
   * Decodes the reply chunk by chunk, as the chat stream does: the first token comes with the
   * prefill, every further token costs decode time; {@code sink} gets the token count so far.
   */
  private void streamChunks(DeterministicReply reply, DecodeClock decode, ChunkSink sink) throws IOException {
    int n = reply.words().size();
    if (n == 0) {
      sink.sendUpTo(0);
      return;
    }
    int perChunk = engine.tokensPerChunk(n);
    for (int from = 0; from < n; from += perChunk) {
      int to = Math.min(n, from + perChunk);
      decode.tokens(from == 0 ? to - from - 1 : to - from);
      sink.sendUpTo(to);
    }
  }

  /** SGLang's /generate output after {@code tokens} tokens; the finish reason only once done. */
  private static ObjectNode nativeOutput(String id, Request r, int tokens, int cached, long startedNanos) {
    ObjectNode out = Json.object();
    out.put("text", String.join(" ", r.reply.words().subList(0, tokens)));
    ObjectNode meta = out.putObject("meta_info");
    meta.put("id", id);
    boolean done = tokens == r.reply.words().size();
    if (!done) {
      meta.putNull("finish_reason");
    } else if ("length".equals(r.reply.finishReason())) {
      meta.putObject("finish_reason").put("type", "length").put("length", tokens);
    } else {
      // SGLang names the EOS token id it matched; the emulated vocabulary has no ids
      meta.putObject("finish_reason").put("type", "stop").putNull("matched");
    }
    meta.put("prompt_tokens", r.prompt.size());
    meta.put("weight_version", "default");
    meta.put("completion_tokens", tokens);
    meta.put("cached_tokens", cached);
    meta.put("e2e_latency", (System.nanoTime() - startedNanos) / 1e9);
    return out;
  }

  private static ObjectNode choice(String text, String finishReason) {
    ObjectNode c = Json.object().put("index", 0).put("text", text);
    c.putNull("logprobs");
    if (finishReason == null) {
      c.putNull("finish_reason");
    } else {
      c.put("finish_reason", finishReason);
    }
    c.putNull("matched_stop");
    return c;
  }

  private static ObjectNode usage(int promptTokens, int completionTokens, int cached) {
    ObjectNode u = Json.object().put("prompt_tokens", promptTokens).put("total_tokens", promptTokens + completionTokens)
        .put("completion_tokens", completionTokens);
    u.putObject("prompt_tokens_details").put("cached_tokens", cached);
    return u;
  }

  private record Envelope(String id, long created, String model) {
    ObjectNode object() {
      return Json.object().put("id", id).put("object", "text_completion").put("created", created).put("model", model);
    }
  }

  private static void openStream(HttpExchange ex) throws IOException {
    ex.getResponseHeaders().set("Content-Type", "text/event-stream");
    ex.getResponseHeaders().set("Cache-Control", "no-cache");
    ex.sendResponseHeaders(200, 0);
  }

  private static void event(OutputStream out, String data) throws IOException {
    out.write(("data: " + data + "\n\n").getBytes(StandardCharsets.UTF_8));
    out.flush();
  }
}
