package dev.srt.operator.report;

import java.util.Locale;

/**
 * A tiny SVG writer: every attribute value and text node goes through {@link #escape}, so a spec
 * value (an arm name, a run id) can only ever be text in the page that inlines the drawing.
 */
final class Svg {
  private final StringBuilder out = new StringBuilder();

  Svg(int width, int height, String label) {
    out.append("<svg xmlns=\"http://www.w3.org/2000/svg\" role=\"img\" viewBox=\"0 0 ").append(width).append(' ').append(height)
        .append("\" width=\"").append(width).append("\" height=\"").append(height).append("\" aria-label=\"").append(escape(label))
        .append("\">");
    out.append("<title>").append(escape(label)).append("</title>");
  }

  /** Escapes the five XML-significant characters (enough for text and double-quoted attributes). */
  static String escape(String s) {
    if (s == null) {
      return "";
    }
    StringBuilder b = new StringBuilder(s.length());
    for (char c : s.toCharArray()) {
      switch (c) {
        case '<' -> b.append("&lt;");
        case '>' -> b.append("&gt;");
        case '&' -> b.append("&amp;");
        case '"' -> b.append("&quot;");
        case '\'' -> b.append("&#39;");
        default -> b.append(c);
      }
    }
    return b.toString();
  }

  static String num(double v) {
    return String.format(Locale.ROOT, "%.1f", v);
  }

  Svg line(double x1, double y1, double x2, double y2, String cssClass) {
    out.append("<line class=\"").append(cssClass).append("\" x1=\"").append(num(x1)).append("\" y1=\"").append(num(y1))
        .append("\" x2=\"").append(num(x2)).append("\" y2=\"").append(num(y2)).append("\"/>");
    return this;
  }

  /** A line in an arm's colour. */
  Svg line(double x1, double y1, double x2, double y2, String cssClass, String colour) {
    out.append("<line class=\"").append(cssClass).append("\" stroke=\"").append(colour).append("\" x1=\"").append(num(x1))
        .append("\" y1=\"").append(num(y1)).append("\" x2=\"").append(num(x2)).append("\" y2=\"").append(num(y2)).append("\"/>");
    return this;
  }

  /** A shape with a tooltip ({@code title}), which browsers show on hover and screen readers read. */
  Svg rect(double x, double y, double w, double h, String cssClass, String colour, String title) {
    out.append("<rect class=\"").append(cssClass).append("\" fill=\"").append(colour).append("\" x=\"").append(num(x))
        .append("\" y=\"").append(num(y)).append("\" width=\"").append(num(Math.max(0, w))).append("\" height=\"")
        .append(num(Math.max(0, h))).append("\">");
    title(title);
    out.append("</rect>");
    return this;
  }

  Svg circle(double cx, double cy, double r, String cssClass, String colour, String title) {
    out.append("<circle class=\"").append(cssClass).append("\" fill=\"").append(colour).append("\" cx=\"").append(num(cx))
        .append("\" cy=\"").append(num(cy)).append("\" r=\"").append(num(r)).append("\">");
    title(title);
    out.append("</circle>");
    return this;
  }

  /** A line through {@code points} ({x, y} each) in an arm's colour. */
  Svg polyline(java.util.List<double[]> points, String cssClass, String colour) {
    out.append("<polyline class=\"").append(cssClass).append("\" stroke=\"").append(colour).append("\" points=\"")
        .append(points(points)).append("\"/>");
    return this;
  }

  /** A closed shape through {@code points}, filled in an arm's colour, with a tooltip. */
  Svg polygon(java.util.List<double[]> points, String cssClass, String colour, String title) {
    out.append("<polygon class=\"").append(cssClass).append("\" fill=\"").append(colour).append("\" points=\"")
        .append(points(points)).append("\">");
    title(title);
    out.append("</polygon>");
    return this;
  }

  private static String points(java.util.List<double[]> points) {
    StringBuilder b = new StringBuilder();
    for (double[] p : points) {
      b.append(b.length() == 0 ? "" : " ").append(num(p[0])).append(',').append(num(p[1]));
    }
    return b.toString();
  }

  /** Text; {@code anchor} is start, middle or end. */
  Svg text(double x, double y, String anchor, String cssClass, String text) {
    out.append("<text class=\"").append(cssClass).append("\" x=\"").append(num(x)).append("\" y=\"").append(num(y))
        .append("\" text-anchor=\"").append(anchor).append("\">").append(escape(text)).append("</text>");
    return this;
  }

  private void title(String title) {
    if (title != null) {
      out.append("<title>").append(escape(title)).append("</title>");
    }
  }

  String end() {
    return out.append("</svg>").toString();
  }
}
