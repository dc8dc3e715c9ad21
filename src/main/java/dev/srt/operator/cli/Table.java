package dev.srt.operator.cli;

import dev.srt.operator.config.Echo;
import java.io.PrintStream;
import java.util.List;

/**
 * Prints rows as left-aligned columns, two spaces apart; every cell escaped ({@link Echo#escape}), as
 * cells hold spec values and what runs wrote, which must not move the cursor or add lines.
 */
final class Table {
  private Table() {}

  static void print(List<List<String>> cells, PrintStream out) {
    List<List<String>> rows = cells.stream().map(r -> r.stream().map(c -> c == null ? "" : Echo.escape(c)).toList()).toList();
    int columns = rows.stream().mapToInt(List::size).max().orElse(0);
    int[] width = new int[columns];
    for (List<String> row : rows) {
      for (int i = 0; i < row.size(); i++) {
        width[i] = Math.max(width[i], row.get(i).length());
      }
    }
    for (List<String> row : rows) {
      StringBuilder line = new StringBuilder("  ");
      for (int i = 0; i < row.size(); i++) {
        line.append(row.get(i));
        if (i < row.size() - 1) {
          line.append(" ".repeat(width[i] - row.get(i).length() + 2));
        }
      }
      out.println(line.toString().stripTrailing());
    }
  }
}
