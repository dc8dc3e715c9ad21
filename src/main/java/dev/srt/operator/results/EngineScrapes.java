package dev.srt.operator.results;

import dev.srt.operator.results.ResultJson.Malformed;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.util.EnumMap;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The engines' own numbers from the two scrapes around the benchmark: their prefix-cache hit rate
 * (Δ cached over Δ prompt tokens, device tier, all workers) and how evenly the requests spread over
 * the workers (the busiest worker's Δ requests over the idlest one's, and over the mean).
 */
final class EngineScrapes {
  static final int MAX_ENDPOINTS = 10_000;
  static final int MAX_URL_CHARS = 2048;
  private static final String PROMPT = "sglang:prompt_tokens_total";
  private static final String CACHED = "sglang:cached_tokens_total";
  private static final String REQUESTS = "sglang:num_requests_total";
  private static final Pattern COUNTER = Pattern.compile(
      "(sglang:(?:prompt_tokens|cached_tokens|num_requests)_total)(\\{[^}]*\\})?\\s+(\\S+).*");
  private static final String SCRAPE_HEADER = "# srt-scrape ";

  private EngineScrapes() {}

  /** What the engines did between the two scrapes. */
  static Map<ResultMetric, String> parse(byte[] before, byte[] after) throws Malformed {
    return numbers(engines(ResultFile.METRICS_BEFORE, before), engines(ResultFile.METRICS_AFTER, after));
  }

  /**
   * Per scraped endpoint, its SGLang counters (summed over label sets; cached tokens of the
   * device tier only). Endpoints without any (the router, a failed scrape) are left out.
   */
  private static Map<String, Map<String, Double>> engines(ResultFile file, byte[] scrape) throws Malformed {
    String text;
    try {
      text = StandardCharsets.UTF_8.newDecoder().onMalformedInput(CodingErrorAction.REPORT)
          .onUnmappableCharacter(CodingErrorAction.REPORT).decode(ByteBuffer.wrap(scrape)).toString();
    } catch (CharacterCodingException e) {
      throw new Malformed(file, "not UTF-8 text");
    }
    Map<String, Map<String, Double>> found = new LinkedHashMap<>();
    Map<String, Double> current = null;
    for (String line : text.split("\n", -1)) {
      if (line.startsWith(SCRAPE_HEADER)) {
        String[] words = line.strip().split("\\s+");
        if (words.length < 3 || words[2].length() > MAX_URL_CHARS) {
          throw new Malformed(file, "a scrape header without a URL (or with one over " + MAX_URL_CHARS + " characters)");
        }
        current = found.computeIfAbsent(words[2], k -> new HashMap<>());
        if (found.size() > MAX_ENDPOINTS) {
          throw new Malformed(file, "more than " + MAX_ENDPOINTS + " scraped endpoints");
        }
        continue;
      }
      Matcher m = COUNTER.matcher(line);
      if (current == null || !m.matches()) {
        continue;
      }
      String labels = m.group(2) == null ? "" : m.group(2);
      if (labels.contains("cache_source=") && !labels.contains("cache_source=\"device\"")) {
        continue;
      }
      double value;
      try {
        value = Double.parseDouble(m.group(3));
      } catch (NumberFormatException e) {
        throw new Malformed(file, m.group(1) + " has a value that is not a number");
      }
      if (!Double.isFinite(value) || value < 0 || value > ResultJson.MAX_DOUBLE) {
        throw new Malformed(file, m.group(1) + " has a value that is not a finite non-negative number");
      }
      current.merge(m.group(1), value, Double::sum);
    }
    found.values().removeIf(Map::isEmpty);
    return found;
  }

  /** After minus before, per endpoint. */
  private static Map<ResultMetric, String> numbers(Map<String, Map<String, Double>> before, Map<String, Map<String, Double>> after) {
    Map<ResultMetric, String> out = new EnumMap<>(ResultMetric.class);
    double prompt = 0;
    double cached = 0;
    double min = Double.POSITIVE_INFINITY;
    double max = 0;
    double all = 0;
    for (Map.Entry<String, Map<String, Double>> e : after.entrySet()) {
      Map<String, Double> b = before.getOrDefault(e.getKey(), Map.of());
      Map<String, Double> a = e.getValue();
      prompt += delta(a, b, PROMPT);
      cached += delta(a, b, CACHED);
      double requests = delta(a, b, REQUESTS);
      min = Math.min(min, requests);
      max = Math.max(max, requests);
      all += requests;
    }
    // More cached than prompt tokens is no hit rate (a counter reset, a scrape of another process).
    if (prompt > 0 && cached <= prompt) {
      ratio(out, ResultMetric.ENGINE_CACHE_HIT_RATE, cached / prompt, "%.4f");
    }
    if (after.size() > 1 && min > 0) {
      ratio(out, ResultMetric.WORKER_REQUESTS_MAX_OVER_MIN, max / min, "%.2f");
    }
    if (after.size() > 1 && min >= 0 && all > 0) {
      ratio(out, ResultMetric.WORKER_REQUESTS_MAX_OVER_MEAN, max / (all / after.size()), "%.3f");
    }
    return out;
  }

  private static double delta(Map<String, Double> after, Map<String, Double> before, String counter) {
    return after.containsKey(counter) ? after.get(counter) - before.getOrDefault(counter, 0.0) : 0.0;
  }

  /** A derived number that is not finite and non-negative (a counter went back) is left out. */
  private static void ratio(Map<ResultMetric, String> out, ResultMetric metric, double value, String format) {
    if (Double.isFinite(value) && value >= 0) {
      out.put(metric, String.format(Locale.ROOT, format, value));
    }
  }
}
