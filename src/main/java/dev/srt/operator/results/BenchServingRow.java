package dev.srt.operator.results;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.core.exc.StreamConstraintsException;
import dev.srt.operator.results.ResultJson.Malformed;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;

/**
 * bench_serving's result row (the last line of its {@code --output-file}): the headline numbers
 * under their own names, and with {@code --output-details} each request's TTFT, inter-token gaps
 * (seconds), output length and error. A request's end-to-end latency is its TTFT plus its gaps (the
 * row has no per-request latency), its TPOT its gaps over its output tokens but the first.
 */
final class BenchServingRow {
  /** The row's keys that are headline numbers, under the metric's own name. */
  static final List<ResultMetric> SUMMARY = List.of(ResultMetric.COMPLETED, ResultMetric.DURATION, ResultMetric.REQUEST_THROUGHPUT,
      ResultMetric.OUTPUT_THROUGHPUT, ResultMetric.TOTAL_THROUGHPUT, ResultMetric.MEAN_TTFT_MS, ResultMetric.MEDIAN_TTFT_MS,
      ResultMetric.P90_TTFT_MS, ResultMetric.P99_TTFT_MS, ResultMetric.MEAN_ITL_MS, ResultMetric.MEDIAN_ITL_MS, ResultMetric.P90_ITL_MS,
      ResultMetric.P99_ITL_MS, ResultMetric.MEAN_TPOT_MS, ResultMetric.P99_TPOT_MS, ResultMetric.MEAN_E2E_LATENCY_MS,
      ResultMetric.P99_E2E_LATENCY_MS);
  /** The latency numbers of the row: none is a measurement when no request completed. */
  static final List<ResultMetric> LATENCIES = List.of(ResultMetric.MEAN_TTFT_MS, ResultMetric.MEDIAN_TTFT_MS, ResultMetric.P90_TTFT_MS,
      ResultMetric.P99_TTFT_MS, ResultMetric.MEAN_ITL_MS, ResultMetric.MEDIAN_ITL_MS, ResultMetric.P90_ITL_MS, ResultMetric.P99_ITL_MS,
      ResultMetric.MEAN_TPOT_MS, ResultMetric.P99_TPOT_MS, ResultMetric.MEAN_E2E_LATENCY_MS, ResultMetric.P99_E2E_LATENCY_MS);
  /** Inter-token gaps of one row, all requests together: a bound on the memory the lists take. */
  static final int MAX_GAPS = 4_000_000;
  private static final ResultFile FILE = ResultFile.BENCH_SERVING;

  /** The row's headline numbers and, with {@code --output-details}, its requests (else empty). */
  record Parsed(Map<ResultMetric, String> summary, List<RequestRecord> requests) {}

  private BenchServingRow() {}

  /** The per-request lists as read, before they are put together. */
  private static final class Details {
    double[] ttfts;
    List<double[]> itls;
    double[] outputLens;
    boolean[] failed;
    /** Requests the router turned away: bench_serving keeps aiohttp's reason phrase of a non-200 answer. */
    long shed;
    int gaps;
  }

  static Parsed parse(byte[] row) throws Malformed {
    Map<ResultMetric, String> out = new EnumMap<>(ResultMetric.class);
    if (ResultJson.isBlank(row)) {
      return new Parsed(out, List.of());
    }
    Details d = new Details();
    try (JsonParser p = ResultJson.JSON.createParser(row)) {
      if (p.nextToken() != JsonToken.START_OBJECT) {
        throw new Malformed(FILE, "the last row is not a JSON object");
      }
      int fields = 0;
      JsonToken t;
      while ((t = p.nextToken()) == JsonToken.FIELD_NAME) {
        if (++fields > ResultJson.MAX_FIELDS) {
          throw new Malformed(FILE, "the last row has more than " + ResultJson.MAX_FIELDS + " fields");
        }
        String name = p.currentName();
        p.nextToken();
        switch (name) {
          case "errors" -> {
            d.failed = errors(p, d);
            out.put(ResultMetric.FAILED, String.valueOf(count(d.failed)));
            if (d.failed != null && d.failed.length > 0) {
              out.put(ResultMetric.SHED_RATIO, ResultJson.plain(java.math.BigDecimal.valueOf(d.shed)
                  .divide(java.math.BigDecimal.valueOf(d.failed.length), java.math.MathContext.DECIMAL64).stripTrailingZeros()));
            }
          }
          case "ttfts" -> d.ttfts = ResultJson.measurements(p, FILE, name, ResultJson.MAX_REQUESTS);
          case "output_lens" -> d.outputLens = ResultJson.measurements(p, FILE, name, ResultJson.MAX_REQUESTS);
          case "itls" -> d.itls = gaps(p, d);
          default -> {
            ResultMetric metric = ResultMetric.of(name).filter(SUMMARY::contains).orElse(null);
            if (metric == null) {
              p.skipChildren();
              continue;
            }
            String value = ResultJson.number(p, FILE, name);
            if (value != null) {
              out.put(metric, value);
            }
          }
        }
      }
      if (t != JsonToken.END_OBJECT || p.nextToken() != null) {
        throw new Malformed(FILE, "the last row is not one JSON object");
      }
      if ("0".equals(out.get(ResultMetric.COMPLETED))) {
        // No request completed: the tool still writes its latencies, of an empty list (np.mean(ttfts or 0): 0).
        // They measured nothing, and a router that turned every request away must not read as the fastest.
        LATENCIES.forEach(out::remove);
      }
      return new Parsed(out, requests(d));
    } catch (StreamConstraintsException e) {
      throw new Malformed(FILE, "the last row is beyond the reader's limits (nesting depth, number or string length)");
    } catch (JsonProcessingException e) {
      throw new Malformed(FILE, "the last row is not valid JSON" + ResultJson.at(e));
    } catch (IOException e) {
      throw new Malformed(FILE, "cannot be read");
    }
  }

  /** Each request of the details, in the order sent; none without {@code ttfts}. */
  private static List<RequestRecord> requests(Details d) throws Malformed {
    if (d.ttfts == null) {
      return List.of();
    }
    int n = d.ttfts.length;
    if ((d.itls != null && d.itls.size() != n) || (d.outputLens != null && d.outputLens.length != n)
        || (d.failed != null && d.failed.length != n)) {
      throw new Malformed(FILE, "ttfts, itls, output_lens and errors have different lengths");
    }
    List<RequestRecord> out = new ArrayList<>(n);
    for (int i = 0; i < n; i++) {
      if ((d.failed != null && d.failed[i]) || Double.isNaN(d.ttfts[i])) {
        out.add(RequestRecord.failed());
        continue;
      }
      double[] gaps = d.itls == null ? new double[0] : d.itls.get(i);
      double sum = 0;
      for (double g : gaps) {
        sum += g;
      }
      double tokens = d.outputLens == null ? Double.NaN : d.outputLens[i];
      double tpot = tokens > 1 ? sum / (tokens - 1) * 1000 : Double.NaN;
      out.add(new RequestRecord(true, d.ttfts[i] * 1000, Arrays.stream(gaps).map(g -> g * 1000).toArray(), (d.ttfts[i] + sum) * 1000,
          tpot));
    }
    return out;
  }

  /** The entries of bench_serving's {@code errors} array (the current token starts it): true where not empty. */
  /** aiohttp's reason phrases of the answers of a router that turns requests away (429, 503). */
  static final java.util.Set<String> SHED_REASONS = java.util.Set.of("Too Many Requests", "Service Unavailable");

  private static boolean[] errors(JsonParser p, Details d) throws IOException, Malformed {
    if (p.currentToken() == JsonToken.VALUE_NULL) {
      return null;
    }
    if (p.currentToken() != JsonToken.START_ARRAY) {
      throw new Malformed(FILE, "errors is not an array");
    }
    boolean[] failed = new boolean[16];
    int n = 0;
    JsonToken t;
    while ((t = p.nextToken()) != JsonToken.END_ARRAY) {
      if (t != JsonToken.VALUE_STRING && t != JsonToken.VALUE_NULL) {
        throw new Malformed(FILE, "errors has an entry that is not a string");
      }
      if (n == ResultJson.MAX_REQUESTS) {
        throw new Malformed(FILE, "errors has more than " + ResultJson.MAX_REQUESTS + " entries");
      }
      failed = n == failed.length ? Arrays.copyOf(failed, n * 2) : failed;
      failed[n++] = t == JsonToken.VALUE_STRING && p.getTextLength() > 0;
      if (t == JsonToken.VALUE_STRING && p.getTextLength() <= 32 && SHED_REASONS.contains(p.getText().strip())) {
        d.shed++;
      }
    }
    return Arrays.copyOf(failed, n);
  }

  private static long count(boolean[] failed) {
    long n = 0;
    for (boolean f : failed == null ? new boolean[0] : failed) {
      n += f ? 1 : 0;
    }
    return n;
  }

  /** {@code itls}: per request, the list of its gaps (the current token starts it). */
  private static List<double[]> gaps(JsonParser p, Details d) throws IOException, Malformed {
    if (p.currentToken() != JsonToken.START_ARRAY) {
      throw new Malformed(FILE, "itls is not an array");
    }
    List<double[]> out = new ArrayList<>();
    JsonToken t;
    while ((t = p.nextToken()) != JsonToken.END_ARRAY) {
      if (out.size() == ResultJson.MAX_REQUESTS) {
        throw new Malformed(FILE, "itls has more than " + ResultJson.MAX_REQUESTS + " entries");
      }
      if (t == JsonToken.VALUE_NULL) {
        out.add(new double[0]);
        continue;
      }
      if (t != JsonToken.START_ARRAY) {
        throw new Malformed(FILE, "itls has an entry that is not a list");
      }
      double[] gaps = Arrays.stream(ResultJson.measurements(p, FILE, "itls", MAX_GAPS)).filter(v -> !Double.isNaN(v)).toArray();
      d.gaps += gaps.length;
      if (d.gaps > MAX_GAPS) {
        throw new Malformed(FILE, "itls has more than " + MAX_GAPS + " gaps in all");
      }
      out.add(gaps);
    }
    return out;
  }
}
