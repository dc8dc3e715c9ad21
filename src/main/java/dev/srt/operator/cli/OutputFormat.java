package dev.srt.operator.cli;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import com.fasterxml.jackson.dataformat.yaml.YAMLGenerator;
import dev.srt.operator.base.Mappers;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import picocli.CommandLine;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * {@code -o/--output json|yaml|wide|markdown}, the one way every command that prints data is told
 * how (as with kubectl). A command mixes it in and says which formats it has; without the option
 * it prints its own default (a table, or the plan's JSON). Files a command writes are named by
 * {@code --out-dir}/{@code --out-file} instead.
 */
public final class OutputFormat {
  /** The formats a command can print in. */
  public enum Format {
    JSON, YAML, WIDE, MARKDOWN;

    @Override
    public String toString() {
      return name().toLowerCase(Locale.ROOT);
    }
  }

  /** YAML that reads back as the JSON does: a string such as "6100" stays a string. */
  private static final ObjectMapper YAML = new ObjectMapper(YAMLFactory.builder().enable(YAMLGenerator.Feature.MINIMIZE_QUOTES)
      .enable(YAMLGenerator.Feature.ALWAYS_QUOTE_NUMBERS_AS_STRINGS).disable(YAMLGenerator.Feature.WRITE_DOC_START_MARKER).build());

  @Spec(Spec.Target.MIXEE) CommandSpec mixee;

  @Option(names = {"-o", "--output"}, paramLabel = "FORMAT",
      description = "Print as json, yaml, wide or markdown (what the command has; see its description).")
  Format format;

  /** The format asked for, or {@code fallback}; a usage error (exit 2) for one the command does not have. */
  public Format orElse(Format fallback, Format... supported) {
    if (format != null && !Arrays.asList(supported).contains(format)) {
      throw new CommandLine.ParameterException(mixee.commandLine(), mixee.name() + ": -o " + format + " is not available; use "
          + String.join(", ", Arrays.stream(supported).map(Format::toString).toList()));
    }
    return format == null ? fallback : format;
  }

  /** Whether a format was asked for. */
  public boolean given() {
    return format != null;
  }

  /** {@code value} as pretty JSON or YAML. */
  public static String write(Object value, Format format) {
    try {
      return switch (format) {
        case JSON -> Mappers.json().writerWithDefaultPrettyPrinter().writeValueAsString(value) + "\n";
        case YAML -> YAML.writeValueAsString(Mappers.json().valueToTree(value));
        default -> throw new IllegalArgumentException("not a data format: " + format);
      };
    } catch (JsonProcessingException e) {
      throw new IllegalStateException(e);
    }
  }

  /** The data formats: what {@link #write} prints. */
  public static final List<Format> DATA = List.of(Format.JSON, Format.YAML);
}
