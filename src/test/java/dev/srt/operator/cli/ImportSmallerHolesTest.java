package dev.srt.operator.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.lang.management.ManagementFactory;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Issue 23's smaller holes in {@code import}: its memory, integer overflow and its help text. */
class ImportSmallerHolesTest {
  @TempDir Path dir;

  /** "400 references to a 100 KB variable make import use 651 MB": values and what they resolve to are bounded before anything is built. */
  @Nested
  class ImportMemoryIsBounded {
    @Test
    void aHundredKilobyteVariableIsRefusedAndFourHundredReferencesAllocateLittle() throws Exception {
      StringBuilder refs = new StringBuilder();
      for (int i = 0; i < 400; i++) {
        refs.append("      V").append(i).append(": \"${BIG}\"\n");
      }
      Path recipe = ImportRun.write(dir, "arm.yaml", ImportRun.RECIPE.replace("environment: {HF_HOME: /scratch/hf}\n",
          "environment:\n" + refs.toString().replace("      V", "  V")));
      var threads = (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
      long before = threads.getCurrentThreadAllocatedBytes();
      ImportRun.Result r = ImportRun.run(Map.of("BIG", "x".repeat(100_000)), recipe.toString(), "--env", "BIG");
      long allocated = threads.getCurrentThreadAllocatedBytes() - before;
      assertThat(r.code()).isEqualTo(1);
      assertThat(r.err()).contains("--env BIG has a value of 100000 characters; no recipe value holds more than 4096");
      assertThat(allocated).as("bytes allocated").isLessThan(64L << 20);

      // The largest value a variable may have, 400 times in one field: refused before the field is built.
      Path one = ImportRun.write(dir, "one.yaml", ImportRun.RECIPE.replace("path: /models/Qwen3-32B-FP8",
          "path: \"/models/" + "${BIG}".repeat(400) + "\""));
      before = threads.getCurrentThreadAllocatedBytes();
      r = ImportRun.run(Map.of("BIG", "x".repeat(4096)), one.toString(), "--env", "BIG");
      allocated = threads.getCurrentThreadAllocatedBytes() - before;
      assertThat(r.code()).isEqualTo(1);
      assertThat(r.err()).contains("model.path: resolving its variables would make it 1638408 characters long (no field holds more than 65536)");
      assertThat(allocated).as("bytes allocated").isLessThan(64L << 20);
    }
  }

  /** "Integer overflow in import gives {@code not -1593835530s}": counts and seconds are read whole, with their bounds. */
  @Nested
  class IntegerOverflowIsAClearMessage {
    @Test
    void aHealthCheckBeyondAnIntOrBeyondSevenDaysIsNamed() throws Exception {
      Path recipe = ImportRun.write(dir, "arm.yaml", ImportRun.RECIPE.replace("max_attempts: 60", "max_attempts: 4000000000"));
      ImportRun.Result r = ImportRun.run(Map.of(), recipe.toString());
      assertThat(r.code()).isEqualTo(1);
      assertThat(r.err()).contains(recipe + ":15: health_check.max_attempts: must be a whole number from 1 to 604800, not 4000000000")
          .doesNotContain("-1593835530").doesNotContainPattern("not -[0-9]");
      recipe = ImportRun.write(dir, "arm2.yaml", ImportRun.RECIPE.replace("max_attempts: 60, interval_seconds: 5",
          "max_attempts: 600000, interval_seconds: 60"));
      r = ImportRun.run(Map.of(), recipe.toString());
      assertThat(r.err()).contains("health_check: max_attempts x interval_seconds = 600000 x 60 s, more than 604800 s (7 days, the longest timeout)");
      recipe = ImportRun.write(dir, "arm3.yaml", ImportRun.RECIPE.replace("interval_seconds: 5", "interval_seconds: 0"));
      assertThat(ImportRun.run(Map.of(), recipe.toString()).err()).contains("health_check.interval_seconds: must be a whole number from 1 to 604800, not 0");
    }
  }

  /** "The import help shows {@code $NAME and null}": picocli read {@code ${NAME}} as one of its own variables. */
  @Nested
  class TheHelpShowsTheVariableSyntax {
    @Test
    void helpShowsDollarBraceNameAndTheEnvOption() {
      ValidateCommandTest.Run r = ValidateCommandTest.run("import", "--help");
      assertThat(r.code()).isZero();
      String help = r.out().replaceAll("\\s+", " ");
      assertThat(help).contains("$NAME and ${NAME} in recipe values are resolved only for the names given with --env NAME")
          .contains("--env=NAME").doesNotContain("null");
    }
  }
}
