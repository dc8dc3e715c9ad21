package dev.srt.operator.emulator;

import static dev.srt.operator.emulator.HttpTestClient.get;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.BufferedReader;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.io.PrintStream;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import dev.srt.operator.testinfra.TestHosts;

/**
 * The nats-server stand-in (client protocol greeting and PING, the monitoring port, the JetStream
 * API's account request) and the emulated Dynamo processes' NATS connection, against the stand-in
 * and Debian's nats-server, on ephemeral ports.
 */
class NatsServerIT {
  @TempDir Path tmp;
  private final EmulatedFleet fleet = new EmulatedFleet();

  @AfterEach
  void stop() {
    fleet.close();
  }

  @Test
  void greetsWithInfoAnswersPingAndServesHealthz() throws Exception {
    NatsServer nats = fleet.start(new NatsServer(NatsServer.Options.parse(List.of("-js", "-a", "127.0.0.1", "-p", "0",
        "-m", "0", "-sd", tmp.resolve("nats").toString(), "-P", tmp.resolve("nats.pid").toString()), Map.of()),
        EmulatedFleet.QUIET));
    assertThat(Files.isDirectory(tmp.resolve("nats/jetstream"))).isTrue();
    assertThat(Files.readString(tmp.resolve("nats.pid"))).isEqualTo(Long.toString(ProcessHandle.current().pid()));

    try (Socket s = new Socket("127.0.0.1", nats.clientPort());
        BufferedReader in = new BufferedReader(new InputStreamReader(s.getInputStream(), StandardCharsets.UTF_8));
        OutputStream out = s.getOutputStream()) {
      char[] head = new char[5];
      assertThat(in.read(head)).isEqualTo(5);
      assertThat(new String(head)).isEqualTo("INFO ");
      String info = in.readLine();
      JsonNode greeting = Json.parse(info);
      assertThat(greeting.path("server_id").asText()).startsWith("N").hasSize(56);
      assertThat(greeting.path("version").asText()).isEqualTo(NatsServer.VERSION);
      assertThat(greeting.path("port").asInt()).isEqualTo(nats.clientPort());
      assertThat(greeting.path("jetstream").asBoolean()).isTrue();
      assertThat(greeting.path("max_payload").asInt()).isEqualTo(1 << 20);

      out.write("CONNECT {\"verbose\":true,\"pedantic\":false}\r\nPING\r\nPUB a.b 5\r\nhello\r\nPING\r\n"
          .getBytes(StandardCharsets.UTF_8));
      out.flush();
      assertThat(List.of(in.readLine(), in.readLine(), in.readLine(), in.readLine())).containsExactly("+OK", "PONG", "+OK", "PONG");

      String mon = "http://127.0.0.1:" + nats.monitorPort();
      assertThat(get(mon + "/healthz").json().path("status").asText()).isEqualTo("ok");
      JsonNode varz = get(mon + "/varz").json();
      assertThat(varz.path("connections").asInt()).isEqualTo(1);
      assertThat(varz.path("in_msgs").asInt()).isEqualTo(1);
      assertThat(varz.path("jetstream").path("config").path("store_dir").asText()).isEqualTo(tmp.resolve("nats/jetstream").toString());

      out.write("NONSENSE\r\n".getBytes(StandardCharsets.UTF_8));
      out.flush();
      assertThat(in.readLine()).isEqualTo("-ERR 'Unknown Protocol Operation'");
      assertThat(in.readLine()).isNull();
    }
  }

  @Test
  void dynamoProcessesConnectAskForJetStreamAndStayConnectedUntilTheyStop() throws Exception {
    NatsServer nats = fleet.start(new NatsServer(NatsServer.Options.parse(List.of("-js", "-a", "127.0.0.1", "-p", "0", "-m", "0",
        "-sd", tmp.resolve("nats").toString()), Map.of()), EmulatedFleet.QUIET));
    connectsAndStaysListed(nats.clientPort(), nats.monitorPort());
    assertThat(NatsConnection.open(Map.of(), "dynamo.frontend", EmulatedFleet.QUIET)).as("no NATS_SERVER, no connection").isNull();

    int closed;
    try (ServerSocket free = new ServerSocket(0)) {
      closed = free.getLocalPort();
    }
    assertThatThrownBy(() -> NatsConnection.open(
            Map.of("NATS_SERVER", "nats://127.0.0.1:" + closed), "dynamo.frontend", EmulatedFleet.QUIET, Duration.ofMillis(300)))
        .isInstanceOf(IOException.class)
        .hasMessageStartingWith("Unable to create DistributedRuntime: failed to connect to NATS at nats://127.0.0.1:" + closed);
  }

  @Test
  void withoutJetStreamADynamoProcessFailsToStart() throws Exception {
    NatsServer nats = fleet.start(new NatsServer(NatsServer.Options.parse(List.of("-a", "127.0.0.1", "-p", "0", "-m", "0"),
        Map.of()), EmulatedFleet.QUIET));
    refusedWithoutJetStream(nats.clientPort());
  }

  /** The same two, against Debian's nats-server: what the stand-in answers is what the real one answers. */
  @Test
  void debiansNatsServerAnswersTheEmulatedProcessesAsTheStandInDoes() throws Exception {
    String server = TestHosts.program("nats-server", "apt-get install nats-server (.ci/install-deps.sh installs it)");
    int port = freePort();
    int monitor = freePort();
    Process js = realServer(server, "-js", "-a", "127.0.0.1", "-p", String.valueOf(port), "-m", String.valueOf(monitor),
        "-sd", tmp.resolve("real-nats").toString());
    try {
      connectsAndStaysListed(port, monitor);
      assertThat(Files.isDirectory(tmp.resolve("real-nats/jetstream"))).isTrue();
    } finally {
      js.destroy();
      js.waitFor();
    }
    int plainPort = freePort();
    int plainMonitor = freePort();
    Process plain = realServer(server, "-a", "127.0.0.1", "-p", String.valueOf(plainPort), "-m", String.valueOf(plainMonitor));
    try {
      refusedWithoutJetStream(plainPort);
    } finally {
      plain.destroy();
      plain.waitFor();
    }
  }

  private Process realServer(String program, String... args) throws Exception {
    List<String> cmd = new java.util.ArrayList<>(List.of(program));
    cmd.addAll(List.of(args));
    Process p = new ProcessBuilder(cmd).redirectErrorStream(true).redirectOutput(tmp.resolve("real-nats.log").toFile()).start();
    String healthz = "http://127.0.0.1:" + cmd.get(cmd.indexOf("-m") + 1) + "/healthz";
    org.awaitility.Awaitility.await().atMost(Duration.ofSeconds(30)).ignoreExceptions()
        .until(() -> get(healthz).status() == 200);
    return p;
  }

  /** A frontend connects, is told JetStream's account, is listed by name in /connz while it runs, and leaves when closed. */
  private static void connectsAndStaysListed(int port, int monitor) throws Exception {
    ByteArrayOutputStream log = new ByteArrayOutputStream();
    String connz = "http://127.0.0.1:" + monitor + "/connz";
    try (NatsConnection c = NatsConnection.open(Map.of("NATS_SERVER", "nats://127.0.0.1:" + port), "dynamo.frontend",
        new PrintStream(log, true, StandardCharsets.UTF_8))) {
      assertThat(c).isNotNull();
      assertThat(log.toString(StandardCharsets.UTF_8))
          .isEqualTo("dynamo.frontend (emulated): connected to NATS at 127.0.0.1:" + port + ", JetStream 0 streams, 0 consumers\n");
      org.awaitility.Awaitility.await().atMost(Duration.ofSeconds(10)).untilAsserted(() ->
          assertThat(get(connz).json().path("connections").findValuesAsText("name")).containsExactly("dynamo.frontend"));
    }
    org.awaitility.Awaitility.await().atMost(Duration.ofSeconds(10)).untilAsserted(() ->
        assertThat(get(connz).json().path("num_connections").asInt()).isZero());
    assertThat(log.toString(StandardCharsets.UTF_8)).as("closed by its process, not lost").doesNotContain("lost the connection");
  }

  private static void refusedWithoutJetStream(int port) {
    assertThatThrownBy(() -> NatsConnection.open(Map.of("NATS_SERVER", "nats://127.0.0.1:" + port), "dynamo.sglang.sidecar",
            EmulatedFleet.QUIET))
        .isInstanceOf(IOException.class)
        .hasMessage("Unable to create DistributedRuntime: NATS at nats://127.0.0.1:" + port
            + " has no JetStream (no responder for $JS.API.INFO; start nats-server with -js)");
  }

  private static int freePort() throws IOException {
    try (ServerSocket s = new ServerSocket(0)) {
      return s.getLocalPort();
    }
  }
}
