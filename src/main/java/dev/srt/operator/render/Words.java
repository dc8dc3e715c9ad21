package dev.srt.operator.render;

import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;

/**
 * Renders plan values as shell words. A value is taken literally (via {@link Shell#quote}), except
 * for placeholders known only when the script runs: {@code {{run_dir}}}, {@code {{run_id}}},
 * {@code {{host_tag}}} (the machine, Python and CPU identity), and in Slurm scripts
 * {@code {{node:N}}}, the address of the allocation's node N.
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
      out.append(switch (m.group(1)) {
        case "run_dir" -> "\"${RUN_DIR}\"";
        case "run_id" -> "\"${SRT_RUN_ID}\"";
        case "host_tag" -> "\"${SRT_HOST_TAG}\"";
        default -> "\"${SRT_NODE_ADDR[" + m.group(2) + "]}\"";
      });
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
}
