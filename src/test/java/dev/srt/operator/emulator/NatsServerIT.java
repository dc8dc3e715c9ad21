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

/** The nats-server stand-in: client protocol greeting and PING, the monitoring port, on ephemeral ports. */
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
  void dynamoProcessesConnectToNatsServerAtStartAndFailWithoutIt() throws Exception {
    NatsServer nats = fleet.start(new NatsServer(NatsServer.Options.parse(List.of("-a", "127.0.0.1", "-p", "0", "-m", "0"),
        Map.of()), EmulatedFleet.QUIET));
    ByteArrayOutputStream log = new ByteArrayOutputStream();
    NatsConnection.check(Map.of("NATS_SERVER", "nats://127.0.0.1:" + nats.clientPort()), "dynamo.frontend",
        new PrintStream(log, true, StandardCharsets.UTF_8));
    assertThat(log.toString(StandardCharsets.UTF_8))
        .isEqualTo("dynamo.frontend (emulated): connected to NATS at 127.0.0.1:" + nats.clientPort() + "\n");
    NatsConnection.check(Map.of(), "dynamo.frontend", EmulatedFleet.QUIET);

    int closed;
    try (ServerSocket free = new ServerSocket(0)) {
      closed = free.getLocalPort();
    }
    assertThatThrownBy(() -> NatsConnection.check(
            Map.of("NATS_SERVER", "nats://127.0.0.1:" + closed), "dynamo.frontend", EmulatedFleet.QUIET,
            Duration.ofMillis(300)))
        .isInstanceOf(IOException.class)
        .hasMessageStartingWith("Unable to create DistributedRuntime: failed to connect to NATS at nats://127.0.0.1:" + closed);
  }
}
