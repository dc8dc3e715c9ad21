package dev.srt.operator.results;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.core.exc.StreamConstraintsException;
import dev.srt.operator.results.ResultJson.Malformed;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * AIPerf's per-request records ({@code <prefix>.jsonl} beside the aggregate export): one JSON
 * object per line with {@code metadata}, {@code metrics} ({@code name: {value, unit}}) and
 * {@code error} (null for a success). A request's TTFT is {@code time_to_first_token}, its gaps
 * {@code inter_chunk_latency}, its end-to-end latency {@code request_latency}, its TPOT
 * {@code inter_token_latency}. Records of another phase than profiling (a warm-up) are left out.
 */
final class AiPerfRecords {
  private static final ResultFile FILE = ResultFile.AIPERF_RECORDS;

  private AiPerfRecords() {}

  static List<RequestRecord> parse(byte[] jsonl) throws Malformed {
    List<RequestRecord> out = new ArrayList<>();
    int gaps = 0;
    int line = 0;
    int start = 0;
    for (int i = 0; i <= jsonl.length; i++) {
      if (i < jsonl.length && jsonl[i] != '\n') {
        continue;
      }
      line++;
      byte[] text = Arrays.copyOfRange(jsonl, start, i);
      start = i + 1;
      if (ResultJson.isBlank(text)) {
        continue;
      }
      if (out.size() == ResultJson.MAX_REQUESTS) {
        throw new Malformed(FILE, "more than " + ResultJson.MAX_REQUESTS + " records");
      }
      Record r = record(text, line);
      gaps += r.request == null ? 0 : r.request.itlsMs().length;
      if (gaps > BenchServingRow.MAX_GAPS) {
        throw new Malformed(FILE, "more than " + BenchServingRow.MAX_GAPS + " inter-chunk gaps in all");
      }
      if (r.request != null) {
        out.add(r.request);
      }
    }
    return out;
  }

  /** A line's request, or null for a record of another phase. */
  private record Record(RequestRecord request) {}

  private static Record record(byte[] text, int line) throws Malformed {
    double ttft = Double.NaN;
    double e2e = Double.NaN;
    double tpot = Double.NaN;
    double[] gaps = new double[0];
    boolean error = false;
    boolean profiling = true;
    try (JsonParser p = ResultJson.JSON.createParser(text)) {
      if (p.nextToken() != JsonToken.START_OBJECT) {
        throw new Malformed(FILE, "line " + line + " is not a JSON object");
      }
      int fields = 0;
      JsonToken t;
      while ((t = p.nextToken()) == JsonToken.FIELD_NAME) {
        if (++fields > ResultJson.MAX_FIELDS) {
          throw new Malformed(FILE, "line " + line + " has more than " + ResultJson.MAX_FIELDS + " fields");
        }
        String name = p.currentName();
        JsonToken value = p.nextToken();
        switch (name) {
          case "error" -> {
            error = value != JsonToken.VALUE_NULL;
            p.skipChildren();
          }
          case "metadata" -> profiling = profiling(p, line);
          case "metrics" -> {
            if (value == JsonToken.VALUE_NULL) {
              continue;
            }
            if (value != JsonToken.START_OBJECT) {
              throw new Malformed(FILE, "line " + line + ": metrics is not an object");
            }
            int metrics = 0;
            while (p.nextToken() == JsonToken.FIELD_NAME) {
              if (++metrics > ResultJson.MAX_FIELDS) {
                throw new Malformed(FILE, "line " + line + ": metrics has more than " + ResultJson.MAX_FIELDS + " fields");
              }
              String metric = p.currentName();
              p.nextToken();
              switch (metric) {
                case "time_to_first_token" -> ttft = scalar(p, metric, line);
                case "request_latency" -> e2e = scalar(p, metric, line);
                case "inter_token_latency" -> tpot = scalar(p, metric, line);
                case "inter_chunk_latency" -> gaps = list(p, metric, line);
                default -> p.skipChildren();
              }
            }
          }
          default -> p.skipChildren();
        }
      }
      if (t != JsonToken.END_OBJECT || p.nextToken() != null) {
        throw new Malformed(FILE, "line " + line + " is not one JSON object");
      }
    } catch (StreamConstraintsException e) {
      throw new Malformed(FILE, "line " + line + " is beyond the reader's limits (nesting depth, number or string length)");
    } catch (JsonProcessingException e) {
      throw new Malformed(FILE, "line " + line + " is not valid JSON" + ResultJson.at(e));
    } catch (IOException e) {
      throw new Malformed(FILE, "cannot be read");
    }
    if (!profiling) {
      return new Record(null);
    }
    if (error || Double.isNaN(ttft)) {
      return new Record(RequestRecord.failed());
    }
    return new Record(new RequestRecord(true, ttft, gaps, e2e, tpot));
  }

  /** Whether a record's {@code metadata} (the current token starts it) is of the profiling phase, as every record is without one. */
  private static boolean profiling(JsonParser p, int line) throws IOException, Malformed {
    if (p.currentToken() != JsonToken.START_OBJECT) {
      p.skipChildren();
      return true;
    }
    boolean profiling = true;
    int fields = 0;
    while (p.nextToken() == JsonToken.FIELD_NAME) {
      if (++fields > ResultJson.MAX_FIELDS) {
        throw new Malformed(FILE, "line " + line + ": metadata has more than " + ResultJson.MAX_FIELDS + " fields");
      }
      String name = p.currentName();
      JsonToken v = p.nextToken();
      if (name.equals("benchmark_phase") && v == JsonToken.VALUE_STRING) {
        profiling = p.getText().equals("profiling");
      } else {
        p.skipChildren();
      }
    }
    return profiling;
  }

  /** {@code {"value": x, "unit": "ms"}} in milliseconds (the current token starts it). */
  private static double scalar(JsonParser p, String metric, int line) throws IOException, Malformed {
    double[] v = values(p, metric, line, false);
    return v.length == 0 ? Double.NaN : v[0];
  }

  private static double[] list(JsonParser p, String metric, int line) throws IOException, Malformed {
    return values(p, metric, line, true);
  }

  /** The value (one number, or a list of them) of a metric block, converted to milliseconds by its unit. */
  private static double[] values(JsonParser p, String metric, int line, boolean list) throws IOException, Malformed {
    String where = "line " + line + ": " + metric;
    if (p.currentToken() != JsonToken.START_OBJECT) {
      throw new Malformed(FILE, where + " is not a {value, unit} object");
    }
    double[] values = new double[0];
    double scale = 1;
    while (p.nextToken() == JsonToken.FIELD_NAME) {
      String field = p.currentName();
      JsonToken v = p.nextToken();
      if (field.equals("unit")) {
        scale = v == JsonToken.VALUE_STRING ? toMillis(p.getText(), where) : scale;
      } else if (field.equals("value") && list) {
        values = ResultJson.measurements(p, FILE, where, BenchServingRow.MAX_GAPS);
      } else if (field.equals("value")) {
        values = new double[] {ResultJson.measurement(p, FILE, where)};
      } else {
        p.skipChildren();
      }
    }
    double factor = scale;
    return Arrays.stream(values).filter(x -> !Double.isNaN(x)).map(x -> x * factor).toArray();
  }

  private static double toMillis(String unit, String where) throws Malformed {
    return switch (unit) {
      case "ms" -> 1;
      case "s", "sec" -> 1000;
      case "us" -> 1e-3;
      case "ns" -> 1e-6;
      default -> throw new Malformed(FILE, where + " is in a unit that is not a time (ms, s, us, ns)");
    };
  }
}
