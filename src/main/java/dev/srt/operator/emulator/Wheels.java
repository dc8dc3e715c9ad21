package dev.srt.operator.emulator;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;
import java.util.zip.ZipEntry;
import java.util.zip.ZipFile;
import java.util.zip.ZipOutputStream;

/**
 * Wheel files the emulated maturin and pip write: real zip archives with a dist-info, plus
 * {@code srt_emulator.json} saying what the build linked, which the emulated pip reads back.
 */
public final class Wheels {
  static final String EMULATOR_ENTRY = "srt_emulator.json";

  private Wheels() {}

  /** A wheel's file name read as PEP 427: {@code name-version-...whl}, name normalized to dashes. */
  public record Name(String distribution, String version) {
    public static Optional<Name> parse(String fileName) {
      if (!fileName.endsWith(".whl")) {
        return Optional.empty();
      }
      String[] parts = fileName.substring(0, fileName.length() - 4).split("-");
      return parts.length < 5 ? Optional.empty() : Optional.of(new Name(parts[0].replace('_', '-').toLowerCase(), parts[1]));
    }
  }

  public static Path write(Path dir, String distribution, String version, String tags, JsonNode emulatorInfo) throws IOException {
    Files.createDirectories(dir);
    String stem = distribution.replace('-', '_');
    Path wheel = dir.resolve(stem + "-" + version + "-" + tags + ".whl");
    String distInfo = stem + "-" + version + ".dist-info/";
    try (OutputStream os = Files.newOutputStream(wheel); ZipOutputStream zip = new ZipOutputStream(os)) {
      put(zip, distInfo + "METADATA", "Metadata-Version: 2.1\nName: " + distribution + "\nVersion: " + version + "\n");
      put(zip, distInfo + "WHEEL", "Wheel-Version: 1.0\nGenerator: srt-operator-emulator\nTag: " + tags + "\n");
      put(zip, EMULATOR_ENTRY, Json.write(emulatorInfo) + "\n");
    }
    return wheel;
  }

  private static void put(ZipOutputStream zip, String name, String content) throws IOException {
    zip.putNextEntry(new ZipEntry(name));
    zip.write(content.getBytes(StandardCharsets.UTF_8));
    zip.closeEntry();
  }

  /** The build record of an emulator-made wheel; empty for any other wheel. */
  public static Optional<JsonNode> emulatorInfo(Path wheel) throws IOException {
    try (ZipFile zip = new ZipFile(wheel.toFile())) {
      ZipEntry e = zip.getEntry(EMULATOR_ENTRY);
      return e == null ? Optional.empty() : Optional.of(Json.parse(zip.getInputStream(e).readAllBytes()));
    } catch (java.util.zip.ZipException e) {
      return Optional.empty();
    }
  }
}
