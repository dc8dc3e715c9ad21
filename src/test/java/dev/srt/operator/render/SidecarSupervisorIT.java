package dev.srt.operator.render;

import static org.assertj.core.api.Assertions.assertThat;

import dev.srt.operator.plan.Examples;
import dev.srt.operator.api.Mode;
import java.io.IOException;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The engine/sidecar supervisor, run for real with small stand-in programs. */
class SidecarSupervisorIT {
  @TempDir Path dir;

  /** An engine that binds its gRPC port after a delay and records when, then serves forever. */
  List<String> engine(int port, double delaySeconds) {
    return List.of("python3", "-c",
        "import socket,time\ntime.sleep(" + delaySeconds + ")\ns=socket.socket()\ns.setsockopt(socket.SOL_SOCKET,socket.SO_REUSEADDR,1)\n"
            + "s.bind(('127.0.0.1'," + port + "))\ns.listen(8)\nopen('engine.bound','w').write(repr(time.time()))\n"
            + "while True: s.accept()");
  }

  List<String> sidecar(String body) {
    return List.of("python3", "-c", "import time,os\nopen('sidecar.started','w').write(repr(time.time()))\n" + body);
  }

  /** Runs the supervisor as the scripts do: the two commands as argv words, the engine's preceded by their count. */
  Bash.Result supervise(List<String> engine, List<String> sidecar, int port, int timeout) throws Exception {
    List<String> args = new ArrayList<>(List.of("worker-0", String.valueOf(port), String.valueOf(timeout), "engine.log", "sidecar.log",
        String.valueOf(engine.size())));
    args.addAll(engine);
    args.addAll(sidecar);
    return Bash.script(dir, 60, BashLibrary.sidecarSupervisor(), args.toArray(String[]::new));
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
    // The engine exits once the sidecar has written its pid (a rename, so the file is whole), not after a fixed time
    // that a busy machine may not give the sidecar to start.
    List<String> engine = List.of("python3", "-c",
        "import os,socket,time\ns=socket.socket()\ns.bind(('127.0.0.1'," + port + "))\ns.listen(8)\n"
            + "deadline=time.time()+50\nwhile not os.path.exists('sidecar.pid') and time.time()<deadline: time.sleep(0.05)\nraise SystemExit(3)");
    Bash.Result r = supervise(engine, sidecar("open('sidecar.pid.tmp','w').write(str(os.getpid()))\nos.rename('sidecar.pid.tmp','sidecar.pid')\n"
        + "time.sleep(600)"), port, 30);
    assertThat(r.code()).isEqualTo(3);
    assertThat(r.output()).contains("engine exited with code 3");
    long sidecarPid = Long.parseLong(Files.readString(dir.resolve("sidecar.pid")).trim());
    org.awaitility.Awaitility.await().atMost(java.time.Duration.ofSeconds(20)).untilAsserted(() ->
        assertThat(ProcessHandle.of(sidecarPid).map(ProcessHandle::isAlive).orElse(false)).as("the sidecar was stopped").isFalse());
  }

  @Test
  void aKilledEngineIsNamedWithItsSignalAndPid() throws Exception {
    int port = freePort();
    List<String> engine = List.of("python3", "-c", "import os,socket,time\nopen('engine.pid','w').write(str(os.getpid()))\n"
        + "s=socket.socket()\ns.bind(('127.0.0.1'," + port + "))\ns.listen(8)\ntime.sleep(1)\nos.kill(os.getpid(), 9)");
    Bash.Result r = supervise(engine, sidecar("time.sleep(600)"), port, 30);
    assertThat(r.code()).isEqualTo(137);
    String pid = Files.readString(dir.resolve("engine.pid")).trim();
    assertThat(r.output()).contains("worker-0: engine exited with code 137 (signal 9, KILL), pid " + pid
        + " (see engine.log); stopping the sidecar");
  }

  @Test
  void engineDyingBeforeItsPortBindsFailsWithoutStartingTheSidecar() throws Exception {
    int port = freePort();
    Bash.Result r = supervise(List.of("python3", "-c", "raise SystemExit(7)"), sidecar(""), port, 30);
    assertThat(r.code()).isEqualTo(1);
    assertThat(r.output()).contains("engine exited before native gRPC became ready");
    assertThat(dir.resolve("sidecar.started")).doesNotExist();
  }

  @Test
  void startupTimeoutFails() throws Exception {
    int port = freePort();
    Bash.Result r = supervise(List.of("sleep", "30"), sidecar(""), port, 1);
    assertThat(r.code()).isEqualTo(1);
    assertThat(r.output()).contains("timed out waiting for the engine's native gRPC on port " + port);
  }

  @Test
  void commandsRunExactlyAsGivenWithoutASecondParse() throws Exception {
    int port = freePort();
    String hostile = "it's $(touch pwned) `touch pwned` \"q\" ; touch pwned\n*";
    List<String> engine = new ArrayList<>(engine(port, 0.2));
    engine.add(hostile);
    List<String> sidecar = sidecar("import sys\nopen('sidecar.argv','w').write(sys.argv[1])\ntime.sleep(0.3)");
    sidecar = new ArrayList<>(sidecar);
    sidecar.add(hostile);
    Bash.Result r = supervise(engine, sidecar, port, 30);
    assertThat(r.output()).contains("sidecar exited with code 0");
    assertThat(Files.readString(dir.resolve("sidecar.argv"))).isEqualTo(hostile);
    assertThat(dir.resolve("pwned")).doesNotExist();
  }

  @Test
  void aMalformedCallIsAUsageError() throws Exception {
    Bash.Result r = Bash.script(dir, 10, BashLibrary.sidecarSupervisor(), "worker-0", "50051", "30", "e.log", "s.log", "3", "true", "true");
    assertThat(r.code()).isEqualTo(2);
    assertThat(r.output()).contains("usage: srt-sidecar-supervisor");
    assertThat(Bash.script(dir, 10, BashLibrary.sidecarSupervisor(), "worker-0", "50051", "30", "e.log", "s.log", "x", "true", "true").code())
        .isEqualTo(2);
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
