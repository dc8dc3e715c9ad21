package dev.srt.operator.emulator;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import org.msgpack.core.MessageBufferPacker;
import org.msgpack.core.MessagePack;
import org.zeromq.SocketType;
import org.zeromq.ZContext;
import org.zeromq.ZMQ;

/**
 * SGLang's {@code ZmqEventPublisher} (sglang 0.5.21, {@code sglang/srt/disaggregation/kv_events.py})
 * for the emulated engine: a ZMQ PUB socket on the {@code endpoint} of {@code --kv-events-config},
 * bound when the host is a wildcard ({@code *}, {@code 0.0.0.0}, {@code ::}) or the transport is
 * {@code ipc://}, connected otherwise, as SGLang decides. Each batch is one multipart message
 * {@code [topic, sequence (8 bytes big-endian, from 0), payload]}, the payload the msgpack array
 * {@code [ts, [event...], attn_dp_rank]} ({@code KVEventBatch}, array-like). One thread sends, in
 * the order the engine published, as SGLang's publisher thread does. A wildcard binds where every
 * emulated server listens ({@link ListenAddress}). No replay socket: {@code replay_endpoint} is
 * accepted and not served.
 */
final class KvEventPublisher implements AutoCloseable {
  private static final List<KvEvent> STOP = List.of();

  private final ZContext context;
  private final ZMQ.Socket pub;
  private final byte[] topic;
  private final String endpoint;
  private final BlockingQueue<List<KvEvent>> queue = new LinkedBlockingQueue<>();
  private final Thread sender;
  private long sequence;

  private KvEventPublisher(JsonNode config) {
    String configured = config.path("endpoint").asText("tcp://*:5557");
    this.topic = config.path("topic").asText("").getBytes(StandardCharsets.UTF_8);
    this.context = new ZContext(1);
    this.pub = context.createSocket(SocketType.PUB);
    pub.setSndHWM(config.path("hwm").asInt(100_000));
    pub.setLinger(0);
    try {
      if (binds(configured)) {
        endpoint = bindAddress(configured);
        pub.bind(endpoint);
      } else {
        endpoint = configured;
        pub.connect(endpoint);
      }
    } catch (RuntimeException e) {
      context.close();
      throw e;
    }
    sender = new Thread(this::sendLoop, "kv-event-publisher");
    sender.setDaemon(true);
    sender.start();
  }

  /**
   * The publisher {@code --kv-events-config} asks for, or null: without a config, for another
   * publisher than {@code zmq}, or when the endpoint cannot be had (logged; the engine serves on
   * without events, so that tests running many engines with one config do not fall over).
   */
  static KvEventPublisher open(JsonNode config, PrintStream err) {
    if (config == null || !"zmq".equals(config.path("publisher").asText("null"))) {
      return null;
    }
    try {
      KvEventPublisher p = new KvEventPublisher(config);
      err.printf("sglang.launch_server (emulated): KV events on %s (topic '%s')%n", p.endpoint,
          new String(p.topic, StandardCharsets.UTF_8));
      return p;
    } catch (RuntimeException e) {
      err.printf("sglang.launch_server (emulated): cannot open the KV-event publisher at %s (%s); publishing no KV events%n",
          config.path("endpoint").asText("tcp://*:5557"), e.getMessage());
      return null;
    }
  }

  /** SGLang's heuristic: bind a wildcard host or an ipc/inproc path, connect to anything else. */
  static boolean binds(String endpoint) {
    return endpoint.contains("*") || endpoint.contains("::") || endpoint.contains("0.0.0.0")
        || endpoint.startsWith("ipc://") || endpoint.startsWith("inproc://");
  }

  private static String bindAddress(String endpoint) {
    if (!endpoint.startsWith("tcp://")) {
      return endpoint;
    }
    String port = endpoint.substring(endpoint.lastIndexOf(':') + 1);
    return "tcp://" + ListenAddress.current().bindAddress().getHostAddress() + ":" + port;
  }

  /** The endpoint the socket bound or connected to. */
  String endpoint() {
    return endpoint;
  }

  /** Queues one batch; an empty one is not sent. */
  void publish(List<KvEvent> events) {
    if (!events.isEmpty()) {
      queue.add(List.copyOf(events));
    }
  }

  private void sendLoop() {
    try {
      for (List<KvEvent> batch = queue.take(); batch != STOP; batch = queue.take()) {
        byte[] payload = encode(batch, System.currentTimeMillis() / 1000.0);
        pub.sendMore(topic);
        pub.sendMore(ByteBuffer.allocate(Long.BYTES).putLong(sequence++).array());
        pub.send(payload);
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    } catch (RuntimeException e) {
      // the context was closed under a blocked send: the engine is stopping
    }
  }

  /** {@code KVEventBatch} as msgspec writes it: {@code [ts, events, attn_dp_rank]}, rank 0. */
  static byte[] encode(List<KvEvent> events, double ts) {
    try (MessageBufferPacker out = MessagePack.newDefaultBufferPacker()) {
      out.packArrayHeader(3);
      out.packDouble(ts);
      out.packArrayHeader(events.size());
      for (KvEvent e : events) {
        e.write(out);
      }
      out.packInt(0);
      return out.toByteArray();
    } catch (IOException e) {
      throw new IllegalStateException("packing into memory cannot fail", e);
    }
  }

  @Override
  public void close() {
    queue.add(STOP);
    try {
      sender.join(TimeUnit.SECONDS.toMillis(1));
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
    context.close();
  }
}
