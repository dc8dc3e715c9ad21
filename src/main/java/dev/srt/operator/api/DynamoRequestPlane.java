package dev.srt.operator.api;

/** How Dynamo's frontend reaches its workers: TCP, HTTP or NATS. */
public enum DynamoRequestPlane implements ApiEnum {
  TCP, HTTP, NATS
}
