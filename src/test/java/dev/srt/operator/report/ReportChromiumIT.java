package dev.srt.operator.report;

import static org.assertj.core.api.Assertions.assertThat;

import dev.srt.operator.testinfra.TestHosts;
import java.awt.image.BufferedImage;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import javax.imageio.ImageIO;
import org.jsoup.Jsoup;
import org.jsoup.nodes.Document;
import org.jsoup.nodes.Element;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The HTML report as a browser shows it: Debian's headless Chromium, without network, renders the
 * page; the DOM it built has the charts and tables (and no script), and a screenshot shows them.
 * Skipped without chromium, except with {@code SRT_E2E_REQUIRED=1} (CI), where it fails.
 */
class ReportChromiumIT {
  @TempDir
  Path dir;

  @Test
  void theBrowserBuildsTheChartsAndTablesAndRunsNoScript() throws Exception {
    Path page = dir.resolve("report.html");
    Files.writeString(page, HtmlReport.render(ReportFixtures.hostile()));
    Document dom = Jsoup.parse(chromium().dumpDom(page));

    assertThat(dom.select("figure.chart svg")).hasSize(5);
    for (Element strip : dom.select("figure.chart[data-kind=strip]")) {
      assertThat(strip.select("svg circle.run")).hasSize(8);
    }
    List<Element> verdicts = dom.select("table.verdicts tbody tr");
    assertThat(verdicts).extracting(r -> r.selectFirst(".verdict").text()).containsExactly("worse", "worse", "worse", "worse",
        "not-comparable", "not-comparable", "not-comparable", "not-comparable");
    assertThat(dom.select("table.runs tbody tr")).hasSize(9);
    // The hostile values stayed text: the browser created no script, image or bold element from them.
    assertThat(dom.select("script, img, b")).isEmpty();
    assertThat(dom.selectFirst("#comparison-name").text()).isEqualTo("cmp-<script>alert(1)</script>");
    assertThat(dom.title()).isEqualTo("Router comparison cmp-<script>alert(1)</script>");
  }

  /**
   * The page at 700 px (a laptop's half screen, a pull request's side panel) needs no sideways
   * scrolling. Measured by the browser on a copy with one script added; the report itself has none.
   */
  @Test
  void atSevenHundredPixelsNothingScrollsSideways() throws Exception {
    var ladder = LoadChartTest.comparison();
    var distributions = new Distributions(16.0, "the highest load every arm sustains within the SLO",
        java.util.Map.of("round-robin", LatencyQuantilesFixture.spread(40, 2000), "cache-aware", LatencyQuantilesFixture.spread(20, 400)));
    List<ReportContext> pages = List.of(ReportFixtures.example(), ReportFixtures.hostile(),
        new ReportContext(LoadChartTest.report(ladder), ladder, ReportFixtures.cluster(), "test", ReportFixtures.GENERATED, List.of(),
            distributions, "srt-operator test"));
    for (ReportContext ctx : pages) {
      Path page = dir.resolve("narrow.html");
      String measured = HtmlReport.render(ctx).replace("</body>", "<script>document.body.setAttribute('data-scroll-width', "
          + "document.documentElement.scrollWidth)</script></body>");
      assertThat(measured).contains("data-scroll-width");
      Files.writeString(page, measured);
      Document dom = Jsoup.parse(chromium().dumpDom(page, 700));
      assertThat(Integer.parseInt(dom.body().attr("data-scroll-width"))).as(ctx.report().comparison).isLessThanOrEqualTo(700);
    }
  }

  @Test
  void aScreenshotOfTheExampleShowsTheChartsInTheArmsColours() throws Exception {
    Path page = dir.resolve("example.html");
    Files.writeString(page, HtmlReport.render(ReportFixtures.example()));
    Path png = dir.resolve("example.png");
    chromium().screenshot(page, png, 1280, 1600);

    BufferedImage image = ImageIO.read(png.toFile());
    assertThat(image.getWidth()).isEqualTo(1280);
    Set<Integer> colours = new HashSet<>();
    long white = 0;
    Set<Integer> armColours = Set.of(0x0072B2, 0xE69F00, 0x009E73);
    Set<Integer> armColoursSeen = new HashSet<>();
    for (int y = 0; y < image.getHeight(); y++) {
      for (int x = 0; x < image.getWidth(); x++) {
        int rgb = image.getRGB(x, y) & 0xffffff;
        colours.add(rgb);
        white += rgb == 0xffffff ? 1 : 0;
        if (armColours.contains(rgb)) {
          armColoursSeen.add(rgb);
        }
      }
    }
    double pixels = (double) image.getWidth() * image.getHeight();
    assertThat(colours).as("distinct colours").hasSizeGreaterThan(100);
    assertThat(white / pixels).as("share of white pixels").isLessThan(0.97);
    // The bars are drawn in the arms' colours (at 85% opacity on white, so blended: look for near matches too).
    assertThat(armColoursSeen.size() + nearColours(colours, armColours)).as("arm colours on screen").isGreaterThanOrEqualTo(3);
  }

  /** How many of {@code wanted} have a colour on screen within a small distance (blending, antialiasing). */
  private static int nearColours(Set<Integer> seen, Set<Integer> wanted) {
    int found = 0;
    for (int w : wanted) {
      for (int s : seen) {
        if (distance(s, blendOnWhite(w, 0.85)) < 12) {
          found++;
          break;
        }
      }
    }
    return found;
  }

  private static int blendOnWhite(int rgb, double alpha) {
    int r = (int) Math.round(((rgb >> 16) & 0xff) * alpha + 255 * (1 - alpha));
    int g = (int) Math.round(((rgb >> 8) & 0xff) * alpha + 255 * (1 - alpha));
    int b = (int) Math.round((rgb & 0xff) * alpha + 255 * (1 - alpha));
    return (r << 16) | (g << 8) | b;
  }

  private static int distance(int a, int b) {
    return Math.abs(((a >> 16) & 0xff) - ((b >> 16) & 0xff)) + Math.abs(((a >> 8) & 0xff) - ((b >> 8) & 0xff)) + Math.abs((a & 0xff) - (b & 0xff));
  }

  private static Chromium chromium() {
    Optional<Chromium> c = Chromium.find();
    TestHosts.require(c.isEmpty() ? "chromium is not installed" : null, "apt-get install chromium (.ci/install-deps.sh installs it)");
    return c.orElseThrow();
  }
}
