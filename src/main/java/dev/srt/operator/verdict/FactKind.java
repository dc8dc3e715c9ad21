package dev.srt.operator.verdict;

import dev.srt.operator.api.RunFact;
import dev.srt.operator.api.RunFacts;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.List;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Which facts of a run may differ between arms: the router's own (routing), those shown but never
 * compared (recorded), and everything else, which must be the same in every run a verdict compares
 * (held constant). Decided here from the fact's name, never taken from what the run wrote.
 */
public enum FactKind {
  ROUTING(RunFacts.ROUTING),
  HELD_CONSTANT(RunFacts.HELD_CONSTANT),
  RECORDED(RunFacts.RECORDED);

  /**
   * Engine arguments that srt-operator sets because of the router in front of the engine (a
   * Dynamo sidecar needs the native gRPC port and incremental streaming): part of the router.
   */
  public static final Set<String> ROUTING_SERVER_ARGS = Set.of("grpc_port", "incremental_streaming_output");
  /**
   * Engine arguments that vary from run to run by nature: the seed SGLang draws for itself when
   * none is given, and the rendezvous address of a multi-node worker (its allocation's first node).
   */
  public static final Set<String> RECORDED_SERVER_ARGS = Set.of("random_seed", "dist_init_addr");
  private static final Pattern SERVER_ARG = Pattern.compile("engine \\S+ server_args\\.(.+)");
  private static final Pattern RECORDED_NAME = Pattern.compile("node \\d+ host|engine \\S+ node");

  private final String wire;

  FactKind(String wire) {
    this.wire = wire;
  }

  /** As written in {@link RunFact#kind}. */
  public String wire() {
    return wire;
  }

  /** The kind of the fact named {@code name}. */
  public static FactKind of(String name) {
    if (name.startsWith("router ")) {
      return ROUTING;
    }
    if (RECORDED_NAME.matcher(name).matches()) {
      return RECORDED;
    }
    Matcher arg = SERVER_ARG.matcher(name);
    if (arg.matches()) {
      return ROUTING_SERVER_ARGS.contains(arg.group(1)) ? ROUTING : RECORDED_SERVER_ARGS.contains(arg.group(1)) ? RECORDED : HELD_CONSTANT;
    }
    return HELD_CONSTANT;
  }

  /** SHA-256 (16 hex digits) of the names and values (or unknowns) of the facts of this kind, in name order. */
  public String digest(List<RunFact> facts) {
    StringBuilder text = new StringBuilder();
    facts.stream().filter(f -> of(f.name) == this).sorted(java.util.Comparator.comparing(f -> f.name))
        .forEach(f -> text.append(f.name).append('\0').append(f.value == null ? "\1unknown" : f.value).append('\n'));
    try {
      byte[] d = MessageDigest.getInstance("SHA-256").digest(text.toString().getBytes(StandardCharsets.UTF_8));
      return HexFormat.of().formatHex(d).substring(0, 16);
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("SHA-256 is always present", e);
    }
  }
}
