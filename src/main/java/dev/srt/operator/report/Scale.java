package dev.srt.operator.report;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/** A value axis with round ticks (1, 2, 2.5 or 5 times a power of ten) covering the data. */
record Scale(double min, double max, double step) {
  private static final int TICKS = 5;

  /**
   * Covers {@code [lo, hi]}; {@code fromZero} starts at 0 (bars), otherwise the data's own range
   * with a margin, so that close values stay apart (strip plots).
   */
  static Scale covering(double lo, double hi, boolean fromZero) {
    if (fromZero) {
      lo = Math.min(0, lo);
      hi = Math.max(0, hi);
    }
    if (!(hi > lo)) {
      double pad = lo == 0 ? 1 : Math.abs(lo) * 0.1;
      lo -= pad;
      hi += pad;
    } else if (!fromZero) {
      double pad = (hi - lo) * 0.1;
      lo -= pad;
      hi += pad;
    }
    double step = niceStep((hi - lo) / TICKS);
    double min = Math.floor(lo / step) * step;
    double max = Math.ceil(hi / step) * step;
    if (fromZero && lo >= 0) {
      min = 0;
    }
    return new Scale(min, max, step);
  }

  private static double niceStep(double raw) {
    double power = Math.pow(10, Math.floor(Math.log10(raw)));
    for (double f : new double[] {1, 2, 2.5, 5}) {
      if (f * power >= raw) {
        return f * power;
      }
    }
    return 10 * power;
  }

  List<Double> ticks() {
    List<Double> out = new ArrayList<>();
    for (int i = 0; min + i * step <= max + step / 1e6; i++) {
      out.add(min + i * step);
    }
    return out;
  }

  /** The pixel row of {@code value} between {@code top} (max) and {@code bottom} (min). */
  double y(double value, double top, double bottom) {
    return bottom - (value - min) / (max - min) * (bottom - top);
  }

  /** A tick label with as many decimals as the step needs (2.5 needs one, 50 none). */
  String label(double value) {
    int decimals = 0;
    while (decimals < 6) {
      double scaled = step * Math.pow(10, decimals);
      if (Math.abs(scaled - Math.rint(scaled)) < 1e-9) {
        break;
      }
      decimals++;
    }
    return String.format(Locale.ROOT, "%." + decimals + "f", value);
  }
}
