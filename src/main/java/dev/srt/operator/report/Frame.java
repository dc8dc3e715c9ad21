package dev.srt.operator.report;

import java.util.List;

/**
 * The drawing area every chart shares: one band per arm along x (in arm order), a value scale along
 * y with light grid lines, and the arm names below their bands.
 */
final class Frame {
  static final int HEIGHT = 240;
  private static final int LEFT = 64;
  private static final int RIGHT = 16;
  private static final int TOP = 14;
  private static final int BOTTOM = 42;
  private static final int BAND = 120;
  /** Longer arm names are cut in the drawing (the tables carry them whole). */
  private static final int MAX_LABEL = 18;

  final Svg svg;
  private final List<String> arms;
  private final Scale scale;

  Frame(String label, List<String> arms, Scale scale) {
    this.arms = arms;
    this.scale = scale;
    this.svg = new Svg(LEFT + RIGHT + BAND * Math.max(1, arms.size()), HEIGHT, label);
    drawAxes();
  }

  /** The centre of an arm's band. */
  double x(int arm) {
    return LEFT + BAND * (arm + 0.5);
  }

  double y(double value) {
    return scale.y(value, TOP, HEIGHT - BOTTOM);
  }

  double bottom() {
    return HEIGHT - BOTTOM;
  }

  private void drawAxes() {
    double right = LEFT + BAND * Math.max(1, arms.size());
    for (double t : scale.ticks()) {
      double y = y(t);
      svg.line(LEFT, y, right, y, "grid");
      svg.text(LEFT - 6, y + 4, "end", "tick", scale.label(t));
    }
    svg.line(LEFT, TOP, LEFT, bottom(), "axis");
    svg.line(LEFT, bottom(), right, bottom(), "axis");
    for (int i = 0; i < arms.size(); i++) {
      String name = arms.get(i);
      svg.text(x(i), bottom() + 18, "middle", "arm", name.length() > MAX_LABEL ? name.substring(0, MAX_LABEL - 1) + "…" : name);
    }
  }
}
