package dev.srt.operator.api;

/** How the engines publish KV-cache events. */
public enum KvEventPublisher implements ApiEnum {
  ZMQ
}
