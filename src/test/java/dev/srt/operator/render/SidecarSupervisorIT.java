package dev.srt.operator.render;

import static org.assertj.core.api.Assertions.assertThat;

import dev.srt.operator.plan.Examples;
import dev.srt.operator.plan.Mode;
import java.io.IOException;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The engine/sidecar supervisor, run for real with small stand-in programs. */
class SidecarSupervisorIT {
  @TempDir Path dir;

  /** An engine that binds its gRPC port after a delay and records when, then serves forever. */
  String engine(int port, double delaySeconds) {
    return Shell.join(List.of("python3", "-c",
        "import socket,time\ntime.sleep(" + delaySeconds + ")\ns=socket.socket()\ns.setsockopt(socket.SOL_SOCKET,socket.SO_REUSEADDR,1)\n"
            + "s.bind(('127.0.0.1'," + port + "))\ns.listen(8)\nopen('engine.bound','w').write(repr(time.time()))\n"
            + "while True: s.accept()"));
  }

  String sidecar(String body) {
    return Shell.join(List.of("python3", "-c", "import time,os\nopen('sidecar.started','w').write(repr(time.time()))\n" + body));
  }

  Bash.Result supervise(String engineCmd, String sidecarCmd, int port, int timeout) throws Exception {
    return Bash.script(dir, 60, BashLibrary.sidecarSupervisor(), engineCmd, "engine.log", sidecarCmd, "sidecar.log",
        String.valueOf(port), String.valueOf(timeout), "worker-0");
  }

  @Test
  void sidecarStartsOnlyAfterTheEnginePortBindsAndItsExitStopsTheEngine() throws Exception {
    int port = freePort();
    Bash.Result r = supervise(engine(port, 1.0), sidecar("time.sleep(0.5)"), port, 30);
    // The sidecar exited 0 by itself: still a failure, and the engine was stopped.
    assertThat(r.code()).isEqualTo(1);
    assertThat(r.output()).contains("sidecar exited with code 0");
    double bound = Double.parseDouble(Files.readString(dir.resolve("engine.bound")));
    double started = Double.parseDouble(Files.readString(dir.resolve("sidecar.started")));
    assertThat(started).isGreaterThanOrEqualTo(bound);
    assertThat(portOpen(port)).as("engine stopped").isFalse();
  }

  @Test
  void engineExitStopsTheSidecarAndFails() throws Exception {
    int port = freePort();
    String engine = Shell.join(List.of("python3", "-c",
        "import socket,time\ns=socket.socket()\ns.bind(('127.0.0.1'," + port + "))\ns.listen(8)\ntime.sleep(1.5)\nraise SystemExit(3)"));
    Bash.Result r = supervise(engine, sidecar("open('sidecar.pid','w').write(str(os.getpid()))\ntime.sleep(600)"), port, 30);
    assertThat(r.code()).isEqualTo(3);
    assertThat(r.output()).contains("engine exited with code 3");
    long sidecarPid = Long.parseLong(Files.readString(dir.resolve("sidecar.pid")).trim());
    assertThat(ProcessHandle.of(sidecarPid).map(ProcessHandle::isAlive).orElse(false)).isFalse();
  }

  @Test
  void engineDyingBeforeItsPortBindsFailsWithoutStartingTheSidecar() throws Exception {
    int port = freePort();
    Bash.Result r = supervise(Shell.join(List.of("python3", "-c", "raise SystemExit(7)")), sidecar(""), port, 30);
    assertThat(r.code()).isEqualTo(1);
    assertThat(r.output()).contains("engine exited before native gRPC became ready");
    assertThat(dir.resolve("sidecar.started")).doesNotExist();
  }

  @Test
  void startupTimeoutFails() throws Exception {
    int port = freePort();
    Bash.Result r = supervise(Shell.join(List.of("sleep", "30")), sidecar(""), port, 1);
    assertThat(r.code()).isEqualTo(1);
    assertThat(r.output()).contains("timed out waiting for the engine's native gRPC on port " + port);
  }

  @Test
  void renderedArmsUseTheSupervisorForEveryWorker() {
    String script = Scripts.render(Examples.plan("dynamo-kv", Mode.DIRECT));
    assertThat(script).contains(BashLibrary.sidecarSupervisor());
    assertThat(script.lines().filter(l -> l.startsWith("srt_start worker-") && l.contains("\"$SRT_SIDECAR_SUPERVISOR\""))).hasSize(2);
    assertThat(Scripts.render(Examples.plan("sgl-router", Mode.DIRECT))).doesNotContain("SRT_SIDECAR_SUPERVISOR");
  }

  static int freePort() throws IOException {
    try (ServerSocket s = new ServerSocket(0)) {
      return s.getLocalPort();
    }
  }

  static boolean portOpen(int port) {
    try (java.net.Socket s = new java.net.Socket("127.0.0.1", port)) {
      return true;
    } catch (IOException e) {
      return false;
    }
  }
}
