package dev.srt.operator.api;

/** How a load ladder loads the arms: requests in flight (closed loop) or arrivals per second (open loop). */
public enum LoadMode implements ApiEnum {
  CONCURRENCY, REQUEST_RATE
}
