package dev.srt.operator.emulator;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The etcd and nats-server command lines the seed renders, and what the real programs refuse. */
class InfraFlagsTest {
  @TempDir Path tmp;

  @Test
  void goFlagsReadOneAndTwoDashesEqualsFormsAndBooleans() {
    GoFlags f = new GoFlags().value("p", "port").bool("js", "jetstream").value("sd");
    GoFlags.Parsed a = f.parse(List.of("-js", "--port=4223", "-sd", "/x", "rest", "-p", "1"));
    assertThat(a.bool("js")).isTrue();
    assertThat(a.getInt("p", 0)).isEqualTo(4223);
    assertThat(a.get("sd", null)).isEqualTo("/x");
    assertThat(a.rest()).containsExactly("rest", "-p", "1");
    assertThat(f.parse(List.of("--jetstream=false")).bool("js")).isFalse();
    assertThatThrownBy(() -> f.parse(List.of("--bogus"))).hasMessage("flag provided but not defined: -bogus");
    assertThatThrownBy(() -> f.parse(List.of("-p"))).hasMessage("flag needs an argument: -p");
    assertThat(((GoFlags.Error) org.assertj.core.api.Assertions.catchThrowable(() -> f.parse(List.of("-h")))).help()).isTrue();
  }

  @Test
  void etcdAcceptsTheSeedsDirectAndSlurmCommands() {
    EtcdServer.Options direct = EtcdServer.Options.parse(List.of("--data-dir", tmp.resolve("etcd").toString(),
        "--listen-client-urls", "http://127.0.0.1:2379", "--advertise-client-urls", "http://127.0.0.1:2379",
        "--listen-peer-urls", "http://127.0.0.1:2380", "--initial-advertise-peer-urls", "http://127.0.0.1:2380",
        "--initial-cluster", "default=http://127.0.0.1:2380"));
    assertThat(direct.name()).isEqualTo("default");
    assertThat(direct.clientUrls()).extracting(java.net.URI::getPort).containsExactly(2379);
    assertThat(direct.peerUrls()).extracting(java.net.URI::getPort).containsExactly(2380);
    assertThat(direct.dataDir()).isEqualTo(tmp.resolve("etcd"));

    EtcdServer.Options slurm = EtcdServer.Options.parse(List.of("--data-dir", "/tmp/etcd", "--listen-client-urls",
        "http://0.0.0.0:2379", "--advertise-client-urls", "http://10.0.0.7:2379", "--name", "infra"));
    assertThat(slurm.name()).isEqualTo("infra");
    assertThat(EtcdServer.Options.parse(List.of()).dataDir().getFileName().toString()).isEqualTo("default.etcd");
  }

  @Test
  void etcdRefusesWhatRealEtcdRefuses() {
    assertThatThrownBy(() -> EtcdServer.Options.parse(List.of("--listen-client-url", "http://x:1")))
        .isInstanceOf(GoFlags.Error.class).hasMessage("flag provided but not defined: -listen-client-url");
    assertThatThrownBy(() -> EtcdServer.Options.parse(List.of("--listen-client-urls", "http://127.0.0.1:2379")))
        .hasMessage("--advertise-client-urls is required when --listen-client-urls is set explicitly");
    assertThatThrownBy(() -> EtcdServer.Options.parse(List.of("--name", "n1", "--initial-cluster", "default=http://127.0.0.1:2380")))
        .hasMessage("couldn't find local name \"n1\" in the initial cluster configuration");
    assertThatThrownBy(() -> EtcdServer.Options.parse(List.of("--initial-advertise-peer-urls", "http://127.0.0.1:2381",
        "--initial-cluster", "default=http://127.0.0.1:2380"))).hasMessageContaining("missing from --initial-advertise-peer-urls");
    assertThatThrownBy(() -> EtcdServer.Options.parse(List.of("stray"))).hasMessage("'stray' is not a valid flag");

    ByteArrayOutputStream err = new ByteArrayOutputStream();
    assertThat(EtcdServer.main(List.of("--bogus"), new PrintStream(new ByteArrayOutputStream()),
        new PrintStream(err, true, StandardCharsets.UTF_8))).isEqualTo(2);
    assertThat(err.toString(StandardCharsets.UTF_8)).startsWith("flag provided but not defined: -bogus");
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    assertThat(EtcdServer.main(List.of("--version"), new PrintStream(out, true, StandardCharsets.UTF_8), EmulatedFleet.QUIET)).isZero();
    assertThat(out.toString(StandardCharsets.UTF_8)).startsWith("etcd Version: 3.5.17");
  }

  @Test
  void natsServerReadsTheSeedsFlagsAndItsConfigFile() throws Exception {
    NatsServer.Options o = NatsServer.Options.parse(List.of("-js", "-a", "127.0.0.1", "-p", "4222", "-m", "8222",
        "-sd", tmp.resolve("nats").toString()), Map.of());
    assertThat(o.jetStream()).isTrue();
    assertThat(o.port()).isEqualTo(4222);
    assertThat(o.httpPort()).isEqualTo(8222);
    assertThat(o.storeDir()).isEqualTo(tmp.resolve("nats"));

    Path conf = tmp.resolve("nats.conf");
    Files.writeString(conf, "max_payload: 64MB\nport: 4333\njetstream {\n  store_dir: \"/x\"\n}\n");
    NatsServer.Options c = NatsServer.Options.parse(List.of("-c", conf.toString(), "--http_port", "8223"), Map.of());
    assertThat(c.maxPayload()).isEqualTo(64 << 20);
    assertThat(c.port()).isEqualTo(4333);
    assertThat(c.jetStream()).isTrue();
    assertThat(c.httpPort()).isEqualTo(8223);
    assertThat(NatsServer.Options.parse(List.of("--port", "1"), Map.of()).httpPort()).isNull();

    assertThatThrownBy(() -> NatsServer.Options.parse(List.of("--jetstreams"), Map.of()))
        .hasMessage("flag provided but not defined: -jetstreams");
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    assertThat(NatsServer.main(List.of("-v"), Map.of(), new PrintStream(out, true, StandardCharsets.UTF_8), EmulatedFleet.QUIET)).isZero();
    assertThat(out.toString(StandardCharsets.UTF_8)).isEqualTo("nats-server: v2.10.24\n");
  }

  @Test
  void theWorkerReadsSglangsDisaggregationFlags() {
    SglangWorker.Options o = SglangWorker.Options.parse(List.of("--model-path", "/m", "--disaggregation-mode", "prefill",
        "--disaggregation-bootstrap-port", "8999", "--disaggregation-transfer-backend", "nixl",
        "--disaggregation-ib-device", "mlx5_0"), Map.of(), EmulatedFleet.QUIET);
    assertThat(o.disaggregation()).isEqualTo(new Disaggregation.Options("prefill", 8999, "nixl", "mlx5_0", false));
    assertThat(SglangWorker.Options.parse(List.of("--model-path", "/m"), Map.of(), EmulatedFleet.QUIET).disaggregation().mode())
        .isEqualTo("null");
    assertThatThrownBy(() -> SglangWorker.Options.parse(List.of("--model-path", "/m", "--disaggregation-mode", "both"),
        Map.of(), EmulatedFleet.QUIET)).hasMessageContaining("invalid choice: 'both'");
  }
}
