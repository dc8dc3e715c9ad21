package dev.srt.operator.emulator;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.Map;

/**
 * Why a benchmark request failed, in the terms both tools report: the HTTP status (0 when the
 * request got none), a type (the status's reason phrase, or the exception's class) and a message.
 * AIPerf exports all three ({@code error_details}); bench_serving keeps one string per request.
 */
public record RequestFailure(int code, String type, String message) {
  private static final Map<Integer, String> REASONS = Map.of(400, "Bad Request", 404, "Not Found", 405, "Method Not Allowed",
      429, "Too Many Requests", 500, "Internal Server Error", 502, "Bad Gateway", 503, "Service Unavailable",
      504, "Gateway Timeout");

  /** A non-200 answer; the body is the message, as AIPerf records it. */
  public static RequestFailure http(int status, String body) {
    return new RequestFailure(status, REASONS.getOrDefault(status, "HTTP " + status), body);
  }

  /** The request never got an answer (connection refused or reset, timeout). */
  public static RequestFailure exception(Throwable e) {
    return new RequestFailure(0, e.getClass().getSimpleName(), e.getMessage() == null ? e.toString() : e.getMessage());
  }

  /** An error object inside a 200 event stream. */
  public static RequestFailure inStream(JsonNode error) {
    return new RequestFailure(error.path("code").asInt(0), error.path("type").asText("StreamError"), error.toString());
  }

  /** Anything else that makes a response unusable. */
  public static RequestFailure of(String message) {
    return new RequestFailure(0, "InvalidResponse", message);
  }

  /**
   * bench_serving's entry in {@code errors}: aiohttp's reason phrase for an HTTP error
   * ({@code response.reason}), the exception's text otherwise.
   */
  public String benchServingText() {
    return code > 0 ? type : type + ": " + message;
  }

  @Override
  public String toString() {
    return (code > 0 ? "HTTP " + code + " " : "") + type + ": " + message;
  }
}
