package dev.srt.operator.render;

import dev.srt.operator.base.Shell;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;

/**
 * Renders plan values as shell words. A value is taken literally (via {@link Shell#quote}), except
 * for placeholders known only when the script runs: {@code {{run_dir}}}, {@code {{run_id}}},
 * {@code {{host_tag}}} (the machine, Python and CPU identity), and in Slurm scripts
 * {@code {{node:N}}}, the address of the allocation's node N.
 *
 * <p>A placeholder is expanded by the script itself, where it is one part of one word. It is never
 * spliced into text that a shell parses again: bash text run with {@code bash -c} gets its
 * placeholders as environment variables instead ({@link #code}).
 */
final class Words {
  private static final Pattern PLACEHOLDER = Pattern.compile("\\{\\{(node:([0-9]+)|run_dir|run_id|host_tag)}}");

  private final boolean resolveNodes;

  Words(boolean resolveNodes) {
    this.resolveNodes = resolveNodes;
  }

  String word(String value) {
    if (!value.contains("{{")) {
      return Shell.quote(value);
    }
    StringBuilder out = new StringBuilder();
    Matcher m = PLACEHOLDER.matcher(value);
    int last = 0;
    while (m.find()) {
      if (m.group(2) != null && !resolveNodes) {
        continue;
      }
      if (m.start() > last) {
        out.append(Shell.quote(value.substring(last, m.start())));
      }
      out.append('"').append(reference(m)).append('"');
      last = m.end();
    }
    if (last == 0) {
      return Shell.quote(value);
    }
    if (last < value.length()) {
      out.append(Shell.quote(value.substring(last)));
    }
    return out.toString();
  }

  String join(List<String> argv) {
    return argv.stream().map(this::word).collect(Collectors.joining(" "));
  }

  /** Bash text for {@code bash -c}, and the environment its placeholders' values travel in. */
  record Code(String text, Map<String, String> env) {}

  /**
   * {@code text} with each placeholder replaced by a quoted reference to an environment variable
   * ({@code "${RUN_DIR}"}, {@code "${SRT_RUN_ID}"}, {@code "${SRT_HOST_TAG}"},
   * {@code "${SRT_NODE_ADDR_N}"}), which the shell running the text expands; {@link Code#env}
   * maps each of those variables to its placeholder, to be passed as an environment value.
   */
  Code code(String text) {
    StringBuilder out = new StringBuilder();
    Map<String, String> env = new LinkedHashMap<>();
    Matcher m = PLACEHOLDER.matcher(text);
    int last = 0;
    while (m.find()) {
      if (m.group(2) != null && !resolveNodes) {
        continue;
      }
      String name = m.group(2) != null ? "SRT_NODE_ADDR_" + m.group(2) : reference(m).substring(2, reference(m).length() - 1);
      out.append(text, last, m.start()).append("\"${").append(name).append("}\"");
      env.put(name, m.group());
      last = m.end();
    }
    out.append(text.substring(last));
    return new Code(out.toString(), env);
  }

  /** The script's own expansion of a placeholder, e.g. {@code ${RUN_DIR}}. */
  private static String reference(Matcher m) {
    return switch (m.group(1)) {
      case "run_dir" -> "${RUN_DIR}";
      case "run_id" -> "${SRT_RUN_ID}";
      case "host_tag" -> "${SRT_HOST_TAG}";
      default -> "${SRT_NODE_ADDR[" + m.group(2) + "]}";
    };
  }
}
