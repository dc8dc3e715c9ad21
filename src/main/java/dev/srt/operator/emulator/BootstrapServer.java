package dev.srt.operator.emulator;

/**
 * Where a prefill engine's bootstrap server is reached from other nodes: the host its sidecar
 * publishes ({@code --bootstrap-host}, Dynamo's routable bootstrap host) and the engine's
 * {@code --disaggregation-bootstrap-port}. The P/D router hands both to the prefill and decode
 * engines with each request's bootstrap room.
 */
public record BootstrapServer(String host, int port) {}
