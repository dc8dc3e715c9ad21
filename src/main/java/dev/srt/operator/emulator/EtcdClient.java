package dev.srt.operator.emulator;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;

/**
 * The few etcd v3 calls Dynamo's discovery makes, over etcd's JSON gateway (keys and values
 * base64, int64 fields as strings). Each call tries the endpoints in order, as the etcd client
 * fails over between them.
 */
public final class EtcdClient {
  /** A key and its value, as UTF-8 text. */
  public record Entry(String key, String value, long lease) {}

  private final List<String> endpoints;
  private final HttpClient http = Http.client();

  public EtcdClient(List<String> endpoints) {
    List<String> clean = new ArrayList<>();
    for (String e : endpoints) {
      if (!e.isBlank()) {
        clean.add(e.trim().replaceAll("/+$", ""));
      }
    }
    if (clean.isEmpty()) {
      throw new IllegalArgumentException("ETCD_ENDPOINTS names no endpoint");
    }
    this.endpoints = List.copyOf(clean);
  }

  public List<String> endpoints() {
    return endpoints;
  }

  /** Grants a lease and returns its id. */
  public long grant(long ttlSeconds) throws IOException {
    return call("/v3/lease/grant", Json.object().put("TTL", ttlSeconds).put("ID", 0)).path("ID").asLong();
  }

  /** Renews the lease; returns its TTL, 0 or less when etcd no longer knows it. */
  public long keepAlive(long lease) throws IOException {
    return call("/v3/lease/keepalive", Json.object().put("ID", lease)).path("result").path("TTL").asLong(0);
  }

  public void revoke(long lease) throws IOException {
    call("/v3/lease/revoke", Json.object().put("ID", lease));
  }

  public void put(String key, String value, long lease) throws IOException {
    call("/v3/kv/put", Json.object().put("key", b64(key)).put("value", b64(value)).put("lease", lease));
  }

  public void delete(String key) throws IOException {
    call("/v3/kv/deleterange", Json.object().put("key", b64(key)));
  }

  /** Every key starting with {@code prefix}, in key order. */
  public List<Entry> prefix(String prefix) throws IOException {
    JsonNode r = call("/v3/kv/range", Json.object().put("key", b64(prefix)).put("range_end", rangeEnd(prefix)));
    List<Entry> out = new ArrayList<>();
    for (JsonNode kv : r.path("kvs")) {
      out.add(new Entry(text(kv.path("key").asText()), text(kv.path("value").asText("")), kv.path("lease").asLong(0)));
    }
    return out;
  }

  /** etcd's prefix end: the prefix with its last byte below 0xff incremented. */
  static String rangeEnd(String prefix) {
    byte[] end = prefix.getBytes(StandardCharsets.UTF_8);
    for (int i = end.length - 1; i >= 0; i--) {
      if ((end[i] & 0xff) < 0xff) {
        end[i]++;
        return Base64.getEncoder().encodeToString(java.util.Arrays.copyOf(end, i + 1));
      }
    }
    return Base64.getEncoder().encodeToString(new byte[] {0});
  }

  private static String b64(String s) {
    return Base64.getEncoder().encodeToString(s.getBytes(StandardCharsets.UTF_8));
  }

  private static String text(String b64) {
    return new String(Base64.getDecoder().decode(b64), StandardCharsets.UTF_8);
  }

  private JsonNode call(String path, ObjectNode body) throws IOException {
    IOException last = null;
    for (String endpoint : endpoints) {
      HttpRequest req = Http.postJson(endpoint + path, Json.write(body), Duration.ofSeconds(5));
      try {
        HttpResponse<String> r = send(req);
        JsonNode answer = Json.parse(r.body());
        if (r.statusCode() != 200) {
          throw new EtcdError(endpoint + path + ": " + answer.path("message").asText(r.body()));
        }
        return answer;
      } catch (EtcdError e) {
        throw e;
      } catch (IOException | IllegalArgumentException e) {
        last = new IOException("etcd at " + endpoint + " unreachable: " + e.getMessage(), e);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new IOException("interrupted", e);
      }
    }
    throw last;
  }

  /**
   * Sends once more, quietly, when the connection broke before an answer: the JDK client now and
   * then reuses a keep-alive connection the server is closing (see {@link Http#request}); the
   * frontend polls etcd five times a second, so {@link Http#request}'s message would flood its log.
   */
  private HttpResponse<String> send(HttpRequest req) throws IOException, InterruptedException {
    try {
      return http.send(req, HttpResponse.BodyHandlers.ofString());
    } catch (java.net.ConnectException | java.net.http.HttpTimeoutException e) {
      throw e;
    } catch (IOException e) {
      return http.send(req, HttpResponse.BodyHandlers.ofString());
    }
  }

  /** etcd answered, and refused. */
  public static final class EtcdError extends IOException {
    EtcdError(String message) {
      super(message);
    }
  }
}
