package dev.srt.operator.render;

import dev.srt.operator.plan.FactCapture;
import java.util.ArrayList;
import java.util.List;

/**
 * The facts collector's command line ({@code srt_facts ARGS}): each value an option word of its
 * own ({@code --dataset=PATH}, so that no value is read as an option), engines as three words.
 */
final class FactArguments {
  private FactArguments() {}

  static List<String> of(FactCapture f) {
    List<String> args = new ArrayList<>();
    args.add("--nodes=" + f.nodes());
    f.packages().forEach(p -> args.add("--package=" + p));
    for (FactCapture.Engine e : f.engines()) {
      if (e.serverInfoUrl() != null) {
        args.addAll(List.of("--engine", e.name(), String.valueOf(e.node()), e.serverInfoUrl()));
      } else {
        args.addAll(List.of("--engine-unknown", e.name(), String.valueOf(e.node()), e.unknown()));
      }
    }
    args.add("--model-dir=" + f.model().path());
    f.model().files().forEach(file -> args.add("--model-file=" + file));
    args.add("--served-model-name=" + f.model().servedModelName());
    FactCapture.Router r = f.router();
    args.add("--router-kind=" + r.kind());
    option(args, "--router-binary", r.binary());
    r.wheels().forEach(w -> args.add("--router-wheel=" + w));
    r.packages().forEach(p -> args.add("--router-package=" + p));
    option(args, "--router-pythonpath", r.pythonPath());
    option(args, "--catalog-rev", r.catalogRev());
    option(args, "--catalog-path", r.catalogPath());
    r.files().forEach(file -> args.add("--router-file=" + file));
    FactCapture.WorkloadFacts w = f.workload();
    args.add("--workload-tool=" + w.tool());
    option(args, "--workload-package", w.versionPackage());
    option(args, "--dataset", w.dataset());
    args.add("--seed=" + w.seed());
    option(args, "--workload-tokenizer", w.tokenizer());
    option(args, "--engine-seed", f.engineSeed());
    return args;
  }

  private static void option(List<String> args, String name, String value) {
    if (value != null) {
      args.add(name + "=" + value);
    }
  }
}
