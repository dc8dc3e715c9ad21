package dev.srt.operator.testinfra;

import java.nio.file.Path;
import java.util.List;

/**
 * The command line of one Dynamo {@code mocker} engine ({@code python -m dynamo.mocker}, Rust in
 * ai-dynamo-runtime): a CPU-only stand-in, made by Dynamo itself, for a worker that registers a
 * {@code generate} endpoint and publishes KV events on the Dynamo event plane. Flags as its
 * parser has them at 1.6.1 ({@code dynamo/mocker/args.py} in the wheel): {@code --engine-type
 * sglang}, {@code --block-size} (SGLang's default would be 1), {@code --enable-prefix-caching}
 * (the mocker publishes KV events exactly when prefix caching is on and it is not a decode
 * worker: {@code dynamo/mocker/config.py}, {@code kv_event_publishing_enabled}), {@code
 * --endpoint dyn://NAMESPACE.backend.generate} (the component Dynamo's SGLang workers register).
 * Discovery and planes come from the environment ({@code ETCD_ENDPOINTS}, {@code DYN_*}), as for
 * the sidecar it stands in for.
 */
public final class DynamoMocker {
  private DynamoMocker() {}

  /**
   * {@code speedup}: the mocker's {@code --speedup-ratio} (its simulated engine time divided by
   * it), so a test's few requests take milliseconds.
   */
  public static List<String> argv(String python, Path model, String servedModelName, String namespace, int blockSize,
      double speedup) {
    return List.of(python, "-m", "dynamo.mocker", "--engine-type", "sglang", "--model-path", model.toString(),
        "--model-name", servedModelName, "--endpoint", "dyn://" + namespace + ".backend.generate",
        "--block-size", String.valueOf(blockSize), "--enable-prefix-caching", "--speedup-ratio", String.valueOf(speedup));
  }
}
