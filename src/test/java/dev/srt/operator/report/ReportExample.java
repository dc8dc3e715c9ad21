package dev.srt.operator.report;

import java.awt.image.BufferedImage;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import javax.imageio.ImageIO;

/**
 * Writes docs/report-example.html and docs/report-example.png (the README's picture of the HTML
 * report) from {@link ReportFixtures#example()}. Run after changing the report:
 *
 * <pre>mvn -B -q -o test-compile exec:java -Dexec.classpathScope=test -Dexec.mainClass=dev.srt.operator.report.ReportExample</pre>
 */
public final class ReportExample {
  private static final int WIDTH = 1280;
  private static final int MAX_HEIGHT = 6000;
  /** White rows kept below the last row with content. */
  private static final int MARGIN = 24;

  private ReportExample() {}

  public static void main(String[] args) throws Exception {
    Path docs = Path.of(args.length > 0 ? args[0] : "docs");
    Path html = docs.resolve("report-example.html");
    Files.writeString(html, HtmlReport.render(ReportFixtures.example()));
    Chromium chromium = Chromium.find().orElseThrow(() -> new IllegalStateException("chromium is not installed (apt-get install chromium)"));
    Path png = docs.resolve("report-example.png");
    chromium.screenshot(html, png, WIDTH, MAX_HEIGHT);
    cropBlankBottom(png);
    System.out.println("wrote " + html + " and " + png);
  }

  /** Headless Chromium shoots the whole window: cut the white below the page's end. */
  static void cropBlankBottom(Path png) throws IOException {
    BufferedImage image = ImageIO.read(png.toFile());
    int last = image.getHeight() - 1;
    while (last > 0 && blankRow(image, last)) {
      last--;
    }
    int height = Math.min(image.getHeight(), last + 1 + MARGIN);
    ImageIO.write(image.getSubimage(0, 0, image.getWidth(), height), "png", png.toFile());
  }

  private static boolean blankRow(BufferedImage image, int y) {
    int first = image.getRGB(0, y);
    for (int x = 1; x < image.getWidth(); x++) {
      if (image.getRGB(x, y) != first) {
        return false;
      }
    }
    return true;
  }
}
