package dev.srt.operator.emulator;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;

/** Blocking HTTP calls for the integration tests; connection errors read as status -1. */
final class HttpTestClient {
  private static final HttpClient CLIENT = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1)
      .connectTimeout(Duration.ofSeconds(2)).build();

  private HttpTestClient() {}

  record Reply(int status, String body) {
    JsonNode json() {
      return Json.parse(body);
    }
  }

  static Reply get(String url) {
    return send(HttpRequest.newBuilder(URI.create(url)).timeout(Duration.ofSeconds(10)).GET().build());
  }

  static Reply post(String url, String body) {
    return send(HttpRequest.newBuilder(URI.create(url)).timeout(Duration.ofSeconds(30))
        .header("Content-Type", "application/json").POST(HttpRequest.BodyPublishers.ofString(body)).build());
  }

  static String chat(String model, String text, int maxTokens, boolean stream) {
    var body = Json.object().put("model", model).put("max_tokens", maxTokens).put("stream", stream);
    body.putArray("messages").addObject().put("role", "user").put("content", text);
    if (stream) {
      body.putObject("stream_options").put("include_usage", true);
    }
    return Json.write(body);
  }

  private static Reply send(HttpRequest req) {
    try {
      HttpResponse<String> r = CLIENT.send(req, HttpResponse.BodyHandlers.ofString());
      return new Reply(r.statusCode(), r.body());
    } catch (IOException e) {
      return new Reply(-1, e.toString());
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new UncheckedIOException(new IOException(e));
    }
  }

  /** Prometheus sample value for an exact series line prefix such as {@code name{labels}}. */
  static double metric(String text, String series) {
    return text.lines().filter(l -> l.startsWith(series + " ")).mapToDouble(l -> Double.parseDouble(l.substring(series.length() + 1)))
        .findFirst().orElse(Double.NaN);
  }
}
