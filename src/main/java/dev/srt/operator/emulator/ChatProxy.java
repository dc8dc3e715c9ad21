package dev.srt.operator.emulator;

import com.sun.net.httpserver.HttpExchange;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;

/** Relays one OpenAI request to a worker and its answer back, streaming chunk by chunk. */
public final class ChatProxy {
  private final HttpClient client;

  public ChatProxy(HttpClient client) {
    this.client = client;
  }

  /** Returns the worker's status code, or 502 when it could not be reached. */
  public int forward(HttpExchange ex, String workerUrl, String path, byte[] body) throws IOException {
    HttpRequest req = HttpRequest.newBuilder(URI.create(workerUrl + path))
        .timeout(Duration.ofMinutes(10))
        .header("Content-Type", "application/json")
        .POST(HttpRequest.BodyPublishers.ofByteArray(body))
        .build();
    HttpResponse<InputStream> resp;
    try {
      resp = Http.request(client, req, HttpResponse.BodyHandlers.ofInputStream());
    } catch (IOException e) {
      Http.sendJson(ex, 502, Http.error("worker " + workerUrl + " unreachable: " + e.getMessage(), "BadGateway", 502));
      return 502;
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IOException("interrupted", e);
    }
    ex.getResponseHeaders().set("Content-Type", resp.headers().firstValue("Content-Type").orElse("application/json"));
    ex.sendResponseHeaders(resp.statusCode(), 0);
    try (InputStream in = resp.body(); OutputStream out = ex.getResponseBody()) {
      byte[] buf = new byte[16384];
      for (int n; (n = in.read(buf)) >= 0; ) {
        out.write(buf, 0, n);
        out.flush();
      }
    }
    return resp.statusCode();
  }
}
