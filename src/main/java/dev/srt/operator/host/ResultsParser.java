package dev.srt.operator.host;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.core.StreamReadConstraints;
import com.fasterxml.jackson.core.StreamReadFeature;
import com.fasterxml.jackson.core.exc.StreamConstraintsException;
import com.fasterxml.jackson.core.json.JsonReadFeature;
import java.io.IOException;
import java.math.BigDecimal;
import java.math.MathContext;
import java.math.RoundingMode;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.util.EnumMap;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Computes a run's headline numbers from the contents of its result files ({@link ResultFile}):
 * the client's numbers from bench_serving's last row (or AIPerf's export, under bench_serving's
 * names), and from the two scrapes around the benchmark the engines' prefix-cache hit rate and
 * the request spread across workers.
 *
 * <p>Only known keys are read, and each must be a finite non-negative number (a non-finite one,
 * as Python's json writes for "no value", is left out); counts are bounded. A file that breaks
 * any of this gives no results at all, with the reason; nothing here throws on content.
 */
final class ResultsParser {
  /** Larger values are no measurement of a benchmark run. */
  static final BigDecimal MAX_VALUE = new BigDecimal("1e15");
  static final int MAX_FIELDS = 1000;
  static final int MAX_ENDPOINTS = 10_000;
  static final int MAX_URL_CHARS = 2048;

  /** bench_serving's keys that are headline numbers: the metric's own name. */
  private static final List<ResultMetric> CLIENT_METRICS = List.of(ResultMetric.COMPLETED, ResultMetric.FAILED, ResultMetric.DURATION,
      ResultMetric.REQUEST_THROUGHPUT, ResultMetric.OUTPUT_THROUGHPUT, ResultMetric.TOTAL_THROUGHPUT,
      ResultMetric.MEAN_TTFT_MS, ResultMetric.MEDIAN_TTFT_MS, ResultMetric.P99_TTFT_MS, ResultMetric.MEAN_ITL_MS,
      ResultMetric.P99_ITL_MS, ResultMetric.MEAN_E2E_LATENCY_MS);

  /** AIPerf's export under bench_serving's names: metric → (tag, statistic). */
  private static final Map<ResultMetric, String[]> AIPERF = aiperf();

  private static final String PROMPT = "sglang:prompt_tokens_total";
  private static final String CACHED = "sglang:cached_tokens_total";
  private static final String REQUESTS = "sglang:num_requests_total";
  private static final Pattern COUNTER = Pattern.compile(
      "(sglang:(?:prompt_tokens|cached_tokens|num_requests)_total)(\\{[^}]*\\})?\\s+(\\S+).*");
  private static final String SCRAPE_HEADER = "# srt-scrape ";

  private static final JsonFactory JSON = JsonFactory.builder()
      .streamReadConstraints(StreamReadConstraints.builder().maxNestingDepth(64).maxNumberLength(64)
          .maxStringLength(ResultFile.BENCH_SERVING.maxBytes).build())
      .enable(JsonReadFeature.ALLOW_NON_NUMERIC_NUMBERS)
      .enable(StreamReadFeature.STRICT_DUPLICATE_DETECTION)
      .build();

  private ResultsParser() {}

  /** A result file that is not what its tool writes; the message names the file, never quotes it. */
  private static final class Malformed extends Exception {
    private static final long serialVersionUID = 1L;

    Malformed(ResultFile file, String message) {
      super(file.path + ": " + message, null, false, false);
    }
  }

  /**
   * The headline numbers of the fetched files (a file that is absent is not in the map; for
   * {@link ResultFile#BENCH_SERVING} the value is its last row).
   */
  static RunResults parse(Map<ResultFile, byte[]> files) {
    for (Map.Entry<ResultFile, byte[]> f : files.entrySet()) {
      if (f.getValue().length > f.getKey().maxBytes) {
        return RunResults.none(f.getKey().path + (f.getKey() == ResultFile.BENCH_SERVING ? ": its last row" : "")
            + " is larger than " + f.getKey().maxBytes / 1024 + " KiB");
      }
    }
    try {
      Map<ResultMetric, String> metrics = new EnumMap<>(ResultMetric.class);
      if (files.containsKey(ResultFile.BENCH_SERVING)) {
        metrics.putAll(benchServingRow(files.get(ResultFile.BENCH_SERVING)));
      } else if (files.containsKey(ResultFile.AIPERF)) {
        metrics.putAll(aiperfExport(files.get(ResultFile.AIPERF)));
      }
      if (files.containsKey(ResultFile.METRICS_BEFORE) && files.containsKey(ResultFile.METRICS_AFTER)) {
        metrics.putAll(engineNumbers(engines(ResultFile.METRICS_BEFORE, files.get(ResultFile.METRICS_BEFORE)),
            engines(ResultFile.METRICS_AFTER, files.get(ResultFile.METRICS_AFTER))));
      }
      if (metrics.isEmpty()) {
        return RunResults.none("no headline numbers in the run's result files (" + ResultFile.BENCH_SERVING.path + ", "
            + ResultFile.AIPERF.path + ", " + ResultFile.METRICS_BEFORE.path + " and " + ResultFile.METRICS_AFTER.path + ")");
      }
      return RunResults.of(metrics);
    } catch (Malformed e) {
      return RunResults.none(e.getMessage());
    }
  }

  // ---- bench_serving ----

  private static Map<ResultMetric, String> benchServingRow(byte[] row) throws Malformed {
    Map<ResultMetric, String> out = new EnumMap<>(ResultMetric.class);
    if (isBlank(row)) {
      return out;
    }
    try (JsonParser p = JSON.createParser(row)) {
      if (p.nextToken() != JsonToken.START_OBJECT) {
        throw new Malformed(ResultFile.BENCH_SERVING, "the last row is not a JSON object");
      }
      int fields = 0;
      JsonToken t;
      while ((t = p.nextToken()) == JsonToken.FIELD_NAME) {
        if (++fields > MAX_FIELDS) {
          throw new Malformed(ResultFile.BENCH_SERVING, "the last row has more than " + MAX_FIELDS + " fields");
        }
        String name = p.currentName();
        p.nextToken();
        if (name.equals("errors")) {
          // --output-details: one entry per request, "" when it succeeded.
          out.put(ResultMetric.FAILED, String.valueOf(failedRequests(p)));
          continue;
        }
        ResultMetric metric = ResultMetric.of(name).filter(CLIENT_METRICS::contains).orElse(null);
        if (metric == null) {
          p.skipChildren();
          continue;
        }
        String value = number(p, ResultFile.BENCH_SERVING, name);
        if (value != null) {
          out.put(metric, value);
        }
      }
      if (t != JsonToken.END_OBJECT || p.nextToken() != null) {
        throw new Malformed(ResultFile.BENCH_SERVING, "the last row is not one JSON object");
      }
      return out;
    } catch (StreamConstraintsException e) {
      throw new Malformed(ResultFile.BENCH_SERVING, "the last row is beyond the reader's limits (nesting depth, number or string length)");
    } catch (JsonProcessingException e) {
      throw new Malformed(ResultFile.BENCH_SERVING, "the last row is not valid JSON" + at(e));
    } catch (IOException e) {
      throw new Malformed(ResultFile.BENCH_SERVING, "cannot be read");
    }
  }

  /** The non-empty entries of bench_serving's {@code errors} array (the current token starts it). */
  private static long failedRequests(JsonParser p) throws IOException, Malformed {
    if (p.currentToken() == JsonToken.VALUE_NULL) {
      return 0;
    }
    if (p.currentToken() != JsonToken.START_ARRAY) {
      throw new Malformed(ResultFile.BENCH_SERVING, "errors is not an array");
    }
    long failed = 0;
    JsonToken t;
    while ((t = p.nextToken()) != JsonToken.END_ARRAY) {
      if (t == JsonToken.VALUE_STRING) {
        failed += p.getTextLength() > 0 ? 1 : 0;
      } else if (t != JsonToken.VALUE_NULL) {
        throw new Malformed(ResultFile.BENCH_SERVING, "errors has an entry that is not a string");
      }
    }
    return failed;
  }

  /** The sum of the {@code count} of every entry of AIPerf's {@code error_summary} (the current token starts it). */
  private static long aiperfErrors(JsonParser p) throws IOException, Malformed {
    if (p.currentToken() == JsonToken.VALUE_NULL) {
      return 0;
    }
    if (p.currentToken() != JsonToken.START_ARRAY) {
      throw new Malformed(ResultFile.AIPERF, "error_summary is not an array");
    }
    BigDecimal sum = BigDecimal.ZERO;
    int entries = 0;
    while (p.nextToken() == JsonToken.START_OBJECT) {
      if (++entries > MAX_FIELDS) {
        throw new Malformed(ResultFile.AIPERF, "error_summary has more than " + MAX_FIELDS + " entries");
      }
      while (p.nextToken() == JsonToken.FIELD_NAME) {
        String field = p.currentName();
        p.nextToken();
        if (field.equals("count")) {
          String n = number(p, ResultFile.AIPERF, "error_summary[].count");
          sum = n == null ? sum : sum.add(new BigDecimal(n));
        } else {
          p.skipChildren();
        }
      }
    }
    if (p.currentToken() != JsonToken.END_ARRAY || sum.compareTo(MAX_VALUE) > 0) {
      throw new Malformed(ResultFile.AIPERF, "error_summary is not a list of {count} objects");
    }
    return sum.longValue();
  }

  // ---- AIPerf ----

  private static Map<ResultMetric, String[]> aiperf() {
    Map<ResultMetric, String[]> m = new EnumMap<>(ResultMetric.class);
    m.put(ResultMetric.COMPLETED, new String[] {"request_count", "avg"});
    m.put(ResultMetric.DURATION, new String[] {"benchmark_duration", "avg"});
    m.put(ResultMetric.REQUEST_THROUGHPUT, new String[] {"request_throughput", "avg"});
    m.put(ResultMetric.OUTPUT_THROUGHPUT, new String[] {"output_token_throughput", "avg"});
    m.put(ResultMetric.MEAN_TTFT_MS, new String[] {"time_to_first_token", "avg"});
    m.put(ResultMetric.MEDIAN_TTFT_MS, new String[] {"time_to_first_token", "p50"});
    m.put(ResultMetric.P99_TTFT_MS, new String[] {"time_to_first_token", "p99"});
    m.put(ResultMetric.MEAN_ITL_MS, new String[] {"inter_token_latency", "avg"});
    m.put(ResultMetric.P99_ITL_MS, new String[] {"inter_token_latency", "p99"});
    m.put(ResultMetric.MEAN_E2E_LATENCY_MS, new String[] {"request_latency", "avg"});
    return m;
  }

  private static Map<ResultMetric, String> aiperfExport(byte[] export) throws Malformed {
    // The statistics wanted, by tag: (statistic → metric).
    Map<String, Map<String, ResultMetric>> wanted = new HashMap<>();
    AIPERF.forEach((metric, at) -> wanted.computeIfAbsent(at[0], k -> new HashMap<>()).put(at[1], metric));
    Map<ResultMetric, String> out = new EnumMap<>(ResultMetric.class);
    try (JsonParser p = JSON.createParser(export)) {
      if (p.nextToken() != JsonToken.START_OBJECT) {
        throw new Malformed(ResultFile.AIPERF, "not a JSON object");
      }
      int fields = 0;
      JsonToken t;
      while ((t = p.nextToken()) == JsonToken.FIELD_NAME) {
        if (++fields > MAX_FIELDS) {
          throw new Malformed(ResultFile.AIPERF, "more than " + MAX_FIELDS + " fields");
        }
        String tag = p.currentName();
        JsonToken value = p.nextToken();
        if (tag.equals("error_summary")) {
          out.put(ResultMetric.FAILED, String.valueOf(aiperfErrors(p)));
          continue;
        }
        Map<String, ResultMetric> stats = wanted.get(tag);
        if (stats == null) {
          p.skipChildren();
          continue;
        }
        if (value != JsonToken.START_OBJECT) {
          throw new Malformed(ResultFile.AIPERF, tag + " is not an object of statistics");
        }
        int statFields = 0;
        while (p.nextToken() == JsonToken.FIELD_NAME) {
          if (++statFields > MAX_FIELDS) {
            throw new Malformed(ResultFile.AIPERF, tag + " has more than " + MAX_FIELDS + " fields");
          }
          String stat = p.currentName();
          p.nextToken();
          ResultMetric metric = stats.get(stat);
          if (metric == null) {
            p.skipChildren();
            continue;
          }
          String number = number(p, ResultFile.AIPERF, tag + "." + stat);
          if (number != null) {
            out.put(metric, number);
          }
        }
      }
      if (t != JsonToken.END_OBJECT || p.nextToken() != null) {
        throw new Malformed(ResultFile.AIPERF, "not one JSON object");
      }
      return out;
    } catch (StreamConstraintsException e) {
      throw new Malformed(ResultFile.AIPERF, "beyond the reader's limits (nesting depth, number or string length)");
    } catch (JsonProcessingException e) {
      throw new Malformed(ResultFile.AIPERF, "not valid JSON" + at(e));
    } catch (IOException e) {
      throw new Malformed(ResultFile.AIPERF, "cannot be read");
    }
  }

  /**
   * The current token (the value of the known key {@code field}) as a plain decimal, or null for "no value" (null, NaN, an infinity);
   * anything else that is not a non-negative number up to {@link #MAX_VALUE} is malformed.
   */
  private static String number(JsonParser p, ResultFile file, String field) throws IOException, Malformed {
    JsonToken t = p.currentToken();
    if (t == JsonToken.VALUE_NULL) {
      return null;
    }
    if (t != JsonToken.VALUE_NUMBER_INT && t != JsonToken.VALUE_NUMBER_FLOAT) {
      throw new Malformed(file, field + " is not a number");
    }
    if (p.isNaN()) {
      return null;
    }
    BigDecimal v;
    try {
      v = new BigDecimal(p.getText());
    } catch (NumberFormatException e) {
      throw new Malformed(file, field + " is not a number");
    }
    if (v.signum() < 0 || v.compareTo(MAX_VALUE) > 0) {
      throw new Malformed(file, field + " is out of range (0 to 1e15)");
    }
    return plain(v);
  }

  /** At most 17 significant digits and 17 decimals, never an exponent: "748.2", "120.0", "0.00001". */
  static String plain(BigDecimal v) {
    BigDecimal r = v.round(new MathContext(17, RoundingMode.HALF_EVEN));
    if (r.scale() > 17) {
      r = r.setScale(17, RoundingMode.HALF_EVEN);
    }
    if (r.scale() < 0) {
      r = r.setScale(0, RoundingMode.UNNECESSARY);
    }
    return r.toPlainString();
  }

  // ---- the scrapes ----

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
      if (!Double.isFinite(value) || value < 0 || value > MAX_VALUE.doubleValue()) {
        throw new Malformed(file, m.group(1) + " has a value that is not a finite non-negative number");
      }
      current.merge(m.group(1), value, Double::sum);
    }
    found.values().removeIf(Map::isEmpty);
    return found;
  }

  /** What the engines did during the benchmark: after minus before, per endpoint. */
  private static Map<ResultMetric, String> engineNumbers(Map<String, Map<String, Double>> before,
      Map<String, Map<String, Double>> after) {
    Map<ResultMetric, String> out = new EnumMap<>(ResultMetric.class);
    double prompt = 0;
    double cached = 0;
    double min = Double.POSITIVE_INFINITY;
    double max = 0;
    for (Map.Entry<String, Map<String, Double>> e : after.entrySet()) {
      Map<String, Double> b = before.getOrDefault(e.getKey(), Map.of());
      Map<String, Double> a = e.getValue();
      prompt += delta(a, b, PROMPT);
      cached += delta(a, b, CACHED);
      double requests = delta(a, b, REQUESTS);
      min = Math.min(min, requests);
      max = Math.max(max, requests);
    }
    if (prompt > 0) {
      ratio(out, ResultMetric.ENGINE_CACHE_HIT_RATE, cached / prompt, "%.4f");
    }
    if (after.size() > 1 && min > 0) {
      ratio(out, ResultMetric.WORKER_REQUESTS_MAX_OVER_MIN, max / min, "%.2f");
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

  // ---- helpers ----

  private static boolean isBlank(byte[] bytes) {
    for (byte b : bytes) {
      if (b != ' ' && b != '\t' && b != '\n' && b != '\r') {
        return false;
      }
    }
    return true;
  }

  /**
   * Where a JSON error is, never what the file says there: a reason must not carry a run's text
   * (Jackson's own messages quote the offending token).
   */
  private static String at(JsonProcessingException e) {
    return e.getLocation() == null ? "" : " (line " + e.getLocation().getLineNr() + ", column " + e.getLocation().getColumnNr() + ")";
  }
}
