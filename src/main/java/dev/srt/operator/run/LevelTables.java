package dev.srt.operator.run;

import dev.srt.operator.api.ArmRun;
import dev.srt.operator.api.BenchmarkResults;
import dev.srt.operator.api.LevelResults;
import dev.srt.operator.api.LevelTable;
import dev.srt.operator.verdict.Metric;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;

/**
 * A run's levels packed into a {@link LevelTable} (the operator's status) and unpacked again (the
 * operator after a restart, {@code report --kube}). Packing keeps only {@code keep}; a level's
 * message (why it has no numbers) is not kept.
 */
public final class LevelTables {
  static final String LOAD = "load";

  private LevelTables() {}

  /** Replaces the run's levels by their table of the metrics {@code keep}. */
  public static void pack(ArmRun run, Set<Metric> keep, java.util.function.UnaryOperator<Double> round) {
    if (run.levels == null) {
      return;
    }
    List<Metric> metrics = keep.stream().sorted().toList();
    LevelTable t = new LevelTable();
    t.columns.add(LOAD);
    metrics.forEach(m -> t.columns.add(m.key()));
    for (LevelResults l : run.levels) {
      List<Double> row = new ArrayList<>();
      row.add(l.load);
      metrics.forEach(m -> row.add(l.results == null ? null : round.apply(m.of(l.results))));
      t.rows.add(row);
    }
    run.levelTable = t;
    run.levels = null;
  }

  /** Puts a packed run's levels back; columns this version does not know are skipped. */
  public static void unpack(ArmRun run) {
    LevelTable t = run.levelTable;
    if (t == null || t.columns == null || t.rows == null || t.columns.isEmpty() || !LOAD.equals(t.columns.get(0))) {
      return;
    }
    List<LevelResults> levels = new ArrayList<>();
    for (List<Double> row : t.rows) {
      if (row == null || row.isEmpty() || row.get(0) == null) {
        continue;
      }
      BenchmarkResults results = new BenchmarkResults();
      boolean any = false;
      for (int c = 1; c < Math.min(row.size(), t.columns.size()); c++) {
        Double v = row.get(c);
        var metric = Metric.of(t.columns.get(c));
        if (v != null && metric.isPresent()) {
          metric.get().set(results, v);
          any = true;
        }
      }
      levels.add(new LevelResults(row.get(0), any ? results : null));
    }
    run.levels = levels;
    run.levelTable = null;
  }
}
