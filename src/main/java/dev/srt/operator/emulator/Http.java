package dev.srt.operator.emulator;

import com.fasterxml.jackson.databind.JsonNode;
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpHandler;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.net.http.HttpTimeoutException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicInteger;

/** HTTP plumbing shared by the emulated servers and clients (JDK only). */
public final class Http {
  private Http() {}

  /**
   * A server on the loopback interface whatever host the real program was asked to bind (the
   * emulated host must never be reachable from the network), or on every address of a test
   * cluster's node ({@link ListenAddress}).
   */
  public static HttpServer server(int port, String name) throws IOException {
    HttpServer server = HttpServer.create(new InetSocketAddress(ListenAddress.current().bindAddress(), port), 256);
    server.setExecutor(daemonPool(name));
    return server;
  }

  /** Handler threads are daemons so that a fatal error in the main thread ends the process. */
  public static ExecutorService daemonPool(String name) {
    AtomicInteger n = new AtomicInteger();
    return Executors.newCachedThreadPool(r -> {
      Thread t = new Thread(r, name + "-" + n.incrementAndGet());
      t.setDaemon(true);
      return t;
    });
  }

  public static HttpClient client() {
    return HttpClient.newBuilder()
        .version(HttpClient.Version.HTTP_1_1)
        .connectTimeout(Duration.ofSeconds(2))
        .executor(daemonPool("http-client"))
        .build();
  }

  /**
   * {@code client.send}, repeated once when the connection closed before any byte of the answer
   * came back. The JDK client reuses idle keep-alive connections, and on a busy host one of them is
   * now and then closed by the JDK server just as a request goes out ("HTTP/1.1 header parser
   * received no bytes"); the client repeats only idempotent requests by itself, and a chat
   * completion is a POST. Timeouts are not repeated, and a server that is gone fails both times.
   */
  public static <T> HttpResponse<T> request(HttpClient client, HttpRequest request, HttpResponse.BodyHandler<T> handler)
      throws IOException, InterruptedException {
    try {
      return client.send(request, handler);
    } catch (HttpTimeoutException e) {
      throw e;
    } catch (IOException e) {
      System.err.println("(emulated) " + request.method() + " " + request.uri() + ": " + e.getMessage() + "; sending it again");
      return client.send(request, handler);
    }
  }

  /** A JSON POST with a deadline. */
  public static HttpRequest postJson(String url, String json, Duration timeout) {
    return HttpRequest.newBuilder(java.net.URI.create(url))
        .timeout(timeout)
        .header("Content-Type", "application/json")
        .POST(HttpRequest.BodyPublishers.ofString(json))
        .build();
  }

  /**
   * Wraps a handler so that an exception becomes a 400 (bad arguments) or 500 instead of a silently
   * dropped exchange. The exchange is closed only after the error is sent: a try-with-resources
   * would close it before its catch blocks run, and the client would see the connection drop.
   */
  public static HttpHandler guarded(HttpHandler handler) {
    return ex -> {
      try {
        handler.handle(ex);
      } catch (IllegalArgumentException e) {
        sendQuietly(ex, 400, error(e.getMessage(), "BadRequest", 400));
      } catch (IOException e) {
        // the client went away mid-response; nothing left to tell it
      } catch (RuntimeException e) {
        sendQuietly(ex, 500, error(String.valueOf(e), "InternalServerError", 500));
      } finally {
        ex.close();
      }
    };
  }

  /** An error answer, unless the response had already begun or the client is gone. */
  private static void sendQuietly(HttpExchange ex, int status, JsonNode body) {
    try {
      sendJson(ex, status, body);
    } catch (IOException | RuntimeException e) {
      // headers already sent, or nobody listening: the closed exchange says enough
    }
  }

  public static JsonNode error(String message, String type, int code) {
    var err = Json.object();
    err.putObject("error").put("message", message).put("type", type).put("code", code);
    return err;
  }

  public static byte[] readBody(HttpExchange ex) throws IOException {
    try (InputStream in = ex.getRequestBody()) {
      return in.readAllBytes();
    }
  }

  public static void sendJson(HttpExchange ex, int status, JsonNode body) throws IOException {
    send(ex, status, "application/json", Json.write(body));
  }

  public static void sendText(HttpExchange ex, int status, String body) throws IOException {
    send(ex, status, "text/plain; charset=utf-8", body);
  }

  public static void send(HttpExchange ex, int status, String contentType, String body) throws IOException {
    byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
    ex.getResponseHeaders().set("Content-Type", contentType);
    ex.sendResponseHeaders(status, bytes.length == 0 ? -1 : bytes.length);
    if (bytes.length > 0) {
      try (OutputStream out = ex.getResponseBody()) {
        out.write(bytes);
      }
    }
  }

  /** A status code with an empty body (sgl-router's /readyz). */
  public static void sendStatus(HttpExchange ex, int status) throws IOException {
    ex.sendResponseHeaders(status, -1);
  }

  /** Answers 405 unless the request uses {@code method}; returns whether it does. */
  public static boolean require(HttpExchange ex, String method) throws IOException {
    if (ex.getRequestMethod().equalsIgnoreCase(method)) {
      return true;
    }
    sendJson(ex, 405, error("method not allowed", "MethodNotAllowed", 405));
    return false;
  }

  public static String baseUrl(HttpServer server) {
    return "http://" + ListenAddress.current().host() + ":" + server.getAddress().getPort();
  }
}
