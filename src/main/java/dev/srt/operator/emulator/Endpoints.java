package dev.srt.operator.emulator;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpHandler;
import java.io.IOException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Exact-path dispatch for one server. The JDK server matches contexts by prefix, which would let
 * {@code /health} also answer {@code /healthz} or {@code /health_generate}; real servers do not.
 */
public final class Endpoints implements HttpHandler {
  private final Map<String, HttpHandler> exact = new HashMap<>();
  private final List<Map.Entry<String, HttpHandler>> prefixes = new ArrayList<>();

  public Endpoints on(String path, HttpHandler handler) {
    exact.put(path, Http.guarded(handler));
    return this;
  }

  /** For paths with a variable tail, such as {@code /v1/models/{model}/ready}. */
  public Endpoints onPrefix(String prefix, HttpHandler handler) {
    prefixes.add(Map.entry(prefix, Http.guarded(handler)));
    return this;
  }

  @Override
  public void handle(HttpExchange ex) throws IOException {
    String path = ex.getRequestURI().getRawPath();
    HttpHandler h = exact.get(path);
    if (h == null) {
      for (Map.Entry<String, HttpHandler> p : prefixes) {
        if (path.startsWith(p.getKey())) {
          h = p.getValue();
          break;
        }
      }
    }
    if (h == null) {
      try (ex) {
        Http.sendJson(ex, 404, Http.error("Not Found: " + path, "NotFound", 404));
      }
      return;
    }
    h.handle(ex);
  }
}
