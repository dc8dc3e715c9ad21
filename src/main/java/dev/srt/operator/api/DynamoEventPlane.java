package dev.srt.operator.api;

/** How Dynamo's KV events travel: ZMQ, or NATS JetStream. */
public enum DynamoEventPlane implements ApiEnum {
  ZMQ, NATS
}
