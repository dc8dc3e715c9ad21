package dev.srt.operator.emulator;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/** In-process emulated processes for one test, closed in reverse start order. */
final class EmulatedFleet implements AutoCloseable {
  static final String MODEL = "Qwen/Qwen3-32B-FP8";
  static final PrintStream QUIET = new PrintStream(new ByteArrayOutputStream());

  private final List<EmulatedProcess> started = new ArrayList<>();

  <T extends EmulatedProcess> T start(T p) throws Exception {
    started.add(p);
    p.start();
    return p;
  }

  SglangWorker worker(Map<String, String> env, String... extra) throws Exception {
    List<String> args = new ArrayList<>(List.of("--model-path", "/models/Qwen3-32B-FP8", "--served-model-name", MODEL,
        "--port", "0", "--page-size", "16", "--enable-metrics",
        "--kv-events-config", "{\"publisher\":\"zmq\",\"topic\":\"kv-events\",\"endpoint\":\"tcp://*:5200\"}"));
    args.addAll(List.of(extra));
    return start(new SglangWorker(SglangWorker.Options.parse(args, env, QUIET)));
  }

  static String url(SglangWorker w) {
    return "http://127.0.0.1:" + w.port();
  }

  @Override
  public void close() {
    for (int i = started.size() - 1; i >= 0; i--) {
      started.get(i).close();
    }
  }
}
