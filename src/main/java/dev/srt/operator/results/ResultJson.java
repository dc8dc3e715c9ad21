package dev.srt.operator.results;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.core.StreamReadConstraints;
import com.fasterxml.jackson.core.StreamReadFeature;
import com.fasterxml.jackson.core.json.JsonReadFeature;
import java.io.IOException;
import java.math.BigDecimal;
import java.math.MathContext;
import java.math.RoundingMode;
import java.util.Arrays;

/**
 * What every reader of a benchmark's result files shares: the bounded JSON parser, the check that
 * a number is a measurement (finite, non-negative, at most {@link #MAX_VALUE}), and {@link
 * Malformed}, whose message names the file and where in it, never what it says there.
 */
final class ResultJson {
  /** Larger values are no measurement of a benchmark run. */
  static final BigDecimal MAX_VALUE = new BigDecimal("1e15");
  static final double MAX_DOUBLE = MAX_VALUE.doubleValue();
  /** Fields of one object (a row, an export, a record). */
  static final int MAX_FIELDS = 1000;
  /** Requests of one benchmark run: per-request lists and records. */
  static final int MAX_REQUESTS = 1_000_000;

  static final JsonFactory JSON = JsonFactory.builder()
      .streamReadConstraints(StreamReadConstraints.builder().maxNestingDepth(64).maxNumberLength(64)
          .maxStringLength(ResultFile.BENCH_SERVING.maxBytes).build())
      .enable(JsonReadFeature.ALLOW_NON_NUMERIC_NUMBERS)
      .enable(StreamReadFeature.STRICT_DUPLICATE_DETECTION)
      .build();

  private ResultJson() {}

  /** A result file that is not what its tool writes; the message names the file, never quotes it. */
  static final class Malformed extends Exception {
    private static final long serialVersionUID = 1L;

    Malformed(ResultFile file, String message) {
      super(file.path + ": " + message, null, false, false);
    }
  }

  /**
   * The current token (the value of the known key {@code field}) as a plain decimal, or null for "no value" (null, NaN, an infinity);
   * anything else that is not a non-negative number up to {@link #MAX_VALUE} is malformed.
   */
  static String number(JsonParser p, ResultFile file, String field) throws IOException, Malformed {
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

  /**
   * The current token as one measurement of a per-request list: a finite number from 0 to {@link
   * #MAX_VALUE}; NaN for null, NaN or an infinity (no value).
   */
  static double measurement(JsonParser p, ResultFile file, String field) throws IOException, Malformed {
    JsonToken t = p.currentToken();
    if (t == JsonToken.VALUE_NULL) {
      return Double.NaN;
    }
    if (t != JsonToken.VALUE_NUMBER_INT && t != JsonToken.VALUE_NUMBER_FLOAT) {
      throw new Malformed(file, field + " has an entry that is not a number");
    }
    double v = p.getDoubleValue();
    if (Double.isNaN(v) || Double.isInfinite(v)) {
      return Double.NaN;
    }
    if (v < 0 || v > MAX_DOUBLE) {
      throw new Malformed(file, field + " has an entry out of range (0 to 1e15)");
    }
    return v;
  }

  /**
   * A JSON array of measurements (the current token starts it), NaN for an entry without a value;
   * more than {@code max} entries is malformed.
   */
  static double[] measurements(JsonParser p, ResultFile file, String field, int max) throws IOException, Malformed {
    if (p.currentToken() != JsonToken.START_ARRAY) {
      throw new Malformed(file, field + " is not a list");
    }
    double[] values = new double[16];
    int n = 0;
    while (p.nextToken() != JsonToken.END_ARRAY) {
      if (n == max) {
        throw new Malformed(file, field + " has more than " + max + " entries");
      }
      values = n == values.length ? Arrays.copyOf(values, n * 2) : values;
      values[n++] = measurement(p, file, field);
    }
    return Arrays.copyOf(values, n);
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

  /**
   * Where a JSON error is, never what the file says there: a reason must not carry a run's text
   * (Jackson's own messages quote the offending token).
   */
  static String at(JsonProcessingException e) {
    return e.getLocation() == null ? "" : " (line " + e.getLocation().getLineNr() + ", column " + e.getLocation().getColumnNr() + ")";
  }

  static boolean isBlank(byte[] bytes) {
    for (byte b : bytes) {
      if (b != ' ' && b != '\t' && b != '\n' && b != '\r') {
        return false;
      }
    }
    return true;
  }
}
