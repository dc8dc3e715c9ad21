package dev.srt.operator.render;

import dev.srt.operator.base.Shell;
import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The library's build cache: reused while the stage's stamp holds, rebuilt when its inputs change. */
class BuildCacheIT {
  @TempDir Path dir;

  /** Runs one cached stage whose build counts its runs and whose stamp is the digest of {@code catalog}. */
  private Bash.Result stage(Path catalog) throws Exception {
    String script = "SRT_PYTHON=python3\nRUN_DIR=" + Shell.quote(dir.toString()) + "\n" + BashLibrary.text() + """

        srt_event() { :; }
        mkdir -p logs
        build() { echo built >>"$RUN_DIR/builds"; touch "$1/wheel.whl"; }
        fn() { build "$RUN_DIR/cache/key"; }
        stamp() { srt_tree_digest "$1"; }
        stamp_catalog() { stamp "$CATALOG"; }
        CATALOG="$2"
        srt_stage dynamo-build "$RUN_DIR/cache/key" fn stamp_catalog
        cat "$RUN_DIR/cache/key/.stamp"
        """;
    return Bash.script(dir, 30, script, "unused", catalog.toString());
  }

  private long builds() throws Exception {
    Path f = dir.resolve("builds");
    return Files.exists(f) ? Files.readAllLines(f).size() : 0;
  }

  @Test
  void aLocalCatalogIsRebuiltWhenItsContentChangesAndOnlyThen() throws Exception {
    Path catalog = Files.createDirectories(dir.resolve("catalog/src"));
    Files.writeString(catalog.resolve("lib.rs"), "fn pick() -> usize { 0 }\n");
    Files.createDirectories(dir.resolve("catalog/target"));
    Path root = dir.resolve("catalog");

    Bash.Result first = stage(root);
    assertThat(first.code()).as(first.output()).isZero();
    assertThat(builds()).isEqualTo(1);
    // The same stamp (the log lines' clock may have ticked).
    assertThat(withoutTimes(stage(root).output())).isEqualTo(withoutTimes(first.output()));
    assertThat(builds()).as("same content: the cache counts").isEqualTo(1);

    // Build output and git metadata are not the catalog's content.
    Files.writeString(root.resolve("target/artifact"), "x");
    assertThat(stage(root).code()).isZero();
    assertThat(builds()).isEqualTo(1);

    Files.writeString(catalog.resolve("lib.rs"), "fn pick() -> usize { 1 }\n");
    Bash.Result edited = stage(root);
    assertThat(edited.code()).as(edited.output()).isZero();
    assertThat(builds()).as("edited content: rebuilt").isEqualTo(2);
    assertThat(withoutTimes(edited.output())).isNotEqualTo(withoutTimes(first.output()));
  }

  private static String withoutTimes(String output) {
    return output.replaceAll("(?m)^[0-9]{2}:[0-9]{2}:[0-9]{2} ", "");
  }

  @Test
  void aMissingCatalogFailsTheStageWithoutBuilding() throws Exception {
    Bash.Result r = stage(dir.resolve("no-such-catalog"));
    assertThat(r.code()).isNotZero();
    assertThat(r.output()).contains("no directory").contains("BuildFailed");
    assertThat(builds()).isZero();
  }

  @Test
  void theHostTagNamesMachinePythonAndCpu() throws Exception {
    Bash.Result own = Bash.script(dir, 30, "SRT_PYTHON=python3\n" + BashLibrary.text() + "\nsrt_host_tag\nsrt_host_tag image-0123456789ab\nuname -m");
    assertThat(own.code()).as(own.output()).isZero();
    String[] lines = own.output().split("\n");
    assertThat(lines[0]).matches(java.util.regex.Pattern.quote(lines[2]) + "-cpython-3[0-9]+-[0-9a-f]{12}");
    assertThat(lines[1]).matches(java.util.regex.Pattern.quote(lines[2]) + "-image-0123456789ab-[0-9a-f]{12}");
  }
}
