package dev.srt.operator.host;

import dev.srt.operator.base.Shell;
import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * The values of a run's secret variables, and the {@code secret.env} file they become in its run
 * directory: one {@code export NAME=<quoted value>} line each, sourced by the script before any
 * process starts. The content travels to the host on the stdin of the command that writes it,
 * never in a command line; {@link #toString()} shows the names only, so an instance can be logged.
 */
public final class SecretEnvFile {
  /** The file's name in the run directory (the rendered script sources it). */
  public static final String FILE_NAME = "secret.env";
  /** No secret variables: nothing is written. */
  public static final SecretEnvFile NONE = new SecretEnvFile(Map.of());

  private static final Pattern ENV_NAME = Pattern.compile("[A-Za-z_][A-Za-z0-9_]*");

  private final Map<String, byte[]> values;

  private SecretEnvFile(Map<String, byte[]> values) {
    Map<String, byte[]> copy = new LinkedHashMap<>();
    values.forEach((name, value) -> {
      if (!ENV_NAME.matcher(name).matches()) {
        throw new IllegalArgumentException("not an environment variable name: " + name);
      }
      for (byte b : value) {
        if (b == 0) {
          // The message names the variable, never the value.
          throw new IllegalArgumentException("the value of " + name + " contains a NUL byte, which no environment variable can hold");
        }
      }
      copy.put(name, value.clone());
    });
    this.values = Collections.unmodifiableMap(copy);
  }

  /** Values as bytes, exactly as a Secret holds them, in the order the variables are declared. */
  public static SecretEnvFile ofBytes(Map<String, byte[]> values) {
    return values.isEmpty() ? NONE : new SecretEnvFile(values);
  }

  /** Values as text (UTF-8), in the order given. */
  public static SecretEnvFile of(Map<String, String> values) {
    Map<String, byte[]> bytes = new LinkedHashMap<>();
    values.forEach((k, v) -> bytes.put(k, v.getBytes(StandardCharsets.UTF_8)));
    return ofBytes(bytes);
  }

  public boolean isEmpty() {
    return values.isEmpty();
  }

  /** The variables' names, in order. */
  public Set<String> names() {
    return values.keySet();
  }

  /**
   * The file's bytes. Each value is quoted with {@link Shell#quote} byte for byte (through
   * ISO-8859-1, which maps every byte to one character), so any bytes but NUL reach the process
   * unchanged. Never log or store these bytes.
   */
  public byte[] content() {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    values.forEach((name, value) -> {
      String quoted = Shell.quote(new String(value, StandardCharsets.ISO_8859_1));
      out.writeBytes(("export " + name + "=").getBytes(StandardCharsets.US_ASCII));
      out.writeBytes(quoted.getBytes(StandardCharsets.ISO_8859_1));
      out.write('\n');
    });
    return out.toByteArray();
  }

  /** Names only: the values never reach a log line. */
  @Override
  public String toString() {
    return "SecretEnvFile" + values.keySet();
  }
}
