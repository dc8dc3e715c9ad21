package dev.srt.operator.emulator;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.sun.net.httpserver.HttpExchange;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.ThreadLocalRandom;
import java.util.function.Consumer;

/**
 * The Dynamo frontend's disaggregated path: a prefill worker is chosen first (with the prefill
 * stage's policy, over the prefill workers' predicted caches) and runs the prompt with
 * {@code max_tokens} 1, a fresh bootstrap room and the bootstrap server its sidecar published
 * (host and port; without one, the host of the worker's URL and the engine's own port); then a
 * decode worker is chosen (decode stage policy) and gets the original request with the prefill
 * engine's bootstrap host, port and room, fetches the KV from it and streams the answer back.
 */
final class PrefillDecodeRouting {
  private static final String CHAT = "/v1/chat/completions";

  private final Dispatcher prefill;
  private final Dispatcher decode;
  private final HttpClient client = Http.client();

  PrefillDecodeRouting(RoutingPolicy prefillPolicy, RoutingPolicy decodePolicy) {
    this.prefill = new Dispatcher(prefillPolicy);
    this.decode = new Dispatcher(decodePolicy);
  }

  /**
   * Serves one request; returns the status the client got. {@code onPrefillRouted} sees the
   * prefill decision (the one the KV metrics describe).
   */
  int serve(HttpExchange ex, ObjectNode req, List<RoutedWorker> prefillWorkers, List<RoutedWorker> decodeWorkers,
      ChatProxy proxy, Consumer<Dispatcher.Routed> onPrefillRouted) throws IOException {
    long room = ThreadLocalRandom.current().nextLong(Long.MAX_VALUE);
    JsonNode params;
    try (Dispatcher.Routed p = prefill.route(prefillWorkers, req.get("messages"))) {
      onPrefillRouted.accept(p);
      ObjectNode first = req.deepCopy();
      first.remove(List.of("max_completion_tokens", "stream_options"));
      first.put("max_tokens", 1).put("stream", false);
      BootstrapServer bootstrap = p.worker().bootstrap();
      if (bootstrap == null) {
        first.put("bootstrap_host", URI.create(p.worker().url()).getHost());
      } else {
        first.put("bootstrap_host", bootstrap.host()).put("bootstrap_port", bootstrap.port());
      }
      first.put("bootstrap_room", room);
      HttpResponse<String> r = post(p.worker().url(), first);
      if (r == null) {
        Http.sendJson(ex, 502, Http.error("prefill worker " + p.worker().url() + " unreachable", "BadGateway", 502));
        return 502;
      }
      if (r.statusCode() != 200) {
        Http.send(ex, r.statusCode(), "application/json", r.body());
        return r.statusCode();
      }
      params = Json.parse(r.body()).path("disaggregated_params");
    }
    ObjectNode second = req.deepCopy();
    second.put("bootstrap_host", params.path("bootstrap_host").asText("127.0.0.1"))
        .put("bootstrap_port", params.path("bootstrap_port").asInt())
        .put("bootstrap_room", params.path("bootstrap_room").asLong(room));
    try (Dispatcher.Routed d = decode.route(decodeWorkers, req.get("messages"))) {
      return proxy.forward(ex, d.worker().url(), CHAT, Json.write(second).getBytes(StandardCharsets.UTF_8));
    }
  }

  private HttpResponse<String> post(String url, ObjectNode body) throws IOException {
    HttpRequest req = Http.postJson(url + CHAT, Json.write(body), Duration.ofMinutes(10));
    try {
      return Http.request(client, req, HttpResponse.BodyHandlers.ofString());
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IOException("interrupted", e);
    } catch (IOException e) {
      return null;
    }
  }
}
