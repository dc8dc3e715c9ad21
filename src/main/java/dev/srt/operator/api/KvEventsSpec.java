package dev.srt.operator.api;

import io.fabric8.generator.annotation.Default;
import com.fasterxml.jackson.annotation.JsonInclude;
import io.fabric8.generator.annotation.Size;

/** Rendered into each worker's --kv-events-config with a per-worker endpoint tcp://*:5200+i. */
@JsonInclude(JsonInclude.Include.NON_NULL)
public class KvEventsSpec {
  /** Publisher kind. Default and only value: zmq. */
  @Size(max = Limits.MAX_WORD)
  @OneOf(KvEventPublisher.class)
  @Default("zmq")
  public String publisher;

  /** ZMQ topic. Default: kv-events. */
  @Size(max = Limits.MAX_TEXT)
  @Default("kv-events")
  public String topic;

  /**
   * false turns KV events off (routers then fall back to load-only decisions). Default true when
   * this block is present; without a kvEvents block workers publish no KV events.
   */
  public Boolean enabled;

  public boolean enabledOrDefault() {
    return enabled == null || enabled;
  }
}
