package dev.srt.operator.emulator;

import java.util.LinkedHashMap;
import java.util.Map;

/** Prometheus text exposition (version 0.0.4): HELP and TYPE once per family, then its samples. */
public final class PrometheusText {
  public static final String CONTENT_TYPE = "text/plain; version=0.0.4; charset=utf-8";

  private final StringBuilder out = new StringBuilder();
  private final Map<String, Boolean> declared = new LinkedHashMap<>();

  public PrometheusText counter(String name, String help, double value, String... labels) {
    return sample(name, "counter", help, value, labels);
  }

  public PrometheusText gauge(String name, String help, double value, String... labels) {
    return sample(name, "gauge", help, value, labels);
  }

  /** {@code labels} alternate names and values: {@code "mode", "plain"}. */
  public PrometheusText sample(String name, String type, String help, double value, String... labels) {
    if (declared.putIfAbsent(name, Boolean.TRUE) == null) {
      out.append("# HELP ").append(name).append(' ').append(help).append('\n');
      out.append("# TYPE ").append(name).append(' ').append(type).append('\n');
    }
    out.append(name);
    if (labels.length > 0) {
      out.append('{');
      for (int i = 0; i + 1 < labels.length; i += 2) {
        if (i > 0) {
          out.append(',');
        }
        out.append(labels[i]).append("=\"").append(escape(labels[i + 1])).append('"');
      }
      out.append('}');
    }
    out.append(' ').append(format(value)).append('\n');
    return this;
  }

  private static String escape(String v) {
    return v.replace("\\", "\\\\").replace("\"", "\\\"").replace("\n", "\\n");
  }

  private static String format(double v) {
    return v == Math.rint(v) && Math.abs(v) < 1e15 ? String.valueOf((long) v) + ".0" : String.valueOf(v);
  }

  @Override
  public String toString() {
    return out.toString();
  }
}
