package dev.srt.operator.host;

import dev.srt.operator.api.Mode;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/**
 * What a GpuCluster's host says about itself in one remote command: the Slurm version, partitions
 * and GPUs per node (mode slurm), or the host name and {@code nvidia-smi -L} lines (mode direct).
 */
public final class HostProbe {
  /** The answer; lists are empty when the host has no such thing. */
  public record Facts(String slurmVersion, List<String> partitions, List<String> gpus, String hostname) {}

  private static final String SLURM = String.join("\n",
      "echo \"@hostname $(hostname)\"",
      "if ! command -v sinfo >/dev/null 2>&1; then echo '@error sinfo not found'; exit 0; fi",
      "echo \"@version $(sinfo --version 2>&1 | head -n 1)\"",
      "sinfo -h -o '%P' 2>/dev/null | sed 's/^/@partition /'",
      "sinfo -h -N -o '%N %G' 2>/dev/null | sort -u | sed 's/^/@gpu /'");
  private static final String DIRECT = String.join("\n",
      "echo \"@hostname $(hostname)\"",
      "if command -v nvidia-smi >/dev/null 2>&1; then nvidia-smi -L 2>&1 | sed 's/^/@gpu /'; fi");

  private HostProbe() {}

  /** Probes the host; throws when it cannot be reached, or (slurm) when Slurm does not answer. */
  public static Facts probe(Transport transport, Mode mode, Duration timeout) throws HostException {
    ExecResult r = transport.exec(mode == Mode.SLURM ? SLURM : DIRECT, null, timeout);
    if (!r.succeeded()) {
      throw new HostException(HostException.Kind.COMMAND_FAILED, transport.describe() + ": probe failed (exit "
          + r.exitCode() + "): " + ExecResult.abbreviate(r.stderr().strip(), 500));
    }
    return parse(r.stdout());
  }

  static Facts parse(String out) throws HostException {
    String version = null;
    String hostname = null;
    List<String> partitions = new ArrayList<>();
    List<String> gpus = new ArrayList<>();
    for (String line : out.split("\n")) {
      int space = line.indexOf(' ');
      if (space < 0) {
        continue;
      }
      String key = line.substring(0, space);
      String value = line.substring(space + 1).strip();
      switch (key) {
        case "@hostname" -> hostname = value;
        case "@version" -> version = value;
        case "@partition" -> partitions.add(value);
        case "@gpu" -> gpus.add(value);
        case "@error" -> throw new HostException(HostException.Kind.COMMAND_FAILED, value);
        default -> { }
      }
    }
    return new Facts(version, List.copyOf(partitions), List.copyOf(gpus), hostname);
  }
}
