package dev.srt.operator.emulator;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.List;

/**
 * {@code cargo build} for the one binary the arms build with cargo, the experimental
 * {@code sgl-router}: the "build" writes a script at the path cargo would, which starts the
 * emulated router. The manifest need not exist on the emulated host.
 */
final class CargoTool {
  private final BuildTools.Context ctx;

  CargoTool(BuildTools.Context ctx) {
    this.ctx = ctx;
  }

  int run(List<String> argv) throws BuildTools.ToolFailure, IOException {
    if (argv.isEmpty() || argv.get(0).equals("--version") || argv.get(0).equals("-V")) {
      ctx.out().println("cargo 1.89.0 (emulated by srt-operator)");
      return 0;
    }
    if (!argv.get(0).equals("build")) {
      throw new BuildTools.ToolFailure(101, "error: cargo (emulated) supports only `cargo build`, not `cargo " + argv.get(0) + "`");
    }
    ArgParser.Parsed a = new ArgParser("cargo build").withPositionals()
        .flag("--release").value("--features", "-F").value("--jobs", "-j").value("--package", "-p").value("--target").value("--manifest-path").value("--bin").value("--target-dir").value("--profile")
        .parse(argv.subList(1, argv.size()));
    Path manifest = ctx.resolve(a.get("--manifest-path", "Cargo.toml"));
    String bin = a.get("--bin", packageName(manifest));
    if (!bin.equals("sgl-router")) {
      throw new BuildTools.ToolFailure(101, "error: cargo (emulated) builds only the sgl-router binary, not `" + bin
          + "` (manifest " + manifest + ")");
    }
    String targetDir = a.get("--target-dir", ctx.env().get("CARGO_TARGET_DIR"));
    Path target = targetDir != null ? ctx.resolve(targetDir) : manifest.getParent().resolve("target");
    String profile = a.flag("--release") ? "release" : a.get("--profile", "debug");
    Path binary = target.resolve(profile).resolve(bin);
    Files.createDirectories(binary.getParent());
    Files.writeString(binary, """
        #!/usr/bin/env bash
        # sgl-router built by the srt-operator emulator's cargo from %s
        exec %s "$@"
        """.formatted(manifest, ctx.launcher().get().emulateCommand("router", "sgl-router")));
    Files.setPosixFilePermissions(binary, PosixFilePermissions.fromString("rwxr-xr-x"));
    ctx.err().printf("   Compiling sgl-router v0.1.0 (%s)%n", manifest.getParent());
    ctx.err().printf("    Finished `%s` profile [optimized] target(s) in 0.01s%n", profile);
    return 0;
  }

  /** The package name when the manifest is there, else the crate directory's name. */
  private static String packageName(Path manifest) throws IOException {
    if (Files.isRegularFile(manifest)) {
      var name = TomlLines.read(manifest).get("package", "name");
      if (name.isPresent()) {
        return name.get().text();
      }
    }
    Path dir = manifest.toAbsolutePath().getParent();
    return dir == null || dir.getFileName() == null ? "" : dir.getFileName().toString();
  }
}
