package dev.srt.operator.cli;

import java.io.PrintStream;
import java.util.List;

/** Prints rows as left-aligned columns, two spaces apart. */
final class Table {
  private Table() {}

  static void print(List<List<String>> rows, PrintStream out) {
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
