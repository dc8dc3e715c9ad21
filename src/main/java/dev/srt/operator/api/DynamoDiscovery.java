package dev.srt.operator.api;

/** Where Dynamo's processes find each other: an etcd the run starts (etcd), or files in the run directory (file). */
public enum DynamoDiscovery implements ApiEnum {
  ETCD, FILE
}
