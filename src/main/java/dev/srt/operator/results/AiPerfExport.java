package dev.srt.operator.results;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.core.exc.StreamConstraintsException;
import dev.srt.operator.results.ResultJson.Malformed;
import java.io.IOException;
import java.math.BigDecimal;
import java.util.EnumMap;
import java.util.HashMap;
import java.util.Map;

/**
 * AIPerf's aggregate export ({@code <prefix>_aiperf.json}): a block of statistics per metric tag,
 * read under bench_serving's names. AIPerf's {@code inter_token_latency} is per request (its time
 * per output token), so it gives both the ITL and the TPOT numbers. {@code request_count} counts
 * the successful requests only (aiperf 0.13.0 {@code RequestCountMetric}: "valid requests"; its
 * {@code error_request_count} and {@code completed_request_count} add the failed ones), and
 * {@code error_summary} the failed ones by error. The fixtures under
 * {@code src/test/resources/dev/srt/operator/results/aiperf-0.13.0} are the real tool's.
 */
final class AiPerfExport {
  private static final ResultFile FILE = ResultFile.AIPERF;
  /** metric → (tag, statistic). */
  private static final Map<ResultMetric, String[]> STATISTICS = statistics();

  private AiPerfExport() {}

  private static Map<ResultMetric, String[]> statistics() {
    Map<ResultMetric, String[]> m = new EnumMap<>(ResultMetric.class);
    m.put(ResultMetric.COMPLETED, new String[] {"request_count", "avg"});
    m.put(ResultMetric.DURATION, new String[] {"benchmark_duration", "avg"});
    m.put(ResultMetric.REQUEST_THROUGHPUT, new String[] {"request_throughput", "avg"});
    m.put(ResultMetric.OUTPUT_THROUGHPUT, new String[] {"output_token_throughput", "avg"});
    m.put(ResultMetric.MEAN_TTFT_MS, new String[] {"time_to_first_token", "avg"});
    m.put(ResultMetric.MEDIAN_TTFT_MS, new String[] {"time_to_first_token", "p50"});
    m.put(ResultMetric.P90_TTFT_MS, new String[] {"time_to_first_token", "p90"});
    m.put(ResultMetric.P99_TTFT_MS, new String[] {"time_to_first_token", "p99"});
    m.put(ResultMetric.MEAN_ITL_MS, new String[] {"inter_token_latency", "avg"});
    m.put(ResultMetric.MEDIAN_ITL_MS, new String[] {"inter_token_latency", "p50"});
    m.put(ResultMetric.P90_ITL_MS, new String[] {"inter_token_latency", "p90"});
    m.put(ResultMetric.P99_ITL_MS, new String[] {"inter_token_latency", "p99"});
    m.put(ResultMetric.MEAN_E2E_LATENCY_MS, new String[] {"request_latency", "avg"});
    m.put(ResultMetric.P99_E2E_LATENCY_MS, new String[] {"request_latency", "p99"});
    return m;
  }

  static Map<ResultMetric, String> parse(byte[] export) throws Malformed {
    // The statistics wanted, by tag: (statistic → metrics).
    Map<String, Map<String, ResultMetric>> wanted = new HashMap<>();
    STATISTICS.forEach((metric, at) -> wanted.computeIfAbsent(at[0], k -> new HashMap<>()).put(at[1], metric));
    Map<ResultMetric, String> out = new EnumMap<>(ResultMetric.class);
    long shed = -1;
    try (JsonParser p = ResultJson.JSON.createParser(export)) {
      if (p.nextToken() != JsonToken.START_OBJECT) {
        throw new Malformed(FILE, "not a JSON object");
      }
      int fields = 0;
      JsonToken t;
      while ((t = p.nextToken()) == JsonToken.FIELD_NAME) {
        if (++fields > ResultJson.MAX_FIELDS) {
          throw new Malformed(FILE, "more than " + ResultJson.MAX_FIELDS + " fields");
        }
        String tag = p.currentName();
        JsonToken value = p.nextToken();
        if (tag.equals("error_summary")) {
          long[] errors = errors(p);
          out.put(ResultMetric.FAILED, String.valueOf(errors[0]));
          shed = errors[1];
          continue;
        }
        Map<String, ResultMetric> stats = wanted.get(tag);
        if (stats == null) {
          p.skipChildren();
          continue;
        }
        if (value != JsonToken.START_OBJECT) {
          throw new Malformed(FILE, tag + " is not an object of statistics");
        }
        int statFields = 0;
        while (p.nextToken() == JsonToken.FIELD_NAME) {
          if (++statFields > ResultJson.MAX_FIELDS) {
            throw new Malformed(FILE, tag + " has more than " + ResultJson.MAX_FIELDS + " fields");
          }
          String stat = p.currentName();
          p.nextToken();
          ResultMetric metric = stats.get(stat);
          if (metric == null) {
            p.skipChildren();
            continue;
          }
          String number = ResultJson.number(p, FILE, tag + "." + stat);
          if (number != null && metric == ResultMetric.COMPLETED) {
            // AIPerf 0.13.0 writes the count as a float (12.0); the count is a whole number
            number = ResultJson.plain(new BigDecimal(number).stripTrailingZeros());
          }
          if (number != null) {
            out.put(metric, number);
            if (metric == ResultMetric.MEAN_ITL_MS) {
              out.put(ResultMetric.MEAN_TPOT_MS, number);
            } else if (metric == ResultMetric.P99_ITL_MS) {
              out.put(ResultMetric.P99_TPOT_MS, number);
            }
          }
        }
      }
      if (t != JsonToken.END_OBJECT || p.nextToken() != null) {
        throw new Malformed(FILE, "not one JSON object");
      }
      if (shed >= 0 && out.containsKey(ResultMetric.FAILED)) {
        // sent = completed + failed; the export counts completed requests in request_count
        BigDecimal sent = new BigDecimal(out.getOrDefault(ResultMetric.COMPLETED, "0")).add(new BigDecimal(out.get(ResultMetric.FAILED)));
        if (sent.signum() > 0) {
          out.put(ResultMetric.SHED_RATIO, ResultJson.plain(BigDecimal.valueOf(shed).divide(sent, java.math.MathContext.DECIMAL64)
              .stripTrailingZeros()));
        }
      }
      return out;
    } catch (StreamConstraintsException e) {
      throw new Malformed(FILE, "beyond the reader's limits (nesting depth, number or string length)");
    } catch (JsonProcessingException e) {
      throw new Malformed(FILE, "not valid JSON" + ResultJson.at(e));
    } catch (IOException e) {
      throw new Malformed(FILE, "cannot be read");
    }
  }

  /**
   * The sum of the {@code count} of every entry of AIPerf's {@code error_summary} (the current token
   * starts it), and of those whose {@code error_details.code} is 429 or 503: the router turned them away.
   */
  private static long[] errors(JsonParser p) throws IOException, Malformed {
    if (p.currentToken() == JsonToken.VALUE_NULL) {
      return new long[2];
    }
    if (p.currentToken() != JsonToken.START_ARRAY) {
      throw new Malformed(FILE, "error_summary is not an array");
    }
    BigDecimal sum = BigDecimal.ZERO;
    BigDecimal shed = BigDecimal.ZERO;
    int entries = 0;
    while (p.nextToken() == JsonToken.START_OBJECT) {
      if (++entries > ResultJson.MAX_FIELDS) {
        throw new Malformed(FILE, "error_summary has more than " + ResultJson.MAX_FIELDS + " entries");
      }
      BigDecimal count = BigDecimal.ZERO;
      boolean turnedAway = false;
      while (p.nextToken() == JsonToken.FIELD_NAME) {
        String field = p.currentName();
        p.nextToken();
        if (field.equals("count")) {
          String n = ResultJson.number(p, FILE, "error_summary[].count");
          count = n == null ? count : new BigDecimal(n);
        } else if (field.equals("error_details") && p.currentToken() == JsonToken.START_OBJECT) {
          turnedAway = shedCode(p);
        } else {
          p.skipChildren();
        }
      }
      sum = sum.add(count);
      shed = turnedAway ? shed.add(count) : shed;
    }
    if (p.currentToken() != JsonToken.END_ARRAY || sum.compareTo(ResultJson.MAX_VALUE) > 0) {
      throw new Malformed(FILE, "error_summary is not a list of {count} objects");
    }
    return new long[] {sum.longValue(), shed.longValue()};
  }

  /** Whether an {@code error_details} object (the current token starts it) has the code 429 or 503. */
  private static boolean shedCode(JsonParser p) throws IOException {
    boolean shed = false;
    while (p.nextToken() == JsonToken.FIELD_NAME) {
      String field = p.currentName();
      JsonToken t = p.nextToken();
      if (field.equals("code") && t == JsonToken.VALUE_NUMBER_INT) {
        shed = p.getIntValue() == 429 || p.getIntValue() == 503;
      } else {
        p.skipChildren();
      }
    }
    return shed;
  }
}
