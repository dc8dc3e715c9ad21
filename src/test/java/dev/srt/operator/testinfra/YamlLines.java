package dev.srt.operator.testinfra;

import java.io.StringReader;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.yaml.snakeyaml.LoaderOptions;
import org.yaml.snakeyaml.Yaml;
import org.yaml.snakeyaml.nodes.MappingNode;
import org.yaml.snakeyaml.nodes.Node;
import org.yaml.snakeyaml.nodes.NodeTuple;
import org.yaml.snakeyaml.nodes.ScalarNode;
import org.yaml.snakeyaml.nodes.SequenceNode;

/**
 * Where a field path such as {@code spec.arms[1].frontend.args["a.b"]} is written in a YAML file,
 * found with SnakeYAML's node marks, independently of the project's Jackson-based loader: the line
 * of the deepest key (or list item) of the path that is present in the document.
 */
public final class YamlLines {
  private static final Pattern SEGMENT =
      Pattern.compile("\\.?([A-Za-z0-9_\\-/]+)|\\[(\\d+)\\]|\\[\"((?:[^\"\\\\]|\\\\.)*)\"\\]");

  private final List<Node> documents = new ArrayList<>();

  public YamlLines(String text) {
    for (Node doc : new Yaml(new LoaderOptions()).composeAll(new StringReader(text))) {
      if (doc != null) {
        documents.add(doc);
      }
    }
  }

  /** 1-based first line of each document. */
  public List<Integer> documentStarts() {
    return documents.stream().map(d -> d.getStartMark().getLine() + 1).toList();
  }

  /** Index of the document that contains the 1-based line, or -1. */
  public int documentAt(int line) {
    for (int i = documents.size() - 1; i >= 0; i--) {
      Node d = documents.get(i);
      if (d.getStartMark().getLine() + 1 <= line && line <= d.getEndMark().getLine() + 1) {
        return i;
      }
    }
    return -1;
  }

  /** 1-based line of the path, or of its nearest present ancestor, in the given document. */
  public int lineOf(int document, String path) {
    Node node = documents.get(document);
    int line = node.getStartMark().getLine() + 1;
    for (Object segment : segments(path)) {
      Node next = null;
      int nextLine = -1;
      if (segment instanceof String key && node instanceof MappingNode map) {
        for (NodeTuple t : map.getValue()) {
          if (t.getKeyNode() instanceof ScalarNode k && k.getValue().equals(key)) {
            next = t.getValueNode();
            nextLine = k.getStartMark().getLine() + 1;
          }
        }
      } else if (segment instanceof Integer i && node instanceof SequenceNode seq && i < seq.getValue().size()) {
        next = seq.getValue().get(i);
        nextLine = next.getStartMark().getLine() + 1;
      }
      if (next == null) {
        break;
      }
      node = next;
      line = nextLine;
    }
    return line;
  }

  /** Keys (String) and list indexes (Integer) of a field path. */
  public static List<Object> segments(String path) {
    List<Object> out = new ArrayList<>();
    Matcher m = SEGMENT.matcher(path);
    int at = 0;
    while (at < path.length()) {
      if (!m.find(at) || m.start() != at) {
        throw new IllegalArgumentException("not a field path: " + path + " (at " + at + ")");
      }
      if (m.group(1) != null) {
        out.add(m.group(1));
      } else if (m.group(2) != null) {
        out.add(Integer.valueOf(m.group(2)));
      } else {
        out.add(m.group(3).replace("\\\"", "\""));
      }
      at = m.end();
    }
    return out;
  }
}
