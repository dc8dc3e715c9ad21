package dev.srt.operator.report;

/**
 * One colour per arm, the same in every chart: the Okabe–Ito palette (told apart with the common
 * colour-vision deficiencies), without its yellow, which is unreadable on white.
 */
final class Palette {
  private static final String[] COLOURS = {"#0072B2", "#E69F00", "#009E73", "#CC79A7", "#D55E00", "#56B4E9", "#7F7F7F", "#000000"};

  private Palette() {}

  static String of(int armIndex) {
    return COLOURS[Math.floorMod(armIndex, COLOURS.length)];
  }
}
